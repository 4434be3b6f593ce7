"""A host stopped the usual way on its platform (Ctrl+C, SIGTERM; Ctrl+Break on Windows)
takes one stop path: every client is told it is going, the journal holds every action
played, and the game being played leaves its "stopped" record."""
from __future__ import annotations

import json
import os
import signal
import subprocess

import pytest

from cartagena_net.host.journal import list_journals, read_journal
from cartagena_net.portable.signals import STOP_SIGNALS, stop_on_signals
from cartagena_net.records.store import records_dir
from protocol import messages
from tests.portable import WINDOWS

from .helpers import run, seat_players, state_at
from .test_resume import _spawn

# What a user sends on each platform, as a test can send it to a child process.
if WINDOWS:
    USUAL = {"ctrl-break": signal.CTRL_BREAK_EVENT}  # type: ignore[attr-defined]
else:
    USUAL = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM}


def test_each_platforms_stop_signals_are_handled():
    names = {s.name for s in STOP_SIGNALS}
    assert {"SIGINT", "SIGTERM"} <= names
    assert ("SIGBREAK" in names) == hasattr(signal, "SIGBREAK")


class FakeReactor:
    def __init__(self, running: bool) -> None:
        self.running = running
        self.stopped = 0
        self.later: list = []

    def stop(self) -> None:
        self.stopped += 1

    def callFromThread(self, f) -> None:
        f()

    def callWhenRunning(self, f) -> None:
        self.later.append(f)


@pytest.mark.parametrize("running", [True, False])
def test_a_stop_signal_stops_the_reactor_now_or_as_soon_as_it_runs(running):
    saved = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    reactor = FakeReactor(running)
    try:
        stop_on_signals(reactor)
        signal.raise_signal(signal.SIGINT)
    finally:
        for s, h in saved.items():
            signal.signal(s, h)
    if running:
        assert reactor.stopped == 1 and reactor.later == []
    else:
        assert reactor.stopped == 0 and len(reactor.later) == 1
        reactor.running = True
        reactor.later[0]()
        assert reactor.stopped == 1


@pytest.mark.parametrize("how", sorted(USUAL))
def test_a_host_stopped_the_usual_way_tells_flushes_and_records(tmp_path, how):
    state = tmp_path / "state"
    proc, port = _spawn(state, "--players", "2", "--web", "off", stderr=subprocess.PIPE)
    try:
        async def play_then_stop():
            (ann, _, _), (bob, _, _) = await seat_players(port, 1, ["ann", "bob"])
            ann.send(messages.Start(table=1))
            played = 0
            s = await state_at(ann)
            while played < 4:
                mover = ann if s.legal else bob
                if not s.legal:
                    s = await state_at(bob, s.seq)
                retreats = [a for a in s.legal if a.startswith("retreat")]
                mover.send(messages.Action(table=1, seq=s.seq,
                                           action=(retreats or sorted(s.legal))[0]))
                s = await state_at(ann, s.seq + 1)
                played += 1
            proc.send_signal(USUAL[how])
            byes = [await c.expect(messages.Bye, timeout=30) for c in (ann, bob)]
            return s.seq, byes

        seq, byes = run(play_then_stop())
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert all(b.reason for b in byes)  # each client was told why
    ((_, path),) = list_journals(state)
    acts = [r for r in read_journal(path).records if r.get("t") == "act"]
    assert acts and max(r["seq"] for r in acts) >= seq - 1
    records = [json.loads(p.read_text(encoding="utf-8"))
               for p in records_dir().glob("*.json")]
    assert [r["end"] for r in records] == ["stopped"], records
    assert os.path.getsize(path) == read_journal(path).good  # no torn tail
