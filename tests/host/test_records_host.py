"""The host keeps a record of every game: at its end a full one, when it stops mid-game
a spectator's one (replaced by the full one once the resumed game ends); a record that
cannot be written is logged and changes nothing else."""
from __future__ import annotations

import asyncio
import json

from cartagena_net.records import replay
from cartagena_net.records import store as record_store
from protocol import messages
from tests.twisted_loop import until

from .crashkit import captured_logs, grep
from .helpers import make_host, run, seat_players, state_at, stop_host

OPTIONS = {"players": 2, "segments": 1}


def test_a_game_of_bots_leaves_a_full_record_that_replays_to_the_tables_end(tmp_path):
    records = tmp_path / "records"

    async def scenario() -> None:
        host = make_host(records_dir=str(records), bot_level="easy")
        try:
            tid = host.create_table("bots", "jamaica", dict(OPTIONS, players=3), bots=3,
                                    bot_kind="greedy")
            table = host.lobby.tables[tid]
            table.seats[2].bot_kind = "random"  # two kinds at one table
            table.start(None)
            await until(lambda: table.status == "finished", "the game to end")
            (item,) = record_store.listing(records)
            rec = item.record
            assert rec["kind"] == "full" and rec["end"] == "won"
            assert rec["id"].endswith(f"-{host.host_id[:8]}-{tid}-{table.match.game_seq}")
            assert [p["kind"] for p in rec["players"]] == ["bot"] * 3
            assert [p["bot"] for p in rec["players"]] == ["greedy", "greedy", "random"]
            assert [p["name"] for p in rec["players"]] == [s.name for s in table.seats]
            assert rec["table"] == "bots" and rec["host"] == "test host"
            assert rec["started"] <= rec["ended"]
            assert replay(rec) == table.state
            assert rec["outcome"]["winner"] == table.state.outcome.winner
        finally:
            await stop_host(host)
        assert len(record_store.listing(records)) == 1  # a finished game: nothing more

    run(scenario())


def test_a_stopped_game_leaves_a_spectators_record_replaced_when_it_ends(tmp_path):
    records, state = tmp_path / "records", tmp_path / "state"

    async def scenario() -> None:
        host = make_host(records_dir=str(records), state_dir=str(state))
        tid = host.create_table("t", "jamaica", OPTIONS, bots=1, bot_kind="greedy")
        ((ann, _, token),) = await seat_players(host.port, tid, ["ann"])
        ann.send(messages.Start(table=tid))
        s = await state_at(ann)
        for _ in range(3):
            while not s.legal:
                s = await state_at(ann)
            ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            s = await state_at(ann, s.seq + 1)
        ann.close()
        hands = [seat["hand"] for seat in s.view["seats"] if seat["hand"]]
        await stop_host(host)
        (item,) = record_store.listing(records)
        rec = item.record
        assert rec["kind"] == "spectator" and rec["end"] == "stopped"
        assert rec["players"][0] == {"seat": 0, "color": "red", "name": "ann", "kind": "human"}
        text = json.dumps(rec)
        assert token not in text and "chance" not in rec
        assert all(seat["hand"] is None for seat in rec["final"]["seats"])
        assert hands  # ann saw her hand; the record shows none of it
        first_id = rec["id"]

        again = make_host(records_dir=str(records), state_dir=str(state), resume=True)
        try:
            table = again.lobby.tables[tid]
            table.add_bot(None, 0, "greedy")  # a bot plays ann's seat on to the end
            table.seats[0].token = None
            table.bots.schedule()
            await until(lambda: table.status == "finished", "the resumed game to end")
            (item,) = record_store.listing(records)  # the same id: replaced
            assert item.record["id"] == first_id and item.record["kind"] == "full"
            assert replay(item.record) == table.state
        finally:
            await stop_host(again)

    run(scenario())


def test_a_record_that_cannot_be_written_is_logged_and_the_host_plays_on(tmp_path):
    blocked = tmp_path / "records"
    blocked.write_text("a file where the records folder should be\n")

    async def scenario() -> list[str]:
        with captured_logs() as lines:
            host = make_host(records_dir=str(blocked))
            try:
                tid = host.create_table("bots", "jamaica", OPTIONS, bots=2, bot_kind="greedy")
                table = host.lobby.tables[tid]
                table.start(None)
                await until(lambda: table.status == "finished", "the game to end")
                table.start(None)  # and the table plays again
                await until(lambda: table.status == "finished", "the second game to end")
            finally:
                await stop_host(host)
        return lines

    lines = run(scenario())
    failed = grep(lines, "record could not be written", str(blocked))
    assert len(failed) == 2, lines
    assert not grep(lines, "Traceback")
    assert blocked.read_text() == "a file where the records folder should be\n"


