"""The screen-reader mode between games and tables, against a real host (in this process,
on loopback) with the whole reader client (`cartagena join --screen-reader`): after
``again`` the log tells the new game alone; leaving a finished table says the tables once;
watching a finished table says that its game is over, who won and what can be done, and
reads no burst of its old moves (``log`` tells them); ``scores`` says the standings."""
from __future__ import annotations

import asyncio
import io
import os
from typing import Any

from client.app import run_client
from tests.twisted_loop import make_host, reactor, run, until
from tests.twisted_loop import stop_host as stop

SMALL = {"players": 3, "segments": 6, "pirates": 2}  # (a game not over in a turn)
TABLES = "Tables on this host:"


class Reader:
    """One `cartagena join --screen-reader` in this process: lines typed with
    :meth:`type` (as the player's Enter hands them over), what it says in :meth:`lines`."""

    def __init__(self, port: int, tmp_path: Any, **kw: Any) -> None:
        r, self.w = os.pipe()  # standard input: open until the end, nothing typed on it
        self.inp = os.fdopen(r, encoding="utf-8")
        self.out = io.StringIO()
        box: dict[str, Any] = {}
        self.done = run_client(reactor, "127.0.0.1", port, kw.pop("name", "Tess"),
                               state_dir=tmp_path / "state", screen_reader=True,
                               reader_in=self.inp, reader_out=self.out,
                               on_app=lambda a: box.setdefault("a", a), **kw)
        self.client = box["a"]
        self.model = self.client.model

    def lines(self) -> list[str]:
        return self.out.getvalue().splitlines()

    def type(self, text: str) -> list[str]:
        """Type a line; what was said at once in answer."""
        before = len(self.lines())
        self.client.on_line(text)
        return self.lines()[before:]

    async def said(self, want: str, since: int = 0, timeout: float = 30.0) -> int:
        """Wait until a line from ``since`` on starts with ``want``; its index."""
        def found() -> int | None:
            for i, x in enumerate(self.lines()[since:], since):
                if x.startswith(want):
                    return i + 1  # (0 would read as not found)
            return None
        return int(await until(found, f"{want!r} in {self.lines()[-20:]}", timeout)) - 1

    async def play_to_the_end(self) -> None:
        """Answer every move of this player's with its first choice until the game ends."""
        m = self.model
        moves = 0
        while not m.game_over:
            await until(lambda: (m.my_turn_now() and self.client.question is not None)
                        or m.game_over, "my turn or the end")
            if m.game_over:
                break
            seq = m.seq
            self.type("1")
            await until(lambda seq=seq: m.seq != seq or m.game_over, "the move taken")
            moves += 1
            assert moves < 400

    async def finish(self) -> None:
        os.close(self.w)  # the input ends: the reader leaves as quit does
        await asyncio.wait_for(self.done.asFuture(reactor._asyncioEventloop), 30)
        self.inp.close()


async def a_game_played(host: Any, tmp_path: Any) -> tuple[Reader, int]:
    """A reader at a table with two bots, its first game played to the end; the index of
    the line that offers the next game."""
    table = host.create_table("t", "ravensburger", SMALL, bots=2)
    r = Reader(host.port, tmp_path, table=table, auto_start=True)
    await r.said("You play ")
    await r.play_to_the_end()
    end = await r.said("You stay at this table")
    assert any(x.endswith(("wins!", "win!")) for x in r.lines()[:end]), r.lines()[-12:]
    return r, end


def after_a_game(tmp_path: Any, check: Any) -> None:
    """``check(reader, end)`` on a host where the reader has played a game to its end."""
    async def main() -> None:
        host = make_host()
        r, end = await a_game_played(host, tmp_path)
        try:
            await check(r, end)
        finally:
            await r.finish()
            await stop(host)

    run(main(), timeout=300)


async def left(r: Reader, end: int, settle: float) -> int:
    """The reader leaves the finished table and hears the tables; ``settle`` seconds
    later, the index of the next line."""
    r.type("leave")
    await r.said(TABLES, end)
    await asyncio.sleep(settle)
    return len(r.lines())


