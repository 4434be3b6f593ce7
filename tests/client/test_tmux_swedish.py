"""In Swedish, in a real terminal: `cartagena --help` and `cartagena rules` under tmux
with ``LANG=sv_SE.UTF-8`` (a locale this machine need not have installed: the catalogs
follow the variable, and Python reads and writes UTF-8 all the same), ``--lang sv`` over
``LANG=C``, and the game screen's board, colours and cards' help in Swedish.

What is not yet translated on the game screen (status lines, key bars, the lobby) is
left for later; these tests check the parts that are.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux

SWEDISH = {"LANG": "sv_SE.UTF-8", "LC_ALL": "", "LANGUAGE": ""}


def whole(t: Tmux, session: str) -> str:
    """The pane with its scrollback (a command's output longer than the window)."""
    return t.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session)


def run_to_exit(t: Tmux, session: str, argv: list[str]) -> str:
    t.start(session, argv)
    wait_screen(t, session, lambda x: "EXIT=" in x, f"{session} to finish")
    text = whole(t, session)
    assert "EXIT=0" in text, text
    return text


def test_help_and_rules_in_swedish_from_lang_and_from_the_lang_option(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-sv-{os.getpid()}", env)
    try:
        text = run_to_exit(t, "help", [*CLI, "--help"])
        assert "användning: cartagena [-h] [--lang {en,sv}] COMMAND ..." in text
        assert "Cartagena, kapplöpningsspelet om piraternas flykt" in text
        assert "flaggor:" in text and "visa den här hjälptexten och avsluta" in text
        assert "spela mot bottar direkt" in text
        assert "usage:" not in text and "show this help" not in text

        text = run_to_exit(t, "rules", [*CLI, "rules"])
        assert "Regeluppsättningar (--rules NAME):" in text
        assert re.search(r"jamaica +2-5 spelare +1672 års regler, Jamaicavarianten", text)
        assert "Tortugavarianten" in text and "Hela rymningen" in text
        assert "Drag (platser: 0 = starten" in text
        assert "advance P CARD" in text  # the notation stays as the protocol has it
        assert "Presets" not in text and "players" not in text.replace("players ", "")

        # --lang sv where the locale says C (the words go out as UTF-8 all the same)
        text = run_to_exit(t, "forced", ["env", "LANG=C", "LC_ALL=", "LANGUAGE=",
                                         *CLI, "rules", "--lang", "sv"])
        assert "Regeluppsättningar" in text and "Jamaicavarianten" in text
        text = run_to_exit(t, "plain", ["env", "LANG=C", "LC_ALL=", "LANGUAGE=sv",
                                        *CLI, "rules"])
        assert "Presets (--rules NAME):" in text  # C is English, whatever LANGUAGE says
        assert_no_traceback(env)
    finally:
        t.kill()


def test_the_game_screens_board_colours_and_cards_in_swedish(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-sv-game-{os.getpid()}", env)
    try:
        t.start("play", [*CLI, "play", "--rules", "jamaica", "--option", "segments=1",
                         "--players", "2", "--bots", "1", "--bot-delay", "0",
                         "--name", "ann"])
        text = wait_screen(t, "play", lambda x: "hand:" in x and "slupen:" in x,
                           "the game screen")
        lines = text.splitlines()
        assert any(x.startswith("⚑ start:") for x in lines), text
        assert any("⛴ slupen:" in x for x in lines), text
        assert re.search(r"R röd +ann +\(du\) +6 kort +slupen 0/6", text), text
        assert re.search(r"B blå +\S.* bot +6 kort +slupen 0/6", text), text
        t.keys("play", "?")
        help_text = wait_screen(t, "play", lambda x: "Hjälp" in x, "the help overlay")
        assert "Hjälp — vilken tangent som helst stänger" in help_text
        assert "Kort (ett korts bokstav visar draget först; Enter spelar det):" in help_text
        for card in ("dödskalle", "dolk", "nyckel", "flaska", "pistol", "trekantig hatt"):
            assert card in help_text, card
        prose = " ".join(help_text.split())  # the rules' summary, wrapped
        assert "Framåt: spela ut ett kort, piraten hoppar" in prose and "annars slupen" in prose
        assert "Advance:" not in prose
        assert_no_traceback(env)
    finally:
        t.kill()
