"""How good the review's chances are: calibration against how games really ended.

Games of bots (seats of ``greedy`` and fast ``ismcts``, turning) are played to their end
and recorded; at ``--positions`` random moments of each, the review's estimator
(:func:`cartagena_net.bots.review.chances`: playouts from the spectator's view) gives
each seat's chance of winning. Each (prediction, did that seat win) pair is scored:

- the Brier score of the estimates, and of the reference measured on the same positions,
  the uniform guess (1/players): the ``ratio`` is estimate / reference (lower is better;
  below 1 the estimate knows something);
- calibration: the predictions in ten bins of width 0.1, each with its mean prediction,
  how often those seats won, the count and its 95% (Wilson) interval, and the expected
  calibration error (the mean gap, weighted by count).

Prints one JSON line. Positions are independent; the jobs run in ``--workers`` processes.

``--cost`` measures instead what a review costs (``cartagena review``, the host's
background review): one recorded game of ``--players`` bots (``--actions`` long at
least, a new deal until one is) reviewed whole, as `cartagena review` does it, in
``--workers`` processes: the wall time, seconds per action, and per position of one
worker (``cpu_s_per_position``: wall time x workers / positions). Its ``ratio`` is
against a reference measured in the same run: playing the same game's positions out at
random once each, serially (``reference_s_per_position``: the engine's own speed on this
machine, what no review can skip), so a slower or faster machine moves both alike.

    python3 tests/benchmarks/bench_review.py --games 120 --positions 5
    python3 tests/benchmarks/bench_review.py --games 30 --rules ravensburger --players 3
    python3 tests/benchmarks/bench_review.py --cost --actions 100 --workers 2
    python3 tests/benchmarks/bench_review.py --cost --playouts 16 --search 200  # quick
    python3 tests/benchmarks/bench_review.py --cost --again --workers 2  # two reviews agree?
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots.match import wilson


def game_job(rules: str, players: int, seed: int, positions: int,
             playouts: int) -> list[tuple[float, int]]:
    """One game to its end, then the estimates at ``positions`` random moments."""
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.bots.review import chances
    from cartagena_net.engine import make_game, view

    rng = random.Random(seed)
    game = make_game(rules, players=players)
    state = game.new_state(seed=seed)
    kinds = ["greedy", "ismcts"] * players
    bots = [make_bot(kinds[(s + seed) % len(kinds)], random.Random(seed * 31 + s),
                     think=0.05) for s in range(players)]
    snapshots = []
    while not state.is_over:
        snapshots.append(state.copy(events=True))
        seat = state.actor
        legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
        state.apply(bots[seat].choose(view(state, seat), legal))
    winner = state.outcome.winner
    out = []
    for snap in rng.sample(snapshots, min(positions, len(snapshots))):
        est = chances(snap, playouts, rng)
        out += [(p, int(s == winner)) for s, p in enumerate(est)]
    return out


def score(pairs: list[tuple[float, int]], players: int) -> dict:
    """Brier score (and a uniform guess's), expected calibration error over ten bins,
    each bin's predicted and won rate with its 95% interval."""
    brier = sum((p - won) ** 2 for p, won in pairs) / len(pairs)
    uniform = 1 / players
    reference = sum((uniform - won) ** 2 for _, won in pairs) / len(pairs)
    bins, ece = [], 0.0
    for b in range(10):
        inside = [(p, won) for p, won in pairs
                  if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1)]
        if not inside:
            continue
        mean = sum(p for p, _ in inside) / len(inside)
        wins = sum(won for _, won in inside)
        low, high = wilson(wins, len(inside))
        ece += abs(mean - wins / len(inside)) * len(inside) / len(pairs)
        bins.append({"bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}", "predicted": round(mean, 3),
                     "won": round(wins / len(inside), 3), "n": len(inside),
                     "ci95": [round(low, 3), round(high, 3)]})
    return {"estimates": len(pairs), "brier": round(brier, 4),
            "reference_brier_uniform": round(reference, 4),
            "ratio": round(brier / reference, 3), "ece": round(ece, 3), "bins": bins}


