"""Sessions over real TCP on 127.0.0.1: no seat fights, no dead screens, a host that leaves.

Defects 1, 2 and 3 of the first-evening report, end to end with the whole client app.
"""
from __future__ import annotations

import asyncio
import socket

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.app import run_client
from client.tokens import TokenStore
from tests.client.test_app import Client, play_to_the_end
from tests.twisted_loop import make_host, reactor, run, until, wait
from tests.twisted_loop import stop_host as stop

SMALL = {"players": 2, "segments": 1, "pirates": 2}


def test_two_clients_of_one_user_never_fight_over_a_seat(tmp_path) -> None:
    """Defect 1: a second client with the same token store stays in the lobby."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        a = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: a.model.view, "the first client's game")
        saved = TokenStore(tmp_path / "state").entry(a.model.host_id)
        assert saved and saved["token"] == a.model.token
        b = Client(host.port, tmp_path, name="ann")  # same user, same tokens.json
        await until(lambda: b.model.screen == "lobby" and b.model.tables, "the lobby")
        await asyncio.sleep(0.5)
        seat = host.lobby.tables[table].seats[0]
        assert b.model.table is None and b.model.view is None
        assert not b.model.saved_seat_free()  # the seat is in use: not even offered
        assert seat.conn is not None and a.model.gone is None and a.model.seat == 0
        # The user asks the second client for the seat: the first one stops, and says so.
        b.app.resume_saved_seat()
        await until(lambda: b.model.view and b.model.seat == 0, "the second client's seat")
        await until(lambda: a.model.gone, "the first client to stop")
        assert "another client took over your seat" in a.screen()
        assert "reconnecting" not in a.screen()
        await asyncio.sleep(1.5)  # no fight: the first client does not come back
        assert a.app.session is None and a.app._retry_call is None
        assert b.model.gone is None and b.model.seat == 0
        assert await play_to_the_end(b) > 0
        await a.finish()
        await b.finish()
        await stop(host)

    run(main())


def test_leave_a_finished_game_and_sit_again(tmp_path) -> None:
    """Defect 2: after a won game, `l` then Enter shows the table, not "connecting…"."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", {"players": 2, "segments": 1,
                                                          "pirates": 1}, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.view, "the game")
        await play_to_the_end(c)
        c.keys("l")
        await until(lambda: c.model.table is None and c.model.screen == "lobby", "the lobby")
        c.keys("\r")
        await until(lambda: c.model.table == table and c.model.seat is not None, "the seat")
        await asyncio.sleep(0.2)
        text = c.screen()
        assert "connecting" not in text
        assert f"Table {table}" in text and "s/Enter start" in text
        seq = host.lobby.tables[table].seq
        c.keys("s")
        # a new game in which the next seat (the bot) starts: ann moves to seat 1
        await until(lambda: c.model.view and c.model.seq > seq, "a new game")
        assert c.model.seat == 1 and host.lobby.tables[table].seats[1].name == "ann"
        await play_to_the_end(c)
        assert c.model.game_over
        await c.finish()
        await stop(host)

    run(main())


