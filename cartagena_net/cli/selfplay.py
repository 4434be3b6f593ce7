"""`cartagena selfplay`: play games in-process between bots and report the results."""
from __future__ import annotations

import argparse
import json
import random

from cartagena_net.bots.kinds import BOT_KINDS
from cartagena_net.bots.match import MAX_ACTIONS, play_match
from cartagena_net.cli.bot_args import add_level_arguments
from cartagena_net.cli.game_args import add_game_arguments, game_options
from cartagena_net.engine import make_game
from cartagena_net.i18n import N_, _

HELP = N_("play games between bots in-process and print statistics")



def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--games", type=int, default=100, help=_("how many games (default 100)"))
    parser.add_argument("--seed", type=int, default=None, help=_("reproducible games from a seed"))
    parser.add_argument("--bot", default="random",
                        help=_("bot kind for every seat, or one per seat comma separated "
                               "({kinds}); default random-legal").format(
                                   kinds=", ".join(BOT_KINDS)))
    add_level_arguments(parser)
    parser.add_argument("--rotate", action="store_true",
                        help=_("turn the seats each game, so every kind plays every seat"))
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help=_("stop a game that is still going after this many actions and "
                               "count it as unfinished (exit status 1; default {n}); "
                               "a failed search also exits 1").format(n=MAX_ACTIONS))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def run(args: argparse.Namespace) -> int:
    kinds = args.bot.split(",")
    try:
        # One kind a seat: as many seats as kinds unless --players says otherwise.
        seats = len(kinds) if len(kinds) > 1 else None
        game = make_game(args.rules, **game_options(args, seats))
    except ValueError as err:
        raise SystemExit(f"cartagena selfplay: {err}") from None
    if args.games < 1:
        raise SystemExit("cartagena: --games must be at least 1")
    if args.think is not None and not args.think > 0:
        raise SystemExit("cartagena: --think takes a positive number of seconds")
    if args.max_actions < 1:
        raise SystemExit("cartagena: --max-actions must be at least 1")
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    if len(kinds) == 1:
        kinds *= game.players
    if len(kinds) != game.players:
        raise SystemExit(f"cartagena: --bot needs 1 or {game.players} kinds")
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise SystemExit(f"cartagena: unknown bot kind {unknown[0]!r}; "
                         f"choose from {', '.join(BOT_KINDS)}")
    result = play_match(game, kinds, args.games, rng, think=args.think, rotate=args.rotate,
                        level=args.level, max_actions=args.max_actions)
    result["seed"] = args.seed
    result["max_actions"] = args.max_actions
    # A search that failed (its bot's fallback then played) is a bug: say so.
    status = 1 if result["unfinished"] or result["search_failures"] else 0
    if args.json:
        print(json.dumps(result))
        return status
    print(f"{args.games} games of {game.preset}, {game.players} players ({', '.join(kinds)})"
          + (", seats turning" if args.rotate else ""))
    print(f"mean turns {result['mean_turns']}, mean actions {result['mean_actions']}")
    if not args.rotate:
        for seat, n in enumerate(result["wins"]):
            print(f"  seat {seat} ({game.colors[seat]}, {kinds[seat]}): {n} wins")
    for kind, k in result["kinds"].items():
        lo, hi = k["ci95"]
        line = (f"  {kind}: won {k['wins']} of {k['games']} ({k['win_rate']:.1%}, "
                f"95% CI {lo:.1%}..{hi:.1%})")
        if "decision_mean_s" in k:
            line += (f"; decisions {k['decision_mean_s'] * 1000:.0f} ms mean, "
                     f"{k['decision_p99_s'] * 1000:.0f} ms p99")
        print(line)
    if result["unfinished"]:
        print(f"  unfinished: {result['unfinished']} (stopped after {args.max_actions} actions)")
    if result["search_failures"]:
        print(f"  search failures: {result['search_failures']} (the fallback played), e.g. "
              + "; ".join(result["search_errors"]))
    print(f"{result['games_per_s']} games/s")
    return status
