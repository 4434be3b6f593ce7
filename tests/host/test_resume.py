"""Crash safety: journals written before broadcast; --resume restores every table exactly."""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

from cartagena_net.host.journal import list_journals, read_journal, write_journal
from cartagena_net.host.passwords import verify_password
from protocol import messages
from tests.portable import kill_hard, mode_of, spawn_options

from .crashkit import Player, play_to_end, reshuffles
from .helpers import join, make_host, run, seat_players, state_at, stop_host

ROOT = Path(__file__).resolve().parents[2]


def test_resume_restores_tables_exactly_in_process(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        tid = host.create_table("t", "jamaica", {"players": 3}, bots=2, bot_kind="random")
        other = host.create_table("waiting", "tortuga", {"players": 2}, password="pw")
        ((ann, seat, tok),) = await seat_players(host.port, tid, ["ann"])
        ann.send(messages.Start(table=tid))
        s = await state_at(ann)
        while not s.legal:
            s = await state_at(ann)
        ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[-1]))
        s2 = await state_at(ann, s.seq + 1)
        before = host.lobby.tables[tid]
        # the accepted action was written before ann could see its result
        records = read_journal(before.journal.path).records
        assert records[-1]["t"] == "act" and records[-1]["seq"] == s2.seq
        assert mode_of(tmp_state) in (0o700, None)
        for _, path in list_journals(tmp_state):
            assert mode_of(path) in (0o600, None)
        bob, _ = await join(host.port, "bob")
        bob.send(messages.JoinTable(table=other, password="pw"))
        bob_tok = (await bob.expect(messages.Joined)).token
        ann.close()
        await stop_host(host)
        bye = await bob.expect(messages.Bye)
        assert bye.reason == "the host ended the game"
        await bob.closed()

        again = make_host(state_dir=str(tmp_state), resume=True)
        try:
            after = again.lobby.tables[tid]
            assert after.state == before.state  # pirates, hands, stock order, turn...
            assert after.state.record() == before.state.record()
            assert (after.seq, after.status, after.owner) == (before.seq, "playing", before.owner)
            # the same game (the pages key what they keep of a game by its first seq)
            assert after.game_seq == before.game_seq > 0
            assert [s.public() for s in after.seats][1:] == [s.public() for s in before.seats][1:]
            assert after.seats[seat].token == tok and after.seats[seat].conn is None
            waiting = again.lobby.tables[other]
            assert (waiting.rules, waiting.status) == ("tortuga", "waiting")
            assert verify_password("pw", waiting.password.hash)
            assert (waiting.seats[0].name, waiting.seats[0].token) == ("bob", bob_tok)
            back, welcome = await join(again.port, "ann", token=tok)
            assert welcome.resumed == {"table": tid, "seat": seat}
            fresh = await state_at(back, s2.seq)
            assert fresh.view == s2.view and fresh.legal == s2.legal
            back.send(messages.Action(table=tid, seq=fresh.seq, action=fresh.legal[0]))
            await state_at(back, fresh.seq + 1)
            back.close()
        finally:
            await stop_host(again)

    run(scenario())


def _host_command() -> list[str]:
    return [sys.executable, "-m", "cartagena_net", "host"]


def _spawn(state_dir: Path, *extra: str, stderr: int = subprocess.DEVNULL,
           ) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [*_host_command(), "--headless", "--port", "0",
         "--bind", "127.0.0.1", "--discovery", "off", "--state-dir", str(state_dir),
         "--bot-delay", "0", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True, **spawn_options(),
    )
    line = proc.stdout.readline()
    assert "listening on port" in line, line
    return proc, int(line.rsplit(" ", 1)[1])


def _stop(*procs: subprocess.Popen | None) -> None:
    for p in procs:
        if p is not None and p.poll() is None:
            p.terminate()
            p.wait(timeout=30)


def test_kill_9_then_resume_in_a_subprocess(tmp_state):
    proc, port = _spawn(tmp_state, "--players", "2", "--name", "crashy")
    proc2 = None
    try:
        async def before_crash():
            players = await seat_players(port, 1, ["ann", "bob"])
            players[0][0].send(messages.Start(table=1))
            last = {}
            seq = None
            for _ in range(7):  # play a few actions, whoever is to act
                states = {}
                for c, seat, _ in players:
                    states[seat] = await state_at(c, seq)
                seq = next(iter(states.values())).seq
                mover = next(seat for seat, st in states.items() if st.legal)
                c = next(c for c, seat, _ in players if seat == mover)
                c.send(messages.Action(table=1, seq=seq, action=states[mover].legal[0]))
                seq += 1
            for c, seat, _ in players:
                last[seat] = await state_at(c, seq)
            return players, last

        players, last = run(before_crash())
        kill_hard(proc.pid)
        proc.wait(timeout=30)
        for c, _, _ in players:
            c.close()
        proc2, port2 = _spawn(tmp_state, "--resume")

        async def after_resume():
            for c, seat, tok in players:
                back, welcome = await join(port2, "again", token=tok)
                assert welcome.resumed == {"table": 1, "seat": seat}
                fresh = await state_at(back)
                assert fresh.seq == last[seat].seq
                assert fresh.view == last[seat].view  # same pirates, own hand, stock size
                assert fresh.legal == last[seat].legal
                back.close()
            await asyncio.sleep(0)

        run(after_resume())
    finally:
        _stop(proc, proc2)


