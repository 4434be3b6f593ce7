"""The document is enough: a client written from docs/protocol.md plays on a real host.

The host runs in a child process on 127.0.0.1 (ephemeral port, no discovery).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .doc_client import DocClient

ROOT = Path(__file__).resolve().parents[2]
HOST = textwrap.dedent("""
    from cartagena_net.loop import install_reactor
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
