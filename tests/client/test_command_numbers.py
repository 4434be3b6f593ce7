"""Only ASCII digits are numbers on the command line: every ``type=int`` and
``type=float`` option of every ``cartagena`` command refuses other scripts' digits,
underscores, exponents, ``nan`` and ``inf`` with a clear error, and runs nothing."""
from __future__ import annotations

import argparse

import pytest

from cartagena_net.cli import build_parser, main
from cartagena_net.cli.host import takeover_seconds, web_port
from cartagena_net.cli.number_args import ascii_float, ascii_int

NOT_INTS = ["٣", "３", "1_000", "", " ", "1.0", "0x10", "²", "1e3", "--1"]
NOT_FLOATS = ["٣", "0.٥", "1_0", "nan", "inf", "-inf", "1e3", "", ".", "1.2.3", "½"]


@pytest.mark.parametrize("text", NOT_INTS)
def test_not_an_int(text):
    with pytest.raises(ValueError):
        ascii_int(text)


@pytest.mark.parametrize("text", NOT_FLOATS)
def test_not_a_float(text):
    with pytest.raises(ValueError):
        ascii_float(text)


def test_ascii_numbers_read_as_before():
    assert [ascii_int(t) for t in ("0", "7", "-3", "+4", " 12 ")] == [0, 7, -3, 4, 12]
    assert [ascii_float(t) for t in ("0", "0.5", ".5", "2.", "-1.25")] == [
        0.0, 0.5, 0.5, 2.0, -1.25]


def _int_and_float_options():
    """(command, option, type) for every int and float option of every command."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, p in sub.choices.items():
        for action in p._actions:
            if action.type in (int, float) and action.option_strings:
                yield name, action.option_strings[-1], action.type


OPTIONS = list(_int_and_float_options())


def test_the_commands_have_number_options_to_check():
    names = {(c, o) for c, o, _ in OPTIONS}
    assert {("selfplay", "--games"), ("host", "--port"), ("host", "--bot-delay"),
            ("review", "--workers")} <= names


@pytest.mark.parametrize(("command", "option", "kind"), OPTIONS,
                         ids=[f"{c} {o}" for c, o, _ in OPTIONS])
def test_every_number_option_refuses_other_digits(command, option, kind, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, option, "٣"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: invalid {kind.__name__} value: '٣'" in err


def test_the_refusal_speaks_swedish_too(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "sv", "selfplay", "--games", "٢"])
    assert "ogiltigt int-värde: '٢'" in capsys.readouterr().err


def test_a_good_number_still_runs(capsys):
    assert main(["selfplay", "--games", "2", "--level", "easy", "--seed", "5"]) == 0
    assert "2" in capsys.readouterr().out


def test_the_custom_number_options_refuse_other_digits_too():
    with pytest.raises(argparse.ArgumentTypeError):
        takeover_seconds("٣٠")
    with pytest.raises(argparse.ArgumentTypeError):
        takeover_seconds("inf")
    assert takeover_seconds("30") == 30.0
    with pytest.raises(ValueError):
        web_port("٨٠٨٠", 41672)
    assert web_port("8080", 41672) == 8080