def test_a_stopping_host_says_so_and_nobody_waits_for_ever(tmp_path) -> None:
    """Defect 3: `bye` with a reason reaches players and watchers; no endless retries."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        p = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: p.model.view, "the player's game")
        s = Client(host.port, tmp_path, name="eve", spectate=True)
        await until(lambda: s.model.view, "the watcher's game")
        await stop(host)
        for c in (p, s):
            await until(lambda c=c: c.model.gone, "the client to stop")
            text = c.screen()
            assert "the host ended the game" in text and "reconnecting" not in text
        await asyncio.sleep(1.0)
        assert p.app._retry_call is None and s.app._retry_call is None
        await p.finish()
        await s.finish()

    run(main())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_wrong_address_says_no_host_there(tmp_path) -> None:
    async def main() -> None:
        port = free_port()
        c = Client(port, tmp_path)
        await until(lambda: c.model.gone, "the verdict")
        text = c.screen()
        assert f"no host at 127.0.0.1:{port}" in text
        assert "reconnecting" not in text and text.count("connection refused") <= 1
        assert c.app._retry_call is None
        await c.finish()

    run(main())


def test_reconnecting_gives_up_after_a_bounded_time(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True, reconnect_limit=1.5)
        await until(lambda: c.model.view, "the game")
        # The host vanishes without a word (a crash, a cable): nothing listens any more.
        await wait(host._listening.stopListening())
        for conn in list(host.connections):
            conn.transport.abortConnection()
        await until(lambda: c.model.reconnecting, "the reconnecting notice")
        assert c.screen().count("reconnecting") == 1
        await until(lambda: c.model.gone, "the client to give up", timeout=30)
        assert "gave up reconnecting after 1.5 s" in c.screen(120, 30)
        assert not c.model.reconnecting and c.app._retry_call is None
        await c.finish()
        host._listening = None
        await stop(host)

    run(main())


def test_undo_from_the_keyboard_then_play_to_the_end(tmp_path) -> None:
    """Undo: z takes back an advance that revealed nothing; the log says so."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "jamaica", {"players": 2, "segments": 1,
                                                     "pirates": 2}, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.legal, "my turn")
        before = list(c.model.my_positions())
        assert "z undo" not in c.screen(100, 30)
        advance = next(a for a in c.model.legal if a.startswith("advance"))
        from tests.client.test_app import keys_for

        seq = c.model.seq
        c.keys(*keys_for(c.model, advance))
        await until(lambda: c.model.seq > seq and "undo" in c.model.legal, "undo offered")
        assert "z undo the last move" in c.screen(120, 30)
        seq = c.model.seq
        c.keys("z")
        await until(lambda: c.model.seq > seq, "the undo")
        assert c.model.my_positions() == before and "undo" not in c.model.legal
        assert any("takes back" in line for line in c.model.log)
        await play_to_the_end(c)
        await c.finish()
        await stop(host)

    run(main())


class RecordingOutput(DummyOutput):
    """prompt_toolkit's headless output, noting the bell and the title it is asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def bell(self) -> None:
        self.calls.append("bell")

    def set_title(self, title: str) -> None:
        self.calls.append(f"title:{title}")


def test_your_turn_rings_and_sets_the_title_unless_turned_off(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        seen = {}
        for flag in (True, False):
            table = host.create_table("t", "jamaica", SMALL, bots=1)
            out = RecordingOutput()
            with create_pipe_input() as pipe:
                box: dict = {}
                done = run_client(reactor, "127.0.0.1", host.port, "ann", table=table,
                                  auto_start=True, state_dir=tmp_path / str(flag),
                                  app_input=pipe, app_output=out, bell=flag, title=flag,
                                  on_app=lambda a, box=box: box.setdefault("a", a))
                app = box["a"]
                await until(lambda app=app: app.model.legal, "my turn")
                await asyncio.sleep(0.1)
                seen[flag] = list(out.calls)
                app.quit()
                await wait(done)
        assert seen[True][:2] == ["bell", "title:cartagena: your turn"]
        assert seen[False] == []
        await stop(host)

    run(main())


def test_after_the_game_each_player_stays_or_leaves(tmp_path) -> None:
    """Play again: bob leaves, ann stays; ann fills the seat with a bot and starts again."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "jamaica", {"players": 2, "segments": 1,
                                                     "pirates": 1})
        ann = Client(host.port, tmp_path / "a", table=table)
        await until(lambda: ann.model.seat == 0, "ann's seat")
        bob = Client(host.port, tmp_path / "b", name="bob", table=table)
        await until(lambda: bob.model.seat == 1, "bob's seat")
        ann.keys("s")
        await until(lambda: ann.model.view and bob.model.view, "the game")
        await asyncio.gather(play_to_the_end(ann), play_to_the_end(bob))
        assert "You stay at this table for the next game" in bob.screen(100, 30)
        bob.keys("l")
        await until(lambda: ann.model.table_info and not ann.model.table_info["seats"][1]
                    .get("name"), "bob's seat to be free")
        ann.keys("p")
        await until(lambda: ann.model.screen == "lobby", "the table's room")
        assert "seat left empty" in ann.screen(100, 30)
        ann.keys("e")  # an easy bot (b: the host's searching bot)
        await until(lambda: ann.model.table_info["seats"][1].get("bot"), "the bot")
        seq = ann.model.seq
        ann.keys("s")
        await until(lambda: ann.model.screen == "game" and ann.model.seq > seq, "a new game")
        await play_to_the_end(ann)
        assert ann.model.game_over
        await ann.finish()
        await bob.finish()
        await stop(host)

    run(main())


