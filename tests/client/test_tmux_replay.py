"""The terminal replay viewer in a real terminal: `cartagena replay ID` under tmux, driven
to the end and back by keys; every position shown equals the one playing forward
reaches, seen as a spectator or as a seat."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from cartagena_net.records import store
from client.replay import ReplayViewer
from tests.records.test_format import bot_game, record_of

from .test_tmux import CLI, Tmux, assert_no_traceback, board, terminal_env, wait_screen

pytestmark = pytest.mark.tmux


def position(text: str) -> tuple[int, int]:
    m = re.search(r"replay: action (\d+)/(\d+)", text)
    assert m, text
    return int(m.group(1)), int(m.group(2))


def test_a_replay_stepped_to_the_end_and_back_shows_each_position_exactly(tmp_path: Path):
    env = terminal_env(tmp_path)
    state = bot_game("jamaica", {"players": 3, "segments": 2}, seed=3)
    rec = record_of(state)
    store.write(Path(env["XDG_STATE_HOME"]) / "cartagena-net" / "records", rec)
    last = len(rec["moves"])
    forward = ReplayViewer(rec)  # the positions as playing forward reaches them

    def expected(n: int, seat: int | str = "spectator") -> list[str]:
        forward.go(n)
        forward.see_as(seat)
        return board(forward.screen_text(100, 30))

    t = Tmux(f"ctgn-replay-{os.getpid()}", env)
    try:
        t.start("r", [*CLI, "replay", rec["id"][:10]])
        at = lambda n: (lambda x: f"replay: action {n}/{last} " in x)
        text = wait_screen(t, "r", at(0), "the deal")
        assert "SPECTATING" in text and "hand:" not in text
        assert board(text) == expected(0)
        for n in range(1, 6):  # action by action
            t.keys("r", "Right")
            text = wait_screen(t, "r", at(n), f"action {n}")
            assert board(text) == expected(n)
        t.keys("r", "End")
        text = wait_screen(t, "r", at(last), "the end")
        assert "GAME OVER" in text and board(text) == expected(last)
        t.keys("r", "Left")
        assert board(wait_screen(t, "r", at(last - 1), "one back")) == expected(last - 1)
        t.keys("r", "Up")  # back to the start of this turn
        text = wait_screen(t, "r", lambda x: position(x)[0] < last - 1, "a turn back")
        n = position(text)[0]
        assert board(text) == expected(n) and n in forward.turn_starts
        t.keys("r", "Home")
        assert board(wait_screen(t, "r", at(0), "the deal again")) == expected(0)
        for _ in range(3):
            t.keys("r", "Down")  # turn by turn
        text = wait_screen(t, "r", at(forward.turn_starts[3]), "three turns on")
        assert board(text) == expected(forward.turn_starts[3])
        t.keys("r", "2")  # as seat 2 (blue): its hand shows
        text = wait_screen(t, "r", lambda x: "seen as bot1" in x, "blue's view")
        assert "hand:" in text and "you: bot1 (blue)" in text
        assert board(text) == expected(forward.turn_starts[3], 1)
        t.keys("r", "s")
        text = wait_screen(t, "r", lambda x: "seen as a spectator" in x, "the spectator")
        assert "hand:" not in text
        t.keys("r", "q")
        wait_screen(t, "r", lambda x: "EXIT=0" in x, "the viewer to exit")
        assert_no_traceback(env)
    finally:
        t.kill()


def test_replay_of_a_damaged_record_says_so_in_the_terminal(tmp_path: Path):
    env = terminal_env(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "cartagena-net record", "version": 7}')
    t = Tmux(f"ctgn-replay-bad-{os.getpid()}", env)
    try:
        t.start("r", [*CLI, "replay", str(bad)])
        wait_screen(t, "r", lambda x: "EXIT=1" in x, "the exit")
        err = Path(env["CTGN_ERR"]).read_text()
        assert "format version 7, written by a newer cartagena-net" in err
        assert_no_traceback(env)
    finally:
        t.kill()
