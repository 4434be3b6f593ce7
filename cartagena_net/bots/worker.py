"""A bot worker process: runs the host's search jobs, and dies with the host.

Started by :class:`cartagena_net.host.thinker.Thinker` as ``python -m
cartagena_net.bots.worker`` (a fresh interpreter on every platform: what
``multiprocessing`` calls ``spawn``), with a pipe on each of stdin and stdout. Each frame
on either pipe is a 4-byte big-endian length and a pickle:

- host -> worker: first ``("init", sys_path[, lowest])`` (``lowest`` False: keep the
  parent's CPU priority instead of the lowest), then ``(job_id, function, args)``, and
  ``("stop", job_id)`` to end that job's search early (a search helping another worker's
  decision when a job of the pool's wants the worker: it answers at once with what it
  has; a stop for a job that is not running is ignored);
- worker -> host: ``(job_id, True, result)`` or ``(job_id, False, exception)``.

The pipes are private between the host and its own child, so pickles are trusted here.
This module imports no Twisted, msgpack or prompt_toolkit: a worker starts quickly.

**It never outlives the host.** A thread reads stdin all the time, even while a search
runs on the main thread, and ends the process the moment the pipe closes: the host's end
closes however the host dies (exit, crash, SIGKILL, the OOM killer), on Linux, macOS and
Windows alike. On Linux the parent-death signal (``PR_SET_PDEATHSIG``) is set as well, so
the kernel kills the worker even if that thread could not run.
"""
from __future__ import annotations

import os
import pickle
import queue
import struct
import sys
import threading
from typing import Any, BinaryIO

HEADER = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> Any:
    """One pickled frame from ``stream``; EOFError when the pipe is closed."""
    head = _read_exact(stream, HEADER.size)
    return pickle.loads(_read_exact(stream, HEADER.unpack(head)[0]))


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def frame(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def die_with_parent(parent: int) -> None:
    """Linux: the kernel sends SIGKILL to this process when its parent dies. Elsewhere
    (and as well) the stdin watcher does it."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(0)


def lowest_priority() -> None:
    """The lowest CPU priority, so the host's reactor always answers first: Linux
    SCHED_IDLE, else nice 19 (POSIX), else Windows' idle priority class."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return
    except (AttributeError, OSError):
        pass
    try:
        os.nice(19)
        return
    except (AttributeError, OSError):
        pass
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), 0x40)  # IDLE_PRIORITY_CLASS
    except (AttributeError, OSError):
        pass


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a job's stray print must not corrupt the frames
    parent = int(os.environ.get("CARTAGENA_WORKER_PARENT", "0") or 0)
    if parent:
        die_with_parent(parent)
    jobs: queue.SimpleQueue = queue.SimpleQueue()
    lock = threading.Lock()
    now = {"running": None, "stop": None}  # the job running, a stop asked for (its id)

    def stop(job_id: Any) -> None:
        with lock:
            now["stop"] = job_id
            search = sys.modules.get("cartagena_net.bots.ismcts")
            if now["running"] == job_id and search is not None:
                search.STOP.set()

    def watch() -> None:
        try:
            while True:
                got = read_frame(stdin)
                if isinstance(got, tuple) and len(got) == 2 and got[0] == "stop":
                    stop(got[1])
                else:
                    jobs.put(got)
        except BaseException:  # noqa: BLE001 - EOF or a broken pipe: the host is gone
            os._exit(0)

    threading.Thread(target=watch, name="host-watch", daemon=True).start()
    first = jobs.get()
    lowest = True
    if isinstance(first, tuple) and first[:1] == ("init",):
        for entry in reversed(first[1]):
            if entry not in sys.path:
                sys.path.insert(0, entry)
        lowest = len(first) < 3 or bool(first[2])
    if lowest:  # (a helper of a bot deciding in the foreground keeps its parent's)
        lowest_priority()
    from cartagena_net.bots import ismcts  # the first decision is then quick

    while True:
        job_id, fn, args = jobs.get()
        with lock:  # a stop that came before the job began still stops it
            now["running"] = job_id
            if now["stop"] == job_id:
                ismcts.STOP.set()
            else:
                ismcts.STOP.clear()
        try:
            answer = (job_id, True, fn(*args))
        except Exception as exc:  # noqa: BLE001 - passed on to the host
            import traceback

            # where it failed, for the host's log (an exception's attributes are pickled)
            exc.worker_traceback = traceback.format_exc(limit=-8)
            answer = (job_id, False, exc)
        with lock:
            now["running"] = None
            ismcts.STOP.clear()
        try:
            data = frame(answer)
        except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable result
            data = frame((job_id, False, RuntimeError(f"cannot send the answer: {exc!r}")))
        stdout.write(data)
        stdout.flush()


if __name__ == "__main__":
    main()
