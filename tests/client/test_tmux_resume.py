"""Crash safety by default, in a real terminal: `cartagena play` and `cartagena host`,
started with no flags, are killed with kill -9 mid-game; started again with no flags,
they say what they found, ask, and the player is back in their seat and plays to the
end.
"""
from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.host.helpers import alive
from tests.portable import kill_hard

from .test_tmux import (
    CLI,
    Tmux,
    _quote,
    assert_no_traceback,
    board,
    my_turn,
    take_turn_action,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux

GAME = ["--rules", "ravensburger", "--option", "segments=1", "--option", "pirates=3",
        "--players", "2", "--bots", "1", "--bot-delay", "0"]


def start_killable(t: Tmux, session: str, argv: list[str], pidfile: Path) -> int:
    """Run argv in a new session as the shell's own process (exec): its pid, to kill."""
    cmd = " ".join(_quote(a) for a in argv)
    shell = f"echo $$ > {_quote(str(pidfile))}; exec {cmd} 2>>{_quote(t.env['CTGN_ERR'])}"
    t.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", session, shell)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = pidfile.read_text().strip() if pidfile.exists() else ""
        if text:
            return int(text)
        time.sleep(0.05)
    raise AssertionError("no pid")


def play_to_the_end(t: Tmux, session: str) -> str:
    for _ in range(200):
        text = wait_screen(t, session, lambda x: my_turn(x) or "GAME OVER" in x,
                           "my turn or the end")
        if "GAME OVER" in text:
            return text
        take_turn_action(t, session, text)
    raise AssertionError("the game does not end")


def crash_and_resume(tmp_path: Path, argv: list[str], start: bool = False,
                     stop: Callable[[int], None] = kill_hard) -> None:
    """``start``: the game is started by hand (s in the waiting room); ``stop`` ends the
    first run (kill -9 unless another is given)."""
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-resume-{os.getpid()}", env)
    try:
        # The killed program's session ends with it; a session that stays keeps the tmux
        # server up (else it exits with its last session, and the next session may be
        # sent to the server on its way out).
        t.tmux("new-session", "-d", "-s", "keep", "sleep 600")
        pid = start_killable(t, "first", argv, tmp_path / "pid")
        if start:
            wait_screen(t, "first", lambda x: "s/Enter start" in x, "the waiting room")
            t.keys("first", "s")
        text = wait_screen(t, "first", my_turn, "the game screen")
        take_turn_action(t, "first", text)
        before = board(wait_screen(t, "first", my_turn, "my turn again"))
        assert before
        stop(pid)
        # Started again with no flags: it says what it found and asks.
        t.start("again", argv)
        asked = wait_screen(t, "again", lambda x: "Resume? [Y/n]" in x, "the question")
        assert "1 unfinished game(s) in " in asked and "ravensburger" in asked
        assert str(Path(env["XDG_STATE_HOME"]) / "cartagena-net" / "hosts") in asked.replace(
            "\n", "")
        t.keys("again", "y", "Enter")
        text = wait_screen(t, "again", my_turn, "the resumed game")
        assert board(text) == before  # the same pirates where they were
        end = play_to_the_end(t, "again")
        assert "Ranking: 1." in end
        t.keys("again", "q")
        wait_screen(t, "again", lambda x: "EXIT=0" in x or "Quit?" in x, "the exit")
        if "Quit?" in t.screen("again"):
            t.keys("again", "y")
            wait_screen(t, "again", lambda x: "EXIT=0" in x, "the exit")
        assert_no_traceback(env)
    finally:
        t.kill()


def test_play_killed_mid_game_resumes_it_with_no_flags(tmp_path: Path) -> None:
    crash_and_resume(tmp_path, [*CLI, "play", *GAME, "--name", "ann"])


def test_host_killed_mid_game_gives_its_own_player_the_seat_back(tmp_path: Path) -> None:
    crash_and_resume(tmp_path, [*CLI, "host", "--port", "0", "--bind", "127.0.0.1",
                                "--discovery", "off", "--web", "off", *GAME, "--name", "den"],
                     start=True)


def test_play_stopped_with_sigterm_keeps_the_game_and_resumes_it(tmp_path: Path) -> None:
    """SIGTERM (a logout, a service manager, `kill`) stops `play` the way Ctrl+C stops
    `host`: it exits at once, writes the stopped game's record, and the next start offers
    the game back and plays it to the end."""
    records = Path(terminal_env(tmp_path)["XDG_STATE_HOME"]) / "cartagena-net" / "records"

    def sigterm(pid: int) -> None:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if not alive(pid):  # gone, or a zombie its parent (tmux) has not reaped yet
                break
            time.sleep(0.05)
        else:
            raise AssertionError("play did not stop on SIGTERM")
        kept = [json.loads(p.read_text()) for p in records.glob("*.json")]
        assert [r["end"] for r in kept] == ["stopped"], kept

    crash_and_resume(tmp_path, [*CLI, "play", *GAME, "--name", "ann"], stop=sigterm)
