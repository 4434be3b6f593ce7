"""The engine's refusal of rules or options on the command line, in the reader's
language: `cartagena --lang sv host -o players=9` (and `play`, `rules`, `selfplay`, or
the locale) says why in Swedish with no English word left, the option names and values
as they were typed; in English the same line as the engine's own."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.client.test_tmux_swedish import english_left

ROOT = Path(__file__).resolve().parents[2]


def cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    home = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "cartagena_net", *args], check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**clean, **home, **env, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.parametrize("args, env, said", [
    (["--lang", "sv", "host", "-o", "players=9"], {},
     "cartagena host: jamaica är för 2 till 5 spelare"),
    (["host", "--rules", "ravensburger", "--players", "7"], {"LANG": "sv_SE.UTF-8"},
     "cartagena host: ravensburger är för 2 till 5 spelare"),
    (["--lang", "sv", "play", "-o", "segments=x"], {},
     "cartagena play: alternativet segments tar ett heltal, inte 'x'"),
    (["--lang", "sv", "selfplay", "-o", "segments=13"], {},
     "cartagena selfplay: alternativet segments måste vara 1..12"),
    (["--lang", "sv", "rules", "studiogiochi-2017", "-o", "story=whole", "-o", "segments=2"],
     {}, ("cartagena rules: story=whole kräver 3 eller fler segment på varje väg (segments= "
          "gångens, island_segments= östigens)")),
    (["--lang", "sv", "rules", "jamaica", "-o", "magic=yes"], {},
     "cartagena rules: magic kräver 2017 års symboler (studiogiochi-2017)"),
])
def test_an_option_refused_reads_in_swedish(tmp_path, args, env, said):
    run = cli(tmp_path, *args, **env)
    assert run.returncode in (1, 2), run
    assert run.stderr.strip() == said, run.stderr
    reason = run.stderr.strip().split(": ", 1)[1]  # after the command's name
    assert english_left(reason) == [], run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_the_same_in_english(tmp_path):
    run = cli(tmp_path, "--lang", "en", "host", "-o", "players=9", LANG="sv_SE.UTF-8")
    assert run.returncode == 2
    assert run.stderr.strip() == "cartagena host: jamaica is for 2 to 5 players"
    run = cli(tmp_path, "play", "-o", "segments=x", LANG="C.UTF-8")
    assert run.stderr.strip() == "cartagena play: option segments takes a whole number, not 'x'"
