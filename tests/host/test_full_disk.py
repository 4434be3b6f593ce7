"""A full disk under the state dir (a real tmpfs the test mounts): an action
that cannot be journaled is refused with ``journal-failed``, nothing changes or is sent,
and once the disk takes writes again the game goes on to its end and restores exactly."""
from __future__ import annotations

import asyncio
import random

from protocol import messages
from tests.disks import fill, read_only, tmpfs
from tests.portable import kill_hard
from tests.twisted_loop import until

from .crashkit import Player, choose, play_to_end
from .helpers import join, make_host, run, seat_players, state_at, stop_host

OPTIONS = {"players": 2}  # the whole board: a game long enough to fill a page


async def _setup(host):
    ann, _ = await join(host.port, "ann")
    ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
    joined = await ann.expect(messages.Joined)
    tid = joined.table
    (bob, seat, token), = await seat_players(host.port, tid, ["bob"])
    ann.send(messages.Start(table=tid))
    players = [Player(ann, joined.seat, joined.token), Player(bob, seat, token)]
    for p in players:
        while p.latest is None:
            await p.pump()
    return tid, players


def mostly_forward(legal: list[str], rng: random.Random, finish: bool) -> str:
    """Random moves, mostly advances: a game that ends (always taking the first advance
    can loop for ever between one retreat and one advance when cards run short)."""
    forward = [a for a in legal if a.startswith("advance")]
    return rng.choice(forward if forward and rng.random() < 0.8 else legal)


async def _send_action(p: Player, table: int, rng: random.Random,
                       finish: bool = False, action: str | None = None) -> messages.Error | None:
    """``p`` (to act, up to date) sends one action (``action``, else one picked at
    random); the refusal, or None once the state moved on."""
    seq = p.latest.seq
    pick = mostly_forward if finish else choose
    if action is None:
        action = pick(list(p.latest.legal), rng, finish)
    p.last_sent = action
    p.client.send(messages.Action(table=table, seq=seq, action=action))
    while True:
        msg = await asyncio.wait_for(p.client.inbox.get(), 30)
        if isinstance(msg, messages.Error):
            return msg
        if isinstance(msg, messages.State):
            p.take(msg)
            if msg.seq > seq:
                return None


async def _act(host, tid, players, rng, finish: bool = True,
               action: str | None = None) -> messages.Error | None:
    """The actor plays one action (``action``, else one at random); the refusal, if any."""
    table = host.lobby.tables[tid]
    assert not table.state.is_over, "the game ended before the disk refused anything"
    p = next(q for q in players if q.seat == table.state.actor)
    for q in players:
        q.drain()
        while q.latest.seq < table.seq:
            await q.pump()
    return await _send_action(p, tid, rng, finish, action)


def test_an_action_that_cannot_be_journaled_is_refused_and_the_game_goes_on():
    with tmpfs() as where:
        state_dir = where / "state"
        host = make_host(state_dir=str(state_dir), rate=1e6, burst=2e6)  # plays fast

        async def go():
            tid, players = await _setup(host)
            table = host.lobby.tables[tid]
            rng = random.Random(5)
            for _ in range(6):
                assert await _act(host, tid, players, rng) is None
            filler = fill(where)
            # The journal's last page may still hold a few records: play (retreats, a
            # long game) until the disk refuses one.
            for _ in range(300):
                before, seq = table.state.copy(), table.seq
                sent = [len(p.client.frames()) for p in players]
                error = await _act(host, tid, players, rng, finish=False)
                if error is not None:
                    break
            assert not table.state.is_over
            refused = next(p for p in players if p.seat == table.state.actor).last_sent
            # The same action, refused again and again, and nothing changes (another
            # action's shorter record may still fit in the space the disk has left).
            for _ in range(3):
                assert error is not None and error.code == "journal-failed", error
                assert "disk" in error.message
                assert table.state == before and table.seq == seq
                error = await _act(host, tid, players, rng, finish=False, action=refused)
            # The other player was sent nothing: no state moved.
            other = next(p for p in players if p.seat != table.state.actor)
            assert not any(f.get("type") == "state" for f in other.client.frames()[sent[other.seat]:])
            filler.unlink()
            for _ in range(3000):  # the disk takes writes: the game goes on to its end
                if table.state.is_over:
                    break
                assert await _act(host, tid, players, rng) is None
            assert table.state.is_over
            return tid, table.state.copy(), table.seq, players

        try:
            tid, final, final_seq, players = run(go(), timeout=240)
        finally:
            run(stop_host(host))  # as a crash would: the players are still seated
        for p in players:
            p.client.close()
        again = make_host(state_dir=str(state_dir), resume=True, rate=1e6, burst=2e6)  # nothing acknowledged lost
        try:
            table = again.lobby.tables[tid]
            assert table.state == final and table.seq == final_seq
        finally:
            run(stop_host(again))


