"""Browser seats over real HTTP on 127.0.0.1: a guest's play stream is a client of the
host's lobby. It plays a whole game beside a terminal client and a bot, sees only its
own seat's view, never sees its token, gets its seat back by opening the page again; and
cross-site, forged, oversized and idle requests are refused or bounded."""
from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from protocol import messages
from tests.host.helpers import join
from tests.twisted_loop import WAIT, make_host, run, stop_host, until
from tests.web.http import event_data, open_stream, read_head

OPTIONS = {"players": 3, "segments": 2, "pirates": 3}


def web_host(**overrides: Any):
    settings = {"web_port": 0, "bot_delay": 0.0}
    settings.update(overrides)
    return make_host(**settings)


async def post(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict, dict]:
    """One POST; (status, headers, JSON answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
                f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        status, got = await read_head(reader)
        rest = await asyncio.wait_for(reader.read(), WAIT)
        if got.get("transfer-encoding") == "chunked":
            from tests.web.http import Chunks

            rest = Chunks().feed(rest)
        try:
            answer = json.loads(rest or b"{}")
        except ValueError:
            answer = {"raw": rest.decode("latin-1")}
        return status, got, answer
    finally:
        writer.close()


class Guest:
    """A browser guest, as its page talks to the host: one play stream, its POSTs."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None) -> None:
        self.port = port
        self.cookies = dict(cookies or {})
        self.msgs: list[dict[str, Any]] = []
        self.blocks: list[tuple[str, bytes]] = []  # (type, the event's bytes)
        self.raw = b""

    async def open(self) -> Guest:
        self.stream = await open_stream(self.port, "/play/events", self.cookies)
        assert self.stream.status == 200
        self.session = event_data((await self.stream.event("session"))[1])
        return self

    def headers(self, **extra: str) -> dict[str, str]:
        h = {"Origin": "http://127.0.0.1", "Content-Type": "application/json",
             "X-Cartagena-Session": self.session["id"], "X-Cartagena-Csrf": self.session["csrf"]}
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        h.update(extra)
        return h

    async def send(self, msg: dict[str, Any]) -> tuple[int, dict]:
        status, _, answer = await post(self.port, "/play/send", json.dumps(msg).encode(),
                                       self.headers())
        return status, answer

    async def keep(self) -> dict[str, str]:
        """POST /play/keep: the Set-Cookie header, parsed."""
        status, headers, _ = await post(self.port, "/play/keep", b"{}", self.headers())
        assert status == 200
        cookie = headers["set-cookie"]
        name, value = cookie.split(";")[0].split("=", 1)
        self.cookies[name] = value
        return {"name": name, "value": value, "attributes": cookie.lower()}

    async def msg(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        while True:
            _, block = await self.stream.event("msg", timeout)
            self.raw += block
            m = event_data(block)
            self.msgs.append(m)
            self.blocks.append((m["type"], block))
            if m["type"] == "ping":
                await self.send({"type": "pong", "nonce": m["nonce"]})
            if m["type"] == kind:
                return m

    def close(self) -> None:
        self.stream.close()


def test_a_browser_guest_plays_a_whole_game_beside_a_terminal_player_and_a_bot():
    host = web_host()

    async def go():
        port = host.web.port
        ann, _ = await join(host.port, "ann")
        ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
        joined = await ann.expect(messages.Joined)
        tid = joined.table
        ann.send(messages.AddBot(table=tid, kind="greedy"))
        guest = await Guest(port).open()
        await guest.send({"type": "hello", "versions": [1], "name": "zoe", "role": "player"})
        await guest.msg("welcome")
        await guest.send({"type": "join_table", "table": tid, "spectate": False})
        sat = await guest.msg("joined")
        assert "token" not in sat and sat["seat"] is not None
        cookie = await guest.keep()
        assert "httponly" in cookie["attributes"] and "samesite=strict" in cookie["attributes"]
        token = cookie["value"]
        assert host.lobby.tables[tid].seats[sat["seat"]].token == token
        ann.send(messages.Start(table=tid))
        rng = random.Random(4)
        table = host.lobby.tables[tid]
        reopened = False

        async def ann_plays() -> None:  # the terminal player plays its turns at once
            while True:
                m = await ann.expect(messages.State, timeout=120)
                if m.legal and m.seq == table.seq:
                    ann.send(messages.Action(table=tid, seq=m.seq, action=rng.choice(
                        [a for a in m.legal if a != "undo"])))

        ann_task = asyncio.ensure_future(ann_plays())
        await until(lambda: table.state is not None, "the game to start")
        while not table.state.is_over:
            state = await guest.msg("state")
            if state["seq"] != table.seq:
                continue
            if state["legal"]:
                action = rng.choice([a for a in state["legal"] if a != "undo"])
                if not reopened and table.seq > 2:
                    # The page is closed and opened again mid-turn: the same seat comes back.
                    guest.close()
                    await until(lambda: not table.seats[sat["seat"]].conn, "the seat left")
                    guest = await Guest(port, guest.cookies).open()
                    await guest.send({"type": "hello", "versions": [1], "name": "zoe",
                                      "role": "player"})
                    welcome = await guest.msg("welcome")
                    assert welcome["resumed"] == {"table": tid, "seat": sat["seat"]}
                    reopened = True
                    continue
                status, _ = await guest.send({"type": "action", "table": tid,
                                              "seq": state["seq"], "action": action})
                assert status == 200
        ann_task.cancel()
        assert reopened, [(m["type"], m.get("seq"), m.get("legal")) for m in guest.msgs]
        ann.close()
        return guest, token, sat["seat"]

    try:
        guest, token, seat = run(go(), timeout=240)
    finally:
        run(stop_host(host))
    # Only its own seat's view: no other seat's hand, and its token never on the page.
    assert token.encode() not in guest.raw
    for m in guest.msgs:
        if m["type"] == "state" and m["view"]["outcome"] is None:
            assert m["view"]["viewer"] == seat
            for s in m["view"]["seats"]:
                assert (s.get("hand") is not None) == (s["seat"] == seat), s


def test_requests_that_are_not_the_pages_own_are_refused_and_change_nothing():
    host = web_host()

    async def go():
        port = host.web.port
        guest = await Guest(port).open()
        hello = json.dumps({"type": "hello", "versions": [1], "name": "eve",
                            "role": "player"}).encode()
        cases = {
            "cross-site": guest.headers(Origin="http://evil.example"),
            "form post": guest.headers(**{"Content-Type": "application/x-www-form-urlencoded"}),
            "no anti-forgery value": {k: v for k, v in guest.headers().items()
                                      if k != "X-Cartagena-Csrf"},
            "a wrong anti-forgery value": guest.headers(**{"X-Cartagena-Csrf": "x" * 32}),
            "no such stream": guest.headers(**{"X-Cartagena-Session": "nope"}),
        }
        for why, headers in cases.items():
            status, _, answer = await post(port, "/play/send", hello, headers)
            assert status in (403, 410) and answer["ok"] is False, (why, status, answer)
        status, _, answer = await post(port, "/play/send", b"{" + b" " * 9000 + b"}",
                                       guest.headers())
        assert status == 413 and answer["reason"] == "too-large"
        status, _, answer = await post(port, "/play/send", b"[1, 2]", guest.headers())
        assert status == 400
        assert not host.lobby.tables or all(
            s.conn is None for t in host.lobby.tables.values() for s in t.seats)
        # None of that said hello: the stream's connection is still unwelcomed.
        conn = guest_conn(host, guest)
        assert conn is not None and not conn.welcomed
        # A forged seat cookie resumes nothing; the hello itself goes on as a new guest.
        forged = await Guest(port, {f"cartagena_seat_{host.host_id[:12]}": "f" * 32}).open()
        await forged.send({"type": "hello", "versions": [1], "name": "eve", "role": "player"})
        welcome = await forged.msg("welcome")
        assert welcome.get("resumed") is None
        # A spectator's stream cannot act.
        tid = host.create_table("bots", "jamaica", OPTIONS, bots=3, bot_kind="greedy")
        host.lobby.tables[tid].start(None)
        await forged.send({"type": "join_table", "table": tid, "spectate": True})
        await forged.msg("joined")
        state = await forged.msg("state")
        seq = host.lobby.tables[tid].seq
        await forged.send({"type": "action", "table": tid, "seq": state["seq"],
                           "action": "end"})
        error = await forged.msg("error")
        assert error["code"] in ("not-allowed", "stale", "not-your-turn"), error
        assert host.lobby.tables[tid].seq >= seq
        guest.close()
        forged.close()

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


def guest_conn(host, guest):
    session = host.web.sessions.get(guest.session["id"])
    return session.conn if session is not None else None


def test_idle_play_streams_are_bounded_and_terminal_players_never_notice():
    host = web_host(max_per_address=40, handshake_timeout=1.0)

    async def go():
        port = host.web.port
        streams = []
        for _ in range(120):  # more than one address may hold
            try:
                streams.append(await open_stream(port, "/play/events"))
            except (ConnectionError, OSError):
                break
        await asyncio.sleep(0.2)
        assert len(host.web.sessions) <= 40
        # Streams that never say hello are dropped at the handshake deadline; a terminal
        # player of the same address then gets in.
        await until(lambda: not host.web.sessions, "idle streams dropped", timeout=10)
        ann, _ = await join(host.port, "ann")
        ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
        await ann.expect(messages.Joined)
        for s in streams:
            s.close()
        ann.close()

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_the_join_address_and_its_qr_code():
    """The page's QR code encodes the address guests open; the terminal draws the same
    code in half blocks; the host's own client's lobby shows both where there is room."""
    import segno

    from client.model import ClientModel
    from client.qr import QR_STYLE, QUIET, qr_ansi_lines, qr_lines
    from client.render import render_lobby
    from tests.web.http import fetch

    host = web_host()

    async def go():
        svg = await fetch(host.web.port, "/play/qr.svg")
        assert svg.status == 200 and svg.header("content-type") == "image/svg+xml"
        assert svg.body.lstrip().startswith(b"<svg") and b"<path" in svg.body
        page = await fetch(host.web.port, "/play")
        assert page.status == 200 and b"/static/play.js" in page.body
        index = await fetch(host.web.port, "/")
        assert b'src="/play/qr.svg"' in index.body

    try:
        run(go())
    finally:
        run(stop_host(host))
    url = "http://192.168.1.20:8080/play"
    matrix = [list(r) for r in segno.make(url, error="m", micro=False).matrix]
    lines = qr_lines(url)
    # Row 2k and 2k+1 of the code (after the 4-module quiet zone) are line k + 2's
    # halves; the glyphs' ink is the dark modules, drawn black on white.
    q = QUIET
    assert q == 4 and len(lines[0]) == len(matrix) + 2 * q
    assert set(lines[0]) == {" "} and set(lines[1]) == {" "} and set(lines[-1]) == {" "}
    for y, row in enumerate(matrix):
        line = lines[(y + q) // 2]
        assert set(line[:q]) == {" "} and set(line[-q:]) == {" "}
        for x, dark in enumerate(row):
            cell = line[x + q]
            ink_top, ink_bottom = cell in "▀█", cell in "▄█"
            assert (ink_top if (y + q) % 2 == 0 else ink_bottom) == bool(dark)
    # Both colours set on every line: the same code on a dark and on a light terminal.
    for plain, ansi in zip(lines, qr_ansi_lines(url), strict=True):
        assert ansi == "\x1b[38;5;16;48;5;231m" + plain + "\x1b[0m"
    model = ClientModel(name="host")
    model.join_url = url
    drawn = render_lobby(model, 100, 70)
    shown = ["".join(t for _, t in line) for line in drawn]
    assert any(url in line for line in shown)
    assert lines[3] in shown
    assert all(style == QR_STYLE for line in drawn for style, text in line if text in lines)
    assert QR_STYLE == "fg:#000000 bg:#ffffff"
    assert not any(lines[3] == line for line in
                   ("".join(t for _, t in x) for x in render_lobby(model, 100, 12)))


def test_a_flooding_browser_is_dropped_and_a_terminal_player_plays_on():
    """A page posting far beyond the message rate limit is dropped (rate-limited, its
    stream ends) like a flooding TCP client; the terminal player's game goes on."""
    host = web_host(rate=20.0, burst=40.0)

    async def go():
        port = host.web.port
        ann, _ = await join(host.port, "ann")
        ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
        tid = (await ann.expect(messages.Joined)).table
        for _ in range(2):
            ann.send(messages.AddBot(table=tid, kind="greedy"))
        guest = await Guest(port).open()
        await guest.send({"type": "hello", "versions": [1], "name": "eve", "role": "player"})
        await guest.msg("welcome")
        statuses = await asyncio.gather(*[guest.send({"type": "ping", "nonce": i})
                                          for i in range(200)])
        # handed over (200), refused once the stream is dropped (410), or refused at
        # the door, over the address's connection cap (503)
        assert {s for s, _ in statuses} <= {200, 410, 503}
        error = await guest.msg("error")
        assert error["code"] == "rate-limited" and error["fatal"]
        await until(lambda: not host.web.sessions, "the flooding stream dropped")
        table = host.lobby.tables[tid]
        await until(lambda: all(s.occupied for s in table.seats), "bots seated")
        ann.send(messages.Start(table=tid))
        state = await ann.expect(messages.State)
        ann.send(messages.Action(table=tid, seq=state.seq, action=state.legal[0]))
        moved = await ann.expect(messages.State, lambda m: m.seq > state.seq)
        assert moved.seq == state.seq + 1
        guest.close()
        ann.close()

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_the_join_code_holds_the_lan_address_when_the_page_is_opened_as_localhost():
    """A TV page opened on the host's laptop as ``localhost`` shows (and encodes) the
    host's LAN address, which phones reach; any other name a page came by is kept."""
    from types import SimpleNamespace

    from cartagena_net.web.pages import join_url

    web = SimpleNamespace(url="http://192.0.2.7:41673/")

    def asked(host):
        headers = {} if host is None else {b"host": host.encode("latin-1")}
        return join_url(SimpleNamespace(getHeader=headers.get), web)

    for own in ("localhost:41673", "LOCALHOST:41673", "127.0.0.1:41673", "127.1.2.3:41673",
                "[::1]:41673", "tv.localhost:41673", None):
        assert asked(own) == "http://192.0.2.7:41673/play", own
    for other in ("192.0.2.7:41673", "den.lan:41673", "[fe80::1]:41673"):
        assert asked(other) == f"http://{other}/play"
    # a host bound to loopback only: its own address is all there is
    web.url = "http://127.0.0.1:41673/"
    assert asked("localhost:41673") == "http://localhost:41673/play"


def test_the_join_address_is_served_for_the_pages():
    from tests.web.http import fetch

    host = web_host()

    async def go():
        got = await fetch(host.web.port, "/play/address")
        assert got.status == 200 and got.header("content-type").startswith("text/plain")
        assert got.body.decode().endswith("/play") and got.body.startswith(b"http://")

    try:
        run(go())
    finally:
        run(stop_host(host))
