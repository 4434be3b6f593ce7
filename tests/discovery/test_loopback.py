"""Discovery on loopback only: unicast probes to 127.0.0.1, never a broadcast."""
from __future__ import annotations

import asyncio
import os

import pytest

from cartagena_net.discovery import (
    DiscoveryBrowser,
    DiscoveryResponder,
    HostInfo,
    broadcast_targets,
    find_hosts,
    parse_target,
)
from protocol import discovery as wire
from tests.discovery.helpers import loop, reactor, recv, run, udp_client, until, wait

TABLES = [
    {"id": 1, "name": "den", "rules": "jamaica", "seats": 4, "free": 2, "status": "waiting",
     "password": False},
    {"id": 2, "name": "deck", "rules": "tortuga", "seats": 3, "free": 0, "status": "playing",
     "password": True},
]


def summary() -> dict:
    return {"host_id": "host-one", "name": "the den", "tables": TABLES}


def make_responder(**kw) -> DiscoveryResponder:
    """A responder on 127.0.0.1 with an ephemeral UDP port: it never broadcasts."""
    responder = DiscoveryResponder(reactor, summary, tcp_port=4321, interface="127.0.0.1",
                                   udp_port=0, **kw)
    responder.startService()
    return responder


def test_loopback_responder_never_broadcasts():
    assert broadcast_targets("127.0.0.1") == []
    responder = make_responder()
    try:
        assert responder._loop is None
        responder.announce()
        assert responder.announcements == 0
    finally:
        run(wait(responder.stopService()))


def test_probe_gets_unicast_reply_no_larger_than_probe():
    responder = make_responder()
    sock = udp_client()

    async def go():
        probe = wire.Probe()
        data = probe.encode()
        sock.sendto(data, ("127.0.0.1", responder.port))
        got = await recv(sock)
        assert got is not None, "no reply"
        reply, addr = got
        assert addr == ("127.0.0.1", responder.port)
        assert len(reply) <= len(data)
        msg = wire.decode_datagram(reply)
        assert isinstance(msg, wire.Announce)
        assert msg.nonce == probe.nonce
        assert (msg.host_id, msg.name, msg.port) == ("host-one", "the den", 4321)
        assert msg.instance == responder.instance
        assert [t["id"] for t in msg.tables] == [1, 2]

    try:
        run(go())
        assert responder.replies == 1
    finally:
        sock.close()
        run(wait(responder.stopService()))


def test_garbage_is_ignored_and_the_responder_keeps_answering():
    responder = make_responder()
    sock = udp_client()
    announce = wire.Announce(host_id="x", instance="y", name="z", port=1).encode()
    junk = [
        b"",
        b"hello",
        os.urandom(512),
        wire.Probe().encode()[:100],  # truncated probe
        wire.Probe().encode() + b"\0",  # oversized probe
        b"CTGN\x09\x01" + bytes(506),  # unknown version
        announce,  # an announcement is not a question
    ]

    async def go():
        for data in junk:
            sock.sendto(data, ("127.0.0.1", responder.port))
        assert await recv(sock, timeout=1.0) is None
        sock.sendto(wire.Probe().encode(), ("127.0.0.1", responder.port))
        got = await recv(sock)
        assert got is not None and isinstance(wire.decode_datagram(got[0]), wire.Announce)

    try:
        run(go())
        assert responder.replies == 1
    finally:
        sock.close()
        run(wait(responder.stopService()))


def test_instance_changes_on_restart():
    responder = make_responder()
    first = responder.instance
    run(wait(responder.stopService()))
    responder.startService()
    try:
        assert responder.instance != first
    finally:
        run(wait(responder.stopService()))


def test_find_hosts_by_unicast_target():
    responder = make_responder()
    try:
        hosts = run(wait(find_hosts(reactor, timeout=1.0, broadcast=False,
                                    targets=[f"127.0.0.1:{responder.port}"])))
    finally:
        run(wait(responder.stopService()))
    assert len(hosts) == 1
    host = hosts[0]
    assert isinstance(host, HostInfo)
    assert host.address == "127.0.0.1"  # the datagram's source address
    assert (host.host_id, host.name, host.port, host.version) == ("host-one", "the den", 4321, 1)
    assert host.instance == responder.instance
    assert host.free_seats == 2


def test_browser_list_appears_and_expires():
    responder = make_responder()
    changes: list[list[HostInfo]] = []
    browser = DiscoveryBrowser(reactor, changes.append, broadcast=False, expiry=1.0,
                               probe_interval=0.2, targets=[("127.0.0.1", responder.port)])

    async def go():
        await wait(browser.start())
        await until(lambda: changes and changes[-1])
        assert [h.name for h in changes[-1]] == ["the den"]
        await wait(responder.stopService())
        await until(lambda: changes[-1] == [], timeout=30)
        # The host comes back with a new instance: it appears again.
        responder.startService()
        browser.targets = []
        browser._resolved = [("127.0.0.1", responder.port)]
        await until(lambda: changes[-1] and changes[-1][0].instance == responder.instance)

    try:
        run(go())
    finally:
        run(wait(browser.stop()))
        if responder.running:
            run(wait(responder.stopService()))


