"""Command-line arguments that choose a ruleset: shared by play, host and selfplay."""
from __future__ import annotations

import argparse
from typing import Any

from cartagena_net.engine import PRESETS, Game, make_game
from cartagena_net.engine.errors import OptionError
from cartagena_net.engine.reasons import reason_text
from cartagena_net.i18n import N_, _, language, translation


def option_pair(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` from the command line (the engine checks and converts the value)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(_("expected KEY=VALUE, got {text}").format(
            text=repr(text)))
    return key.strip().replace("-", "_"), value.strip()


def add_game_arguments(parser: argparse.ArgumentParser, players_help: str | None = None) -> None:
    """Add ``--rules``, ``--players`` and repeatable ``--option/-o KEY=VALUE``."""
    parser.add_argument("--rules", default="jamaica", metavar=_("PRESET"),
                        help=_("rules preset: {names} (see `cartagena rules`)").format(
                            names=", ".join(PRESETS)))
    parser.add_argument("--players", type=int, default=None,
                        help=_(players_help or N_("number of seats (default: the preset's)")))
    parser.add_argument("--option", "-o", action="append", type=option_pair, default=[],
                        metavar=_("KEY=VALUE"),
                        help=_("a rules option, e.g. -o segments=4 -o morgan=also (repeatable)"))


def game_options(args: argparse.Namespace, players: int | None = None) -> dict[str, Any]:
    """The rules options given (``players`` is the default seat count); raises ValueError
    with the reason, in the reader's language, when the engine refuses them."""
    options: dict[str, Any] = dict(args.option)
    seats = args.players if args.players is not None else players
    if seats is not None:
        options["players"] = seats
    checked_game(args.rules, **options)
    return options


def option_error_text(exc: OptionError) -> str:
    """The engine's refusal of rules or options in the reader's language (its English
    text where the catalog cannot say it)."""
    return reason_text(exc.why, exc.fields, translation(language())) or str(exc)


def checked_game(rules: str, **options: Any) -> Game:
    """The engine's game for these rules and options; a ValueError saying in the reader's
    language why the engine refuses them (the option names and values as typed)."""
    try:
        return make_game(rules, **options)
    except OptionError as exc:
        raise ValueError(option_error_text(exc)) from None
