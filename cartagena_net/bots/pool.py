"""Worker processes for bot jobs, without Twisted: one process (:class:`WorkerProcess`)
and a blocking map over a few of them (:func:`run_jobs`, for the command line).

A worker is ``python -m cartagena_net.bots.worker`` (see that module): a fresh
interpreter on every platform, at the lowest CPU priority, that dies with its parent
however the parent dies. The host's :class:`cartagena_net.host.thinker.Thinker` runs
its workers through :class:`WorkerProcess` too, with its answers handed to the reactor.
"""
from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from cartagena_net.bots.worker import frame, read_frame

RETRIES = 1  # a job whose worker died is run again this many times


class WorkerDied(RuntimeError):
    """The worker running a job died (and the job had been retried already)."""


class WorkerProcess:
    """One worker process. ``on_answer(self, answer)`` and ``on_exit(self, code)`` are
    called on a thread of this object's own (hand them on to your loop)."""

    def __init__(self, on_answer: Callable[[WorkerProcess, Any], None],
                 on_exit: Callable[[WorkerProcess, int], None]) -> None:
        env = dict(os.environ, CARTAGENA_WORKER_PARENT=str(os.getpid()))
        quiet = not os.environ.get("CARTAGENA_WORKER_STDERR")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cartagena_net.bots.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if quiet else None, env=env, close_fds=True)
        self.job: Any = None  # what the owner is running on it
        self._on_answer, self._on_exit = on_answer, on_exit
        self.send(("init", list(sys.path)))
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
