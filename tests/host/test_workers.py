"""Bot worker processes: they never outlive their host, however it dies, and a worker that
dies on its own is replaced without its table, or any other, noticing."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cartagena_net.host.thinker import BOTS, REVIEW, Thinker, WorkerDied
from protocol import messages
from tests.host.helpers import alive, join
from tests.portable import HARD_KILL, kill_hard
from tests.twisted_loop import make_host, reactor, run, stop_host, until, wait

ROOT = Path(__file__).resolve().parents[2]


def _sleep_then(seconds: float, value: int) -> int:
    time.sleep(seconds)
    return value


def _die() -> None:
    os._exit(3)


def _children(pid: int) -> list[int]:
    """Every process whose parent is ``pid``, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                pass
    return found


def _descendants(pid: int) -> set[int]:
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in _children(todo.pop()):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def _cpu_ticks(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def test_a_worker_killed_alone_is_replaced_and_its_job_runs_again():
    thinker = Thinker(reactor, workers=2)
    try:
        async def go():
            assert await wait(thinker.run(_sleep_then, 0, 1)) == 1  # the pool is up
            d = thinker.run(_sleep_then, 1.0, 42)
            other = thinker.run(_sleep_then, 1.5, 7)
            busy = await until(lambda: [w for w in thinker._pool if w.job is not None
                                        and w.job.deferred is d], "the job running")
            victim = busy[0].pid
            kill_hard(victim)
            assert await wait(d) == 42  # run again on a fresh worker
            assert await wait(other) == 7  # the other job never noticed
            assert victim not in thinker.pids() and thinker.replaced == 1
            assert await wait(thinker.run(_sleep_then, 0, 5)) == 5
        run(go())
    finally:
        thinker.shutdown()


def test_a_job_that_kills_every_worker_it_runs_on_fails_cleanly():
    thinker = Thinker(reactor, workers=1)
    try:
        async def go():
            try:
                await wait(thinker.run(_die))
            except WorkerDied as exc:
                assert "died" in str(exc)
            else:
                raise AssertionError("a job that kills its worker must fail")
            assert await wait(thinker.run(_sleep_then, 0, 9)) == 9  # the pool goes on
        run(go())
    finally:
        thinker.shutdown()


def _started_at(value: int) -> tuple[int, float]:
    return value, time.time()


def test_a_person_s_table_never_waits_behind_bots_only_tables_or_reviews():
    """Jobs below HUMAN hold at most workers - 1 workers: however many bots-only and
    review jobs wait, a job for a table where a person waits starts at once, and the
    waiting jobs then go best priority first, oldest first."""
    thinker = Thinker(reactor, workers=2)
    try:
        async def go():
            warm = [thinker.run(_sleep_then, 0.3, i) for i in range(2)]
            assert [await wait(d) for d in warm] == [0, 1]  # both workers are up
            bots = [thinker.run(_sleep_then, 0.6, i, priority=BOTS) for i in range(3)]
            review = thinker.run(_started_at, 9, priority=REVIEW)
            later_bots = thinker.run(_started_at, 5, priority=BOTS)
            assert thinker.waiting(BOTS) == 3 and thinker.waiting(REVIEW) == 1
            asked = time.time()
            value, began = await wait(thinker.run(_started_at, 1))  # HUMAN by default
            assert value == 1 and began - asked < 0.5  # a worker was kept free
            assert thinker.waiting(BOTS) == 3  # one bots-only job at a time
            assert [await wait(d) for d in bots] == [0, 1, 2]
            (_, bots_began), (_, review_began) = await wait(later_bots), await wait(review)
            assert bots_began < review_began  # the review comes last
        run(go())
    finally:
        thinker.shutdown()


def test_one_worker_serves_every_priority():
    thinker = Thinker(reactor, workers=1)
    try:
        async def go():
            assert await wait(thinker.run(_sleep_then, 0, 4, priority=REVIEW)) == 4
            assert await wait(thinker.run(_sleep_then, 0, 5, priority=BOTS)) == 5
            with pytest.raises(ValueError):
                thinker.run(_sleep_then, 0, 6, priority=7)
        run(go())
    finally:
        thinker.shutdown()


def test_shutdown_ends_every_worker():
    thinker = Thinker(reactor, workers=2)
    run(wait(thinker.run(_sleep_then, 0, 1)))
    d = thinker.run(_sleep_then, 30, 1)  # a long search, abandoned
    pids = thinker.pids()
    assert pids and all(alive(p) for p in pids)
    thinker.shutdown()
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)
    d.addErrback(lambda _: None)  # abandoned: nobody waits for it


