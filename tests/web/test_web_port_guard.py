"""The web port answers its own host only, over a real socket: a ``Host`` that does not
name this host (DNS rebinding) reaches no route, pages and streams included; another
origin reaches nothing; a seat token in a request body never opens a seat, whatever the
role; a deeply nested body is refused before it is decoded."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from cartagena_net.web.hostcheck import (
    HostNames,
    interface_addresses,
    split_host,
    valid_name,
)
from cartagena_net.web.pages import STATIC_TYPES
from tests.host.helpers import join
from tests.twisted_loop import WAIT, make_host, run, stop_host, until
from tests.web.http import Chunks, read_head
from tests.web.test_seats import OPTIONS, Guest, guest_conn, post

ROUTES = ["/", "/tables.json", "/events", "/table/1", "/table/1/events", "/games.json",
          "/game/20260101-000000-abcdef", "/game/20260101-000000-abcdef.json", "/play",
          "/play/", "/play/events", "/play/rules.json", "/play/qr.svg", "/play/address", "/nope",
          "/i18n.js",
          *[f"/static/{name}" for name in STATIC_TYPES]]


async def raw(port: int, head: list[str], body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these header lines; (status, headers, body so far)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        status, headers = await read_head(reader)
        if head[0].startswith("HEAD") or headers.get("content-type", "").startswith(
                "text/event-stream"):
            return status, headers, b""
        rest = await asyncio.wait_for(reader.read(), WAIT)
        if headers.get("transfer-encoding") == "chunked":
            rest = Chunks().feed(rest)
        return status, headers, rest
    finally:
        writer.close()


def web_host(**overrides: Any):
    settings = {"web_port": 0, "bot_delay": 0.0}
    settings.update(overrides)
    return make_host(**settings)


def test_a_host_name_that_is_not_this_hosts_reaches_no_route():
    host = web_host(web_hosts=("tv.lan",))
    tid = host.create_table("bots", "jamaica", OPTIONS, bots=3, bot_kind="greedy")
    host.lobby.tables[tid].start(None)

    async def go():
        port = host.web.port
        for path in ROUTES:
            for method in ("GET", "HEAD"):
                for bad in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example",
                            "localhost.evil.example", "127.0.0.1:x", "[::1", "tv.lan.evil",
                            "évil", ""):
                    status, headers, body = await raw(port, [
                        f"{method} {path} HTTP/1.1", f"Host: {bad}", "Connection: close"])
                    assert status == 421, (method, path, bad, status)
                    assert headers["x-cartagena-refused"] == "wrong-host"
                    if method == "GET":
                        assert b"--web-host NAME" in body, body
                # No Host at all, or two of them: refused too.
                for hosts in ([], ["Host: 127.0.0.1", "Host: evil.example"]):
                    status, _, _ = await raw(port, [f"{method} {path} HTTP/1.1", *hosts,
                                                    "Connection: close"])
                    assert status == 421, (method, path, hosts)
        # The names and addresses of this host are answered (and its event streams open).
        good = ["127.0.0.1", f"127.0.0.1:{port}", "127.9.9.9", "localhost", f"LOCALHOST:{port}",
                "[::1]", f"[::1]:{port}", "tv.lan", "TV.lan.", *sorted(host.web.hostnames.names)]
        others = sorted(a for a in interface_addresses() if not a.startswith("127."))
        good += [f"[{a}]" if ":" in a else a for a in others[:3]]
        for name in good:
            for path in ("/", "/events", "/play/events", "/table/1/events", "/play/qr.svg"):
                status, _, _ = await raw(port, [f"GET {path} HTTP/1.1", f"Host: {name}",
                                                "Connection: close"])
                assert status == 200, (name, path, status)
        # A POST with another Host is refused before anything is read from it.
        guest = await Guest(port).open()
        hello = json.dumps({"type": "hello", "versions": [1], "name": "eve",
                            "role": "player"}).encode()
        headers = {k: v for k, v in guest.headers(Origin="http://evil.example").items()}
        head = ["POST /play/send HTTP/1.1", "Host: evil.example", "Connection: close",
                f"Content-Length: {len(hello)}", *[f"{k}: {v}" for k, v in headers.items()]]
        status, _, body = await raw(port, head, hello)
        assert status == 421 and json.loads(body)["reason"] == "wrong-host"
        assert not guest_conn(host, guest).welcomed
        guest.close()

    try:
        run(go(), timeout=240)
    finally:
        run(stop_host(host))


def test_another_origin_reaches_no_route_and_no_stream():
    host = web_host()

    async def go():
        port = host.web.port
        for path in ("/events", "/play/events", "/tables.json", "/", "/play/rules.json"):
            for origin in ("http://evil.example", "null", "http://127.0.0.1.evil.example",
                           "http://127.0.0.1:1"):
                status, headers, _ = await raw(port, [
                    f"GET {path} HTTP/1.1", "Host: 127.0.0.1", f"Origin: {origin}",
                    "Connection: close"])
                assert status == 403 and headers["x-cartagena-refused"] == "cross-site", (
                    path, origin, status)
        # Embedded by another site without an Origin (an <img>, a <script>): refused too;
        # a link followed from another site to a page is not.
        for path in ("/events", "/play/events", "/tables.json", "/play/qr.svg"):
            for mode in ("no-cors", "cors", "same-origin"):
                status, headers, _ = await raw(port, [
                    f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Sec-Fetch-Site: cross-site",
                    f"Sec-Fetch-Mode: {mode}", "Connection: close"])
                assert status == 403 and headers["x-cartagena-refused"] == "cross-site", (
                    path, mode, status)
        for path in ("/", "/play", "/table/1"):
            status, _, _ = await raw(port, [
                f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Sec-Fetch-Site: cross-site",
                "Sec-Fetch-Mode: navigate", "Connection: close"])
            assert status in (200, 404), (path, status)
        assert not host.web.sessions  # no play stream was opened for another site
        status, _, _ = await raw(port, ["GET /events HTTP/1.1", "Host: 127.0.0.1",
                                        "Origin: http://127.0.0.1", "Connection: close"])
        assert status == 200

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


@pytest.mark.parametrize("role", [None, "player", "spectator", "absent", "bogus"])
def test_a_seat_token_in_a_body_never_opens_a_seat(role):
    host = web_host()

    async def go():
        port = host.web.port
        ann, _ = await join(host.port, "ann")
        tid = host.create_table("t", "jamaica", OPTIONS, bots=0)
        table = host.lobby.tables[tid]
        owner = await Guest(port).open()
        await owner.send({"type": "hello", "versions": [1], "name": "zoe", "role": "player"})
        await owner.msg("welcome")
        await owner.send({"type": "join_table", "table": tid, "spectate": False})
        sat = await owner.msg("joined")
        token = table.seats[sat["seat"]].token
        assert token
        # Another device (no cookie) sends the seat's token in its body, in every way.
        thief = await Guest(port).open()
        hello: dict[str, Any] = {"type": "hello", "versions": [1], "name": "eve",
                                 "token": token}
        if role != "absent":
            hello["role"] = role
        status, _ = await thief.send(hello)
        assert status == 200
        first = await thief.msg("welcome") if role in ("player", "spectator", "absent") else \
            await thief.stream.event("msg")
        if isinstance(first, dict):
            assert first.get("resumed") is None, first
        # Then as a field of other messages: nothing takes the seat either.
        for msg in ({"type": "join_table", "table": tid, "spectate": False, "token": token},
                    {"type": "hello", "versions": [1], "name": "eve", "role": "player",
                     "token": token}):
            await thief.send(msg)
        await asyncio.sleep(0.3)
        seat = table.seats[sat["seat"]]
        assert seat.token == token and seat.conn is guest_conn(host, owner), (
            "the owner's seat moved")
        assert not any(m.get("code") == "resumed-elsewhere" for m in owner.msgs)
        thief.close()
        owner.close()
        ann.close()

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


def test_deeply_nested_json_is_refused_before_decoding():
    host = web_host()

    async def go():
        port = host.web.port
        guest = await Guest(port).open()
        for body in (b"[" * 3000 + b"]" * 3000, b'{"type": "hello", "x": ' + b"[" * 3000
                     + b"]" * 3000 + b"}", b'{"type": "x", "a": ' + b'{"b": ' * 9 + b"1"
                     + b"}" * 10, b"[" * 8000):
            status, _, answer = await post(port, "/play/send", body, guest.headers())
            assert status == 400 and answer["reason"] == "bad-json", (status, answer)
        # Brackets inside strings are not nesting; a message nested a few deep still goes.
        status, answer = await guest.send({"type": "hello", "versions": [1], "role": "player",
                                           "name": "[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{"})
        assert status == 200, answer
        await guest.msg("welcome")
        await until(lambda: guest_conn(host, guest).welcomed, "the guest welcomed")
        guest.close()

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


def test_host_names_unit():
    reads: list[int] = []
    now = [0.0]
    addrs = {"192.168.1.5"}

    def addresses() -> set[str]:
        reads.append(1)
        return set(addrs)
    names = HostNames(["Party.Lan", "10.0.0.9"], "", addresses, lambda: now[0])
    assert names.allows(b"192.168.1.5:41673") and names.allows(b"party.lan")
    assert names.allows(b"10.0.0.9") and names.allows(b"127.3.4.5") and names.allows(b"[::1]:1")
    assert not names.allows(b"192.168.1.6") and len(reads) == 1  # read again only later
    addrs.add("192.168.1.6")  # a new lease
    assert not names.allows(b"192.168.1.6")
    now[0] = 10.0
    assert names.allows(b"192.168.1.6") and len(reads) == 2
    for bad in (b"", None, b"evil.example", b"192.168.1.5.evil", b"party.lan:80:80",
                b"[fe80::1%eth0]", b"x" * 400, "é".encode()):
        assert not names.allows(bad), bad
    assert split_host(b"[::1]:8080") == ("::1", True)
    for bad_name in ("", "a b", "évil", "-x", "x" * 300):
        with pytest.raises(ValueError):
            valid_name(bad_name)


def test_the_web_host_option_is_repeatable_and_checked():
    import argparse

    from cartagena_net.cli import host as host_cli

    parser = argparse.ArgumentParser()
    host_cli.add_arguments(parser)
    args = parser.parse_args(["--web-host", "TV.lan", "--web-host", "192.168.1.20"])
    assert args.web_host == ["tv.lan", "192.168.1.20"]
    assert host_cli.build_config(args).web_hosts == ("tv.lan", "192.168.1.20")
    with pytest.raises(SystemExit):
        parser.parse_args(["--web-host", "not a name"])


def test_finished_games_sit_behind_the_host_password(tmp_path):
    """The list of finished games and a replay's data are the lobby's kind of data: a
    browser without the host's password reads neither (the replay's page asks for it)."""
    from tests.web.http import fetch

    host = web_host(password="harbour-pass", guess_free=1000, records_dir=str(tmp_path))

    async def go():
        port = host.web.port
        for path in ("/games.json", "/game/20260101-000000-abcdef.json"):
            r = await fetch(port, path)
            assert r.status == 403 and r.header("x-cartagena-refused") == "host-password", path
            r = await fetch(port, path, cookies={"cartagena_host": "harbour-pass"})
            assert r.status in (200, 404), (path, r.status)
        r = await fetch(port, "/game/20260101-000000-abcdef")  # the page: it asks itself
        assert r.status == 200 and b"password-form" in r.body

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_a_request_too_large_to_read_is_answered_with_why():
    """Too long an address or header, or a body announced over the cap: each answered
    (414, 431, 413, with the status line's own words) and closed, at once (a body is
    not waited for), never just dropped; a foreign Host's 421 says its own words too."""
    host = web_host()

    async def status_line(head: list[str], body: bytes = b"") -> tuple[bytes, dict, bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.web.port)
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            first = await asyncio.wait_for(reader.readuntil(b"\r\n"), 5)
            rest = await asyncio.wait_for(reader.read(), 5)  # then closed
            head_text, _, text = rest.partition(b"\r\n\r\n")
            headers = dict(line.split(": ", 1) for line in
                           head_text.decode("latin-1").lower().split("\r\n") if ": " in line)
            return first.strip(), headers, text
        finally:
            writer.close()

    async def go():
        port = host.web.port
        first, headers, text = await status_line(
            [f"GET /{'a' * 20000} HTTP/1.1", f"Host: 127.0.0.1:{port}"])
        assert first == b"HTTP/1.1 414 Request-URI Too Long", first
        assert b"too long" in text and headers["x-cartagena-refused"] == "too-long"
        first, _, text = await status_line(
            ["GET / HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Cookie: c={'x' * 20000}"])
        assert first == b"HTTP/1.1 431 Request Header Fields Too Large", first
        # 100 MB announced, 10 bytes sent: refused without waiting for the rest.
        first, headers, text = await status_line(
            ["POST /play/send HTTP/1.1", f"Host: 127.0.0.1:{port}",
             "Content-Type: application/json", "Content-Length: 100000000"], b"{" * 10)
        assert first == b"HTTP/1.1 413 Request Entity Too Large", first
        assert headers["content-type"] == "application/json"
        assert json.loads(text)["reason"] == "too-large"
        first, _, _ = await status_line(["GET / HTTP/1.1", "Host: evil.example", "Connection: close"])
        assert first == b"HTTP/1.1 421 Misdirected Request", first
        # And the port serves on.
        status, _, _ = await raw(port, ["GET / HTTP/1.1", f"Host: 127.0.0.1:{port}",
                                        "Connection: close"])
        assert status == 200

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))
