"""Journals are written before an action is answered and fsynced off the action path:
at most once per ``journal_sync`` seconds each, in a thread, and at once when the host
stops; ``journal_sync=0`` fsyncs every append before answering."""
from __future__ import annotations

import argparse
import os
import random
import threading

import pytest

import cartagena_net.host.journal as journal_module
from cartagena_net.cli.journal_args import sync_seconds
from cartagena_net.host.journal import journal_path, read_journal
from tests.twisted_loop import until

from .crashkit import play_to_end
from .helpers import make_host, run, stop_host
from .test_full_disk import _act, _setup, mostly_forward


@pytest.fixture
def fsyncs(monkeypatch):
    """Every fsync the journals make, by what: ``file`` (the syncer, by name) and
    ``append`` (an fsync inside an append); each still fsyncs for real."""
    seen: list[tuple[str, str]] = []
    real_file, real_fsync = journal_module.fsync_file, os.fsync

    def by_name(path):
        seen.append(("file", str(path)))
        return real_file(path)

    def in_append(fd):
        # os.fsync is the one function: the syncer's thread calls it too (through
        # fsync_file, counted above), so only the fsyncs made elsewhere count here.
        if threading.current_thread().name != "journal-sync":
            seen.append(("append", ""))
        return real_fsync(fd)

    monkeypatch.setattr(journal_module, "fsync_file", by_name)
    monkeypatch.setattr(journal_module.os, "fsync", in_append)
    return seen


def test_an_answered_action_is_in_the_file_and_fsynced_within_the_interval(tmp_path, fsyncs):
    host = make_host(state_dir=str(tmp_path), journal_sync=0.3, rate=1e6, burst=2e6)

    async def go():
        tid, players = await _setup(host)
        table = host.lobby.tables[tid]
        path = journal_path(tmp_path, tid)
        rng = random.Random(3)
        del fsyncs[:]
        for _ in range(25):  # answered: written (another reader sees it) before any fsync
            assert await _act(host, tid, players, rng) is None
            acts = [r for r in read_journal(path).records if r["t"] == "act"]
            assert acts[-1]["seq"] == table.seq
        assert ("append", "") not in fsyncs
        rounds = host.syncer.synced
        await until(lambda: host.syncer.synced > rounds, "the syncer's round", timeout=5)
        assert ("file", str(path)) in fsyncs
        # One fsync for many actions: 25 actions took far fewer rounds.
        assert sum(1 for f in fsyncs if f == ("file", str(path))) < 25
        final = await play_to_end(players, tid, rng, policy=mostly_forward)  # on to the end
        assert final.view["outcome"] is not None and table.state.is_over
        await stop_host(host)
        records = read_journal(path).records
        assert [r["seq"] for r in records if r["t"] == "act"][-1] == table.seq

    run(go(), timeout=180)
    assert not host.syncer._dirty


def test_the_host_stopping_fsyncs_what_it_wrote(tmp_path, fsyncs):
    host = make_host(state_dir=str(tmp_path), journal_sync=60, rate=1e6, burst=2e6)

    async def go():
        tid, players = await _setup(host)
        rng = random.Random(4)
        for _ in range(5):
            assert await _act(host, tid, players, rng) is None
        del fsyncs[:]
        await stop_host(host)
        return journal_path(tmp_path, tid)

    path = run(go(), timeout=120)
    assert ("file", str(path)) in fsyncs  # not 60 s later: on the way out


def test_journal_sync_zero_fsyncs_each_append_before_answering(tmp_path, fsyncs):
    host = make_host(state_dir=str(tmp_path), journal_sync=0, rate=1e6, burst=2e6)

    async def go():
        tid, players = await _setup(host)
        rng = random.Random(5)
        del fsyncs[:]
        for n in range(1, 11):
            assert await _act(host, tid, players, rng) is None
            assert fsyncs.count(("append", "")) == n
        assert not any(kind == "file" for kind, _ in fsyncs)
        await stop_host(host)

    run(go(), timeout=120)


@pytest.mark.parametrize("text", ["0", "1", "0.25", "10.5"])
def test_journal_sync_takes_seconds(text):
    assert sync_seconds(text) == float(text)


@pytest.mark.parametrize("text", ["-1", "", "1e3", "inf", "nan", "\u0661", "1,5", "0x10"])
def test_journal_sync_refuses_what_is_not_seconds_in_ascii_digits(text):
    with pytest.raises(argparse.ArgumentTypeError):
        sync_seconds(text)


def test_stopping_fsyncs_what_the_sync_thread_was_handed_and_ends_it(tmp_path, fsyncs):
    """At stop nothing is left to a daemon thread the process may not wait for: what it
    was handed and what is still dirty are fsynced before ``flush_now`` returns, and the
    thread has ended."""
    from twisted.internet.task import Clock

    class Reactor(Clock):
        def callFromThread(self, f, *args):
            self.callLater(0, f, *args)

    clock = Reactor()
    syncer = journal_module.Syncer(clock, 0.5)
    first, second = tmp_path / "table-1.journal", tmp_path / "table-2.journal"
    for path in (first, second):
        path.write_bytes(b"x\n")
    syncer.dirty(first)
    clock.advance(0.5)  # handed to the thread
    thread = syncer._thread
    syncer.dirty(second)  # still dirty
    syncer.flush_now()
    assert {("file", str(first)), ("file", str(second))} <= set(fsyncs)
    assert thread is not None and not thread.is_alive()
