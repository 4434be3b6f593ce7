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
table where a person waits, however many bots-only tables play. The room's live chances
(:meth:`Thinker.run_idle`) come below every search but before a review's next job: a
review, minutes long, never holds them back.

A person's decision may think on every core (root parallelization). When a
:data:`HUMAN` job is the search (:func:`cartagena_net.bots.ismcts.search`) and, as it
starts, workers are idle that no waiting job may take, the decision is spread: the job
searches one share and each of those workers another (its own determinizations from its
own seed, a counted search's iterations three quarters of its count on each, a timed
one's time the same for each), and the root statistics are merged
(:func:`cartagena_net.bots.ismcts.merge`).
A helping share yields: when a job the pool would start finds no idle worker, a helper
is told to stop (it answers at once with what it has, and still counts). A share whose
worker dies is left out (only the first share is run again, as any job), and the
decision answers by its deadline (the job's ``deadline`` and :data:`GRACE`) with the
shares that came, never waiting for a late one (none came by then: with the first to come). :data:`BOTS` and :data:`REVIEW` jobs are
never spread. ``seeded`` (a seeded host: practice and tests) runs counted searches
without the clock, so that with one worker a game against bots plays the same again.

A worker that dies on its own (killed, out of memory) is replaced, and the job it was
running is run again on another worker, once; the other jobs never notice. Jobs wait in
a queue while every worker they may use is busy.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import time
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.bots import ismcts
from cartagena_net.bots.pool import RETRIES, WorkerDied, WorkerProcess

log = Logger(namespace="cartagena.thinker")

HUMAN, BOTS, REVIEW = 0, 1, 2  # job priorities, best first
PRIORITIES = (HUMAN, BOTS, REVIEW)
IDLE = 3  # the room's live chances: on a worker idle now, or next before a review (run_idle)
ORDER = (BOTS, IDLE, REVIEW)  # the order the jobs below HUMAN are taken in
GRACE = 0.05  # seconds past a spread decision's deadline its late shares may take

__all__ = ["BOTS", "HUMAN", "IDLE", "REVIEW", "Thinker", "WorkerDied"]


class _Job:
    __slots__ = ("args", "decision", "deferred", "fn", "helper", "id", "priority",
                 "stopping", "tries")

    def __init__(self, job_id: int, fn: Any, args: tuple, priority: int) -> None:
        self.id, self.fn, self.args, self.priority = job_id, fn, args, priority
        self.deferred: defer.Deferred = defer.Deferred()
        self.tries = 0
        self.decision: _Decision | None = None  # the spread decision it is a share of
        self.helper = False  # a share beyond the first: yields, never run again
        self.stopping = False  # told to stop early


class _Decision:
    """One decision spread over several workers: its shares' answers, merged."""

    __slots__ = ("deferred", "errors", "legal", "overdue", "results", "shares", "timer")

    def __init__(self, deferred: defer.Deferred, legal: list[str]) -> None:
        self.deferred, self.legal = deferred, legal
        self.shares: list[_Job] = []
        self.results: dict[int, Any] = {}  # share index: SearchResult, or None (lost)
        self.errors: list[BaseException] = []
        self.timer: Any = None
        self.overdue = False  # its deadline and grace passed with no share answered

    def settled(self) -> bool:
        return len(self.results) == len(self.shares)


class Thinker:
    """Runs bot jobs in ``workers`` processes (0: a thread); results on the reactor."""

    def __init__(self, reactor: Any, workers: int = 2, seeded: bool = False) -> None:
        self.reactor = reactor
        self.workers = max(0, workers)
        self.seeded = seeded  # counted searches run without the clock (reproducible)
        self.spread = 0  # decisions spread over more than one worker
        self.shares_lost = 0  # shares left out (dead, or late past the deadline)
        self._pool: list[WorkerProcess] = []
        self._queues: dict[int, collections.deque[_Job]] = {
            p: collections.deque() for p in (*PRIORITIES, IDLE)}
        self._ids = itertools.count(1)
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._stopped = False
        self._open: set[_Decision] = set()  # spread decisions not answered yet
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
        if priority not in PRIORITIES:
            raise ValueError(f"unknown priority {priority!r}")
        if self.seeded and fn is ismcts.search:
            args = ismcts.without_clock(args)
        if not self.workers:
            return self._run_in_thread(fn, args)
        self._stopped = False
        job = _Job(next(self._ids), fn, args, priority)
        answer = job.deferred  # (a spread decision's: its shares get their own)
        self._queues[priority].append(job)
        self._dispatch()
        return answer

    def _lower_running(self) -> int:
        return sum(1 for w in self._pool if w.job is not None and w.job.priority != HUMAN)

    def run_idle(self, fn: Any, *args: Any) -> defer.Deferred | None:
        """``fn(*args)`` below every search (the room's live chances): started now on a
        worker that is idle while no search waits, within the share of workers that
        jobs below :data:`HUMAN` may hold; else None (nothing queued: the caller tries
        again later). A review never holds it back: while a review's job holds the
        worker it would take, it waits for that job alone and runs before the review's
        next (a review's job lasts seconds; a whole review, minutes). Never run again if
        its worker dies. With ``workers=0``: never (a thread would share the reactor's
        interpreter lock)."""
        if not self.workers or self._stopped or self._queues[HUMAN] or self._queues[BOTS]:
            return None
        job = _Job(next(self._ids), fn, args, IDLE)
        job.tries = RETRIES + 1  # a dead worker's job is not run again
        lower = self._lower_running()
        idle = next((w for w in self._pool if w.job is None), None)
        if lower < max(1, self.workers - 1) and (idle is not None
                                                 or len(self._pool) < self.workers):
            if idle is None:
                try:
                    idle = WorkerProcess(self._answered_in_thread, self._died_in_thread)
                except OSError:
                    return None
                self._pool.append(idle)
            idle.job = job
            if not idle.send((job.id, job.fn, job.args)):
                idle.job = None
                self._forget(idle)
                return None
            return job.deferred
        if any(w.job is not None and w.job.priority == REVIEW for w in self._pool):
            # A review holds the worker: this goes next, before the review's next job.
            self._queues[IDLE].append(job)
            return job.deferred
        return None

    def _next_job(self) -> _Job | None:
        """The waiting job a free worker takes now, None if none may start."""
        if self._queues[HUMAN]:
            return self._queues[HUMAN].popleft()
        if self._lower_running() >= max(1, self.workers - 1):
            return None  # keep a worker for a person's table
        for p in ORDER:
            if self._queues[p]:
                return self._queues[p].popleft()
        return None

    def _wanted(self) -> int:
        """How many workers the waiting jobs could take now (fair shares)."""
        lower = sum(len(self._queues[p]) for p in ORDER)
        room = max(0, max(1, self.workers - 1) - self._lower_running())
        return len(self._queues[HUMAN]) + min(lower, room)

    def _dispatch(self) -> None:
        while not self._stopped and self.waiting():
            idle = next((w for w in self._pool if w.job is None), None)
            if idle is None and len(self._pool) >= self.workers:
                self._yield_helpers()
                return
            job = self._next_job()
            if job is None:
                return
            if idle is None:
                idle = self._new_worker()
                if idle is None:
                    self._fail(job, OSError("cannot start a bot worker"))
                    continue
            if (job.priority == HUMAN and job.decision is None and job.fn is ismcts.search
                    and self.workers > 1):
                self._start_spread(job, idle)
            else:
                self._send(idle, job)

    def _new_worker(self) -> WorkerProcess | None:
        try:
            worker = WorkerProcess(self._answered_in_thread, self._died_in_thread)
        except OSError:
            return None
        self._pool.append(worker)
        return worker

    def _send(self, worker: WorkerProcess, job: _Job) -> bool:
        worker.job = job
        job.tries += 1
        if worker.send((job.id, job.fn, job.args)):
            return True
        worker.job = None
        job.tries -= 1
        if job.helper:
            self._share_done(job, None)
        else:
            self._queues[job.priority].appendleft(job)
        self._forget(worker)
        return False

    def _fail(self, job: _Job, exc: BaseException) -> None:
        if job.decision is not None:
            job.decision.errors.append(exc)
            self._share_done(job, None)
        elif not job.deferred.called:
            job.deferred.errback(exc)

    # -- a decision spread over the idle workers ----------------------------------

    def _start_spread(self, job: _Job, worker: WorkerProcess) -> None:
        """Start a person's search on ``worker`` and, as helpers, on every other worker
        that no waiting job may take now (idle ones, or new ones up to ``workers``)."""
        idle = [w for w in self._pool if w.job is None and w is not worker]
        spare = len(idle) + (self.workers - len(self._pool)) - self._wanted()
        helpers = max(0, min(spare, self.workers - 1))
        if not helpers:
            self._send(worker, job)
            return
        try:
            shares = ismcts.spread(job.args, helpers + 1)
        except (TypeError, ValueError):  # not the search's arguments: run it as it is
            self._send(worker, job)
            return
        decision = _Decision(job.deferred, list(job.args[1]))
        deadline = ismcts.deadline_of(job.args)
        jobs = [job]
        job.deferred, job.args, job.decision = defer.Deferred(), shares[0], decision
        for args in shares[1:]:
            helper = _Job(next(self._ids), job.fn, args, HUMAN)
            helper.decision, helper.helper = decision, True
            jobs.append(helper)
        decision.shares = jobs
        self._open.add(decision)
        self.spread += 1
        for index, share in enumerate(jobs):
            share.deferred.addCallbacks(self._share_answer, self._share_error,
                                        callbackArgs=(share, index),
                                        errbackArgs=(share, index))
        if deadline is not None:
            wait = max(0.0, deadline - time.time()) + GRACE
            decision.timer = self.reactor.callLater(wait, self._decision_due, decision)
        self._send(worker, job)
        for share in jobs[1:]:
            w = idle.pop() if idle else self._new_worker()
            if w is None:
                self._share_done(share, None)
                continue
            self._send(w, share)

    def _share_answer(self, result: Any, share: _Job, index: int) -> None:
        self._share_done(share, result, index)

    def _share_error(self, failure: Any, share: _Job, index: int) -> None:
        share.decision.errors.append(failure.value)
        self._share_done(share, None, index)

    def _share_done(self, share: _Job, result: Any, index: int | None = None) -> None:
        decision = share.decision
        if decision is None or decision.deferred.called:
            return
        if index is None:
            index = decision.shares.index(share)
        if index in decision.results:
            return
        decision.results[index] = result
        if result is None and share.helper:
            self.shares_lost += 1
        if decision.settled():
            self._decide(decision)
        elif decision.overdue and result is not None:  # the first to come, past the deadline
            self.shares_lost += len(decision.shares) - len(decision.results)
            self._decide(decision)

    def _decision_due(self, decision: _Decision) -> None:
        """The deadline (and its grace) passed: answer with the shares that came."""
        decision.timer = None
        if decision.deferred.called:
            return
        if any(r is not None for r in decision.results.values()):
            self.shares_lost += len(decision.shares) - len(decision.results)
            self._decide(decision)
            return
        # No share has answered yet: the first to come decides (or the last to fail).
        decision.overdue = True

    def _decide(self, decision: _Decision) -> None:
        self._open.discard(decision)
        if decision.timer is not None and decision.timer.active():
            decision.timer.cancel()
        decision.timer = None
        # In share order, None for a share lost (each share's kept tree keeps its place).
        results = [decision.results.get(i) for i in range(len(decision.shares))]
        for index, share in enumerate(decision.shares):  # late shares stop at once
            if index not in decision.results:
                self._drop(share)
        if any(r is not None for r in results):
            try:
                merged = ismcts.merge(decision.legal, results)
            except Exception as exc:  # noqa: BLE001 - passed on as the search's failure
                decision.deferred.errback(exc)
                return
            decision.deferred.callback(merged)
        else:
            decision.deferred.errback(decision.errors[0] if decision.errors else WorkerDied(
                "every bot worker of this decision died"))

    def _drop(self, share: _Job) -> None:
        """A share no longer wanted: out of the queue, or told to stop."""
        queue = self._queues[share.priority]
        if share in queue:
            queue.remove(share)
            return
        self._stop_share(share)

    def _stop_share(self, share: _Job) -> None:
        if share.stopping:
            return
        for w in self._pool:
            if w.job is share:
                share.stopping = True
                w.send(("stop", share.id))
                return

    def _yield_helpers(self) -> None:
        """Every worker is busy and jobs wait: helpers give their workers up."""
        helpers = [w.job for w in self._pool if w.job is not None and w.job.helper]
        wanted = self._wanted() - sum(1 for job in helpers if job.stopping)  # on their way
        for w in self._pool:
            if wanted <= 0:
                return
            job = w.job
            if job is not None and job.helper and not job.stopping:
                self._stop_share(job)
                wanted -= 1

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
        if job is not None and job.helper:
            self._share_done(job, None)  # a helping share is left out, never run again
        elif job is not None and not job.deferred.called:
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
        for decision in self._open:  # abandoned with their jobs
            if decision.timer is not None and decision.timer.active():
                decision.timer.cancel()
            decision.timer = None
        self._open.clear()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)
