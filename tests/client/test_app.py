"""The whole client app (pipe input, dummy output) against an in-process host on 127.0.0.1."""
from __future__ import annotations

import asyncio
from typing import Any

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.app import ClientApp, run_client
from client.glyphs import symbol_keys
from client.render import render_screen, to_text
from client.tokens import TokenStore
from tests.portable import mode_of
from tests.twisted_loop import loop, make_host, reactor, run, until
from tests.twisted_loop import stop_host as stop

WAIT = 60.0
SMALL = {"players": 2, "segments": 1, "pirates": 2}


class Client:
    """One running client app fed by a pipe."""

    def __init__(self, port: int, tmp_path: Any, **kw: Any) -> None:
        self._pipe_cm = create_pipe_input()
        self.pipe = self._pipe_cm.__enter__()
        box: dict[str, ClientApp] = {}
        self.done = run_client(reactor, "127.0.0.1", port, kw.pop("name", "ann"),
                               state_dir=tmp_path / "state", app_input=self.pipe,
                               app_output=DummyOutput(), on_app=lambda a: box.setdefault("a", a),
                               **kw)
        self.app = box["a"]
        self.model = self.app.model

    def keys(self, *keys: str) -> None:
        for k in keys:
            self.pipe.send_text(k)

    def screen(self, w: int = 80, h: int = 24) -> str:
        return to_text(render_screen(self.model, w, h))

    async def finish(self) -> int:
        if not self.done.called:
            self.model.overlay = None
            self.app.quit()
        result = await asyncio.wait_for(self.done.asFuture(loop()), WAIT)
        self._pipe_cm.__exit__(None, None, None)
        return result


def keys_for(model: Any, action: str) -> list[str]:
    """The keystrokes a person would type for a legal action."""
    words = action.split()
    mine = model.my_positions()
    if words[0] == "advance":
        sym = words[2].rstrip("*")
        key = symbol_keys(model.view["symbols"])[sym]
        return [str(mine.index(int(words[1])) + 1), key.upper() if words[2].endswith("*")
                else key, "\r"]
    if words[0] == "retreat":
        return [str(mine.index(int(words[1])) + 1), "r", "\r"]
    return {"end": ["e"], "draw": ["w"]}[words[0]]


async def play_to_the_end(c: Client, max_moves: int = 400) -> int:
    moves = 0
    while not c.model.game_over:
        await until(lambda: c.model.legal or c.model.game_over, "my turn or the end")
        if c.model.game_over:
            break
        seq = c.model.seq
        advances = [a for a in c.model.legal if a.startswith("advance")]
        action = max(advances, key=lambda a: int(a.split()[1])) if advances else c.model.legal[0]
        c.keys(*keys_for(c.model, action))
        await until(lambda seq=seq: c.model.seq != seq, f"the host to take {action}")
        moves += 1
        assert moves < max_moves
    return moves


def test_full_game_from_the_keyboard_against_a_bot(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.view, "the first state")
        assert "you: ann (red)" in c.screen()
        moves = await play_to_the_end(c)
        assert moves > 0
        text = c.screen()
        assert "GAME OVER" in text and "Ranking: 1." in text
        # play again: the owner starts a new game at the same table
        c.keys("p")
        await until(lambda: c.model.view and not c.model.game_over, "a new game")
        assert host.lobby.tables[table].status == "playing"
        assert await c.finish() == 0
        await stop(host)

    run(main())


def test_errors_from_the_host_show_in_the_status_line(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "jamaica", {"players": 2}, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.legal, "my turn")
        c.app._send({"type": "action", "table": table, "seq": 999, "action": "end"})
        await until(lambda: c.model.status_error, "an error")
        last = c.screen().splitlines()[-1]
        # no raw codes; the reason said as a sentence (a capital, a full stop)
        assert last.startswith("The game moved on") and "stale" not in last
        assert last.endswith("retry.")
        assert c.model.view is not None  # nothing lost
        await c.finish()
        await stop(host)

    run(main())


def test_spectator_watches_the_same_board(tmp_path) -> None:
    async def main() -> None:
        host = make_host(bot_delay=0.05)
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        p = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: p.model.view, "the player's first state")
        s = Client(host.port, tmp_path, name="eve", spectate=True)
        await until(lambda: s.model.view, "the spectator's first state")
        assert s.model.table == table and s.model.seat is None
        assert all(seat["hand"] is None for seat in s.model.view["seats"])
        assert "SPECTATING" in s.screen()
        s.keys("k", "\r", "e", "r")
        await asyncio.sleep(0.3)
        assert not s.model.status_error
        seq = p.model.seq
        action = p.model.legal[0]
        p.keys(*keys_for(p.model, action))
        await until(lambda: s.model.seq > seq and s.model.seq == p.model.seq, "spectator update")

        def board(m: Any) -> list[str]:
            return [x for x in to_text(render_screen(m, 80, 24)).splitlines()
                    if x.lstrip().startswith("1")][:1]

        await until(lambda: board(s.model) == board(p.model), "the same board")
        await s.finish()
        await p.finish()
        await stop(host)

    run(main())


