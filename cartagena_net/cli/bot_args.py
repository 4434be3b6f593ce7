"""Command-line arguments that choose the bots' strength: shared by play, host, bot
and selfplay (``--level easy|normal|hard``, ``--think SECONDS`` and ``--workers N``)."""
from __future__ import annotations

import argparse

from cartagena_net.bots.kinds import BOT_KINDS, DEFAULT_LEVEL, LEVELS, level_bot
from cartagena_net.i18n import _, decimal, whole
from cartagena_net.i18n.words import bot_kind
from cartagena_net.portable.cores import usable_cores


def add_level_arguments(parser: argparse.ArgumentParser, kind_flag: str | None = None) -> None:
    """Add ``--level`` and ``--think`` (and ``kind_flag``, e.g. ``--bot-kind``)."""
    levels = ", ".join(f"{name} = {bot_kind(kind)}" + (
        _(" {n} iterations per other seat").format(n=whole(n))
        + (_(", {most} in all").format(most=whole(most)) if most else "")
        + f", <= {decimal(f'{think:g}')}\u00a0s" if n else
        _(" {think} s on every worker").format(think=decimal(f"{think:g}")) if think else "")
        for name, (kind, think, n, most) in LEVELS.items())
    parser.add_argument("--level", choices=tuple(LEVELS), default=DEFAULT_LEVEL,
                        help=_("bot strength ({levels}); default {default}").format(
                            levels=levels, default=DEFAULT_LEVEL))
    parser.add_argument("--think", type=float, default=None, metavar=_("SECONDS"),
                        help=_("seconds an ismcts bot thinks per decision (overrides the level)"))
    parser.add_argument("--workers", type=worker_count, default=default_workers(),
                        metavar="N",
                        help=_("processes one bot decision may search in (the search spread "
                               "over them, the root statistics merged; 1: serial, and with "
                               "--seed reproducible); default the cores but one, and both of "
                               "two = {n}").format(
                                   n=default_workers()))
    if kind_flag:
        parser.add_argument(kind_flag, default=None, choices=BOT_KINDS,
                            help=_("bot kind: {kinds} (default: the level's)").format(
                                kinds=", ".join(BOT_KINDS)))


def bot_choice(args: argparse.Namespace, kind: str | None = None) -> tuple[str, float | None]:
    """(bot kind, think seconds or None for the level's own budget) from ``--level``,
    ``--think`` and an explicit ``kind``; ValueError with a reason for a bad budget."""
    level_kind, _think = level_bot(args.level, args.think)
    return kind or level_kind, args.think


def default_workers(cores: int | None = None) -> int:
    """The cores but one, at least 1, and both of two: 1 -> 1, 2 -> 2, 4 -> 3, 16 -> 15.
    ``cores``: by default the ones this process may use (its CPU affinity and its
    cgroup's quota: :func:`cartagena_net.portable.cores.usable_cores`), not the machine's.

    The one left is for the reactor and the player; on two cores that would leave the
    search serial, and the search's processes run at idle priority
    (``bots/worker.lowest_priority``), so the reactor answers first anyway."""
    cores = cores if cores is not None else usable_cores()
    return max(min(cores, 2), cores - 1, 1)


def worker_count(text: str) -> int:
    """``--workers``: a whole number of at least 1."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(_("expected a whole number of at least 1, got {text}").format(
            text=repr(text)))
    return int(text)