def test_kill_9_when_the_stock_runs_low_then_play_past_a_reshuffle_to_the_end(tmp_state):
    """The repro of a resumed game dying at its next reshuffle, end to end."""
    log = tmp_state.parent / "host.log"
    with open(log, "w") as err:
        proc, port = _spawn(tmp_state, "--players", "2", "-o", "segments=1", "-o", "pirates=6",
                            stderr=err)
    proc2 = None
    try:
        async def before_crash():
            seated = await seat_players(port, 1, ["ann", "bob"])
            seated[0][0].send(messages.Start(table=1))
            players = [Player(c, seat, tok) for c, seat, tok in seated]
            low = await play_to_end(players, 1, random.Random(7), min_reshuffles=10**6,
                                    stop=lambda s: s.view["stock"] <= 2)
            assert low.view["outcome"] is None and low.view["stock"] <= 2
            for p in players:
                while p.latest.seq < low.seq:
                    await p.pump()
            return players

        players = run(before_crash())
        kill_hard(proc.pid)
        proc.wait(timeout=30)
        for p in players:
            p.client.close()
        with open(log, "a") as err:
            proc2, port2 = _spawn(tmp_state, "--resume", stderr=err)

        async def after_resume():
            back = []
            for p in players:
                client, welcome = await join(port2, "again", token=p.token)
                assert welcome.resumed == {"table": 1, "seat": p.seat}
                fresh = await state_at(client)
                assert (fresh.seq, fresh.view, fresh.legal) == (
                    p.latest.seq, p.latest.view, p.latest.legal)
                q = Player(client, p.seat, p.token)
                q.latest = fresh  # events from here on only: those after the resume
                back.append(q)
            end = await play_to_end(back, 1, random.Random(8), min_reshuffles=1)
            assert end.view["outcome"] is not None
            assert max(reshuffles(q.events) for q in back) >= 1
            for q in back:
                q.client.close()

        run(after_resume())
    finally:
        _stop(proc, proc2)
    text = log.read_text()
    assert "Traceback" not in text and "internal" not in text, text
    assert "restored table 1 (playing)" in text


def test_the_cli_without_resume_archives_old_journals_and_says_where(tmp_state):
    tmp_state.mkdir(mode=0o700)  # (a folder open to others is refused: test_state_dir_words)
    old = tmp_state / "table-3.journal"
    # a table of an earlier run with no game on (a damaged journal is offered back, and
    # restoring it says what was lost: test_journal_corruption.py)
    write_journal(old, [{"t": "table", "id": 3, "name": "x", "rules": "jamaica",
                         "options": {"players": 2}}])
    earlier = old.read_bytes()
    log = tmp_state.parent / "host.log"
    with open(log, "w") as err:
        proc, _ = _spawn(tmp_state, stderr=err)
    _stop(proc)
    text = log.read_text()
    (folder,) = [p for p in tmp_state.iterdir() if p.name.startswith("archive-")]
    assert (folder / "table-3.journal").read_bytes() == earlier
    assert f"1 journal file of an earlier run moved to {folder}" in text
    assert "--resume" in text
    assert mode_of(tmp_state) in (0o700, None)
    assert [i for i, _ in list_journals(tmp_state)] == [1]  # the first table, made afresh


def test_a_resumed_host_keeps_a_table_of_its_own_when_its_empty_one_was_not_restored(tmp_state):
    """The host's own table was empty at the kill (so not restored) while a client's table
    plays on: after --resume, the lobby still has a host table for friends to sit at."""
    proc, port = _spawn(tmp_state, "--players", "2")
    proc2 = None
    try:
        async def before_crash():
            ann, _ = await join(port, "ann")
            ann.send(messages.CreateTable(name="ann's", rules="jamaica", options={"players": 2}))
            j = await ann.expect(messages.Joined)
            ann.send(messages.AddBot(table=j.table, kind="random"))
            ann.send(messages.Start(table=j.table))
            await state_at(ann)
            return ann, j

        ann, joined = run(before_crash())
        kill_hard(proc.pid)
        proc.wait(timeout=30)
        ann.close()
        proc2, port2 = _spawn(tmp_state, "--resume")

        async def after_resume():
            back, welcome = await join(port2, "ann", token=joined.token)
            assert welcome.resumed == {"table": joined.table, "seat": joined.seat}
            lobby = await back.expect(messages.Lobby)
            ids = {t["id"]: t for t in lobby.tables}
            assert joined.table in ids and ids[joined.table]["status"] == "playing"
            own = [t for tid, t in ids.items() if tid != joined.table]
            assert len(own) == 1 and own[0]["status"] == "waiting"
            back.close()

        run(after_resume())
    finally:
        _stop(proc, proc2)
