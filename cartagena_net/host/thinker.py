"""Bot searches off the reactor thread: a pool of worker processes (or one thread).

A searching bot (``ismcts``) gives ``job(view, legal) -> (function, arguments)``, plain
picklable data. :class:`Thinker` runs it in a worker process, so the reactor keeps
serving other tables, pings and spectators, and a second core helps; the answer comes
back on the reactor thread as a Deferred. ``workers=0`` runs jobs in one background
thread instead (the search then shares the interpreter lock with the reactor: measured,
it starves the search and delays the reactor, so processes are the default).

Each worker is a fresh interpreter (``python -m cartagena_net.bots.worker``, the same on
Linux, macOS and Windows) with a pipe on stdin and stdout, and nothing else: no fork
server, no resource tracker. It runs at the lowest CPU priority, and it dies with the
host however the host dies, because it watches its stdin (see :mod:`cartagena_net.bots.worker`).

A worker that dies on its own (killed, out of memory) is replaced, and the job it was
running is run again on another worker, once; the other jobs never notice. Jobs wait in
a queue while every worker is busy.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import os
import subprocess
import sys
import threading
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.bots.worker import frame, read_frame

log = Logger(namespace="cartagena.thinker")

RETRIES = 1  # a job whose worker died is run again this many times


class WorkerDied(RuntimeError):
    """The worker running a job died (and the job had been retried already)."""


class _Job:
    __slots__ = ("args", "deferred", "fn", "id", "tries")

    def __init__(self, job_id: int, fn: Any, args: tuple) -> None:
        self.id, self.fn, self.args = job_id, fn, args
        self.deferred: defer.Deferred = defer.Deferred()
        self.tries = 0


class _Worker:
    """One worker process and the thread that reads its answers."""

    def __init__(self, thinker: Thinker) -> None:
        self.thinker = thinker
        env = dict(os.environ, CARTAGENA_WORKER_PARENT=str(os.getpid()))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cartagena_net.bots.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None if os.environ.get("CARTAGENA_WORKER_STDERR") else subprocess.DEVNULL,
            env=env, close_fds=True)
        self.job: _Job | None = None
        self.send(("init", list(sys.path)))
        threading.Thread(target=self._read, name=f"bot-worker-{self.proc.pid}",
                         daemon=True).start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, obj: Any) -> bool:
        try:
            self.proc.stdin.write(frame(obj))
            self.proc.stdin.flush()
        except (OSError, ValueError):  # the worker is gone (or stopped)
            return False
        return True

    def _read(self) -> None:
        stdout = self.proc.stdout
        call = self.thinker.reactor.callFromThread
        while True:
            try:
                answer = read_frame(stdout)
            except Exception:  # noqa: BLE001 - EOF, a broken pipe, a torn frame: it died
                break
            call(self.thinker._answer, self, answer)
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        call(self.thinker._died, self, code)

    def stop(self) -> None:
        try:
            self.proc.stdin.close()  # the worker ends at once when its stdin closes
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()


class Thinker:
    """Runs bot jobs in ``workers`` processes (0: a thread); results on the reactor."""

    def __init__(self, reactor: Any, workers: int = 2) -> None:
        self.reactor = reactor
        self.workers = max(0, workers)
        self._pool: list[_Worker] = []
        self._queue: collections.deque[_Job] = collections.deque()
        self._ids = itertools.count(1)
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._stopped = False
        self.replaced = 0  # workers that died and were replaced

    def pids(self) -> list[int]:
        """The worker processes' ids (tests, diagnostics)."""
        return [w.pid for w in self._pool]

    def run(self, fn: Any, *args: Any) -> defer.Deferred:
        """``fn(*args)`` off the reactor thread; a Deferred fires with its result."""
        if not self.workers:
            return self._run_in_thread(fn, args)
        self._stopped = False
        job = _Job(next(self._ids), fn, args)
        self._queue.append(job)
        self._dispatch()
        return job.deferred

    def _dispatch(self) -> None:
        while self._queue and not self._stopped:
            idle = next((w for w in self._pool if w.job is None), None)
            if idle is None:
                if len(self._pool) >= self.workers:
                    return
                try:
                    idle = _Worker(self)
                except OSError as exc:
                    job = self._queue.popleft()
                    job.deferred.errback(exc)
                    continue
                self._pool.append(idle)
            job = self._queue.popleft()
            idle.job = job
            job.tries += 1
            if not idle.send((job.id, job.fn, job.args)):
                idle.job = None
                self._queue.appendleft(job)
                job.tries -= 1
                self._forget(idle)

    def _answer(self, worker: _Worker, answer: Any) -> None:
        job, worker.job = worker.job, None
        if job is not None and answer[0] == job.id and not job.deferred.called:
            if answer[1]:
                job.deferred.callback(answer[2])
            else:
                job.deferred.errback(answer[2])
        self._dispatch()

    def _died(self, worker: _Worker, code: int) -> None:
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
                self._queue.appendleft(job)  # run it again, first
            else:
                job.deferred.errback(WorkerDied(
                    f"the bot worker died running this search (exit status {code})"))
        self._dispatch()

    def _forget(self, worker: _Worker) -> None:
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
        self._queue.clear()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.shutdown(wait=False, cancel_futures=True)
