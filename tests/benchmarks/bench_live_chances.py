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

and, at every position of every game, the value model's (:mod:`cartagena_net.bots.value`,
what the host's room shows where a model serves the rules) from the same spectator's view
and knowledge, smoothed as the room shows it (``value.smoothed``: each estimate moves
the last one half way). ``live`` is the playout estimate (``model=False``); ``model`` the model's
at the same moments; ``model_all`` the model's at every position. The model is told who
plays each seat, as a lobby lists it to everyone (``value.seat_kind``: the greedy and
searching seats the seed gives, the same when replayed from a file; ``--blind``: told
nothing, as before it could be).

Each (prediction, did that seat win) pair is scored: the Brier score, its ratio to the
uniform guess's, and the expected calibration error over ten bins of 0.1 (with each bin's
count and 95% Wilson interval). ``steady``: how far the model's chances move from one
position to the next, the largest change of any seat between consecutive estimates (one
an action), in percentage points: mean, 90th percentile and max, leaving out the last
round of actions before the win (``--last`` actions; the winner's last moves carry it to
certainty). Prints one JSON line.

    nice python3 tests/benchmarks/bench_live_chances.py --games 80 --positions 4
    nice python3 tests/benchmarks/bench_live_chances.py --rules studiogiochi-2017:magic=true

