"""Spectators: public information only; every kind of action refused, game unchanged."""
from __future__ import annotations

from typing import Any

from cartagena_net.host.table import Table
from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host
from .test_game import hands_in


def snapshot(table: Table) -> Any:
    return (table.seq, table.state.record())


def test_spectators_see_public_views_and_cannot_act():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            players = await seat_players(host.port, tid, ["ann", "bob"])
            (ann, _, _), (bob, _, _) = players
            ann.send(messages.Start(table=tid))
            first = await state_at(ann)
            spectators = []
            for i in range(3):
                spec, _ = await join(host.port, f"watcher{i}", role="spectator")
                spec.send(messages.JoinTable(table=tid, spectate=True))
                j = await spec.expect(messages.Joined)
                assert j.seat is None and j.token is None
                s = await state_at(spec, first.seq)
                assert s.view["viewer"] == "spectator" and s.legal == ()
                spectators.append(spec)
            table = host.lobby.tables[tid]
            before = snapshot(table)
            spec = spectators[0]
            legal = list(first.legal)
            attempts = [
                {"type": "action", "table": tid, "seq": table.seq, "action": a}
                for a in [*legal, "retreat 1", "draw", "end", "discard skull", "morgan 0 0"]
            ]
            attempts += [
                {"type": "start", "table": tid},
                {"type": "add_bot", "table": tid, "seat": None, "kind": "random"},
                {"type": "remove_bot", "table": tid, "seat": 1},
                {"type": "create_table", "name": "x", "rules": "jamaica", "options": {}},
                {"type": "join_table", "table": tid, "spectate": False},
            ]
            for frame in attempts:
                spec.send_map(frame)
                err = await spec.expect(messages.Error)
                assert not err.fatal and err.code in ("not-allowed", "not-owner"), err
                assert err.ref == frame["type"]
            assert snapshot(table) == before
            # the game goes on and every spectator gets the same public update
            ann.send(messages.Action(table=tid, seq=first.seq, action=legal[0]))
            after = await state_at(bob, first.seq + 1)
            updates = [await state_at(s, first.seq + 1) for s in spectators]
            assert all(u.view == updates[0].view for u in updates)
            assert all(s["hand"] is None for s in updates[0].view["seats"])
            assert [s["pirates"] for s in updates[0].view["seats"]] == [
                s["pirates"] for s in after.view["seats"]]
            for s in spectators:
                assert s.conn.state.value == "table"
                assert all(h is None for _, h in hands_in(s.frames(), []))
                s.close()
            ann.close()
            bob.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_no_spectators_closes_the_table_to_watchers():
    async def scenario() -> None:
        host = make_host(spectators=False)
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            spec, _ = await join(host.port, "w", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            err = await spec.expect(messages.Error)
            assert err.code == "no-spectators" and not host.lobby.tables[tid].spectators
            spec.close()
        finally:
            await stop_host(host)

    run(scenario())