def test_a_table_plays_to_its_end_while_its_workers_are_killed():
    host = make_host(bot_think=0.15, bot_workers=2, bot_delay=0)

    async def go():
        tid = host.create_table("bots", "jamaica", {"players": 2, "segments": 1, "pirates": 2},
                                bots=2, bot_kind="ismcts")
        table = host.lobby.tables[tid]
        watcher, _ = await join(host.port, "watch", role="spectator")
        watcher.send(messages.JoinTable(table=tid, spectate=True))
        await watcher.expect(messages.Joined)
        table.start(None)
        killed: set[int] = set()  # each job's worker killed once (a job is run again once)
        while table.status != "finished" and len(killed) < 3:
            busy = await until(lambda: [w for w in host.thinker._pool
                                        if w.job and w.job.id not in killed], "a search")
            killed.add(busy[0].job.id)
            kill_hard(busy[0].pid)
            await until(lambda p=busy[0].pid: p not in host.thinker.pids(), "the worker replaced")
        await until(lambda: table.status == "finished", "the game over", timeout=240)
        final = await watcher.expect(messages.State, lambda m: m.view["outcome"] is not None)
        assert final.view["outcome"]["winner"] in (0, 1)
        return len(killed)

    from twisted.logger import formatEvent, globalLogPublisher

    said: list[str] = []  # the host's log lines, to say why if a fallback played

    def observe(event: dict) -> None:
        if str(event.get("log_namespace", "")).startswith("cartagena"):
            said.append(formatEvent(event))

    globalLogPublisher.addObserver(observe)
    try:
        killed = run(go(), timeout=300)
    finally:
        globalLogPublisher.removeObserver(observe)
        run(stop_host(host))
    assert killed >= 1 and host.thinker.replaced >= killed
    # Every killed search was run again: no bot's fallback played.
    assert getattr(host, "bot_fallbacks", 0) == 0, "\n".join(said)


@pytest.mark.parametrize("signum", [HARD_KILL, signal.SIGTERM], ids=["kill", "term"])
def test_no_process_outlives_a_host_killed_while_its_bots_think(signum):
    """``cartagena host`` with four searching bots: killed however (kill -9 included),
    every process it started is gone within 5 s."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cartagena_net", "host", "--headless", "--players", "4",
         "--bots", "4", "--port", "0", "--bind", "127.0.0.1", "--discovery", "off",
         "--web", "off", "--bot-delay", "0"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        thinking: set[int] = set()
        while time.monotonic() < deadline:
            workers = _descendants(proc.pid)
            if workers:
                first = {p: _cpu_ticks(p) for p in workers if alive(p)}
                time.sleep(0.5)
                thinking = {p for p, t in first.items() if alive(p) and _cpu_ticks(p) > t}
                if thinking:
                    break
            time.sleep(0.1)
        assert thinking, "the bots never started thinking in worker processes"
        started = _descendants(proc.pid)
        os.kill(proc.pid, signum)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(alive(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [p for p in started if alive(p)] == []
    finally:
        for p in _descendants(proc.pid) | {proc.pid}:
            try:
                kill_hard(p)
            except ProcessLookupError:
                pass
        proc.wait(timeout=10)
