"""What the player sees, in a real terminal, when something went wrong: `cartagena play`
killed with kill -9 comes back with every pirate's number as it was; a journal damaged
while it was down comes back shorter and the status area says what was lost and where
the damaged file is kept; a read-only state folder is said in one line of the status
area at start, and nothing is written over the full screen. Each game is played on to
its end."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.disks import read_only, tmpfs
from tests.portable import kill_hard

from .test_tmux import (
    CLI,
    Tmux,
    _quote,
    assert_no_traceback,
    my_turn,
    pirates,
    take_turn_action,
    terminal_env,
    wait_screen,
)
from .test_tmux_resume import play_to_the_end, start_killable

pytestmark = pytest.mark.tmux

GAME = ["--rules", "ravensburger", "--option", "segments=1", "--option", "pirates=3",
        "--players", "2", "--bots", "1", "--bot-delay", "0", "--name", "ann"]


def pirates_line(text: str) -> str:
    return next(x for x in text.splitlines() if x.startswith("pirates:")).replace(
        "[", "").replace("]", "").rstrip()


def numbers_out_of_place_order(text: str) -> bool:
    """The pirates' numbers, read by place, are not 1, 2, 3: a client numbering them
    afresh by place would show other numbers."""
    numbers = [int(n) for n, _ in pirates(text)]
    return numbers != sorted(numbers)


def quit_game(t: Tmux, session: str) -> None:
    t.keys(session, "q")
    wait_screen(t, session, lambda x: "EXIT=0" in x or "Quit?" in x, "the exit")
    if "Quit?" in t.screen(session):
        t.keys(session, "y")
        wait_screen(t, session, lambda x: "EXIT=0" in x, "the exit")


def journal_of(env: dict[str, str]) -> Path:
    (path,) = (Path(env["XDG_STATE_HOME"]) / "cartagena-net").rglob("table-*.journal")
    return path


def test_play_killed_and_its_journal_damaged_says_what_was_lost_and_keeps_the_numbers(
        tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-notice-{os.getpid()}", env)
    try:
        t.tmux("new-session", "-d", "-s", "keep", "sleep 600")
        pid = start_killable(t, "first", [*CLI, "play", *GAME], tmp_path / "pid")
        text = wait_screen(t, "first", my_turn, "the game screen")
        for _ in range(60):  # until a pirate has passed another of mine
            take_turn_action(t, "first", text)
            text = wait_screen(t, "first", lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn again")
            assert "GAME OVER" not in text, "the game ended before the numbers crossed"
            if numbers_out_of_place_order(text):
                break
        assert numbers_out_of_place_order(text)
        before = pirates_line(text)
        kill_hard(pid)

        # 1. Back after kill -9: every pirate has the number it had.
        pid = start_killable(t, "again", [*CLI, "play", *GAME, "--resume"], tmp_path / "pid2")
        text = wait_screen(t, "again", my_turn, "the resumed game")
        assert pirates_line(text) == before, (before, text)
        take_turn_action(t, "again", text)
        text = wait_screen(t, "again", my_turn, "my turn after the restore")
        kill_hard(pid)

        # 2. The journal damaged while the game was down: one bit, three lines from its end.
        path = journal_of(env)
        lines = path.read_bytes().splitlines(keepends=True)
        k = len(lines) - 3
        damaged = bytearray(lines[k - 1])
        damaged[-3] ^= 0x04
        path.write_bytes(b"".join(lines[: k - 1]) + bytes(damaged) + b"".join(lines[k:]))
        acts = sum(b'"act"' in x for x in lines[k - 1:])
        t.start("third", [*CLI, "play", *GAME])
        asked = wait_screen(t, "third", lambda x: "Resume? [Y/n]" in x, "the question")
        # one long line, wrapped by the terminal wherever its width falls (mid-word too)
        flat = "".join(asked.split())
        assert f"journalrecord{k}:arecordinitisdamaged;" in flat, asked
        assert f"{acts}actionsafteritarelost" in flat, asked
        t.keys("third", "y", "Enter")
        text = wait_screen(t, "third", lambda x: "came back shorter" in x, "the notice")
        said = " ".join(text.split())
        assert f"{acts} actions after it are lost" in said, said
        (kept,) = [p for p in path.parent.iterdir() if p.name.startswith(path.name + ".bad-")]
        rows = [x[7:].strip() for x in text.splitlines() if x.startswith((" host ", "       "))]
        assert str(kept) in "".join(rows), text  # where the damaged file is, whole
        end = play_to_the_end(t, "third")
        assert "Ranking: 1." in end
        quit_game(t, "third")
        assert kept.exists()
        assert_no_traceback(env)
    finally:
        t.kill()


def test_play_with_a_read_only_state_folder_says_so_in_the_status_area(tmp_path: Path) -> None:
    """Repeated ``cannot lock ...tokens.json`` lines were written over the game, and the
    warning that the game is not journaled was seen only after it."""
    with tmpfs("1m") as where:
        read_only(where)
        try:
            env = terminal_env(tmp_path, XDG_STATE_HOME=str(where))
            t = Tmux(f"ctgn-ro-{os.getpid()}", env)
            try:
                # The program's standard error is the terminal itself: nothing may be
                # written there under the full screen.
                command = " ".join(_quote(a) for a in [*CLI, "play", *GAME, "--no-records"])
                t.tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", "ro",
                       f"{command}; echo EXIT=$?; sleep 120")
                text = wait_screen(t, "ro", lambda x: my_turn(x) and "not saved" in x,
                                   "the game and its notice")
                said = " ".join(text.split())
                assert "this game is not saved: the host cannot write its state folder" in said
                assert "(the disk is read-only)" in said  # EROFS, worded by the client
                for _ in range(4):  # the seat's key is tried again every 2 s meanwhile
                    take_turn_action(t, "ro", text)
                    text = wait_screen(t, "ro", lambda x: my_turn(x) or "GAME OVER" in x,
                                       "my turn again")
                    time.sleep(1)
                    screen = t.screen("ro")
                    assert "cannot lock" not in screen and "Traceback" not in screen, screen
                    assert screen.splitlines()[0].strip(), screen  # the header is in place
                    if "GAME OVER" in text:
                        break
                if "GAME OVER" not in text:
                    text = play_to_the_end(t, "ro")
                assert "Ranking: 1." in text
                assert "cannot lock" not in t.screen("ro")
                quit_game(t, "ro")
            finally:
                t.kill()
        finally:
            read_only(where, on=False)