The search bots think for 0.05 s, so the games themselves change with the machine's load
(one seed's Brier moved from 0.125 to 0.143 between two days). To compare two value
models, score both on the same games: ``--games-file F`` writes the games' actions to F
after they are played, and replays them from F (no bots) when F exists; run it once with
each model's code, e.g. ``--games 80 --positions 0 --seed 23 --games-file /tmp/g23.jsonl``.
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

from tests.benchmarks.bench_review import score


def seats_of(players: int, seed: int) -> list[str]:
    """The bot kind of each seat of the game ``seed``: greedy and ismcts, turning, the
    first by the seed (the same when the game is replayed from a file)."""
    kinds = ["greedy", "ismcts"] * players
    return [kinds[(s + seed) % len(kinds)] for s in range(players)]


def game_job(rules: str, players: int, seed: int, positions: int, playouts: int,
             budget: float | None, last: int = 12,
             moves: list[str] | None = None, blind: bool = False) -> dict[str, list]:
    """One game to its end, then both estimates at ``positions`` random moments
    (``moves``: the game's actions, replayed instead of the bots' choices). The model
    knows who plays each seat, as a lobby lists it (``blind``: nobody said)."""
    from cartagena_net.bots import value
    from cartagena_net.bots.coach import live_chances
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.bots.review import chances
    from cartagena_net.engine import SPECTATOR, make_game, view
    from cartagena_net.engine.determinize import track_known

    rng = random.Random(seed)
    preset, _, rest = rules.partition(":")
    options = {k: v for k, _, v in (o.partition("=") for o in rest.split(",") if o)}
    game = make_game(preset, players=players, **options)
    state = game.new_state(seed=seed)
    kinds = seats_of(players, seed)
    bots = [make_bot(kinds[s], random.Random(seed * 31 + s), think=0.05)
            for s in range(players)]
    lobby = None if blind else [value.seat_kind({"bot": k, "connected": True})
                                for k in kinds]
    known: dict[int, list[str]] = {}
    told = 0
    snapshots = []
    played: list[str] = []
    while not state.is_over:
        seen = view(state, SPECTATOR, since=told)
        track_known(known, seen["events"], -1)
        told = state.event_count
        del seen["events"]
        snapshots.append((state.copy(events=True), seen, {s: list(c) for s, c in known.items()},
                          value.chances(seen, known, kinds=lobby)))
        seat = state.actor
        if moves is not None:
            action = moves[len(played)]
        else:
            legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
            action = bots[seat].choose(view(state, seat), legal)
        state.apply(action)
        played.append(str(action))
    winner = state.outcome.winner
    out: dict[str, list] = {"live": [], "review": [], "playouts": [], "model": [],
                            "model_all": [], "steps": [], "moves": played, "kinds": kinds,
                            "winner": [winner]}
    estimates = [snap[3] for snap in snapshots]
    if estimates[0] is not None:  # as the room shows them: each moved half way (smoothed)
        shown: list[list[float]] = []
        for ch in estimates:
            shown.append(value.smoothed(shown[-1] if shown else None, ch))
        estimates = shown
        snapshots = [(*snap[:3], ch) for snap, ch in zip(snapshots, shown)]
        for ch in estimates:
            out["model_all"] += [(p, int(s == winner)) for s, p in enumerate(ch)]
        kept = estimates[:max(0, len(estimates) - last)]
        for i in range(1, len(kept)):
            out["steps"].append(max(abs(x - y) for x, y in zip(kept[i - 1], kept[i])))
    for snap, seen, knew, ch in rng.sample(snapshots, min(positions, len(snapshots))):
        if ch is not None:
            out["model"] += [(p, int(s == winner)) for s, p in enumerate(ch)]
        live = live_chances(seen, knew, playouts, rng.getrandbits(63), budget, model=False,
                            kinds=lobby)
        out["playouts"].append(live["playouts"])
        out["live"] += [(p, int(s == winner)) for s, p in enumerate(live["chances"])]
        out["review"] += [(p, int(s == winner))
                          for s, p in enumerate(chances(snap, playouts, rng, lobby))]
    return out


def steadiness(steps: list[float]) -> dict | None:
    """The largest change between consecutive estimates, in percentage points."""
    if not steps:
        return None
    ranked = sorted(steps)
    return {"transitions": len(ranked), "mean_pp": round(100 * sum(ranked) / len(ranked), 2),
            "p90_pp": round(100 * ranked[int(0.9 * (len(ranked) - 1))], 2),
            "max_pp": round(100 * ranked[-1], 2)}


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
    ap.add_argument("--last", type=int, default=12,
                    help="actions before the win left out of the steadiness")
    ap.add_argument("--blind", action="store_true",
                    help="the model is not told who plays each seat (as before it could be)")
    ap.add_argument("--games-file", type=Path,
                    help="the games' actions: written after they are played, replayed "
                         "when the file exists (two models scored on the same games)")
    args = ap.parse_args()
    start = time.perf_counter()
    seeds = [args.seed * 100_003 + g for g in range(args.games)]
    recorded: dict[int, list[str]] = {}
    if args.games_file is not None and args.games_file.exists():
        for line in args.games_file.read_text().splitlines():
            game = json.loads(line)
            if (game["rules"], game["players"]) == (args.rules, args.players):
                recorded[game["seed"]] = game["moves"]
                if game.get("kinds", seats_of(args.players, game["seed"])) != seats_of(
                        args.players, game["seed"]):
                    ap.error(f"{args.games_file}: game {game['seed']} was played by other "
                             "seats than this version's")
        missing = [s for s in seeds if s not in recorded]
        if missing:
            ap.error(f"{args.games_file} lacks {len(missing)} of these games "
                     "(its rules, players and seeds are another run's)")
    jobs = [(job, (args.rules, args.players, seed, args.positions, args.playouts,
                   args.budget or None, args.last, recorded.get(seed), args.blind))
            for seed in seeds]
    answers = run_jobs(jobs, args.workers)
    if args.games_file is not None and not recorded:
        args.games_file.write_text("".join(
            json.dumps({"rules": args.rules, "players": args.players, "seed": seed,
                        "kinds": a["kinds"], "moves": a["moves"]}) + "\n"
            for seed, a in zip(seeds, answers)))
    live = [p for a in answers for p in a["live"]]
    rev = [p for a in answers for p in a["review"]]
    done = [n for a in answers for n in a["playouts"]]
    model = [p for a in answers for p in a["model"]]
    model_all = [p for a in answers for p in a["model_all"]]
    steps = [x for a in answers for x in a["steps"]]
    print(json.dumps({
        "bench": "live-chances-calibration", "rules": args.rules, "players": args.players,
        "games": args.games, "positions": len(done), "playouts": args.playouts,
        "budget_s": args.budget, "playouts_done_min": min(done) if done else None,
        "playouts_done_mean": round(sum(done) / len(done), 1) if done else None,
        "live": score(live, args.players) if live else None,
        "review": score(rev, args.players) if rev else None,
        "model": score(model, args.players) if model else None,
        "model_all": score(model_all, args.players) if model_all else None,
        "steady": steadiness(steps),
        "kinds_known": not args.blind,
        "wins": {k: sum(a["kinds"][a["winner"][0]] == k for a in answers)
                 for k in sorted({k for a in answers for k in a["kinds"]})},
        "replayed": bool(recorded),
        "seconds": round(time.perf_counter() - start, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
