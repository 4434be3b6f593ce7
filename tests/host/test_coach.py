"""The room's live chances run below every other job of the bot pool: only on a worker
idle now, never queued, never before a waiting search."""
from __future__ import annotations

import time

from cartagena_net.host.thinker import BOTS, Thinker
from tests.host.test_workers import _sleep_then
from tests.twisted_loop import reactor, run, wait


def test_idle_jobs_take_only_an_idle_worker_and_never_wait():
    thinker = Thinker(reactor, workers=2)
    try:
        async def go():
            assert thinker.run_idle(_sleep_then, 0, 1) is not None  # a worker starts
            assert [await wait(thinker.run(_sleep_then, 0.2, i)) for i in (2, 3)] == [2, 3]
            d = thinker.run_idle(_sleep_then, 0.3, 4)
            assert d is not None and thinker.waiting() == 0  # it runs at once
            # Jobs below HUMAN hold one worker of two at most: no second idle job.
            assert thinker.run_idle(_sleep_then, 0, 5) is None
            human = thinker.run(_sleep_then, 0, 6)  # the other worker takes a person's job
            assert await wait(human) == 6
            assert await wait(d) == 4
            busy = [thinker.run(_sleep_then, 0.5, i) for i in range(3)]  # one waits
            assert thinker.waiting() == 1
            assert thinker.run_idle(_sleep_then, 0, 7) is None  # skipped: the pool is busy
            assert [await wait(x) for x in busy] == [0, 1, 2]
            bots = thinker.run(_sleep_then, 0.4, 8, priority=BOTS)
            assert thinker.run_idle(_sleep_then, 0, 9) is None  # BOTS holds the lower share
            assert await wait(bots) == 8
            began = time.time()
            assert await wait(thinker.run_idle(_sleep_then, 0, 10)) == 10
            assert time.time() - began < 1.0
        run(go())
    finally:
        thinker.shutdown()


def test_a_thread_thinker_runs_no_idle_job():
    thinker = Thinker(reactor, workers=0)
    assert thinker.run_idle(_sleep_then, 0, 1) is None
