"""Command-line arguments that choose the bots' strength: shared by play, host, bot
and selfplay (``--level easy|normal|hard`` and ``--think SECONDS``)."""
from __future__ import annotations

import argparse

from cartagena_net.bots.kinds import BOT_KINDS, DEFAULT_LEVEL, LEVELS, level_bot


def add_level_arguments(parser: argparse.ArgumentParser, kind_flag: str | None = None) -> None:
    """Add ``--level`` and ``--think`` (and ``kind_flag``, e.g. ``--bot-kind``)."""
    levels = ", ".join(f"{name} = {kind}" + (f" {n} iterations per other seat"
                                             + (f", {most} in all" if most else "")
                                             + f", <= {think:g} s" if n else "")
                       for name, (kind, think, n, most) in LEVELS.items())
    parser.add_argument("--level", choices=tuple(LEVELS), default=DEFAULT_LEVEL,
                        help=f"bot strength ({levels}); default {DEFAULT_LEVEL}")
    parser.add_argument("--think", type=float, default=None, metavar="SECONDS",
                        help="seconds an ismcts bot thinks per decision (overrides the level)")
    if kind_flag:
        parser.add_argument(kind_flag, default=None, choices=BOT_KINDS,
                            help=f"bot kind: {', '.join(BOT_KINDS)} (default: the level's)")


def bot_choice(args: argparse.Namespace, kind: str | None = None) -> tuple[str, float | None]:
    """(bot kind, think seconds or None for the level's own budget) from ``--level``,
    ``--think`` and an explicit ``kind``; ValueError with a reason for a bad budget."""
    level_kind, _ = level_bot(args.level, args.think)
    return kind or level_kind, args.think