def test_reconnect_after_a_drop_and_on_a_later_join(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "jamaica", {"players": 2}, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.legal, "my turn")
        store = tmp_path / "state" / "tokens.json"
        assert mode_of(store) in (0o600, None)
        assert mode_of(store.parent) in (0o700, None)
        token = TokenStore(store.parent).lookup(c.model.host_id)
        assert token and token == c.model.token
        seat = c.model.seat
        c.app.session.transport.abortConnection()
        await until(lambda: c.model.reconnecting, "the reconnecting notice")
        assert "reconnecting" in c.screen()
        await until(lambda: not c.model.reconnecting and c.app.session is not None,
                    "the reconnection")
        await until(lambda: c.model.legal, "the restored view")
        assert c.model.seat == seat and c.model.table == table
        assert host.lobby.tables[table].seats[seat].conn is not None
        await c.finish()
        # a later `cartagena join` is offered the saved seat, and takes it when asked
        c2 = Client(host.port, tmp_path, name="ann")
        await until(lambda: c2.model.screen == "lobby" and c2.model.saved_seat_free(),
                    "the offer of the saved seat")
        assert c2.model.view is None and "press r to take it back" in c2.screen(120, 30)
        c2.keys("r")
        await until(lambda: c2.model.view, "the seat again")
        assert c2.model.seat == seat and c2.model.screen == "game"
        await c2.finish()
        await stop(host)

    run(main())


def test_lobby_create_table_add_bot_and_start_by_keys(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        c = Client(host.port, tmp_path, name="bob")
        await until(lambda: c.model.screen == "lobby", "the lobby")
        c.keys("t")
        await until(lambda: c.model.form, "the form")
        # rules: stay on the first preset; players 4 -> 2; bots 1; options segments=1
        c.keys("\x1b[B", "\x1b[D", "\x1b[D", "\x1b[B", "\x1b[C", "\x1b[B", "\x1b[B")
        c.keys("segments=1", "\r")
        await until(lambda: c.model.table is not None, "a seat at the new table")
        await until(lambda: c.model.table_info and all(
            s.get("name") for s in c.model.table_info["seats"]), "the bot")
        assert "you own this table" in c.screen()
        c.keys("s")
        await until(lambda: c.model.view, "the game")
        assert len(c.model.view["board"]) == 6
        await c.finish()
        await stop(host)

    run(main())


def test_host_browser_lists_and_drops_hosts(tmp_path) -> None:
    from cartagena_net.discovery import DiscoveryResponder

    async def main() -> None:
        host = make_host(name="partybox")
        host.create_table("fun", "jamaica", {"players": 2}, bots=1)
        responder = DiscoveryResponder(reactor, host.summary, host.port,
                                       interface="127.0.0.1", udp_port=0)
        responder.startService()
        with create_pipe_input() as pipe:
            box: dict[str, ClientApp] = {}
            done = run_client(reactor, None, None, "ann", browse=True,
                              discovery_targets=[f"127.0.0.1:{responder.port}"],
                              broadcast=False, ascii_only=True,
                              state_dir=tmp_path / "s", app_input=pipe,
                              app_output=DummyOutput(), on_app=lambda a: box.setdefault("a", a))
            app = box["a"]
            await until(lambda: app.model.hosts, "the host in the browser")
            text = to_text(render_screen(app.model, 80, 24))
            assert "partybox" in text and f"127.0.0.1:{host.port}" in text
            assert "1 table, 1 free seat" in text
            assert "fun: jamaica, waiting" in text
            udp_port = responder.port
            d = responder.stopService()
            if d is not None:
                await d.asFuture(loop())
            await until(lambda: not app.model.hosts, "the host to vanish", timeout=30)
            responder.udp_port = udp_port  # back on the probed port
            responder.startService()
            await until(lambda: app.model.hosts, "the host again")
            pipe.send_text("\r")
            await until(lambda: app.model.screen == "lobby", "the lobby")
            assert app._browser is None
            app.quit()
            assert await asyncio.wait_for(done.asFuture(loop()), WAIT) == 0
        d = responder.stopService()
        if d is not None:
            await d.asFuture(loop())
        await stop(host)

    run(main())


def test_typed_address_from_the_browser(tmp_path) -> None:
    async def main() -> None:
        host = make_host(name="typed")
        with create_pipe_input() as pipe:
            box: dict[str, ClientApp] = {}
            done = run_client(reactor, None, None, "ann", browse=True, broadcast=False,
                              state_dir=tmp_path / "s", app_input=pipe,
                              app_output=DummyOutput(), on_app=lambda a: box.setdefault("a", a))
            app = box["a"]
            await until(lambda: app.model.screen == "browser", "the browser")
            assert "looking for hosts" in to_text(render_screen(app.model, 80, 24))
            pipe.send_text("a")
            pipe.send_text(f"127.0.0.1:{host.port}\r")
            await until(lambda: app.model.screen == "lobby", "the lobby")
            assert app.model.host_label == f"127.0.0.1:{host.port}"
            pipe.send_text("q")
            assert await asyncio.wait_for(done.asFuture(loop()), WAIT) == 0
        await stop(host)

    run(main())


def test_a_damaged_tokens_file_is_kept_aside_and_said_in_the_status_line(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        (tmp_path / "state").mkdir(mode=0o700)
        (tmp_path / "state" / "tokens.json").write_text("{half a fi")
        c = Client(host.port, tmp_path, name="ann")
        await until(lambda: c.model.screen == "lobby" and "damaged" in c.model.status,
                    "the notice")
        kept = list((tmp_path / "state").glob("tokens.json.bad-*"))
        assert len(kept) == 1 and kept[0].read_text() == "{half a fi"
        assert "kept it as" in c.screen(200, 30)
        await c.finish()
        await stop(host)

    run(main())
