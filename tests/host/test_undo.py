"""Undo through the host: offered in `legal` only when the engine allows it, applied as
an action, journaled, shown to everyone; bots never undo. Played on to the end."""
from __future__ import annotations

from cartagena_net.host.play import legal as legal_actions
from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host


def test_undo_an_advance_then_play_on_to_the_end(tmp_path):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_path / "state"))
        try:
            # three pirates: nobody can win in one turn, so the bot plays too
            tid = host.create_table("t", "jamaica", {"players": 2, "segments": 1,
                                                     "pirates": 3}, bots=1)
            ((ann, seat, _),) = await seat_players(host.port, tid, ["ann"])
            eve, _ = await join(host.port, "eve", role="spectator")
            eve.send(messages.JoinTable(table=tid, spectate=True))
            ann.send(messages.Start(table=tid))
            s = await state_at(ann)
            table = host.lobby.tables[tid]
            while not s.legal:
                s = await state_at(ann)
            assert "undo" not in s.legal  # nothing done yet this turn
            before = [x["pirates"] for x in s.view["seats"]]
            advance = next(a for a in s.legal if a.startswith("advance"))
            ann.send(messages.Action(table=tid, seq=s.seq, action=advance))
            s = await state_at(ann, s.seq + 1)
            assert s.legal[-1] == "undo"
            ann.send(messages.Action(table=tid, seq=s.seq, action="undo"))
            s = await state_at(ann, s.seq + 1)
            assert [x["pirates"] for x in s.view["seats"]] == before
            assert "undo" not in s.legal
            assert any(e["type"] == "undo" for e in s.events)
            seen = await state_at(eve, s.seq)
            assert any(e["type"] == "undo" for e in seen.events) and seen.lines
            # the journal replays the undo: a restart finds the same state
            records = [r.get("action") for r in _journal(table)]
            assert "undo" in records
            # play on to the end; the bot never undoes
            while not table.state.is_over:
                if table.state.actor == seat:
                    seq = table.seq
                    legal = legal_actions(table.state, seat)
                    ann.send(messages.Action(table=tid, seq=seq, action=next(
                        a for a in legal if a != "undo")))
                    while table.seq == seq:
                        await state_at(ann)
                else:
                    await state_at(ann)
            bot = 1 - seat
            acts = [r for r in _journal(table) if r.get("t") == "act"]
            assert any(r["seat"] == bot for r in acts)
            assert not any(r["seat"] == bot and r["action"] == "undo" for r in acts)
        finally:
            await stop_host(host)

    run(scenario())


def _journal(table):
    from cartagena_net.host.journal import read_journal

    return read_journal(table.journal.path).records
