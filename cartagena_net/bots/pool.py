"""Worker processes for bot jobs, without Twisted: one process (:class:`WorkerProcess`)
and a blocking map over a few of them (:func:`run_jobs`, for the command line).

A worker is ``python -m cartagena_net.bots.worker`` (see that module): a fresh
interpreter on every platform, at the lowest CPU priority, that dies with its parent
however the parent dies. The host's :class:`cartagena_net.host.thinker.Thinker` runs
its workers through :class:`WorkerProcess` too, with its answers handed to the reactor.

:func:`spread_search` is one bot decision on several cores without a host (``cartagena
selfplay``, ``cartagena bot``, the benchmarks): this process searches one share and
helper processes the others; the root statistics are merged; a helper that dies or is
late is left out, never waited for past the decision's deadline.
"""
from __future__ import annotations

import itertools
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from cartagena_net.bots.worker import frame, read_frame

RETRIES = 1  # a job whose worker died is run again this many times


class WorkerDied(RuntimeError):
    """The worker running a job died (and the job had been retried already)."""


class WorkerProcess:
    """One worker process. ``on_answer(self, answer)`` and ``on_exit(self, code)`` are
    called on a thread of this object's own (hand them on to your loop). ``lowest``:
    the worker runs at the lowest CPU priority (else at this process's)."""

    def __init__(self, on_answer: Callable[[WorkerProcess, Any], None],
                 on_exit: Callable[[WorkerProcess, int], None], lowest: bool = True) -> None:
        env = dict(os.environ, CARTAGENA_WORKER_PARENT=str(os.getpid()))
        quiet = not os.environ.get("CARTAGENA_WORKER_STDERR")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cartagena_net.bots.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if quiet else None, env=env, close_fds=True)
        self.job: Any = None  # what the owner is running on it
        self._on_answer, self._on_exit = on_answer, on_exit
        self.send(("init", list(sys.path), lowest))
        threading.Thread(target=self._read, name=f"bot-worker-{self.proc.pid}",
                         daemon=True).start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, obj: Any) -> bool:
        """Send one frame; False if the worker is gone."""
        try:
            self.proc.stdin.write(frame(obj))
            self.proc.stdin.flush()
        except (OSError, ValueError):  # the worker is gone (or stopped)
            return False
        return True

    def _read(self) -> None:
        stdout = self.proc.stdout
        while True:
            try:
                answer = read_frame(stdout)
            except Exception:  # noqa: BLE001 - EOF, a broken pipe, a torn frame: it died
                break
            self._on_answer(self, answer)
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._on_exit(self, code)

    def stop(self) -> None:
        """End the worker: at once when its stdin closes; killed if it lingers."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()


def run_jobs(jobs: Sequence[tuple[Any, tuple]], workers: int = 2,
             progress: Callable[[int, int], None] | None = None) -> list[Any]:
    """Run ``fn(*args)`` for each ``(fn, args)`` of ``jobs`` in ``workers`` processes;
    their results in the order of ``jobs``. A job whose worker dies runs once more on a
    new worker (then :class:`WorkerDied`); a job's exception is raised here.
    ``progress(done, total)`` is called as answers come."""
    total = len(jobs)
    results: list[Any] = [None] * total
    if not total:
        return results
    events: queue.SimpleQueue = queue.SimpleQueue()
    todo = list(range(total))[::-1]  # popped from the end: in order
    tries = [0] * total
    pool: list[WorkerProcess] = []
    done = 0

    def start() -> WorkerProcess:
        w = WorkerProcess(lambda w, a: events.put(("answer", w, a)),
                          lambda w, c: events.put(("exit", w, c)))
        pool.append(w)
        return w

    def give(w: WorkerProcess) -> None:
        while todo:
            i = todo.pop()
            fn, args = jobs[i]
            tries[i] += 1
            w.job = i
            if w.send((i, fn, args)):
                return
            w.job = None
            todo.append(i)
            tries[i] -= 1
            return

    try:
        for _ in range(min(workers, total)):
            give(start())
        while done < total:
            kind, w, value = events.get()
            i, w.job = w.job, None
            if kind == "answer":
                job_id, ok, result = value
                if not ok:
                    raise result
                results[job_id] = result
                done += 1
                if progress is not None:
                    progress(done, total)
                give(w)
                continue
            # the worker died
            if w in pool:
                pool.remove(w)
            if i is not None:
                if tries[i] > RETRIES:
                    raise WorkerDied(f"a worker died running job {i} (exit status {value})")
                todo.append(i)
            if todo:
                give(start())
        return results
    finally:
        for w in pool:
            w.stop()


GRACE = 0.05  # seconds past a decision's deadline a late helper may take
READY_WAIT = 10.0  # seconds a decision waits at most for helpers still starting


def ready() -> int:
    """A new helper's first job: it answers as soon as its interpreter is up."""
    return os.getpid()


