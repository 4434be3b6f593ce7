"""Bot searches off the reactor thread: a pool of worker processes (or one thread).

A searching bot (``ismcts``) gives ``job(view, legal) -> (function, arguments)``, plain
picklable data. :class:`Thinker` runs it in a worker process, so the reactor keeps
serving other tables, pings and spectators, and a second core helps; the answer comes
back on the reactor thread as a Deferred. ``workers=0`` runs jobs in one background
thread instead (the search then shares the interpreter lock with the reactor: measured,
it starves the search and delays the reactor, so processes are the default).

Each worker is a :class:`cartagena_net.bots.pool.WorkerProcess`: a fresh interpreter
(``python -m cartagena_net.bots.worker``, the same on Linux, macOS and Windows) with a
pipe on stdin and stdout, and nothing else: no fork server, no resource tracker. It runs
at the lowest CPU priority, and it dies with the host however the host dies, because it
watches its stdin (see :mod:`cartagena_net.bots.worker`).

Thinking is shared fairly. Each job has a priority: :data:`HUMAN` (a bot at a table
where a person is waiting for it), :data:`BOTS` (a bots-only table someone watches) and
:data:`REVIEW` (the review of a finished game). A free worker takes the waiting job of
the best priority, the oldest first; and jobs below :data:`HUMAN` never hold more than
``workers - 1`` workers at once, so one worker is always free (or about to be) for a
table where a person waits, however many bots-only tables play.

A worker that dies on its own (killed, out of memory) is replaced, and the job it was
running is run again on another worker, once; the other jobs never notice. Jobs wait in
a queue while every worker they may use is busy.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.bots.pool import RETRIES, WorkerDied, WorkerProcess

log = Logger(namespace="cartagena.thinker")

HUMAN, BOTS, REVIEW = 0, 1, 2  # job priorities, best first
PRIORITIES = (HUMAN, BOTS, REVIEW)
IDLE = 3  # below every priority: run only on a worker idle now (see run_idle)

__all__ = ["BOTS", "HUMAN", "IDLE", "REVIEW", "Thinker", "WorkerDied"]


class _Job:
    __slots__ = ("args", "deferred", "fn", "id", "priority", "tries")

    def __init__(self, job_id: int, fn: Any, args: tuple, priority: int) -> None:
        self.id, self.fn, self.args, self.priority = job_id, fn, args, priority
        self.deferred: defer.Deferred = defer.Deferred()
        self.tries = 0


class Thinker:
    """Runs bot jobs in ``workers`` processes (0: a thread); results on the reactor."""

    def __init__(self, reactor: Any, workers: int = 2) -> None:
        self.reactor = reactor
        self.workers = max(0, workers)
        self._pool: list[WorkerProcess] = []
        self._queues: dict[int, collections.deque[_Job]] = {
            p: collections.deque() for p in PRIORITIES}
        self._ids = itertools.count(1)
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._stopped = False
        self.replaced = 0  # workers that died and were replaced

    def pids(self) -> list[int]:
        """The worker processes' ids (tests, diagnostics)."""
        return [w.pid for w in self._pool]

    def waiting(self, priority: int | None = None) -> int:
        """Jobs waiting for a worker (of one priority, or all)."""
        if priority is None:
            return sum(len(q) for q in self._queues.values())
        return len(self._queues[priority])

    def run(self, fn: Any, *args: Any, priority: int = HUMAN) -> defer.Deferred:
        """``fn(*args)`` off the reactor thread; a Deferred fires with its result."""
        if priority not in self._queues:
            raise ValueError(f"unknown priority {priority!r}")
        if not self.workers:
            return self._run_in_thread(fn, args)
        self._stopped = False
        job = _Job(next(self._ids), fn, args, priority)
        self._queues[priority].append(job)
        self._dispatch()
        return job.deferred

    def run_idle(self, fn: Any, *args: Any) -> defer.Deferred | None:
        """``fn(*args)`` below every priority (the room's live chances): started now on
        a worker that is idle while no job waits, within the share of workers that jobs
        below :data:`HUMAN` may hold; else None (nothing queued: the caller tries again
        later). Never run again if its worker dies. With ``workers=0``: never (a thread
        would share the reactor's interpreter lock)."""
        if not self.workers or self._stopped or self.waiting():
            return None
        lower = sum(1 for w in self._pool if w.job is not None and w.job.priority != HUMAN)
        if lower >= max(1, self.workers - 1):
            return None
        idle = next((w for w in self._pool if w.job is None), None)
        if idle is None:
            if len(self._pool) >= self.workers:
                return None
            try:
                idle = WorkerProcess(self._answered_in_thread, self._died_in_thread)
            except OSError:
                return None
            self._pool.append(idle)
        job = _Job(next(self._ids), fn, args, IDLE)
        job.tries = RETRIES + 1  # a dead worker's job is not run again
        idle.job = job
        if not idle.send((job.id, job.fn, job.args)):
            idle.job = None
            self._forget(idle)
            return None
        return job.deferred

    def _next_job(self) -> _Job | None:
        """The waiting job a free worker takes now, None if none may start."""
        if self._queues[HUMAN]:
            return self._queues[HUMAN].popleft()
        lower = sum(1 for w in self._pool if w.job is not None and w.job.priority != HUMAN)
        if lower >= max(1, self.workers - 1):
            return None  # keep a worker for a person's table
        for p in PRIORITIES[1:]:
            if self._queues[p]:
                return self._queues[p].popleft()
        return None

    def _dispatch(self) -> None:
        while not self._stopped and self.waiting():
            idle = next((w for w in self._pool if w.job is None), None)
            if idle is None and len(self._pool) >= self.workers:
                return
            job = self._next_job()
            if job is None:
                return
            if idle is None:
                try:
                    idle = WorkerProcess(self._answered_in_thread, self._died_in_thread)
                except OSError as exc:
                    job.deferred.errback(exc)
                    continue
                self._pool.append(idle)
            idle.job = job
            job.tries += 1
            if not idle.send((job.id, job.fn, job.args)):
                idle.job = None
                self._queues[job.priority].appendleft(job)
                job.tries -= 1
                self._forget(idle)

    def _answered_in_thread(self, worker: WorkerProcess, answer: Any) -> None:
        self.reactor.callFromThread(self._answer, worker, answer)

    def _died_in_thread(self, worker: WorkerProcess, code: int) -> None:
        self.reactor.callFromThread(self._died, worker, code)

    def _answer(self, worker: WorkerProcess, answer: Any) -> None:
        job, worker.job = worker.job, None
        if job is not None and answer[0] == job.id and not job.deferred.called:
            if answer[1]:
                job.deferred.callback(answer[2])
            else:
                job.deferred.errback(answer[2])
        self._dispatch()

    def _died(self, worker: WorkerProcess, code: int) -> None:
        job, worker.job = worker.job, None
        if worker in self._pool:
            self._forget(worker)
            if not self._stopped:
                self.replaced += 1
                log.warn(  # noqa: G010 - twisted's Logger has warn()
                    "bot worker {pid} ended (exit status {code}); a new one takes its "
                    "place", pid=worker.pid, code=code)
        if job is not None and not job.deferred.called:
            if job.tries <= RETRIES and not self._stopped:
                self._queues[job.priority].appendleft(job)  # run it again, first
            else:
                job.deferred.errback(WorkerDied(
                    f"the bot worker died running this search (exit status {code})"))
        self._dispatch()

    def _forget(self, worker: WorkerProcess) -> None:
        if worker in self._pool:
            self._pool.remove(worker)
        worker.stop()

    def _run_in_thread(self, fn: Any, args: tuple) -> defer.Deferred:
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, "bot-search")
        d: defer.Deferred = defer.Deferred()
        future = self._thread.submit(fn, *args)

        def done(f: concurrent.futures.Future) -> None:
            def deliver() -> None:
                if d.called:
                    return
                exc = f.exception()
                if exc is not None:
                    d.errback(exc)
                else:
                    d.callback(f.result())

            self.reactor.callFromThread(deliver)

        future.add_done_callback(done)
        return d

    def shutdown(self) -> None:
        """Stop the workers (jobs still running or waiting are abandoned)."""
        self._stopped = True
        pool, self._pool = self._pool, []
        for worker in pool:
            worker.stop()
        for q in self._queues.values():
            q.clear()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)
