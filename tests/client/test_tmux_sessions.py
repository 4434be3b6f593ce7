"""Two real terminals on one machine, as one user: `cartagena host` and `cartagena join`.

Defect 1: the joiner never takes the host's seat with the shared token file.
Defect 3: the host's `q` warns what quitting does, and the joiner is told the game ended.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    free_port,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux


def test_host_and_joiner_of_one_user_then_the_host_quits(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, USER="ann", LOGNAME="ann")
    port = free_port()
    t = Tmux(f"ctgn-sessions-{os.getpid()}", env)
    try:
        t.start("host", [*CLI, "host", "--discovery", "off", "--bind", "127.0.0.1", "--port",
                         str(port), "--web", "off", "--players", "2", "--bots", "1", "--bot-delay", "0"])
        wait_screen(t, "host", lambda x: "you own this table" in x, "the host's own seat")
        assert (tmp_path / "state" / "cartagena-net" / "tokens.json").exists()
        t.start("join", [*CLI, "join", f"127.0.0.1:{port}", "--name", "ann"], window_of="host")
        text = wait_screen(t, "host:join", lambda x: "lobby of" in x and "red: ann" in x,
                           "the joiner's lobby")
        assert "back in your seat" not in text and "take it back" not in text
        # a few seconds later both are where they were: no fight over seat 0
        import time

        time.sleep(3)
        host = t.screen("host")
        assert "you own this table" in host and "another client" not in host
        join = t.screen("host:join")
        assert "lobby of" in join and "another client" not in join

        # the host starts; the joiner watches
        t.keys("host", "s")
        wait_screen(t, "host", lambda x: "your turn" in x or "turn ·" in x, "the game")
        t.keys("host:join", "w")
        wait_screen(t, "host:join", lambda x: "SPECTATING" in x, "the joiner watching")

        t.keys("host", "q")
        wait_screen(t, "host", lambda x: "You are the host: the game stops for everyone; it is "
                    "kept" in x, "the host's warning (its journal keeps the game)")
        t.keys("host", "y")
        wait_screen(t, "host", lambda x: "EXIT=0" in x, "the host to exit")
        text = wait_screen(t, "host:join", lambda x: "the host ended the game" in x,
                           "the joiner to be told")
        assert "reconnecting" not in text
        t.keys("host:join", "q")
        wait_screen(t, "host:join", lambda x: "EXIT=0" in x, "the joiner to exit")
        assert_no_traceback(env)
    finally:
        t.kill()