def test_a_record_refused_by_a_full_disk_is_written_once_space_is_back():
    """Within seconds of the room being back (it was tried every 30 s: a player who
    quit sooner had it written only at quit)."""
    from tests.disks import fill, tmpfs

    with tmpfs("256k") as where:
        records = where / "records"
        records.mkdir()
        filler = fill(where)

        async def scenario() -> tuple[list[str], list]:
            with captured_logs() as lines:
                host = make_host(records_dir=str(records), bot_level="easy")
                try:
                    tid = host.create_table("bots", "jamaica", OPTIONS, bots=2,
                                            bot_kind="greedy")
                    table = host.lobby.tables[tid]
                    table.start(None)
                    await until(lambda: table.status == "finished", "the game to end")
                    await until(lambda: grep(lines, "record could not be written"),
                                "the refusal to be logged")
                    assert record_store.listing(records) == []
                    assert len(host.records_waiting.records) == 1
                    await asyncio.sleep(1.5)  # tried again meanwhile: still no room
                    assert record_store.listing(records) == []
                    assert not list(records.iterdir())  # no half record left behind
                    filler.unlink()  # space is back
                    await until(lambda: record_store.listing(records), "the record",
                                timeout=6)
                    assert not host.records_waiting.records
                    (item,) = record_store.listing(records)
                    assert item.record["end"] == "won"
                    assert replay(item.record) == table.state
                finally:
                    await stop_host(host)
            return lines

        lines = run(scenario())
    assert grep(lines, "refused by the disk before, is now")
    assert not grep(lines, "Traceback")


def test_the_host_reviews_a_finished_game_in_its_workers_beside_its_record(tmp_path):
    from cartagena_net.bots.review import check

    records = tmp_path / "records"

    async def scenario() -> None:
        host = make_host(records_dir=str(records), bot_level="easy", bot_workers=2)
        try:
            tid = host.create_table("bots", "jamaica", OPTIONS, bots=2, bot_kind="greedy")
            table = host.lobby.tables[tid]
            table.start(None)
            await until(lambda: table.status == "finished", "the game to end")
            (item,) = record_store.listing(records)
            assert host.reviewer.busy == item.id or host.reviewer.done
            assert host.thinker.pids()  # the review's jobs run in worker processes
            review = await until(lambda: record_store.read_review(records, item.id),
                                 "the review", timeout=120)
            assert check(review, item.record) is review
            assert review["positions"][-1]["chances"][table.state.outcome.winner] == 1.0
            assert host.reviewer.done == 1 and host.reviewer.busy is None
        finally:
            await stop_host(host)

    run(scenario())


def test_no_review_when_reviews_are_off(tmp_path):
    records = tmp_path / "records"

    async def scenario() -> None:
        host = make_host(records_dir=str(records), bot_level="easy", reviews=False)
        try:
            tid = host.create_table("bots", "jamaica", OPTIONS, bots=2, bot_kind="greedy")
            table = host.lobby.tables[tid]
            table.start(None)
            await until(lambda: table.status == "finished", "the game to end")
            await asyncio.sleep(1.0)
            assert host.reviewer.busy is None and not host.thinker.pids()
            assert not (records / "reviews").exists()
        finally:
            await stop_host(host)

    run(scenario())


def test_the_evenings_scoreboard_is_in_the_lobby_and_survives_a_restart(tmp_path):
    from .helpers import join

    records, state = tmp_path / "records", tmp_path / "state"

    def last_scores(client) -> list:
        lobbies = [m for m in client.seen if isinstance(m, messages.Lobby)]
        return list(lobbies[-1].scores) if lobbies else []

    async def scenario() -> None:
        host = make_host(records_dir=str(records), state_dir=str(state), reviews=False)
        try:
            watcher, _ = await join(host.port, "watcher", role="spectator")
            await until(lambda: any(isinstance(m, messages.Lobby) for m in watcher.seen),
                        "a lobby")
            assert last_scores(watcher) == []
            for _ in range(2):
                tid = host.create_table("bots", "jamaica", OPTIONS, bots=2,
                                        bot_kind="greedy")
                table = host.lobby.tables[tid]
                table.start(None)
                await until(lambda t=table: t.status == "finished", "the game to end")
                await asyncio.sleep(1.1)  # another second: another record id
            rows = await until(lambda: [r for r in last_scores(watcher)
                                        if r["games"] == 2], "the scoreboard")
            (row,) = rows  # two greedy bots at each table: one player in each game
            assert row == {"player": "greedy", "bot": True, "games": 2, "wins": 2,
                           "places": [2]}
            watcher.close()
            host_id = host.host_id
        finally:
            await stop_host(host)
        again = make_host(records_dir=str(records), state_dir=str(state), reviews=False)
        try:
            assert again.host_id == host_id
            fresh, _ = await join(again.port, "fresh", role="spectator")
            await until(lambda: last_scores(fresh) and last_scores(fresh)[0]["games"] == 2,
                        "tonight's scores after a restart")
            fresh.close()
        finally:
            await stop_host(again)

    run(scenario())


def test_games_ending_faster_than_reviews_keep_only_the_newest_waiting(tmp_path):
    """A host whose games end faster than its workers review them holds at most
    ``WAITING`` records for review: the oldest give way, each logged, none kept without
    end (a long evening of bots-only tables on the TV)."""
    from cartagena_net.host.reviewer import WAITING, Reviewer

    reviewer = Reviewer(host=None)
    reviewer.busy = "a review under way"
    folder = str(tmp_path / "records")
    for n in range(WAITING + 9):
        reviewer.add(folder, {"kind": "full", "id": f"g{n}"})
    assert len(reviewer.queue) == WAITING and reviewer.skipped == 9
    # every one is still due (the put-off ones too): made at the next start, or --due
    assert sorted(p.name for p in (tmp_path / "records" / "reviews").iterdir()) == sorted(
        f"g{n}.due" for n in range(WAITING + 9))
    assert [i for _, i, _ in reviewer.queue] == [f"g{n}" for n in range(9, WAITING + 9)]
    reviewer.add(folder, {"kind": "spectator", "id": "partial"})  # never reviewed
    assert len(reviewer.queue) == WAITING and reviewer.skipped == 9
