"""Stateful: actions, disconnects, token resumes and crashes over a real in-process host.

A "crash" drops the service and rebuilds it from its state dir, as ``--resume`` does.
After every restore each table's state equals the last one broadcast; every game is
played to its end (reshuffles and Tortuga row refills happen on the way).
"""
from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from cartagena_net.host.journal import journal_path
from protocol import messages
from tests.twisted_loop import until

from .crashkit import LONG_GAMES, Player, choose, play_to_end, reshuffles
from .helpers import join, make_host, run, seat_players, stop_host


class TableModel:
    def __init__(self, tid: int, rules: str, players: list[Player]) -> None:
        self.tid = tid
        self.rules = rules
        self.players: dict[int, Player | None] = {p.seat: p for p in players}
        self.tokens = {p.seat: p.token for p in players}
        self.actions = 0
        self.seen_reshuffles = 0
        self.expect: dict[int, object] = {}  # seat -> last state it was sent before a crash


class CrashMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="cartagena-crash-"))
        self.state_dir = self.dir / "state"
        self.host = make_host(state_dir=str(self.state_dir))
        self.tables: dict[int, TableModel] = {}
        self.restores = 0
        self.games_finished = 0
        for rules in LONG_GAMES:
            run(self._new_table(rules))

    # -- helpers -----------------------------------------------------------

    async def _new_table(self, rules: str) -> None:
        ann, _ = await join(self.host.port, "ann")
        ann.send(messages.CreateTable(name=rules, rules=rules, options=LONG_GAMES[rules]))
        joined = await ann.expect(messages.Joined)
        tid = joined.table
        seated = await seat_players(self.host.port, tid, ["bob"])
        players = [Player(ann, joined.seat, joined.token),
                   *(Player(c, seat, tok) for c, seat, tok in seated)]
        players[0].client.send(messages.Start(table=tid))
        for p in players:
            while p.latest is None:
                await p.pump()
        self.tables[tid] = TableModel(tid, rules, players)

    def _table(self, index: int) -> TableModel:
        return self.tables[sorted(self.tables)[index % len(self.tables)]]

    async def _sync(self, model: TableModel) -> None:
        """Every connected player of the table has the host's latest state."""
        seq = self.host.lobby.tables[model.tid].seq
        for p in model.players.values():
            if p is not None:
                p.drain()
                while p.latest is None or p.latest.seq < seq:
                    await p.pump()
                assert p.latest.seq == seq

    def _finish(self, model: TableModel) -> bool:
        seen = max([reshuffles(p.events) for p in model.players.values() if p] + [0])
        model.seen_reshuffles = max(model.seen_reshuffles, seen)
        return model.seen_reshuffles >= 2 or model.actions > 400

    # -- rules -------------------------------------------------------------

    async def _play(self, model: TableModel, rng: random.Random, n: int,
                    until_stock: int | None = None) -> None:
        """Play up to ``n`` actions (the actor comes back with its token if it is away);
        with ``until_stock``, stop once the stock holds that many cards or fewer."""
        for _ in range(n):
            table = self.host.lobby.tables[model.tid]
            if table.state.is_over:
                return
            if until_stock is not None and len(table.state.stock) <= until_stock:
                return
            actor = table.state.actor
            if model.players[actor] is None:
                await self._resume(model, actor)
            p = model.players[actor]
            await self._sync(model)
            action = choose(list(p.latest.legal), rng, self._finish(model))
            seq = table.seq
            p.client.send(messages.Action(table=model.tid, seq=seq, action=action))
            while p.latest.seq <= seq and not p.refused:
                await p.pump()
            assert not p.refused, "an action of the actor, at the latest seq, was refused"
            model.actions += 1
            model.expect.clear()  # the seats' last states before the crash are old now

    @rule(index=st.integers(0, 7), n=st.integers(1, 60), seed=st.integers(0, 2**16))
    def act(self, index: int, n: int, seed: int) -> None:
        run(self._play(self._table(index), random.Random(seed), n))

    @rule(index=st.integers(0, 7), seed=st.integers(0, 2**16))
    def crash_when_the_stock_runs_low(self, index: int, seed: int) -> None:
        """Play on until the stock holds 2 cards or fewer, then crash: the next draw
        after the restore reshuffles (or refills the row) with fresh chance."""
        model = self._table(index)
        run(self._play(model, random.Random(seed), 400, until_stock=2))
        self.crash()

    @rule(index=st.integers(0, 7), seat=st.integers(0, 1))
    def disconnect(self, index: int, seat: int) -> None:
        model = self._table(index)
        p = model.players[seat]
        table = self.host.lobby.tables[model.tid]
        if p is None or not table.playing:
            return
        p.client.close()
        model.players[seat] = None
        model.expect.pop(seat, None)
        run(until(lambda: table.seats[seat].conn is None, "the host sees the drop"))

    @rule(index=st.integers(0, 7), seat=st.integers(0, 1))
    def resume(self, index: int, seat: int) -> None:
        model = self._table(index)
        if model.players[seat] is None:
            run(self._resume(model, seat))

    async def _resume(self, model: TableModel, seat: int) -> None:
        """The seat comes back with its token and is sent the table's latest state."""
        client, welcome = await join(self.host.port, "back", token=model.tokens[seat])
        assert welcome.resumed == {"table": model.tid, "seat": seat}
        p = Player(client, seat, model.tokens[seat])
        while p.latest is None:
            await p.pump()
        table = self.host.lobby.tables[model.tid]
        assert p.latest.seq == table.seq
        last = model.expect.pop(seat, None)
        if last is not None:  # nothing moved since the crash: exactly what it was sent
            assert p.latest.seq == last.seq
            assert p.latest.view == last.view and p.latest.legal == last.legal
        model.players[seat] = p

    @rule()
    def crash(self) -> None:
        async def go() -> None:
            before = {}
            for tid, model in self.tables.items():
                await self._sync(model)
                t = self.host.lobby.tables[tid]
                before[tid] = (t.state.copy(), t.seq, t.status, [s.token for s in t.seats])
                for seat, p in model.players.items():
                    if p is not None:
                        model.expect[seat] = p.latest
            await stop_host(self.host)
            for model in self.tables.values():
                for seat, p in model.players.items():
                    if p is not None:
                        p.client.close()
                        model.players[seat] = None
            self.host = make_host(state_dir=str(self.state_dir), resume=True)
            self.restores += 1
            assert sorted(self.host.lobby.tables) == sorted(before)
            for tid, (state, seq, status, tokens) in before.items():
                t = self.host.lobby.tables[tid]
                assert t.state == state, f"table {tid} restored to another state"
                assert (t.seq, t.status, [s.token for s in t.seats]) == (seq, status, tokens)

        run(go())

    @precondition(lambda self: any(
        self.host.lobby.tables[t].status == "finished" for t in self.tables))
    @rule()
    def leave_finished(self) -> None:
        """Both players leave a finished table: it goes, journal and all; a new one opens."""
        async def go() -> None:
            for tid, model in list(self.tables.items()):
                if self.host.lobby.tables[tid].status != "finished":
                    continue
                for seat in model.players:  # a seat away comes back to see the end
                    if model.players[seat] is None:
                        await self._resume(model, seat)
                for seat in model.players:
                    model.players[seat].client.close()
                await until(lambda tid=tid: tid not in self.host.lobby.tables, "table goes")
                assert not journal_path(self.state_dir, tid).exists()
                del self.tables[tid]
                self.games_finished += 1
                await self._new_table(model.rules)

        run(go())

    @invariant()
    def tables_are_kept(self) -> None:
        for tid in self.tables:
            assert tid in self.host.lobby.tables

    def teardown(self) -> None:
        async def go() -> None:
            try:
                for model in self.tables.values():
                    for seat in model.players:
                        if model.players[seat] is None:
                            await self._resume(model, seat)
                    players = [p for p in model.players.values() if p is not None]
                    end = await play_to_end(players, model.tid, random.Random(model.tid),
                                            min_reshuffles=1)
                    assert end.view["outcome"] is not None
                    for p in players:
                        p.client.close()
            finally:
                await stop_host(self.host)

        try:
            run(go(), timeout=300)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


CrashMachine.TestCase.settings = settings(
    max_examples=8, stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_crash_machine = CrashMachine.TestCase
