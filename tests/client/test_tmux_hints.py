"""In a real terminal: `cartagena play --hints` under tmux; the hint key (shown in the
`?` help) previews the bot's move with its reason, nothing is played until Enter; a
`cartagena spectate` beside it shows each seat's live chance of winning."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    my_turn,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux


def test_the_hint_key_previews_the_bots_move_and_a_spectator_sees_the_chances(
        tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-hints-{os.getpid()}", env)
    try:
        t.start("play", [*CLI, "play", "--rules", "jamaica", "--players", "2", "--bots", "1",
                         "--bot-delay", "0", "--name", "ann", "--hints", "--level", "easy",
                         "--think", "0.3"])
        text = wait_screen(t, "play", my_turn, "the game screen")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        t.keys("play", "?")
        help_text = wait_screen(t, "play", lambda x: "hint" in x, "the help")
        assert "! " in help_text or "!  " in help_text or " ! " in help_text
        t.keys("play", "Escape")
        wait_screen(t, "play", my_turn, "the game screen again")
        before = t.screen("play")
        seq_line = [x for x in before.splitlines() if x.startswith("pirates:")]
        t.keys("play", "!")
        shown = wait_screen(t, "play", lambda x: "hint: " in x and "Esc cancel" in x,
                            "the hint's preview", timeout=60)
        line = next(x for x in shown.splitlines() if "hint: " in x and "Esc cancel" in x)
        # where it goes, in the screen's words (the whole sentence is on the status line)
        assert re.search(r"hint: (start|\d+) → (\d+|sloop)|hint: (end your turn|draw a card)",
                         line)
        assert [x for x in shown.splitlines() if re.match(
            r"hint: (play the|move your pirate|end your turn|draw a card)", x)]
        reason = [x for x in shown.splitlines() if x.startswith("hint: ") and " — " in x]
        assert reason  # the reason, on the status line
        # previewed, not played: still my turn, the pirates where they were
        assert my_turn(shown)
        assert [x for x in shown.splitlines() if x.startswith("pirates:")] == seq_line
        t.keys("play", "Enter")  # Enter plays it like any preview
        wait_screen(t, "play", lambda x: "hint: " not in x or "Esc cancel" not in x,
                    "the hinted move played")

        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="play")
        spec = wait_screen(t, "play:watch", lambda x: "SPECTATING" in x
                           and re.search(r"win +\d+%", x), "the spectator's chances")
        shown = [int(p) for p in re.findall(r"win +(\d+)%", spec)]
        assert len(shown) == 2 and 98 <= sum(shown) <= 102
        t.keys("play:watch", "q")
        wait_screen(t, "play:watch", lambda x: "EXIT=0" in x, "the spectator to exit")
        t.keys("play", "C-c")
        wait_screen(t, "play", lambda x: "Quit?" in x, "the question")
        t.keys("play", "y")
        wait_screen(t, "play", lambda x: "EXIT=0" in x, "cartagena play to exit")
        assert_no_traceback(env)
    finally:
        t.kill()
