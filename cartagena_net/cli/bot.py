"""`cartagena bot`: a headless bot that joins a host over the network and plays."""
from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from cartagena_net.cli.bot_args import add_level_arguments, bot_choice
from cartagena_net.cli.password_args import add_password_arguments, read_password
from cartagena_net.i18n import N_, _, ngettext, pgettext

HELP = N_("play as a headless network bot at a host's table")

DEFAULT_PORT = 41672


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("host", metavar=_("HOST[:PORT]"), help=_("the host to join (port 41672)"))
    parser.add_argument("--table", type=int, default=None, metavar="T",
                        help=_("table id (default: the first table with a free seat)"))
    add_level_arguments(parser, "--kind")
    parser.add_argument("--name", default=None, help=_("player name (default: KIND-bot)"))
    parser.add_argument("--games", type=int, default=1, metavar="G",
                        help=_("games to play before leaving (default 1)"))
    add_password_arguments(parser, N_("the host's or table's password"))
    parser.add_argument("--seed", type=int, default=None, help=_("seed of the bot's choices"))
    parser.add_argument("--timeout", type=float, default=10.0,
                        help=_("seconds to connect and be welcomed"))


def run(args: argparse.Namespace) -> int:
    from cartagena_net.discovery import parse_target

    try:
        host, port = parse_target(args.host, DEFAULT_PORT)
    except ValueError as exc:
        print(f"cartagena bot: {exc}", file=sys.stderr)
        return 2
    try:
        password = read_password(args)
    except ValueError as exc:
        print(f"cartagena bot: {exc}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("cartagena bot: " + _("--games must be at least 1"), file=sys.stderr)
        return 2
    try:
        kind, think = bot_choice(args, args.kind)
    except ValueError as exc:
        print(f"cartagena bot: {exc}", file=sys.stderr)
        return 2
    name = (args.name or f"{kind}-bot")[:32]
    rng = random.Random(args.seed) if args.seed is not None else None

    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.bots.netbot import play_bot

    outcome: dict[str, Any] = {}

    def start() -> None:
        d = play_bot(reactor, host, port, kind=kind, table=args.table, games=args.games,
                     name=name, password=password, rng=rng, timeout=args.timeout,
                     think=think, level=args.level, workers=args.workers,
                     deterministic=args.seed is not None and args.workers == 1)
        d.addCallbacks(lambda result: outcome.update(result=result),
                       lambda f: outcome.update(error=f.getErrorMessage()))
        d.addBoth(lambda _: reactor.callLater(0, reactor.stop))

    reactor.callWhenRunning(start)
    reactor.run()
    if "error" in outcome:
        print(f"cartagena bot: {outcome['error']}", file=sys.stderr)
        return 1
    result = outcome["result"]
    for i, game in enumerate(result.outcomes, start=1):
        won = (pgettext("bot result", "won") if game.get("winner") == result.seat
               else pgettext("bot result", "lost"))
        print(_("game {n}: table {table}, seat {seat}: {result} (ranking {ranking})").format(
            n=i, table=result.table, seat=result.seat, result=won,
            ranking=game.get("ranking")), flush=True)
    print(ngettext("played {n} game", "played {n} games", result.games).format(n=result.games)
          + ", " + ngettext("{n} action", "{n} actions", result.actions).format(
              n=result.actions), flush=True)
    return 0