def test_after_again_the_log_tells_the_new_game_alone(tmp_path) -> None:
    async def check(r: Reader, end: int) -> None:
        r.type("again")
        begins = await r.said("A new game begins.", end)
        await until(lambda: r.model.history and not r.model.game_over,
                    f"game 2's moves: {r.lines()[begins:]}")
        await asyncio.sleep(0.2)
        told = r.type("log")
        assert told, "log said nothing"
        assert not any(x.endswith(("wins!", "win!")) for x in told), told
        now = r.lines()[begins:]
        for line in told:
            assert line in now, (line, told)

    after_a_game(tmp_path, check)


def test_leaving_a_finished_table_says_the_tables_once(tmp_path) -> None:
    async def check(r: Reader, end: int) -> None:
        await left(r, end, 2.5)  # any second list would have come by now
        after_leave = r.lines()[end:]
        assert sum(1 for x in after_leave if x == TABLES) == 1, after_leave
        # the host's list after the leave: this player's seat is free again
        assert "1. t: finished, 2 of 3 seats taken" in after_leave, after_leave

    after_a_game(tmp_path, check)


def test_watching_a_finished_table_says_it_is_over_and_reads_no_burst(tmp_path) -> None:
    async def check(r: Reader, end: int) -> None:
        since = await left(r, end, 2.0)
        r.type("watch 1")
        await r.said("The game is over.", since)
        await asyncio.sleep(2.0)  # (the waiting room would have been said by now)
        heard = r.lines()[since:]
        assert not any("waiting for the game to start" in x for x in heard), heard
        assert not any(x.startswith("The table's owner starts the game") for x in heard)
        assert not any(x.lower().startswith("watching table") for x in heard), heard
        assert any(x.endswith(" won.") for x in heard), heard  # (Tess, watching: named)
        assert any(x.startswith("Ranking: 1. ") for x in heard), heard
        assert any(x.startswith("You are watching a finished game") and "log" in x
                   for x in heard), heard
        moves = [x for x in heard if " plays " in x or x.endswith(("'s turn", "wins!"))]
        assert moves == [], heard  # no burst of the old game's lines
        told = r.type("log")  # they are there for the asking
        assert any(x.endswith("wins!") for x in told), told
        assert len(told) > 3
        assert r.type("scores")[-1].startswith("Ranking: 1. ")
        assert "scores" in " ".join(r.type("help"))  # the end's help, for a watcher

    after_a_game(tmp_path, check)


def test_scores_says_each_players_pirates_in_the_goal_during_the_game(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=2)
        r = Reader(host.port, tmp_path, table=table, auto_start=True)
        try:
            await r.said("You play ")
            await until(lambda: r.model.view is not None, "the game")
            told = r.type("scores")
            assert len(told) == 3, told
            assert all(x.endswith(" of 2 pirates in the rowboat.") for x in told), told
            mine = [x for x in told if " (you): " in x]
            assert len(mine) == 1 and mine[0].startswith(
                r.model.seat_color(r.model.seat) + " (you): "), told
            names = {r.model.seat_name(s) for s in range(3) if s != r.model.seat}
            assert {x.split(" (")[1].split(")")[0] for x in told if x not in mine} == names
            assert r.type("standings") == told  # the other word for it
            assert "scores" in " ".join(r.type("help"))
        finally:
            await r.finish()
            await stop(host)

    run(main(), timeout=120)


def test_watching_a_game_under_way_says_its_newest_events_and_keeps_the_rest(tmp_path) -> None:
    """A watcher who comes in the middle of a game hears its newest events and that the
    earlier ones are kept, not a burst of twenty lines; ``log`` tells them."""
    async def main() -> None:
        host = make_host(bot_delay=0.3)
        tid = host.create_table("t", "ravensburger", SMALL, bots=3, bot_kind="random")
        table = host.lobby.tables[tid]
        table.start(None)
        await until(lambda: table.match.state.event_count >= 12, "a game under way", 60)
        r = Reader(host.port, tmp_path, table=tid, spectate=True, name="Wes")
        try:
            first = await r.said("You are watching.")
            kept = await r.said("", first + 1)
            line = r.lines()[kept]
            assert line.endswith("earlier events are kept: type log to hear them."), r.lines()
            n = int(line.split()[0])
            assert n >= 8
            newest = r.lines()[kept + 1: kept + 4]
            aloud = set(r.lines()[first:])
            told = r.type("log")
            assert [x for x in newest if x in told] == newest, (newest, told)
            assert any(x not in aloud for x in told), (told, aloud)  # the kept ones
        finally:
            await r.finish()
            await stop(host)

    run(main(), timeout=120)