def test_a_game_cannot_start_unjournaled():
    with tmpfs() as where:
        host = make_host(state_dir=str(where / "state"), rate=1e6, burst=2e6)

        async def go():
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
            tid = (await ann.expect(messages.Joined)).table
            ann.send(messages.AddBot(table=tid, kind="greedy"))
            await until(lambda: host.lobby.tables[tid].seats[1].controller is not None)
            filler = fill(where)
            ann.send(messages.Start(table=tid))
            error = await ann.expect(messages.Error)
            assert error.code == "journal-failed"
            assert host.lobby.tables[tid].status == "waiting"
            filler.unlink()
            ann.send(messages.Start(table=tid))
            await ann.expect(messages.State)
            assert host.lobby.tables[tid].status == "playing"
            ann.close()

        try:
            run(go(), timeout=120)
        finally:
            run(stop_host(host))


def test_a_host_process_whose_disk_turns_read_only_refuses_says_why_and_goes_on(tmp_path):
    """The host as a subprocess, its state dir on a real tmpfs remounted read-only in the
    middle of a game: every action is refused with ``journal-failed``, nothing moves, its
    log says why once; remounted read-write, the game goes on to its end, and a kill -9
    then loses nothing (the restarted host restores the final state exactly)."""
    from .test_resume import _spawn, _stop

    with tmpfs("8m") as where:
        state = where / "state"
        log = tmp_path / "host.log"
        with open(log, "w") as err:
            proc, port = _spawn(state, "--players", "2", "--rate-limit", "100000",
                                stderr=err)
        proc2 = None
        try:
            async def play() -> tuple[list[Player], messages.State]:
                seated = await seat_players(port, 1, ["ann", "bob"])
                seated[0][0].send(messages.Start(table=1))
                players = [Player(c, seat, tok) for c, seat, tok in seated]
                rng = random.Random(3)
                await play_to_end(players, 1, rng, stop=lambda s: s.seq >= 8)
                for p in players:
                    while p.latest is None or p.latest.seq < 8:
                        await p.pump()
                read_only(where)
                mover = next(p for p in players if p.latest.legal)
                other = next(p for p in players if p is not mover)
                seq, view = mover.latest.seq, mover.latest.view
                sent = len(other.client.frames())
                for _ in range(3):  # refused, again and again, and nothing moves
                    error = await _send_action(mover, 1, rng)
                    assert error is not None and error.code == "journal-failed", error
                    assert "disk" in error.message
                    assert mover.latest.seq == seq and mover.latest.view == view
                await asyncio.sleep(0.3)
                assert not any(f.get("type") == "state"
                               for f in other.client.frames()[sent:])
                read_only(where, on=False)
                end = await play_to_end(players, 1, rng, policy=mostly_forward)
                assert end.view["outcome"] is not None
                for p in players:
                    while p.latest.seq < end.seq:
                        await p.pump()
                return players, end

            players, _ = run(play(), timeout=240)
            text = log.read_text()
            assert text.count("cannot write the journal") == 1, text  # said once
            assert "Read-only file system" in text and "the journal writes again" in text
            kill_hard(proc.pid)
            proc.wait(timeout=30)
            for p in players:
                p.client.close()
            with open(log, "a") as err:
                proc2, port2 = _spawn(state, "--resume", "--rate-limit", "100000",
                                      stderr=err)

            async def restored() -> None:
                for p in players:
                    client, welcome = await join(port2, "again", token=p.token)
                    assert welcome.resumed == {"table": 1, "seat": p.seat}
                    fresh = await state_at(client)
                    assert (fresh.seq, fresh.view) == (p.latest.seq, p.latest.view)
                    client.close()

            run(restored())
        finally:
            _stop(proc, proc2)
    assert "Traceback" not in log.read_text()


def test_the_hosts_own_client_says_what_is_wrong_with_its_disk():
    """``HostService.trouble`` (shown by the host's own terminal client) names the tables
    whose journal the disk refuses, and the records waiting for room; None once fixed."""
    with tmpfs() as where:
        host = make_host(state_dir=str(where / "state"), rate=1e6, burst=2e6)

        async def go():
            tid, players = await _setup(host)
            assert host.trouble() is None
            rng = random.Random(11)
            read_only(where)
            try:
                error = await _act(host, tid, players, rng, finish=False)
                assert error is not None and error.code == "journal-failed"
                trouble = host.trouble()
                assert trouble and f"the game of table {tid}" in trouble
                assert "the disk is read-only" in trouble  # its errno (EROFS), worded
            finally:
                read_only(where, on=False)
            assert await _act(host, tid, players, rng) is None
            assert host.trouble() is None
            for p in players:
                p.client.close()

        try:
            run(go(), timeout=120)
        finally:
            run(stop_host(host))


