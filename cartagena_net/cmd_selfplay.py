"""`cartagena selfplay`: play games in-process between bots and report the results."""
from __future__ import annotations

import argparse
import json
import random
import time

from cartagena_net.engine import make_game, view
from cartagena_net.game_args import add_game_arguments, game_options

HELP = "play games between bots in-process and print statistics"

MAX_ACTIONS = 20_000  # a game still going after this many actions is stopped, unfinished


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=None, help="reproducible games from a seed")
    parser.add_argument("--bot", default="random",
                        help="bot kind for every seat, or one per seat comma separated "
                             "(random, greedy); default random-legal")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help="stop a game that is still going after this many actions and "
                             f"count it as unfinished (exit status 1; default {MAX_ACTIONS})")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    try:
        game = make_game(args.rules, **game_options(args))
    except ValueError as err:
        raise SystemExit(f"cartagena selfplay: {err}") from None
    if args.games < 1:
        raise SystemExit("cartagena: --games must be at least 1")
    if args.max_actions < 1:
        raise SystemExit("cartagena: --max-actions must be at least 1")
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    kinds = args.bot.split(",")
    if len(kinds) == 1:
        kinds *= game.players
    if len(kinds) != game.players:
        raise SystemExit(f"cartagena: --bot needs 1 or {game.players} kinds")
    bots = None
    if any(k != "random" for k in kinds):
        from cartagena_net.bots import make_bot

        bots = [make_bot(k, random.Random(rng.getrandbits(64))) for k in kinds]
    wins = [0] * game.players
    turns = actions = unfinished = 0
    start = time.perf_counter()
    for _ in range(args.games):
        state = game.new_state(seed=rng.getrandbits(64), events=False)
        turns += 1
        taken = 0
        while not state.is_over:
            if taken >= args.max_actions:
                break
            legal = state.legal_actions()
            seat, turn = state.actor, state.turn
            if bots is None:
                state.apply(rng.choice(legal))
            else:
                choice = bots[seat].choose(view(state, seat), [str(a) for a in legal])
                state.apply(choice, seat=seat)
            actions += 1
            taken += 1
            turns += state.turn != turn
        if state.is_over:
            wins[state.outcome.winner] += 1
        else:
            unfinished += 1
    elapsed = time.perf_counter() - start
    result = {
        "rules": game.preset, "players": game.players, "bots": kinds, "games": args.games,
        "mean_turns": round(turns / args.games, 1),
        "mean_actions": round(actions / args.games, 1), "wins": wins,
        "unfinished": unfinished, "max_actions": args.max_actions,
        "games_per_s": round(args.games / elapsed, 1), "seed": args.seed,
    }
    status = 1 if unfinished else 0
    if args.json:
        print(json.dumps(result))
        return status
    print(f"{args.games} games of {game.preset}, {game.players} players ({', '.join(kinds)})")
    print(f"mean turns {result['mean_turns']}, mean actions {result['mean_actions']}")
    for seat, n in enumerate(wins):
        print(f"  seat {seat} ({game.colors[seat]}, {kinds[seat]}): {n} wins")
    if unfinished:
        print(f"  unfinished: {unfinished} (stopped after {args.max_actions} actions)")
    print(f"{result['games_per_s']} games/s")
    return status
