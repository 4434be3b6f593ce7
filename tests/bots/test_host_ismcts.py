"""ismcts bots at a real host: they think in worker processes, the reactor keeps serving
pings and other tables, and their games play to the end."""
from __future__ import annotations

import time

from cartagena_net.host.thinker import Thinker
from protocol import messages
from tests.host.helpers import join
from tests.twisted_loop import make_host, reactor, run, stop_host, until, wait


def _slow_square(x: int) -> int:
    end = time.perf_counter() + 0.3
    while time.perf_counter() < end:
        pass
    return x * x


def test_thinker_runs_jobs_in_another_process_and_reports_errors():
    import os

    thinker = Thinker(reactor, workers=1)
    try:
        assert run(wait(thinker.run(_slow_square, 7))) == 49
        assert run(wait(thinker.run(os.getpid))) != os.getpid()
        d = thinker.run(int, "not a number")
        try:
            run(wait(d))
        except ValueError:
            pass
        else:
            raise AssertionError("the worker's error was not passed on")
    finally:
        thinker.shutdown()


def test_thread_mode_too():
    thinker = Thinker(reactor, workers=0)
    try:
        assert run(wait(thinker.run(_slow_square, 3))) == 9
    finally:
        thinker.shutdown()


def test_bots_think_off_the_reactor_and_play_to_the_end():
    host = make_host(bot_think=0.3, bot_workers=2)

    async def go():
        # Two tables of ismcts bots on a short board, and a spectator on each.
        tables = []
        for i in range(2):
            tid = host.create_table(f"bots {i}", "jamaica",
                                    {"players": 2, "segments": 1, "pirates": 2},
                                    bots=2, bot_kind="ismcts")
            tables.append(host.lobby.tables[tid])
        watchers = []
        for t in tables:
            c, _ = await join(host.port, f"watch{t.id}", role="spectator")
            c.send(messages.JoinTable(table=t.id, spectate=True))
            await c.expect(messages.Joined)
            watchers.append(c)
        for t in tables:
            t.start(None)
        pinger, _ = await join(host.port, "pinger")
        # While a search is under way, the reactor answers pings: count the pongs that
        # arrive while some table's bot is still thinking.
        during = 0
        for n in range(400):
            if during >= 5 or all(t.status == "finished" for t in tables):
                break
            pinger.send(messages.Ping(nonce=n))
            await pinger.expect(messages.Pong, lambda m, n=n: m.nonce == n)
            during += any(t.bots.thinking is not None for t in tables)
        await until(lambda: all(t.status == "finished" for t in tables), "games over",
                    timeout=240)
        for c in watchers:
            final = await c.expect(messages.State, lambda m: m.view["outcome"] is not None)
            assert final.view["outcome"]["winner"] in (0, 1)
        return during

    try:
        during = run(go(), timeout=300)
    finally:
        run(stop_host(host))
    assert during >= 5