def recorded_game(rules: str, players: int, actions: int, seed: int) -> dict:
    """A finished bots' game's record of at least ``actions`` actions (greedy seats)."""
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.engine import make_game, view
    from cartagena_net.records import build
    from cartagena_net.records.format import player

    for attempt in range(200):
        game = make_game(rules, players=players)
        state = game.new_state(seed=seed + attempt)
        bots = [make_bot("greedy", random.Random(seed + attempt * 7 + s)) for s in range(players)]
        while not state.is_over:
            legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
            state.apply(bots[state.actor].choose(view(state, state.actor), legal))
        if len(state.history) >= actions:
            return build(state, record_id=f"20261126T000000Z-benchrev-{attempt}",
                         players=[player(s, game.colors[s], f"bot{s}", bot="greedy")
                                  for s in range(players)],
                         started="2026-11-26T00:00:00Z", ended="2026-11-26T00:10:00Z",
                         end="won")
    raise SystemExit(f"no game of {actions} actions in 200 deals")


def cost(args: argparse.Namespace) -> int:
    from cartagena_net.bots.pool import run_jobs
    from cartagena_net.bots.review import _play_out, assemble, jobs, state_at
    from cartagena_net.engine.chance import RandomChance

    rec = recorded_game(args.rules, args.players, args.actions, args.seed)
    n = len(rec["moves"])
    # the reference: each position of the game played out once at random, serially
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for k in range(n + 1):
        _play_out(state_at(rec, k).copy(chance=RandomChance(rng)), rng)
    reference = (time.perf_counter() - start) / (n + 1)
    start = time.perf_counter()
    answers = run_jobs(jobs(rec, args.playouts, args.search, seed=args.seed), args.workers)
    wall = time.perf_counter() - start
    review = assemble(rec, answers, args.playouts, args.search)
    per_position = wall * args.workers / (n + 1)
    again = {}
    if args.again:  # the same game reviewed once more, another seed: do they agree?
        other = assemble(rec, run_jobs(jobs(rec, args.playouts, args.search,
                                            seed=args.seed + 1), args.workers),
                         args.playouts, args.search)
        shared = set(review["turning"]) & set(other["turning"])
        again = {"turning": review["turning"], "turning_again": other["turning"],
                 "turning_shared": len(shared),
                 "sure": [review["moves"][k].get("sure") for k in review["turning"]],
                 "losses": [review["moves"][k].get("loss") for k in review["turning"]]}
    print(json.dumps({
        "bench": "review-cost", "rules": args.rules, "players": args.players, "actions": n,
        "positions": n + 1, "workers": args.workers, "playouts": args.playouts,
        "search": args.search, "wall_s": round(wall, 2), "s_per_action": round(wall / n, 3),
        "cpu_s_per_position": round(per_position, 3),
        "reference_s_per_position": round(reference, 5),
        "ratio": round(per_position / reference, 1),
        "method": review["method"].get("model") or "playouts", **again}))
    return 0


def main() -> int:
    from cartagena_net.bots.pool import run_jobs
    from cartagena_net.bots.review import PLAYOUTS

    # The workers import the job by its module's name (not __main__).
    from tests.benchmarks.bench_review import game_job as job

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=120)
    ap.add_argument("--positions", type=int, default=5, help="estimates a game")
    ap.add_argument("--rules", default="jamaica")
    ap.add_argument("--again", action="store_true",
                    help="with --cost: review the game twice (seeds S and S + 1) and say "
                         "how many of the top five mistakes the two share")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=PLAYOUTS)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cost", action="store_true",
                    help="measure what reviewing one game costs (see the module's help)")
    ap.add_argument("--actions", type=int, default=100, help="--cost: the game's length")
    ap.add_argument("--search", type=int, default=None,
                    help="--cost: the bot's search at each action (default the review's)")
    args = ap.parse_args()
    if args.cost:
        from cartagena_net.bots.review import SEARCH

        args.search = args.search or SEARCH
        return cost(args)
    start = time.perf_counter()
    jobs = [(job, (args.rules, args.players, args.seed * 100_003 + g, args.positions,
                        args.playouts)) for g in range(args.games)]
    pairs = [pair for answer in run_jobs(jobs, args.workers) for pair in answer]
    print(json.dumps({
        "bench": "review-calibration", "rules": args.rules, "players": args.players,
        "games": args.games, "playouts": args.playouts, **score(pairs, args.players),
        "seconds": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
