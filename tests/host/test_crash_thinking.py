"""Stateful: a player against a searching bot, with crashes while the bot thinks.

The host's ``ismcts`` bot searches in worker processes, so every crash (the service
dropped and rebuilt from its state dir, as ``--resume`` does) takes worker processes
with it: none may be left behind, the restored game equals the last journaled one, the
new host's bot thinks again in new workers, and the game is played to its end.
"""
from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from protocol import messages
from tests.twisted_loop import until

from .crashkit import Player, choose
from .helpers import alive, join, make_host, run, stop_host

OPTIONS = {"players": 2, "segments": 1, "pirates": 3}


class ThinkingCrashMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="cartagena-think-"))
        self.state_dir = str(self.dir / "state")
        self.host = self._host(resume=False)
        self.player: Player | None = None
        self.token = ""
        self.tid = 0
        self.crashes = 0
        self.workers_seen: set[int] = set()
        run(self._new_game())

    def _host(self, resume: bool):
        return make_host(state_dir=self.state_dir, resume=resume, bot_think=0.05,
                         bot_workers=2, bot_delay=0)

    async def _new_game(self) -> None:
        ann, _ = await join(self.host.port, "ann")
        ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
        joined = await ann.expect(messages.Joined)
        self.tid, self.token = joined.table, joined.token
        ann.send(messages.AddBot(table=self.tid, kind="ismcts"))
        await until(lambda: self.table.seats[1].controller is not None, "the bot seated")
        ann.send(messages.Start(table=self.tid))
        self.player = Player(ann, joined.seat, joined.token)
        while self.player.latest is None:
            await self.player.pump()

    @property
    def table(self):
        return self.host.lobby.tables[self.tid]

    async def _my_turn_or_over(self) -> bool:
        """Wait until the game is over or the player is to act (with its latest state)."""
        t = self.table
        await until(lambda: t.state.is_over or (t.state.actor == 0 and t.bots.thinking is None),
                    "the bot's answer", timeout=60)
        p = self.player
        p.drain()
        while p.latest is None or p.latest.seq < t.seq:
            await p.pump()
        return t.state.is_over

    @rule(n=st.integers(1, 12), seed=st.integers(0, 2**16))
    def play(self, n: int, seed: int) -> None:
        async def go() -> None:
            rng = random.Random(seed)
            for _ in range(n):
                if await self._my_turn_or_over():
                    return
                seq = self.table.seq
                self.player.client.send(messages.Action(
                    table=self.tid, seq=seq, action=choose(list(self.player.latest.legal),
                                                           rng, finish=True)))
                while self.player.latest.seq <= seq:
                    await self.player.pump()
        run(go())

    @rule(wait_for_search=st.booleans())
    def crash(self, wait_for_search: bool) -> None:
        async def go() -> None:
            t = self.table
            if wait_for_search and not t.state.is_over:
                # Let the player move if it is its turn, then catch the bot mid-search.
                if t.state.actor == 0:
                    await self._my_turn_or_over()
                    if t.state.actor == 0 and not t.state.is_over:
                        seq = t.seq
                        self.player.client.send(messages.Action(
                            table=self.tid, seq=seq, action=self.player.latest.legal[0]))
                        await until(lambda: t.seq > seq, "the action applied")
                await until(lambda: t.bots.thinking is not None or t.state.is_over
                            or t.state.actor == 0, "a search", timeout=30)
            workers = set(self.host.thinker.pids())
            self.workers_seen |= workers
            state, seq = t.state.copy(), t.seq  # the last journaled state, this instant
            await stop_host(self.host)
            self.player.client.close()
            self.host = self._host(resume=True)
            self.crashes += 1
            assert self.table.state == state and self.table.seq == seq
            await until(lambda: not any(alive(p) for p in workers), "old workers gone",
                        timeout=5)
            client, welcome = await join(self.host.port, "back", token=self.token)
            assert welcome.resumed == {"table": self.tid, "seat": 0}
            self.player = Player(client, 0, self.token)
            while self.player.latest is None:
                await self.player.pump()
        run(go())

    @invariant()
    def the_table_is_kept(self) -> None:
        assert self.tid in self.host.lobby.tables

    def teardown(self) -> None:
        async def go() -> None:
            try:
                rng = random.Random(self.crashes)
                for _ in range(2000):
                    if await self._my_turn_or_over():
                        break
                    seq = self.table.seq
                    self.player.client.send(messages.Action(
                        table=self.tid, seq=seq,
                        action=choose(list(self.player.latest.legal), rng, finish=True)))
                    while self.player.latest.seq <= seq:
                        await self.player.pump()
                assert self.table.state.is_over  # played on to the end after every crash
                self.workers_seen |= set(self.host.thinker.pids())
            finally:
                await stop_host(self.host)
                self.player.client.close()
            await until(lambda: not any(alive(p) for p in self.workers_seen),
                        "every worker gone", timeout=5)
            assert self.workers_seen and os.getpid() not in self.workers_seen  # real workers

        try:
            run(go(), timeout=300)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


ThinkingCrashMachine.TestCase.settings = settings(
    max_examples=4, stateful_step_count=8, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
test_crash_while_bots_think = ThinkingCrashMachine.TestCase
