"""`cartagena play/join/spectate`: bad input gets a clear error and exit code 2."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from client.app import split_address

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv,message", [
    (["play", "--rules", "nope"], "unknown rules 'nope'"),
    (["play", "--option", "foo=1"], "unknown option 'foo'"),
    (["play", "--option", "segments"], "expected KEY=VALUE"),
    (["play", "--players", "2", "--bots", "3"], "takes 0..1 bots"),
    (["play", "--option", "segments=x"], "segments takes a whole number"),
    (["join", "host:99999"], "bad port"),
    (["spectate", ":5"], "no host"),
])
def test_bad_input_is_refused_clearly(argv: list[str], message: str) -> None:
    out = subprocess.run([sys.executable, "-m", "cartagena_net", *argv], capture_output=True,
                         text=True, timeout=60, cwd=ROOT, check=False)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_split_address() -> None:
    assert split_address("box") == ("box", 41672)
    assert split_address("10.0.0.2:5000") == ("10.0.0.2", 5000)
    assert split_address("[::1]:7") == ("::1", 7)
    assert split_address("::1") == ("::1", 41672)
    for bad in ("", "a:b", "a:0", "a:70000"):
        with pytest.raises(ValueError):
            split_address(bad)


@pytest.mark.parametrize("argv", [["join", "127.0.0.1:1"], ["spectate", "127.0.0.1:1"],
                                  ["play", "--players", "2", "--bots", "1"]])
def test_with_no_terminal_the_client_says_so_in_a_sentence(argv: list[str]) -> None:
    """Not "cartagena: " and nothing more: what is missing and what to do."""
    out = subprocess.run([sys.executable, "-m", "cartagena_net", *argv], capture_output=True,
                         text=True, timeout=60, cwd=ROOT, check=False,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    line = out.stderr.strip()
    assert line.startswith(f"cartagena {argv[0]}: ") and "terminal" in line, out.stderr
    assert len(line.splitlines()) == 1