class Helpers:
    """Helper processes for :func:`spread_search`, started ahead (:meth:`warm`) or as
    decisions need them, and kept for the next (one decision at a time).

    A new helper is a fresh interpreter, some tenths of a second from taking a job. A
    decision waits for the helpers still starting (each answers a :func:`ready` job
    first; at most :data:`READY_WAIT` from its start, and never again after that)
    before its own share begins, so every share searches from the same moment: else a
    share that began late would miss the decision's deadline and be left out, and the
    first decision of a process would be searched by one share alone."""

    def __init__(self) -> None:
        self.pool: list[WorkerProcess] = []
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.ids = itertools.count(1)
        self.lost = 0  # shares left out: their helper died or was late
        # The ready jobs not answered yet: by when each helper should be up (a helper
        # that is not is waited for no longer, by this decision or any later one).
        self.starting: dict[int, float] = {}

    def _start(self) -> WorkerProcess:
        # At this process's priority: it helps a decision someone waits for here.
        w = WorkerProcess(lambda w, a: self.events.put(("answer", w, a)),
                          lambda w, c: self.events.put(("exit", w, c)), lowest=False)
        self.pool.append(w)
        job_id = next(self.ids)
        w.job = job_id
        if w.send((job_id, ready, ())):
            self.starting[job_id] = time.time() + READY_WAIT
        else:
            w.job = None
        return w

    def _top_up(self, shares: int) -> None:
        """Start helpers until there are ``shares - 1`` (not waiting for them)."""
        while len(self.pool) < shares - 1:
            try:
                self._start()
            except OSError:
                break

    def warm(self, shares: int) -> None:
        """Start the helpers a decision of ``shares`` shares will use, now, so that
        they are up by the first decision."""
        with self.lock:
            self._top_up(shares)

    def _await_started(self) -> None:
        """Take events until no helper is still starting, each for at most
        :data:`READY_WAIT` from its start."""
        while True:
            due = [self.starting[w.job] for w in self.pool if w.job in self.starting]
            if not due:
                return
            if self._drain(max(due)) is None:
                return

    def _drain(self, until: float | None = None) -> tuple | None:
        """One event, waiting until ``until`` (``time.time()``; None: not at all): an
        answer frees its helper (a ready answer: the helper is up), an exit forgets it.
        (kind, worker, value, its job)."""
        try:
            if until is None:
                kind, w, value = self.events.get_nowait()
            else:
                kind, w, value = self.events.get(timeout=max(0.0, until - time.time()))
        except queue.Empty:
            return None
        job, w.job = w.job, None
        self.starting.pop(job, None)
        if kind == "exit" and w in self.pool:
            self.pool.remove(w)
        return kind, w, value, job

    def decide(self, args: tuple, shares: int) -> Any:
        from cartagena_net.bots import ismcts

        with self.lock:
            while self._drain() is not None:  # late answers, helpers now up
                pass
            self._top_up(shares)
            self._await_started()
            idle = [w for w in self.pool if w.job is None and w.proc.poll() is None]
            k = 1 + min(len(idle), shares - 1)
            parts = ismcts.spread(args, k)
            deadline = ismcts.deadline_of(args)
            sent: dict[int, int] = {}  # job id: share index
            for i, w in zip(range(1, k), idle):
                job_id = next(self.ids)
                w.job = job_id
                if w.send((job_id, ismcts.search, parts[i])):
                    sent[job_id] = i
                else:
                    w.job = None
            results: dict[int, Any] = {0: ismcts.search(*parts[0])}
            due = None if deadline is None else deadline + GRACE
            while len(results) < 1 + len(sent):
                if due is not None and time.time() >= due:
                    break
                event = self._drain(due if due is not None else time.time() + 60)
                if event is None:
                    continue
                kind, _, value, job_id = event
                if job_id not in sent:
                    continue  # an earlier decision's late helper
                ok = kind == "answer" and value[0] == job_id and value[1]
                results[sent[job_id]] = value[2] if ok else None  # dead or failed: out
            for job_id, i in sent.items():  # the late ones: stopped, left out
                if i not in results:
                    results[i] = None
                    for w in self.pool:
                        if w.job == job_id:
                            w.send(("stop", job_id))
            self.lost += sum(1 for r in results.values() if r is None)
            return ismcts.merge(parts[0][1], [results.get(i) for i in range(k)])

    def stop(self) -> None:
        for w in self.pool:
            w.stop()
        self.pool = []


_HELPERS: Helpers | None = None


def spread_search(args: tuple, workers: int) -> Any:
    """``ismcts.search(*args)`` spread over this process and ``workers - 1`` helper
    processes (shared by every bot of this process), merged; the serial search when
    ``workers`` is 1 (or no helper can start)."""
    global _HELPERS  # one set of helpers a process
    from cartagena_net.bots import ismcts

    if workers <= 1:
        return ismcts.search(*args)
    if _HELPERS is None:
        _HELPERS = Helpers()
    return _HELPERS.decide(args, workers)


def warm_helpers(workers: int) -> None:
    """Start :func:`spread_search`'s helpers for ``workers`` now (nothing for 1), so
    that they are up by the first decision instead of delaying it."""
    global _HELPERS
    if workers <= 1:
        return
    if _HELPERS is None:
        _HELPERS = Helpers()
    _HELPERS.warm(workers)


def stop_helpers() -> None:
    """End :func:`spread_search`'s helper processes (they also end with this process)."""
    global _HELPERS
    helpers, _HELPERS = _HELPERS, None
    if helpers is not None:
        helpers.stop()
