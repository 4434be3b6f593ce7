"""The web view over real HTTP on 127.0.0.1: methods, paths, types, CSP, passwords,
limits, --no-spectators, and the stream's fan-out."""
from __future__ import annotations

import asyncio
import re
import socket

import pytest

from cartagena_net.web.pages import PAGES as PAGE_NAMES
from cartagena_net.web.pages import STATIC_TYPES, package_file
from tests.host.helpers import WireClient
from tests.twisted_loop import make_host, run, stop_host, until
from tests.web.http import event_data, fetch, open_stream

PAGES = ["/", "/table/1", "/tables.json", "/events", "/table/1/events",
         *[f"/static/{name}" for name in STATIC_TYPES]]


def web_host(**overrides):
    settings = {"web_port": 0, "bot_delay": 3600.0}
    settings.update(overrides)
    host = make_host(**settings)
    return host


def bot_table(host, players=3, password=None, start=True, rules="jamaica"):
    tid = host.create_table("harbour", rules, {"players": players}, bots=players,
                            password=password)
    if start:
        host.lobby.tables[tid].start(None)
    return tid


def test_only_get_and_head():
    async def go():
        host = web_host()
        bot_table(host)
        try:
            for path in PAGES + ["/nope"]:
                for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FROB"):
                    r = await fetch(host.web.port, path, method,
                                    body=b"a=1&b=2" if method in ("POST", "PUT") else b"")
                    assert r.status == 405, (method, path, r.status)
                    assert r.header("allow") == "GET, HEAD"
                    assert "default-src 'none'" in r.header("content-security-policy")
        finally:
            await stop_host(host)
    run(go())


def test_content_types_csp_and_head():
    expected = {"/": "text/html", "/table/1": "text/html", "/tables.json": "application/json",
                **{f"/static/{n}": t.split(";")[0] for n, t in STATIC_TYPES.items()}}

    async def go():
        host = web_host()
        bot_table(host)
        try:
            for path, ctype in expected.items():
                r = await fetch(host.web.port, path)
                assert r.status == 200, path
                assert r.header("content-type").split(";")[0] == ctype, path
                assert r.header("x-content-type-options") == "nosniff"
                csp = r.header("content-security-policy")
                assert "default-src 'none'" in csp and "script-src 'self'" in csp
                assert "unsafe" not in csp and "http" not in csp
                assert int(r.header("content-length")) == len(r.body)
                h = await fetch(host.web.port, path, "HEAD")
                assert h.status == 200 and h.body == b""
                assert h.header("content-type") == r.header("content-type")
                assert h.header("content-length") == r.header("content-length")
            for path in ("/events", "/table/1/events"):
                h = await fetch(host.web.port, path, "HEAD")
                assert h.status == 200
                assert h.header("content-type").startswith("text/event-stream")
        finally:
            await stop_host(host)
    run(go())


def test_page_files_load_nothing_from_elsewhere():
    """No inline script or style, no CDN, no external font: only the page's own files."""
    for name in PAGE_NAMES:
        html = package_file(name).decode()
        for attrs, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.DOTALL):
            # The page's own files, and /i18n.js (its words: static/i18n.js after its data).
            assert ('src="/static/' in attrs or 'src="/i18n.js"' in attrs) and body.strip() == ""
        assert " style=" not in html and "<style" not in html
        assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers
        for ref in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert ref.startswith("/"), ref
    for name in [*STATIC_TYPES, *PAGE_NAMES]:
        text = package_file(name).decode()
        urls = set(re.findall(r"https?://[^\s\"'`)]+", text))
        assert urls <= {"http://www.w3.org/2000/svg"}, (name, urls)
        assert "@import" not in text and "@font-face" not in text and "eval(" not in text


