"""Host-side failures stay contained: a bug drops one connection; a failing disk refuses
the actions it cannot save, and nothing else."""
from __future__ import annotations

from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host


def test_a_host_bug_drops_only_the_connection_that_hit_it(monkeypatch):
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            ann, _ = await join(host.port, "ann")
            table = host.lobby.tables[tid]

            def broken(*args, **kwargs):
                raise RuntimeError("boom")

            monkeypatch.setattr(table, "sit", broken)
            ann.send(messages.JoinTable(table=tid))
            err = await ann.expect(messages.Error)
            assert (err.code, err.fatal, err.ref) == ("internal", True, "join_table")
            assert "boom" not in err.message
            await ann.closed()
            monkeypatch.undo()
            bob, _ = await join(host.port, "bob")
            bob.send(messages.JoinTable(table=tid))
            assert (await bob.expect(messages.Joined)).seat == 0
            bob.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_a_failing_journal_refuses_the_action_and_the_game_goes_on_after(tmp_state):
    """Nothing counts that is not on disk: the action is refused (``journal-failed``)
    and nothing changes; once the disk writes again the same action goes through."""
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        try:
            tid = host.create_table("t", "jamaica", {"players": 2}, bots=1, bot_kind="random")
            ((ann, _, _),) = await seat_players(host.port, tid, ["ann"])
            ann.send(messages.Start(table=tid))
            table = host.lobby.tables[tid]
            s = await state_at(ann)
            while not s.legal:
                s = await state_at(ann)

            def full_disk(*records):
                raise OSError(28, "No space left on device")

            append = table.journal.append
            table.journal.append = full_disk
            before = table.state.copy()
            ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            err = await ann.expect(messages.Error)
            assert (err.code, err.fatal) == ("journal-failed", False)
            assert table.seq == s.seq and table.state == before and table.journal is not None
            table.journal.append = append  # the disk has room again
            ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            after = await state_at(ann, s.seq + 1)
            assert after.seq == s.seq + 1
            ann.close()
        finally:
            await stop_host(host)

    run(scenario())
