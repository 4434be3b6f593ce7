"""Command-line arguments that choose a ruleset: shared by play, host and selfplay."""
from __future__ import annotations

import argparse
from typing import Any

from cartagena_net.engine import OPTIONS, PRESETS, make_game
from cartagena_net.engine.game import Game


def add_game_arguments(parser: argparse.ArgumentParser, default_players: int | None = None) -> None:
    """Add ``--rules``, ``--players`` and repeatable ``--option KEY=VALUE``."""
    parser.add_argument("--rules", default="jamaica", choices=sorted(PRESETS),
                        help="ruleset preset (see `cartagena rules`)")
    parser.add_argument("--players", type=int, default=default_players,
                        help="number of seats (default: the preset's)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a rules option, e.g. -o segments=4 -o morgan=also (repeatable)")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line, checked by building the game once."""
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in OPTIONS:
            raise SystemExit(f"cartagena: bad --option {item!r}; options: {', '.join(OPTIONS)}")
        options[key] = value.strip()
    if args.players is not None:
        options["players"] = args.players
    try:
        make_game(args.rules, **options)
    except ValueError as err:
        raise SystemExit(f"cartagena: {err}") from None
    return options


def game_from_args(args: argparse.Namespace) -> Game:
    return make_game(args.rules, **game_options(args))
