"""A review due when its host stops is not lost: a host killed right after a game ended
makes it at its next start; ``cartagena review --due`` makes it on request; and
``cartagena review`` shows its progress on a terminal (it was silent for minutes)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cartagena_net.records import store

from .test_cli import CLI, ROOT
from .test_format import bot_game, record_of

GAME = ["--headless", "--port", "0", "--bind", "127.0.0.1", "--discovery", "off",
        "--web", "off", "--players", "2", "--bots", "2", "--bot-kind", "greedy",
        "--bot-delay", "0", "-o", "segments=1", "--name", "den", "--no-resume"]


def env_for(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), HOME=str(tmp_path / "home"),
                PYTHONPATH=str(ROOT))


def records_of(env: dict[str, str]) -> Path:
    return Path(env["XDG_STATE_HOME"]) / "cartagena-net" / "records"


def wait_for(what: str, predicate, timeout: float, proc: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the host exited ({proc.returncode}) before {what}: "
                                 f"{proc.stderr.read() if proc.stderr else ''}")
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def host(env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen([*CLI, "host", *GAME], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=open(log, "a"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def finished(folder: Path) -> list[str]:
    return [i.id for i in store.listing(folder) if i.record and i.record["kind"] == "full"]


def test_a_review_due_when_the_host_was_killed_is_made_at_its_next_start(tmp_path):
    env = env_for(tmp_path)
    folder = records_of(env)
    log = tmp_path / "host.log"
    first = host(env, log)
    try:
        (game,) = wait_for("the game's record", lambda: finished(folder), 90, first)
        os.kill(first.pid, signal.SIGKILL)  # right after the game ended
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert store.read_review(folder, game) is None, "the review was made before the kill"
    assert store.due(folder) == [game]  # it was due, and says so on disk

    again = host(env, log)  # the same state folder: the same host id
    try:
        review = wait_for("the review due to be made at the next start",
                          lambda: store.read_review(folder, game), 300, again)
        assert review["record"] == game
        assert game not in store.due(folder)
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(30)
    text = log.read_text()
    assert "review(s) due since the last run are made now" in text and game in text
    assert "Traceback" not in text


def test_cartagena_review_due_makes_the_reviews_due_on_request(tmp_path):
    env = env_for(tmp_path)
    folder = records_of(env)
    recs = [record_of(bot_game("jamaica", {"players": 2, "segments": 1}, seed=s)) for s in (1, 2)]
    for n, rec in enumerate(recs):
        rec["id"] = f"20261124T20000{n}Z-0123abcd-{n + 1}"
        store.write(folder, json.loads(json.dumps(rec)))
    store.mark_due(folder, recs[0]["id"])
    store.mark_due(folder, recs[1]["id"])
    done = subprocess.run([*CLI, "review", "--due", "--playouts", "4", "--search", "20",
                           "--workers", "1"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    assert "2 reviews due" in done.stdout
    for rec in recs:
        assert store.read_review(folder, rec["id"])["record"] == rec["id"]
    assert store.due(folder) == []
    nothing = subprocess.run([*CLI, "review", "--due"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert nothing.returncode == 0 and "no review is due" in nothing.stdout


@pytest.mark.tmux
def test_cartagena_review_shows_its_progress_on_a_terminal(tmp_path):
    from tests.client.test_tmux import CLI as TCLI
    from tests.client.test_tmux import (
        Tmux,
        assert_no_traceback,
        terminal_env,
        wait_screen,
    )

    env = terminal_env(tmp_path)
    Path(env["CTGN_ERR"]).touch()
    rec = record_of(bot_game("jamaica", {"players": 3, "segments": 2}, seed=3))
    store.write(Path(env["XDG_STATE_HOME"]) / "cartagena-net" / "records", rec)
    total = len(rec["moves"]) + 1
    t = Tmux(f"ctgn-review-{os.getpid()}", env)
    try:
        # its standard error is the terminal (the suite's Tmux.start sends it to a file)
        command = " ".join([*TCLI, "review", rec["id"][:12], "--workers", "1", "--playouts",
                            "400", "--search", "3000"]) + "; echo EXIT=$?; sleep 120"
        t.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", "r", command)
        # Caught as it is drawn (the line changes with every position done).
        seen: list[str] = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            screen = t.screen("r")
            seen.append(screen)
            if any(f"{k}/{total} positions, about" in screen for k in range(1, total)):
                break
            assert "EXIT=" not in screen, f"no progress was shown:\n{screen}"
            time.sleep(0.03)
        assert any(f"{k}/{total} positions, about" in x and " left" in x
                   for x in seen for k in range(1, total)), seen[-1]
        end = wait_screen(t, "r", lambda x: "EXIT=0" in x, "the review's end", timeout=300)
        assert f"{total}/{total} positions" in end and "kept in" in end
        assert_no_traceback(env)
    finally:
        t.kill()
