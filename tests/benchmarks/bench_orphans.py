"""kill -9 cycles of a ``cartagena host`` whose bots are thinking: processes left behind.

Each cycle starts ``cartagena host --headless --players 4 --bots 4`` (the default level,
whose searches run in the host's worker processes) on one state dir, with ``--resume``
after the first cycle, so every start restores the game the last kill interrupted. Once
its workers are busy (their CPU time grows) and after a random further 0.1-1.5 s, the
host is killed with SIGKILL; every process it had started is then watched for 5 s.

Prints one JSON line: cycles, processes seen per cycle, processes left alive 5 s after
their host's death (target 0), and the longest time a worker took to go.
BENCH_CYCLES (default 50) sets the cycles; BENCH_SEED the randomness.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.userdirs import private_env

CYCLES = int(os.environ.get("BENCH_CYCLES", "50"))
SEED = int(os.environ.get("BENCH_SEED", "1"))
GRACE = 5.0  # seconds a started process may take to end after its host's death


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                parents[int(entry)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def cpu(pid: int) -> int:
    fields = _stat(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


def main() -> None:
    rng = random.Random(SEED)
    state = Path(tempfile.mkdtemp(prefix="bench-orphans-"))
    seen, left, slowest = [], 0, 0.0
    began = time.perf_counter()
    try:
        for cycle in range(CYCLES):
            cmd = [sys.executable, "-m", "cartagena_net", "host", "--headless",
                   "--players", "4", "--bots", "4", "--port", "0", "--bind", "127.0.0.1",
                   "--discovery", "off", "--web", "off", "--state-dir", str(state),
                   "--no-records", "--no-game-log"]
            cmd.append("--resume" if cycle else "--no-resume")
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, env=private_env(state / "user"))
            deadline = time.monotonic() + 60
            workers: set[int] = set()
            while time.monotonic() < deadline:  # the bots think: a worker's CPU grows
                workers = descendants(proc.pid)
                before = {p: cpu(p) for p in workers}
                time.sleep(0.1)
                if any(cpu(p) > t for p, t in before.items()):
                    break
            else:
                raise SystemExit("the host's bots never started thinking")
            time.sleep(rng.uniform(0.1, 1.5))
            started = descendants(proc.pid)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed_at = time.monotonic()
            while any(alive(p) for p in started) and time.monotonic() - killed_at < GRACE:
                time.sleep(0.02)
            slowest = max(slowest, time.monotonic() - killed_at)
            still = [p for p in started if alive(p)]
            left += len(still)
            for p in still:  # never leave them on the machine
                os.kill(p, signal.SIGKILL)
            seen.append(len(started))
    finally:
        shutil.rmtree(state, ignore_errors=True)
    print(json.dumps({
        "bench": "orphans",
        "cycles": CYCLES,
        "processes_per_cycle_min": min(seen),
        "processes_per_cycle_max": max(seen),
        "processes_started": sum(seen),
        "left_alive_after_5s": left,
        "slowest_exit_s": round(slowest, 3),
        "seconds": round(time.perf_counter() - began, 1),
        "target_met": left == 0,
    }))


if __name__ == "__main__":
    main()