def test_every_seat_is_told_the_game_is_paused_by_a_full_disk_and_when_it_goes_on():
    """The game stopped at "waiting for ..." without a word to anyone but the host's own
    client: now every seat (and every watcher) is sent a ``journal-failed`` notice in the
    lobby (data, worded by each client: a terminal client's status area shows it), gone
    once the disk has room; the game then plays to its end, and its record, refused by
    the same full disk, is written within seconds of the room being back."""
    from cartagena_net.records import store as record_store
    from client.model import ClientModel
    from client.render import render_screen
    from client.text import to_text

    def records_of(folder):
        return [i for i in record_store.listing(folder) if i.record]

    with tmpfs("768k") as where:
        records = where / "records"
        host = make_host(state_dir=str(where / "state"), records_dir=str(records),
                         reviews=False, rate=1e6, burst=2e6)

        def notices(p: Player, tid: int) -> list[list[str]]:
            """The kinds of the table's notices in every lobby ``p`` was sent, in order."""
            out = []
            for f in p.client.frames():
                if f.get("type") == "lobby":
                    for t in f["tables"]:
                        if t["id"] == tid:
                            out.append([n["kind"] for n in t.get("notices", [])])
            return out

        async def go():
            tid, players = await _setup(host)
            table = host.lobby.tables[tid]
            rng = random.Random(5)
            filler = fill(where)
            for _ in range(300):
                error = await _act(host, tid, players, rng, finish=False)
                if error is not None:
                    break
            assert error is not None and error.code == "journal-failed"
            for p in players:  # the acting seat and the waiting one alike
                await until(lambda p=p: ["journal-failed"] in notices(p, tid),
                            f"seat {p.seat} told of the pause")
            other = next(p for p in players if p.seat != table.state.actor)
            # What the waiting seat's terminal client shows from those very frames.
            model = ClientModel(name="bob")
            model.on_message({"type": "welcome", "host_id": "h", "host_name": "h"})
            for f in other.client.frames():
                if f.get("type") in ("lobby", "joined", "state"):
                    model.on_message(f)
            model.table, model.seat = tid, other.seat
            text = " ".join(to_text(render_screen(model, 100, 30)).split())
            assert "game paused: the host's disk is full or refuses writes" in text, text
            assert "(the disk is full)" in text  # its errno, ENOSPC, worded by the client
            filler.unlink()
            for _ in range(3000):
                if table.state.is_over:
                    break
                assert await _act(host, tid, players, rng) is None
            assert table.state.is_over
            for p in players:  # the pause is over, said to every seat
                await until(lambda p=p: notices(p, tid)[-1] == [], "the notice gone")
            seen = len(other.client.frames())
            for f in other.client.frames()[:seen]:
                if f.get("type") == "lobby":
                    model.on_message(f)
            assert model.status == "the host's disk has room again: the game goes on"
            assert not any("game paused" in "".join(x for _, x in line)
                           for line in render_screen(model, 100, 30))
            await until(lambda: records_of(records), "the game's record", timeout=6)
            for p in players:
                p.client.close()

        try:
            run(go(), timeout=240)
        finally:
            run(stop_host(host))


def test_a_bot_refused_by_the_disk_plays_as_soon_as_there_is_room():
    """A bot whose action the disk refused backed off up to a minute: the game stood
    still long after the disk had room. It tries again every few seconds instead."""
    with tmpfs() as where:
        host = make_host(state_dir=str(where / "state"), bot_delay=0.5, bot_level="easy",
                         rate=1e6, burst=2e6)

        async def go():
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
            joined = await ann.expect(messages.Joined)
            tid = joined.table
            ann.send(messages.AddBot(table=tid, seat=None, kind="greedy"))
            table = host.lobby.tables[tid]
            await until(lambda: all(s.occupied for s in table.seats), "the bot seated")
            ann.send(messages.Start(table=tid))
            player = Player(ann, joined.seat, joined.token)
            rng = random.Random(3)
            while True:  # ann plays until the bot is to act
                while player.latest is None or player.latest.seq < table.seq:
                    await player.pump()
                if table.state.actor != player.seat:
                    break
                assert await _send_action(player, tid, rng) is None
            read_only(where)  # before the bot's move (it waits bot_delay)
            try:
                await until(lambda: table.journal_failing, "the bot's move refused", timeout=10)
                # Refused again and again meanwhile (a try every DISK_RETRY s). The old
                # backoff tried at about 2.5, 7, 15.5 and 32 s: after 8 s its next try
                # was 7 s away, past the 4 s allowed below.
                await asyncio.sleep(8.0)
                assert table.journal_failing and table.state.actor != player.seat
            finally:
                read_only(where, on=False)
            seq = table.seq
            await until(lambda: table.seq > seq, "the bot's move once there is room",
                        timeout=4)
            assert not table.journal_failing
            ann.close()

        try:
            run(go(), timeout=120)
        finally:
            run(stop_host(host))