def test_unknown_and_crafted_paths_are_404():
    paths = ["/nope", "/static/", "/static", "/static/WEB.CSS", "/static/web.css/x",
             "/static/../server.py", "/static/%2e%2e/server.py", "/static/..%2fserver.py",
             "/static/feed.py", "/static/index.html.bak", "/table", "/table/", "/table/0",
             "/table/01", "/table/abc", "/table/-1", "/table/99", "/table/1/",
             "/table/1/events/x", "/table/1/x", "/cartagena_net/web/server.py",
             "/tables.json/x", "/events/1", "//etc/passwd", "/index.html"]

    async def go():
        host = web_host()
        bot_table(host)
        try:
            for path in paths:
                r = await fetch(host.web.port, path)
                assert r.status == 404, (path, r.status)
                assert b"import" not in r.body and b"def " not in r.body
                assert "default-src 'none'" in r.header("content-security-policy")
        finally:
            await stop_host(host)
    run(go())


def test_the_404_page_speaks_the_browsers_language():
    async def go():
        host = web_host()
        try:
            sv = await fetch(host.web.port, "/nope", cookies={"cartagena_lang": "sv"})
            assert sv.status == 404 and sv.body == b"sidan finns inte\n"
            en = await fetch(host.web.port, "/nope")
            assert en.status == 404 and en.body == b"no such page\n"
        finally:
            await stop_host(host)
    run(go())


def test_host_and_table_passwords():
    async def go():
        # (many wrong cookies from one address: the guess throttle is tested below)
        host = web_host(password="harbour-pass", guess_free=1000)
        open_tid = bot_table(host)
        locked = bot_table(host, password="x y;z=é")
        port = host.web.port
        good = {"cartagena_host": "harbour-pass"}
        try:
            # The pages themselves are served: they ask for the password.
            assert (await fetch(port, "/")).status == 200
            assert (await fetch(port, f"/table/{locked}")).status == 200
            for path in ("/tables.json", "/events", f"/table/{open_tid}/events"):
                for cookies in (None, {"cartagena_host": "wrong"}):
                    for method in ("GET", "HEAD"):
                        r = await fetch(port, path, method, cookies=cookies)
                        assert r.status == 403, (path, cookies)
                        assert r.header("x-cartagena-refused") == "host-password"
                        assert b"event:" not in r.body and b"seats" not in r.body
                r = await fetch(port, path, "HEAD", cookies=good)
                assert r.status == 200, path
            listed = event_data(b"data: " + (await fetch(port, "/tables.json", cookies=good)).body)
            assert "harbour-pass" not in str(listed) and "x y;z" not in str(listed)
            assert [t["password"] for t in listed["tables"]] == [False, True]
            stream = f"/table/{locked}/events"
            r = await fetch(port, stream, "HEAD", cookies=good)
            assert r.status == 403 and r.header("x-cartagena-refused") == "table-password"
            wrong = {**good, f"cartagena_table_{locked}": "x%20y"}
            assert (await fetch(port, stream, "HEAD", cookies=wrong)).status == 403
            right = {**good, f"cartagena_table_{locked}": "x%20y%3Bz%3D%C3%A9"}
            s = await open_stream(port, stream, cookies=right)
            assert s.status == 200
            _, block = await s.event("state")
            assert event_data(block)["view"]["viewer"] == "spectator"
            s.close()
            # Another table's password does not open this one.
            other = {**good, f"cartagena_table_{open_tid}": "x%20y%3Bz%3D%C3%A9"}
            assert (await fetch(port, stream, "HEAD", cookies=other)).status == 403
        finally:
            await stop_host(host)
    run(go())


def test_password_guesses_over_the_web_are_throttled_and_a_restored_password_is_learned():
    from cartagena_net.host.passwords import StoredPassword

    async def go():
        host = web_host(password="harbour-pass", guess_free=2, guess_delay=30)
        # as if restored from a journal: this process has never seen the table's password
        locked = bot_table(host, password="deck")
        table = host.lobby.tables[locked]
        table.password = StoredPassword(table.password.hash)
        port = host.web.port
        good = {"cartagena_host": "harbour-pass"}
        stream = f"/table/{locked}/events"
        try:
            right = {**good, f"cartagena_table_{locked}": "deck"}
            r = await fetch(port, stream, "HEAD", cookies=right)
            # refused while it is checked off the reactor, then let in
            assert r.status == 403 and r.header("x-cartagena-refused") == "table-password"
            for _ in range(100):
                r = await fetch(port, stream, "HEAD", cookies=right)
                if r.status == 200:
                    break
                await asyncio.sleep(0.05)
            assert r.status == 200  # learned: now checked at once
            for _ in range(2):  # the free wrong guesses
                r = await fetch(port, "/tables.json", cookies={"cartagena_host": "nope"})
                assert r.status == 403 and b"wrong" in r.body
            # from now on this address waits: even the right password is refused unchecked
            r = await fetch(port, "/tables.json", cookies=good)
            assert r.status == 403 and b"wait" in r.body
        finally:
            await stop_host(host)
    run(go())


