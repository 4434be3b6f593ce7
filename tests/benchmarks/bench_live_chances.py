"""How good the room's live chances are, against the review's, on the same positions.

Games of bots (seats of ``greedy`` and fast ``ismcts``, turning) are played to their end.
While each game goes on, what a spectator watched is followed as the host follows it: the
spectator's events, each once, into the cards known to be in hidden hands
(``track_known``). At ``--positions`` random moments of each game two estimates of each
seat's chance of winning are made:

- **live**: :func:`cartagena_net.bots.coach.live_chances` on the spectator's view of that
  moment (no event history) and the followed knowledge, with the host's budget (playouts
  and seconds: ``cartagena_net.host.coach``);
- **review**: :func:`cartagena_net.bots.review.chances` on the same position (its whole
  event history).

Each (prediction, did that seat win) pair is scored for both: the Brier score, its ratio
to the uniform guess's, and the expected calibration error over ten bins of 0.1 (with
each bin's count and 95% Wilson interval). Prints one JSON line.

    nice python3 tests/benchmarks/bench_live_chances.py --games 80 --positions 4
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


def game_job(rules: str, players: int, seed: int, positions: int, playouts: int,
             budget: float | None) -> dict[str, list[tuple[float, int]]]:
    """One game to its end, then both estimates at ``positions`` random moments."""
    from cartagena_net.bots.coach import live_chances
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.bots.review import chances
    from cartagena_net.engine import SPECTATOR, make_game, view
    from cartagena_net.engine.determinize import track_known

    rng = random.Random(seed)
    game = make_game(rules, players=players)
    state = game.new_state(seed=seed)
    kinds = ["greedy", "ismcts"] * players
    bots = [make_bot(kinds[(s + seed) % len(kinds)], random.Random(seed * 31 + s),
                     think=0.05) for s in range(players)]
    known: dict[int, list[str]] = {}
    told = 0
    snapshots = []
    while not state.is_over:
        seen = view(state, SPECTATOR, since=told)
        track_known(known, seen["events"], -1)
        told = state.event_count
        del seen["events"]
        snapshots.append((state.copy(events=True), seen, {s: list(c) for s, c in known.items()}))
        seat = state.actor
        legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
        state.apply(bots[seat].choose(view(state, seat), legal))
    winner = state.outcome.winner
    out: dict[str, list[tuple[float, int]]] = {"live": [], "review": [], "playouts": []}
    for snap, seen, knew in rng.sample(snapshots, min(positions, len(snapshots))):
        live = live_chances(seen, knew, playouts, rng.getrandbits(63), budget)
        out["playouts"].append(live["playouts"])
        out["live"] += [(p, int(s == winner)) for s, p in enumerate(live["chances"])]
        out["review"] += [(p, int(s == winner))
                          for s, p in enumerate(chances(snap, playouts, rng))]
    return out


def score(pairs: list[tuple[float, int]], players: int) -> dict:
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


def main() -> int:
    from cartagena_net.bots.pool import run_jobs
    from cartagena_net.host.coach import LIVE_BUDGET, LIVE_PLAYOUTS

    # The workers import the job by its module's name (not __main__).
    from tests.benchmarks.bench_live_chances import game_job as job

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=80)
    ap.add_argument("--positions", type=int, default=4, help="moments a game")
    ap.add_argument("--rules", default="jamaica")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--playouts", type=int, default=LIVE_PLAYOUTS)
    ap.add_argument("--budget", type=float, default=LIVE_BUDGET,
                    help="seconds an estimate at most (0: none)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    start = time.perf_counter()
    jobs = [(job, (args.rules, args.players, args.seed * 100_003 + g, args.positions,
                   args.playouts, args.budget or None)) for g in range(args.games)]
    answers = run_jobs(jobs, args.workers)
    live = [p for a in answers for p in a["live"]]
    rev = [p for a in answers for p in a["review"]]
    done = [n for a in answers for n in a["playouts"]]
    print(json.dumps({
        "bench": "live-chances-calibration", "rules": args.rules, "players": args.players,
        "games": args.games, "positions": len(done), "playouts": args.playouts,
        "budget_s": args.budget, "playouts_done_min": min(done),
        "playouts_done_mean": round(sum(done) / len(done), 1),
        "live": score(live, args.players), "review": score(rev, args.players),
        "seconds": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