def test_a_host_password_is_asked_for_and_hidden_as_it_is_typed(tmp_path) -> None:
    """Joining a host with a password, without --password: the client asks for it
    (typed as dots) instead of a dead "connecting…" screen, then sits down and plays."""
    async def main() -> None:
        host = make_host(password="sesame")
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        await until(lambda: c.model.input is not None, "the password question")
        assert "password" in c.screen().lower()
        c.keys("wrong", "\r")
        await asyncio.sleep(1.0)  # sent, refused, and asked again
        await until(lambda: c.model.input is not None and c.model.input.text == ""
                    and "wrong" in c.screen().lower(),
                    "the question again, saying the password was wrong")
        c.keys("sesa")
        await asyncio.sleep(0.2)
        assert "sesa" not in c.screen() and "••••" in c.screen()
        c.keys("me", "\r")
        await until(lambda: c.model.view, "the game")
        assert await play_to_the_end(c) > 0
        await c.finish()
        await stop(host)

    run(main())


def test_a_table_password_is_asked_for_or_taken_from_the_command_line(tmp_path) -> None:
    """A table with a password: Enter on it asks for the password (typed as dots), and a
    client started with --password gives it by itself; both then play to the end."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1, password="pw")
        c = Client(host.port, tmp_path)
        await until(lambda: c.model.screen == "lobby" and c.model.tables, "the lobby")
        c.model.lobby_index = [t["id"] for t in c.model.tables].index(table)
        c.keys("\r")
        await until(lambda: c.model.input is not None, "the table password question")
        c.keys("p", "w")
        await asyncio.sleep(0.2)
        assert "••" in c.screen()
        c.keys("\r")
        await until(lambda: c.model.table == table and c.model.seat is not None, "a seat")
        await c.finish()
        d = Client(host.port, tmp_path / "d", name="bob", password="pw")
        await until(lambda: d.model.screen == "lobby" and d.model.tables, "the lobby")
        d.model.lobby_index = [t["id"] for t in d.model.tables].index(table)
        d.keys("\r")
        await until(lambda: d.model.table == table and d.model.seat is not None, "a seat")
        assert d.model.input is None
        d.keys("s")
        await until(lambda: d.model.view, "the game")
        assert await play_to_the_end(d) > 0
        await d.finish()
        await stop(host)

    run(main())


def test_two_windows_of_one_user_each_keep_their_seat_to_come_back_to(tmp_path) -> None:
    """Two windows of one user (one tokens.json) sit in two seats; the first dies. A new
    window offers the first one's seat back (r), not the second one's, which is in use:
    each seat keeps its own key."""
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", {"players": 3, "segments": 1,
                                                          "pirates": 2}, bots=1)
        a = Client(host.port, tmp_path, table=table)
        await until(lambda: a.model.seat is not None, "the first window's seat")
        b = Client(host.port, tmp_path, table=table, name="ann")
        await until(lambda: b.model.seat is not None, "the second window's seat")
        assert a.model.token != b.model.token
        a_token = a.model.token
        host.lobby.tables[table].start(None)
        await until(lambda: a.model.view and b.model.view, "the game on both")
        # the first window dies without a word (its connection cut, no reconnecting)
        a.app.closing = True
        a.app.session.transport.abortConnection()
        await until(lambda: not host.lobby.tables[table].seats[a.model.seat].connected,
                    "the first seat away")
        store = TokenStore(tmp_path / "state")
        assert {e["token"] for e in store.entries(a.model.host_id)} == {a_token, b.model.token}
        c = Client(host.port, tmp_path, name="ann")  # the user opens a window again
        await until(lambda: c.model.screen == "lobby" and c.model.tables, "the lobby")
        await until(lambda: c.model.saved_seat_free(), "the first seat offered back")
        assert c.model.saved_seat["token"] == a_token
        c.keys("r")
        await until(lambda: c.model.view and c.model.token == a_token, "the seat taken back")
        assert b.model.gone is None and b.model.token != a_token  # the other window stays
        for x in (b, c):
            await x.finish()
        await a.finish()
        await stop(host)

    run(main())