def test_no_spectators_closes_the_web_view_of_the_table():
    async def go():
        host = web_host(spectators=False)
        tid = bot_table(host)
        try:
            for method in ("GET", "HEAD"):
                r = await fetch(host.web.port, f"/table/{tid}/events", method)
                assert r.status == 403 and r.header("x-cartagena-refused") == "no-spectators"
                assert b"view" not in r.body
            lobby = await fetch(host.web.port, "/tables.json")
            assert event_data(b"data: " + lobby.body)["tables"][0]["spectators_allowed"] is False
        finally:
            await stop_host(host)
    run(go())


def test_web_watchers_count_toward_the_connection_limits():
    async def go():
        host = web_host(max_connections=3)
        tid = bot_table(host)
        port = host.web.port
        try:
            streams = [await open_stream(port, f"/table/{tid}/events") for _ in range(3)]
            for s in streams:
                assert s.status == 200
                await s.event("state")
            r = await fetch(port, "/")
            assert r.status == 503 and b"full" in r.body
            # The game port is full too: the web watchers took the places.
            from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

            from tests.twisted_loop import reactor, wait
            client = WireClient()
            await wait(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", host.port), client))
            from protocol import messages

            err = await client.expect(messages.Error)
            assert err.code == "server-full"
            streams.pop().close()
            await until(lambda: host.caps.total < 3, "a place frees up")
            assert (await fetch(port, "/")).status == 200
            for s in streams:
                s.close()
        finally:
            await stop_host(host)
    run(go())


def test_idle_connections_are_dropped():
    async def go():
        host = web_host(web_idle_timeout=0.3)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", host.web.port)
            assert await asyncio.wait_for(reader.read(), 20) == b""  # closed, never answered
            writer.close()
            await until(lambda: host.caps.total == 0, "the idle connection is released")
        finally:
            await stop_host(host)
    run(go())


def test_a_reader_that_does_not_read_is_dropped_and_the_others_go_on():
    async def go():
        host = web_host(web_max_buffer=64 * 1024)
        tid = bot_table(host)
        port = host.web.port
        try:
            stalled = socket.socket()
            stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stalled.connect(("127.0.0.1", port))
            stalled.sendall(f"GET /table/{tid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            good = await open_stream(port, f"/table/{tid}/events")
            await good.event("state")
            await until(lambda: len(host.web.feeds.tables.get(tid, ())) == 2, "both watch")
            from cartagena_net.web.feeds import Frame

            big = Frame.event("state", {"pad": "x" * 60000})
            feed = host.web.feeds.tables[tid]
            for _ in range(200):  # 12 MB: more than any socket buffer holds
                feed.publish(big)
                if len(feed) < 2:
                    break
                await asyncio.sleep(0.005)
                await good.event("state")
            assert len(feed) == 1, "the stalled reader was dropped"
            table = host.lobby.tables[tid]
            table.play.apply(table.state.actor, str(table.state.legal_actions()[0]))
            data = {}
            while "seq" not in data:  # past the padding frames still on their way
                data = event_data((await good.event("state"))[1])
            assert data["seq"] == table.seq
            good.close()
            stalled.close()
        finally:
            await stop_host(host)
    run(go())


def test_updates_are_encoded_once_and_shared():
    """Every watcher of a table gets the very same bytes for each update, pushed live.

    Without live chances: an estimate is made on a worker process as soon as the first
    watcher comes, and lands whenever it is done. One that landed while the five streams
    were being opened made two first views (before it and after it, rightly different),
    and one that landed among the actions put its chances-only update in the place of an
    action's state in some streams: the same bytes for all, but not at the same step.
    The chances' updates are shared alike: test_chances_updates_are_shared_too."""
    async def go():
        host = web_host(live_chances=False)
        tid = bot_table(host)
        table = host.lobby.tables[tid]
        port = host.web.port
        try:
            streams = [await open_stream(port, f"/table/{tid}/events") for _ in range(5)]
            firsts = [await s.event("state") for s in streams]
            assert len({b for _, b in firsts}) == 1
            for _ in range(4):
                table.play.apply(table.state.actor, str(table.state.legal_actions()[0]))
                got = [await s.event("state") for s in streams]
                assert len({b for _, b in got}) == 1
                data = event_data(got[0][1])
                assert data["seq"] == table.seq and data["reset"] is False
                assert data["events"] and all(s["hand"] is None for s in data["view"]["seats"])
            for s in streams:
                s.close()
        finally:
            await stop_host(host)
    run(go())


def test_chances_updates_are_shared_too():
    """A new live estimate goes to every watcher of the table as the very same bytes."""
    async def go():
        host = web_host()
        tid = bot_table(host)
        table = host.lobby.tables[tid]
        try:
            streams = [await open_stream(host.web.port, f"/table/{tid}/events")
                       for _ in range(3)]
            for s in streams:
                await s.event("state")
            table.coach.chances = None  # a new estimate for the same position, sent now
            table.coach._record([0.5, 0.25, 0.25])
            got = []
            for s in streams:  # each stream's first update with these chances
                while True:
                    _, block = await s.event("state")
                    if event_data(block)["chances"] == [0.5, 0.25, 0.25]:
                        got.append(block)
                        break
            assert len(set(got)) == 1
            for s in streams:
                s.close()
        finally:
            await stop_host(host)
    run(go())


def test_lobby_stream_follows_the_tables():
    async def go():
        host = web_host()
        try:
            s = await open_stream(host.web.port, "/events")
            _, block = await s.event("lobby")
            assert event_data(block)["tables"] == []
            tid = bot_table(host, start=False)
            _, block = await s.event("lobby")
            tables = event_data(block)["tables"]
            assert [t["id"] for t in tables] == [tid] and tables[0]["status"] == "waiting"
            host.lobby.tables[tid].start(None)
            _, block = await s.event("lobby")
            assert event_data(block)["tables"][0]["status"] == "playing"
            s.close()
        finally:
            await stop_host(host)
    run(go())


@pytest.mark.parametrize("value,port,expected", [
    (None, 41672, 41673), (None, 0, 0), ("off", 41672, None), ("OFF", 5, None),
    ("8080", 41672, 8080), ("0", 41672, 0)])
def test_web_port_option(value, port, expected):
    from cartagena_net.cli.host import web_port

    assert web_port(value, port) == expected


@pytest.mark.parametrize("value", ["nope", "-1", "65536", ""])
def test_bad_web_port_option(value):
    from cartagena_net.cli.host import web_port

    with pytest.raises(ValueError):
        web_port(value, 41672)


def test_http_1_0_stream_gets_the_same_events_unchunked():
    async def go():
        # (no live chances: a stream that opens first would bring the room's first chances
        # to the table, and the second stream's first state would hold them)
        host = web_host(live_chances=False)
        tid = bot_table(host)
        try:
            chunked = await open_stream(host.web.port, f"/table/{tid}/events")
            _, block = await chunked.event("state")
            reader, writer = await asyncio.open_connection("127.0.0.1", host.web.port)
            writer.write(f"GET /table/{tid}/events HTTP/1.0\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.0 200") and b"chunked" not in head.lower()
            raw = b""
            while block not in raw:
                raw += await asyncio.wait_for(reader.read(65536), 20)
            assert raw.startswith(b"event: table\ndata: {")
            writer.close()
            chunked.close()
        finally:
            await stop_host(host)
    run(go())


def test_streams_end_cleanly_when_the_host_stops():
    async def go():
        host = web_host()
        tid = bot_table(host)
        s = await open_stream(host.web.port, f"/table/{tid}/events")
        await s.event("state")
        await stop_host(host)
        await s.read_to_end(20)  # the chunked stream's last chunk: the browser reconnects later
        assert host.caps.total == 0 or await until(lambda: host.caps.total == 0, "released")
        s.close()
    run(go())
