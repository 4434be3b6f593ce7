"""A table owner seats searching bots of different levels side by side (``add_bot.level``):
each seat keeps its level in the lobby, the seats journal (a resumed host seats the same
levels) and the game's record. Real TCP on 127.0.0.1."""
from __future__ import annotations

import random

from cartagena_net.bots.kinds import GreedyBot
from cartagena_net.records import store as record_store
from protocol import messages
from tests.twisted_loop import until

from .helpers import make_host, run, seat_players, state_at, stop_host

OPTIONS = {"players": 3, "segments": 1, "pirates": 1}


def _seats(msg, tid):
    return next(t for t in msg.tables if t["id"] == tid)["seats"]


def _budget(bot):
    """(seconds, iterations) a searching bot spends on a decision."""
    return bot.config.think, bot.config.iterations


def test_a_normal_and_a_hard_bot_keep_their_levels_through_a_resume_and_the_record(tmp_path):
    records, state = tmp_path / "records", tmp_path / "state"

    async def scenario() -> None:
        # the host times its own bots (--think 0.05): a level given to add_bot overrides it
        host = make_host(records_dir=str(records), state_dir=str(state), bot_think=0.05)
        tid = host.create_table("levels", "jamaica", OPTIONS)
        ((ann, a, _token),) = await seat_players(host.port, tid, ["ann"])
        for kind in ("greedy", "random"):
            ann.send(messages.AddBot(table=tid, kind=kind, level="hard"))
            err = await ann.expect(messages.Error)
            assert (err.code, err.why) == ("bad-field", "bot-level-kind")
            assert "thinking bot" in err.message and "ismcts" not in err.message
        # an older client's add_bot (no level) still seats the host's bot
        ann.send(messages.AddBot(table=tid, seat=None, kind="ismcts"))
        lobby = await ann.expect(messages.Lobby, lambda m: sum(
            bool(s["bot"]) for s in _seats(m, tid)) == 1)
        plain = next(s for s in _seats(lobby, tid) if s["bot"])
        assert plain["level"] is None  # timed by the host's --think: no level to show
        table = host.lobby.tables[tid]
        assert _budget(table.seats[plain["seat"]].bot)[0] == 0.05
        ann.send(messages.RemoveBot(table=tid, seat=plain["seat"]))
        await ann.expect(messages.Lobby, lambda m: not any(s["bot"] for s in _seats(m, tid)))

        ann.send(messages.AddBot(table=tid, kind="ismcts", level="easy"))  # the greedy bot
        lobby = await ann.expect(messages.Lobby, lambda m: any(s["bot"] for s in _seats(m, tid)))
        (easy,) = [s for s in _seats(lobby, tid) if s["bot"]]
        assert (easy["bot"], easy["level"]) == ("greedy", "easy")
        assert table.seats[easy["seat"]].bot_level is None
        ann.send(messages.RemoveBot(table=tid, seat=easy["seat"]))
        await ann.expect(messages.Lobby, lambda m: not any(s["bot"] for s in _seats(m, tid)))

        ann.send(messages.AddBot(table=tid, kind="ismcts", level="normal"))
        ann.send(messages.AddBot(table=tid, kind="ismcts", level="hard"))
        lobby = await ann.expect(messages.Lobby, lambda m: sum(
            bool(s["bot"]) for s in _seats(m, tid)) == 2)
        seats = _seats(lobby, tid)
        levels = {s["seat"]: s["level"] for s in seats if s["bot"]}
        assert sorted(levels.values()) == ["hard", "normal"]
        assert seats[a]["level"] is None
        normal = next(i for i, lv in levels.items() if lv == "normal")
        hard = next(i for i, lv in levels.items() if lv == "hard")
        assert _budget(table.seats[normal].bot) == (1.0, 5000)
        assert _budget(table.seats[hard].bot) == (1.5, None)
        assert (table.seats[normal].bot_level, table.seats[hard].bot_level) == ("normal", "hard")

        ann.send(messages.Start(table=tid))
        await state_at(ann)
        ann.close()
        await stop_host(host)
        (item,) = record_store.listing(records)
        by_seat = {p["seat"]: p for p in item.record["players"]}
        assert (by_seat[normal]["level"], by_seat[hard]["level"]) == ("normal", "hard")
        assert "think" not in by_seat[normal] and "think" not in by_seat[hard]
        assert by_seat[a]["kind"] == "human"

        again = make_host(records_dir=str(records), state_dir=str(state), resume=True,
                          bot_think=0.05)
        try:
            table = again.lobby.tables[tid]
            assert (table.seats[normal].bot_level, table.seats[hard].bot_level) == (
                "normal", "hard")
            assert _budget(table.seats[normal].bot) == (1.0, 5000)
            assert _budget(table.seats[hard].bot) == (1.5, None)
            public = table.lobby_entry()
            assert [s["level"] for s in public["seats"]] == [
                {normal: "normal", hard: "hard"}.get(i) for i in range(3)]
            # quick bots play every seat on to the end; the seats keep their levels
            for i in (normal, hard):
                table.seats[i].bot = GreedyBot(random.Random(i))
            table.add_bot(None, a, "greedy")  # a bot plays ann's seat
            table.seats[a].token = None
            table.bots.schedule()
            await until(lambda: table.status == "finished", "the resumed game to end")
            (item,) = record_store.listing(records)
            assert item.record["kind"] == "full"
            by_seat = {p["seat"]: p for p in item.record["players"]}
            assert (by_seat[normal]["level"], by_seat[hard]["level"]) == ("normal", "hard")
        finally:
            await stop_host(again)

    run(scenario())


def test_the_hosts_own_level_easy_seats_the_greedy_bot_and_says_so():
    """On a host started with --level easy, add_bot without a level (an older client, or
    the lobby's b) seats the easy level's bot, the greedy one, as the host's own bots are:
    not a searching bot that would play at normal while the lobby said easy."""
    async def scenario() -> None:
        host = make_host(bot_level="easy")
        try:
            tid = host.create_table("easy", "jamaica", OPTIONS)
            ((ann, _seat, _token),) = await seat_players(host.port, tid, ["ann"])
            ann.send(messages.AddBot(table=tid, kind="ismcts"))
            ann.send(messages.AddBot(table=tid, kind="ismcts", level="hard"))
            lobby = await ann.expect(messages.Lobby, lambda m: all(
                s["name"] for s in _seats(m, tid)))
            bots = sorted((s["bot"], s["level"]) for s in _seats(lobby, tid) if s["bot"])
            assert bots == [("greedy", "easy"), ("ismcts", "hard")]
            table = host.lobby.tables[tid]
            assert sorted(type(s.bot).__name__ for s in table.seats if s.bot) == [
                "GreedyBot", "IsmctsBot"]
        finally:
            await stop_host(host)

    run(scenario())
