"""The document is enough: a client written from docs/protocol.md plays on a real host.

The host runs in a child process on 127.0.0.1 (ephemeral port, no discovery).
"""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import msgpack
import pytest

from .doc_client import DocClient, check_state

ROOT = Path(__file__).resolve().parents[2]
HOST = textwrap.dedent("""
    from cartagena_net.cli.loop import install_reactor
    reactor = install_reactor()
    from cartagena_net.host import HostConfig, HostService
    host = HostService(HostConfig(name="doc", port=0, bind="127.0.0.1", bot_delay=0), reactor)
    host.startService()
    table = host.create_table("doc", "jamaica", {"players": 2}, bots=1, bot_kind="random")
    print(host.port, table, flush=True)
    reactor.run()
""")


@pytest.fixture
def host_port():
    proc = subprocess.Popen([sys.executable, "-c", HOST], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        assert line, "host did not start"
        port, table = (int(x) for x in line.split())
        yield port, table
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_doc_client_plays_against_the_host(host_port):
    port, table = host_port
    c = DocClient(port)
    try:
        # optional fields left out: they default (section 3)
        c.send({"type": "hello", "versions": [1], "name": "doc"})
        welcome = c.recv_type("welcome")
        assert welcome["version"] == 1 and welcome["resumed"] is None
        lobby = c.recv_type("lobby")
        entry = next(t for t in lobby["tables"] if t["id"] == table)
        free = [s["seat"] for s in entry["seats"] if s["name"] is None and s["bot"] is None]
        assert free

        c.send({"type": "join_table", "table": table})
        joined = c.recv_type("joined")
        assert joined["table"] == table and joined["seat"] in free
        assert isinstance(joined["token"], str)

        c.send({"type": "start", "table": table})
        state = c.recv_type("state")
        while not state["legal"]:
            state = c.recv_type("state")
        assert state["view"]["actor"] == joined["seat"]
        assert len(state["lines"]) == len(state["events"])

        # a stale seq is refused, not fatal, and nothing changes
        c.send({"type": "action", "table": table, "seq": state["seq"] + 100,
                "action": state["legal"][0]})
        err = c.recv_type("error")
        assert (err["code"], err["fatal"], err["ref"]) == ("stale", False, "action")

        c.send({"type": "action", "table": table, "seq": state["seq"],
                "action": state["legal"][0]})
        after = c.recv_type("state", "error")
        assert after["type"] == "state" and after["seq"] > state["seq"]

        # unknown types are answered, not fatal (section 7)
        c.send({"type": "teleport", "to": "boat"})
        err = c.recv_type("error")
        assert (err["code"], err["fatal"]) == ("unknown-type", False)

        c.send({"type": "ping", "nonce": 4242})
        assert c.recv_type("pong")["nonce"] == 4242

        c.send({"type": "leave", "table": table})
        c.send({"type": "bye", "reason": "done"})
        with pytest.raises((EOFError, ConnectionError)):
            while True:
                msg = c.recv()
                assert msg["type"] != "state" or msg["table"] == table
    finally:
        c.close()


def test_doc_client_sees_fatal_errors_for_bad_frames(host_port):
    port, _ = host_port
    c = DocClient(port)
    try:
        c.sock.sendall((2**31).to_bytes(4, "big"))
        err = c.recv_type("error")
        assert (err["code"], err["fatal"]) == ("frame-too-large", True)
        with pytest.raises((EOFError, ConnectionError)):
            c.recv()
    finally:
        c.close()
    c = DocClient(port)
    try:
        c.send({"type": "hello", "versions": [7, 8], "name": "future"})
        err = c.recv_type("error")
        assert (err["code"], err["fatal"]) == ("no-common-version", True)
    finally:
        c.close()


def _entry(lobby, table):
    return next(t for t in lobby["tables"] if t["id"] == table)


def _advance_first(legal, rng):
    moves = [a for a in legal if a.startswith("advance")]
    return rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(legal)


def _my_turn(c, me, state=None):
    """``state``, or the next one, in which ``me`` is to act (or the game is over)."""
    while state is None or not (state["legal"] or state["view"]["outcome"] is not None):
        state = c.recv_type("state")
        check_state(state, me)
    return state


def test_doc_claims_hold_on_a_real_host(host_port):
    """Section 4's answers, checked by the client written from the document alone."""
    port, table = host_port
    rng = random.Random(8)
    a, b = DocClient(port), DocClient(port)
    try:
        assert a.hello("ann")["type"] == "welcome"
        lobby = a.recv_type("lobby")
        # a headless host's first table (bots only) has no owner until someone sits
        assert _entry(lobby, table)["owner"] is None
        assert b.hello("bob")["type"] == "welcome"
        b.recv_type("lobby")

        # a client's non-fatal error is not answered: the next answer is the pong
        a.send({"type": "error", "code": "confused", "message": "just saying", "fatal": False})
        a.send({"type": "ping", "nonce": 1})
        assert not [m for m in a.until("pong") if m["type"] == "error"]

        a.send({"type": "join_table", "table": table})
        me = a.recv_type("joined")["seat"]
        assert _entry(a.recv_type("lobby"), table)["owner"] == me

        # chat with table nil reaches the lobby only: bob gets it, ann (at a table) not
        a.send({"type": "chat", "table": None, "text": "ahoy"})
        chat = b.recv_type("chat")
        assert (chat["text"], chat["sender"], chat["table"]) == ("ahoy", "ann", None)
        a.send({"type": "ping", "nonce": 2})
        assert not [m for m in a.until("pong") if m["type"] == "chat"]

        a.send({"type": "start", "table": table})
        state = _my_turn(a, me)
        assert len(state["events"]) <= 20
        # verbs in any case; a Unicode digit is bad-action; an unknown card illegal-action
        for text, code in (("advance ² key", "bad-action"), ("retreat ①", "bad-action"),
                           ("morgan ٣ 1", "bad-action"), ("advance 0 kraken", "illegal-action")):
            a.send({"type": "action", "table": table, "seq": state["seq"], "action": text})
            err = a.recv_type("error")
            assert (err["code"], err["fatal"], err["ref"]) == (code, False, "action"), text
        a.send({"type": "action", "table": table, "seq": state["seq"],
                "action": state["legal"][0].upper()})
        after = a.recv_type("state", "error")
        assert after["type"] == "state" and after["seq"] == state["seq"] + 1, after
        check_state(after, me)
        state = after
        for _ in range(6):  # a few more moves, so that events pile up
            state = _my_turn(a, me, state)
            if state["view"]["outcome"] is not None:
                break
            a.send({"type": "action", "table": table, "seq": state["seq"],
                    "action": _advance_first(state["legal"], rng)})
            state = None
        token = a.received[[m["type"] for m in a.received].index("joined")]["token"]

        # after leave mid-game, join_table does not bring the seat back; a hello does
        a.send({"type": "leave", "table": table})
        a.send({"type": "join_table", "table": table})
        err = a.recv_type("error")
        assert (err["code"], err["fatal"]) == ("already-started", False)
        a.send({"type": "bye", "reason": "back soon"})
        a.close()
        a = DocClient(port)
        welcome = a.hello("ann", token=token)
        assert welcome["resumed"] == {"table": table, "seat": me}
        state = a.recv_type("state")
        check_state(state, me)
        assert 0 < len(state["events"]) <= 20
        while state["view"]["outcome"] is None:
            if state["legal"]:
                time.sleep(0.012)  # under the documented 100 messages a second
                a.send({"type": "action", "table": table, "seq": state["seq"],
                        "action": _advance_first(state["legal"], rng)})
            state = a.recv_type("state")
            check_state(state, me)
        last = state["seq"]
        # play again: seq goes on
        a.send({"type": "start", "table": table})
        again = a.recv_type("state")
        assert again["seq"] == last + 1 and again["view"]["outcome"] is None

        # a spectator never sits: not with a token, not by join_table without spectate
        s = DocClient(port)
        err = s.hello("eve", role="spectator", token=token)
        assert (err["type"], err["code"], err["fatal"]) == ("error", "not-allowed", True)
        s.close()
        s = DocClient(port)
        assert s.hello("eve", role="spectator")["type"] == "welcome"
        s.send({"type": "join_table", "table": table, "seat": 0})
        err = s.recv_type("error")
        assert (err["code"], err["fatal"]) == ("not-allowed", False)
        s.send({"type": "join_table", "table": table, "spectate": True})
        assert s.recv_type("joined")["seat"] is None
        watched = s.recv_type("state")
        check_state(watched, None)
        assert len(watched["events"]) <= 20
        s.close()
    finally:
        a.close()
        b.close()


def test_doc_limits_hold_on_a_real_host(host_port):
    """Section 1's numbers: 5 s handshake and frame deadlines, bursts of 200 messages,
    and section 2's not-a-map for an integer key."""
    port, _ = host_port
    silent, trickle, flood, intkey = (DocClient(port) for _ in range(4))
    try:
        started = time.monotonic()
        assert trickle.hello("slow")["type"] == "welcome"
        trickle.sock.sendall(b"\x00\x00")  # half a header, then nothing

        assert intkey.hello("int")["type"] == "welcome"
        intkey.send({"type": "chat", "text": "x", 1: 2})
        err = intkey.recv_type("error")
        assert (err["code"], err["fatal"]) == ("not-a-map", True)

        assert flood.hello("flood")["type"] == "welcome"
        ping = msgpack.packb({"type": "ping", "nonce": 3})
        flood.sock.sendall((len(ping).to_bytes(4, "big") + ping) * 260)
        pongs = 0
        while True:
            msg = flood.recv()
            if msg["type"] == "pong":
                pongs += 1
            elif msg["type"] == "error":
                break
        assert (msg["code"], msg["fatal"]) == ("rate-limited", True)
        assert 200 <= pongs + 1 < 230, pongs  # the hello took a token too

        err = silent.recv_type("error")
        assert (err["code"], err["fatal"]) == ("handshake-timeout", True)
        err = trickle.recv_type("error")
        assert (err["code"], err["fatal"]) == ("idle-timeout", True)
        assert time.monotonic() - started >= 4.5
    finally:
        for c in (silent, trickle, flood, intkey):
            c.close()
