"""How a language is chosen: the locale variables as GNU gettext reads them, ``--lang`` on every
command, and for a browser its remembered choice, then ``Accept-Language``."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cartagena_net.i18n import from_environment, match, negotiate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("env, want", [
    ({}, "en"),
    ({"LANG": "sv_SE.UTF-8"}, "sv"),
    ({"LANG": "sv_FI.UTF-8@euro"}, "sv"),
    ({"LANG": "C"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "sv_SE.UTF-8"}, "sv"),
    ({"LANG": "sv_SE.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL before LC_MESSAGES and LANG
    ({"LC_ALL": "sv_SE.UTF-8", "LANGUAGE": "en"}, "en"),  # LANGUAGE first of all
    ({"LANGUAGE": "de:sv:en", "LANG": "de_DE.UTF-8"}, "sv"),  # the first we speak
    ({"LANGUAGE": "de", "LANG": "sv_SE.UTF-8"}, "en"),  # LANGUAGE, set, decides
    ({"LANGUAGE": "sv", "LANG": "C"}, "en"),  # but never in the C locale (as GNU gettext)
    ({"LANGUAGE": "sv", "LC_ALL": "C.UTF-8", "LANG": "sv_SE.UTF-8"}, "en"),
    ({"LANGUAGE": "sv"}, "en"),  # no locale set: C
    ({"LANGUAGE": "", "LANG": "sv_SE.UTF-8"}, "sv"),  # an empty one is not set
    ({"LANG": "../../etc"}, "en"),
])
def test_the_locale_variables_in_gettexts_order(env, want):
    assert from_environment(env) == want


@pytest.mark.parametrize("header, remembered, want", [
    (None, None, "en"),
    ("", None, "en"),
    ("sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7", None, "sv"),
    ("en-US,en;q=0.9,sv;q=0.8", None, "en"),
    ("de-DE,de;q=0.9,sv;q=0.5", None, "sv"),  # German first, but we speak Swedish
    ("sv;q=0.2, en;q=0.8", None, "en"),  # by quality, not by order
    ("sv;q=0, de", None, "en"),  # q=0: not acceptable
    ("de, *;q=0.5", None, "en"),
    ("SV", None, "sv"),
    ("sv;q=abc, en;q=0.1", None, "en"),  # a malformed part is ignored
    ("sv;q=1.5", None, "en"),  # a quality above 1 is malformed
    ("x" * 5000 + ",sv", None, "en"),  # read no further than a sane length
    ("en", "sv", "sv"),  # the page's switch, remembered, wins
    ("sv", "en", "en"),
    ("sv", "klingon", "sv"),  # a remembered language we do not speak is ignored
    ("sv,en", "C", "en"),
])
def test_a_browsers_language(header, remembered, want):
    assert negotiate(header, remembered) == want


def test_match_takes_locale_names_and_language_tags():
    assert [match(t) for t in ("sv", "sv_SE", "sv-SE", "sv_SE.UTF-8", "SV-se", "svx",
                               "en_US", "", "s v")] == [
        "sv", "sv", "sv", "sv", "sv", None, "en", None, None]


def cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([sys.executable, "-m", "cartagena_net", *args], check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**clean, **env, "PYTHONIOENCODING": "utf-8"})


def test_lang_on_any_command_overrides_the_locale_and_reaches_argparse():
    sv = cli("rules", "--lang", "sv", LANG="C")
    assert sv.returncode == 0, sv.stderr
    assert "Regeluppsättningar (--rules REGELUPPSÄTTNING):" in sv.stdout
    assert "2-5 spelare" in sv.stdout and "Jamaicavarianten" in sv.stdout
    assert "advance P CARD" in sv.stdout  # the notation stays the protocol's
    en = cli("--lang=en", "rules", LANG="sv_SE.UTF-8")
    assert "Presets (--rules NAME):" in en.stdout and "spelare" not in en.stdout
    helped = cli("review", "--help", LANGUAGE="sv", LANG="en_US.UTF-8")
    assert helped.stdout.startswith("användning: cartagena review")
    assert "flaggor:" in helped.stdout and "analysera igen" in helped.stdout
    wrong = cli("rules", "--lang", "sv", "nowhere")
    assert wrong.returncode == 2
    assert "fel: argumentet preset: ogiltigt val: 'nowhere'" in wrong.stderr
    unknown = cli("rules", "--lang", "xx", LANG="sv_SE.UTF-8")
    assert unknown.returncode == 2 and "invalid choice: 'xx'" in unknown.stderr


def test_every_commands_help_speaks_swedish_with_no_english_left():
    """Each command's --help in Swedish: its own words translated (the option names,
    metavariables and the notation are the program's, not English prose)."""
    from cartagena_net.cli import COMMANDS

    english = ("default", "the ", "show this help", "options:", "usage:")
    for name in COMMANDS:
        out = cli(name, "--help", LANG="sv_SE.UTF-8")
        assert out.returncode == 0, (name, out.stderr)
        assert out.stdout.startswith("användning:"), name
        left = [w for w in english if w in out.stdout]
        assert left == [], (name, left, out.stdout)
        # the argument names too: translated, the same word everywhere
        metavars = re.findall(r"\b(COMMAND|NAME|FILE|DIR|PRESET|KEY=VALUE|SECONDS|ADDRESS|"
                              r"HOST\[:PORT\]|ITERATIONS|MSGS_PER_S)\b", out.stdout)
        assert metavars == [], (name, metavars)
