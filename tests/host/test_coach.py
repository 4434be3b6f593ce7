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
            first = thinker.run_idle(_sleep_then, 0, 1)  # a worker starts
            assert first is not None
            # Its answer is awaited: a worker's start can take longer than the next
            # two jobs on a loaded machine, and it holds the idle share until then.
            assert await wait(first) == 1
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


def _review_chain(thinker, jobs: int, seconds: float, order: list) -> list:
    """A review as the host runs one: its jobs one after another, each sent as the one
    before answers (the reviewer's own loop)."""
    from twisted.internet import defer

    from cartagena_net.host.thinker import REVIEW

    done: list = []

    @defer.inlineCallbacks
    def review():
        for k in range(jobs):
            done.append((yield thinker.run(_sleep_then, seconds, ("review", k),
                                           priority=REVIEW)))
            order.append(("review", k))
    review().addErrback(lambda _: None)  # cut short as the pool shuts down
    return done


def test_a_review_never_holds_the_live_chances_back_on_any_pool_size():
    """A review of a long game runs for minutes; a live estimate asked meanwhile waits
    for the review's job under way at most (never for the whole review), on one worker,
    two and more."""
    for workers in (1, 2, 3):
        thinker = Thinker(reactor, workers=workers)
        try:
            async def go(thinker=thinker, workers=workers):
                order: list = []
                done = _review_chain(thinker, 40, 0.25, order)
                while not order:  # the review is under way
                    await wait_a_moment()
                began = time.time()
                d = thinker.run_idle(_sleep_then, 0, "live")
                assert d is not None, workers  # not refused: it goes before the review's next
                assert await wait(d) == "live"
                assert time.time() - began < 5.0, workers  # the review takes 10 s
                assert len(done) < 20, (workers, len(done))  # the review is far from done
                # and the review goes on after it
                n = len(done)
                while len(done) < n + 2:
                    await wait_a_moment()
            run(go())
        finally:
            thinker.shutdown()


def test_a_live_estimate_still_waits_for_a_bots_search():
    """Waiting for a review's job is not waiting behind a search: with a bots-only
    table's search holding the lower share, the estimate is refused, tried later."""
    thinker = Thinker(reactor, workers=1)
    try:
        async def go():
            bots = thinker.run(_sleep_then, 0.4, 1, priority=BOTS)
            assert thinker.run_idle(_sleep_then, 0, 2) is None
            assert await wait(bots) == 1
        run(go())
    finally:
        thinker.shutdown()


async def wait_a_moment():
    import asyncio

    await asyncio.sleep(0.02)
