"""Bot searches off the reactor thread: a pool of worker processes (or one thread).

A searching bot (``ismcts``) gives ``job(view, legal) -> (function, arguments)``, plain
picklable data. :class:`Thinker` runs it in a worker process, so the reactor keeps
serving other tables, pings and spectators, and a second core helps; the answer comes
back on the reactor thread as a Deferred. Workers run at the lowest CPU priority (they yield the
CPU to the reactor's process). ``workers=0`` runs jobs in one background
thread instead (the search then shares the interpreter lock with the reactor: measured,
it starves the search and delays the reactor, so processes are the default).

Workers start from a fork server, not by forking the reactor's process: as with
Python's ``spawn``, a program that embeds the host must guard its main module with
``if __name__ == "__main__":`` (``cartagena`` and ``python -m cartagena_net`` do).
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from typing import Any

from twisted.internet import defer


def _warm() -> None:
    """Run once in each new worker: the lowest CPU priority (Linux SCHED_IDLE, else nice
    19), so the reactor's process always answers first, and import the search so the
    first decision is quick. A search is bounded by wall-clock time, so on a busy machine
    it only does fewer iterations."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except OSError:
            pass
    import cartagena_net.bots.ismcts  # noqa: F401


class Thinker:
    """Runs bot jobs in ``workers`` processes (0: a thread); results on the reactor."""

    def __init__(self, reactor: Any, workers: int = 2) -> None:
        self.reactor = reactor
        self.workers = max(0, workers)
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.workers:
                ctx = multiprocessing.get_context("forkserver" if os.name == "posix"
                                                  else "spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=ctx, initializer=_warm)
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(1, "bot-search")
        return self._pool

    def run(self, fn: Any, *args: Any) -> defer.Deferred:
        """``fn(*args)`` off the reactor thread; a Deferred fires with its result."""
        d: defer.Deferred = defer.Deferred()
        try:
            future = self._executor().submit(fn, *args)
        except Exception:  # noqa: BLE001 - e.g. a broken pool: fail this job, not the host
            return defer.fail()

        def done(f: concurrent.futures.Future) -> None:
            def deliver() -> None:
                if d.called:
                    return
                exc = f.exception()
                if isinstance(exc, concurrent.futures.process.BrokenProcessPool):
                    self._pool = None  # a worker died: start afresh next time
                if exc is not None:
                    d.errback(exc)
                else:
                    d.callback(f.result())

            self.reactor.callFromThread(deliver)

        future.add_done_callback(done)
        return d

    def shutdown(self) -> None:
        """Stop the workers (jobs still running are abandoned)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