def test_browser_drops_replies_to_probes_it_did_not_send():
    changes: list[list[HostInfo]] = []
    browser = DiscoveryBrowser(reactor, changes.append, broadcast=False, targets=[])
    sock = udp_client()

    async def go():
        await wait(browser.start())
        port = browser._probe_port.getHost().port
        forged = wire.reply_for(wire.Probe(), wire.Announce(host_id="evil", instance="1",
                                                            name="evil", port=1))
        sock.sendto(forged, ("127.0.0.1", port))
        sock.sendto(b"nonsense", ("127.0.0.1", port))
        await asyncio.sleep(0.5)
        assert browser.host_list() == []
        # A plain announcement (as broadcast by hosts) is accepted.
        sock.sendto(wire.Announce(host_id="ok", instance="2", name="fine", port=2).encode(),
                    ("127.0.0.1", port))
        await until(lambda: browser.host_list())
        assert browser.host_list()[0].name == "fine"
        assert browser.host_list()[0].address == "127.0.0.1"

    try:
        run(go())
    finally:
        sock.close()
        run(wait(browser.stop()))


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10.0.0.5", ("10.0.0.5", 41672)), ("10.0.0.5:99", ("10.0.0.5", 99)),
     (("1.2.3.4", 5), ("1.2.3.4", 5)), (" host.lan:7 ", ("host.lan", 7))],
)
def test_parse_target(text, expected):
    assert parse_target(text) == expected


@pytest.mark.parametrize("bad", ["", ":5", "1.2.3.4:x", "1.2.3.4:0", "1.2.3.4:70000"])
def test_parse_target_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        parse_target(bad)


def list_command(*args: str) -> tuple[int, str, str]:
    """Run ``cartagena list ARGS`` while the loop (and the responder) keeps running."""
    import sys

    from tests.netns import child_env

    async def go():
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cartagena_net", "list", *args, env=child_env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        return proc.returncode, out.decode(), err.decode()

    return run(go(), timeout=150)


def test_list_command_finds_a_loopback_host():
    import json

    responder = make_responder()
    try:
        target = f"127.0.0.1:{responder.port}"
        code, out, err = list_command("--to", target, "--no-broadcast", "--json",
                                      "--timeout", "1")
        assert code == 0, err
        found = json.loads(out)
        assert len(found) == 1
        assert found[0]["name"] == "the den" and found[0]["address"] == "127.0.0.1"
        assert found[0]["port"] == 4321 and found[0]["free_seats"] == 2
        assert found[0]["version"] == 1 and len(found[0]["tables"]) == 2
        code, out, err = list_command("--to", target, "--no-broadcast", "--timeout", "1")
        assert code == 0, err
        assert "the den  127.0.0.1:4321  2 tables, 2 free seats" in out
        assert "table 2: deck  tortuga  playing  0/3 free  (password)" in out
    finally:
        run(wait(responder.stopService()))


def test_list_command_rejects_bad_input():
    code, _, err = list_command("--no-broadcast")
    assert code == 2 and "--to" in err
    code, _, err = list_command("--to", "1.2.3.4:notaport", "--no-broadcast")
    assert code == 2 and "bad port" in err


def test_big_summary_is_trimmed_to_the_probe_size():
    big = [{"id": i, "name": "x" * 32, "rules": "studiogiochi-2017", "seats": 5, "free": 5,
            "status": "waiting", "password": False} for i in range(40)]
    responder = DiscoveryResponder(reactor, lambda: {"host_id": "h" * 64, "name": "n" * 64,
                                                     "tables": big},
                                   tcp_port=1, interface="127.0.0.1", udp_port=0)
    responder.startService()
    sock = udp_client()

    async def go():
        data = wire.Probe().encode()
        sock.sendto(data, ("127.0.0.1", responder.port))
        got = await recv(sock)
        assert got is not None
        assert len(got[0]) <= len(data)
        msg = wire.decode_datagram(got[0])
        assert isinstance(msg, wire.Announce) and 0 < len(msg.tables) < 40

    try:
        run(go())
    finally:
        sock.close()
        run(wait(responder.stopService()))


def test_replies_are_rate_limited():
    from cartagena_net.discovery import responder as module

    responder = make_responder()
    sock = udp_client()
    sent = 300

    async def go():
        data = wire.Probe().encode()
        count = 0
        start = loop().time()
        for _ in range(sent // 20):  # small batches: no socket buffer overflows
            for _ in range(20):
                sock.sendto(data, ("127.0.0.1", responder.port))
            while await recv(sock, timeout=0.05) is not None:
                count += 1
        elapsed = loop().time() - start
        while await recv(sock, timeout=0.3) is not None:
            count += 1
        return count, elapsed

    try:
        count, elapsed = run(go())
    finally:
        sock.close()
        run(wait(responder.stopService()))
    allowed = module.REPLY_BURST + module.REPLY_RATE * (elapsed + 0.3) + 5
    assert count >= min(50, allowed)
    assert count <= allowed, (count, elapsed)  # without a limit: all 300 (in < 4 s)
