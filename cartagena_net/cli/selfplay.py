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
from cartagena_net.i18n import N_, _, decimal, ngettext, percent
from cartagena_net.i18n.words import bot_kind

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
    from client.glyphs import color_name

    kinds = args.bot.split(",")
    try:
        # One kind a seat: as many seats as kinds unless --players says otherwise.
        seats = len(kinds) if len(kinds) > 1 else None
        game = make_game(args.rules, **game_options(args, seats))
    except ValueError as err:
        raise SystemExit(f"cartagena selfplay: {err}") from None
    if args.games < 1:
        raise SystemExit("cartagena: " + _("--games must be at least 1"))
    if args.think is not None and not args.think > 0:
        raise SystemExit("cartagena: " + _("--think takes a positive number of seconds"))
    if args.max_actions < 1:
        raise SystemExit("cartagena: " + _("--max-actions must be at least 1"))
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    if len(kinds) == 1:
        kinds *= game.players
    if len(kinds) != game.players:
        raise SystemExit("cartagena: " + _("--bot needs 1 or {n} kinds").format(n=game.players))
    unknown = [k for k in kinds if k not in BOT_KINDS]
    if unknown:
        raise SystemExit("cartagena: " + _("unknown bot kind {kind}; choose from {kinds}").format(
            kind=repr(unknown[0]), kinds=", ".join(BOT_KINDS)))
    # A seed and one worker: the searches count alone (no clock), the same games again.
    result = play_match(game, kinds, args.games, rng, think=args.think, rotate=args.rotate,
                        level=args.level, max_actions=args.max_actions, workers=args.workers,
                        deterministic=args.seed is not None and args.workers == 1)
    result["seed"] = args.seed
    result["workers"] = args.workers
    result["max_actions"] = args.max_actions
    # A search that failed (its bot's fallback then played) is a bug: say so.
    status = 1 if result["unfinished"] or result["search_failures"] else 0
    if args.json:
        print(json.dumps(result))
        return status
    print(ngettext("{n} game of {rules}", "{n} games of {rules}", args.games).format(
        n=args.games, rules=game.preset) + ", " + ngettext(
        "{n} player", "{n} players", game.players).format(n=game.players)
          + f" ({', '.join(bot_kind(k) for k in kinds)})"
          + (", " + _("seats turning") if args.rotate else ""))
    print(_("mean turns {turns}, mean actions {actions}").format(
        turns=decimal(result["mean_turns"]), actions=decimal(result["mean_actions"])))
    if not args.rotate:
        for seat, n in enumerate(result["wins"]):
            print("  " + ngettext("seat {seat} ({color}, {kind}): {n} win",
                                  "seat {seat} ({color}, {kind}): {n} wins", n).format(
                seat=seat, color=color_name(game.colors[seat]), kind=bot_kind(kinds[seat]), n=n))
    for kind, k in result["kinds"].items():
        lo, hi = k["ci95"]
        line = "  " + _("{kind}: won {wins} of {games} ({rate}, 95% CI {lo}..{hi})").format(
            kind=bot_kind(kind), wins=k["wins"], games=k["games"], rate=_pct(k["win_rate"]),
            lo=_pct(lo), hi=_pct(hi))
        if "decision_mean_s" in k:
            line += "; " + _("decisions {mean} ms mean, {p99} ms p99").format(
                mean=f"{k['decision_mean_s'] * 1000:.0f}", p99=f"{k['decision_p99_s'] * 1000:.0f}")
        print(line)
    if result["unfinished"]:
        print("  " + _("unfinished: {n} (stopped after {most} actions)").format(
            n=result["unfinished"], most=args.max_actions))
    if result["search_failures"]:
        print("  " + _("search failures: {n} (the fallback played), e.g. {errors}").format(
            n=result["search_failures"], errors="; ".join(result["search_errors"])))
    print(_("{n} games/s").format(n=decimal(result["games_per_s"])))
    return status


def _pct(rate: float) -> str:
    """``45.0%`` as the language writes it (``45,0 %``)."""
    return percent(decimal(f"{rate * 100:.1f}"))
