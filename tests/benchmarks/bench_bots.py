"""Bot strength: ismcts against greedy (heads-up and 1 vs 3) and against random.

Games run in worker processes (``--jobs``), interleaved across the match-ups, seats
turning every game, until each match-up has its games or the time ``--budget`` is spent.
Prints one JSON line: per match-up the games played, ismcts's win rate with its 95%
(Wilson) confidence interval, the target, and ismcts's mean and p99 decision time and
search iterations per second.

Targets at the default level: >= 60% heads-up against greedy over >= 400 games,
>= 40% of 4-player games against 3 greedy bots, >= 99% against random. The Black Magic
Woman settings (``--rules magic``: ``studiogiochi-2017:magic=true`` and
``studiogiochi-2017:magic=true,story=whole``): >= 60% heads-up against greedy. Every
match-up also reports its search failures (each decided by the bot's greedy fallback;
there must be none).

    nice -n 10 python3 tests/benchmarks/bench_bots.py --budget 3000 --jobs 2
    python3 tests/benchmarks/bench_bots.py --think 0.2 --heads-up 40 --four 20 --random 20
    nice -n 10 python3 tests/benchmarks/bench_bots.py --rules magic --heads-up 100 \
        --four 0 --random 0 --jobs 1
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots.kinds import DEFAULT_LEVEL, LEVELS
from cartagena_net.bots.match import play_game, seat_order, summarize
from cartagena_net.engine import make_game

TARGETS = {"heads-up": 0.60, "four": 0.40, "random": 0.99}
# ``--rules magic``: the Black Magic Woman alone and with the Whole Jailbreak.
SETTINGS = {"magic": ["studiogiochi-2017:magic=true",
                      "studiogiochi-2017:magic=true,story=whole"]}


def matchups(args: argparse.Namespace) -> list[tuple[str, str, dict, list[str], int]]:
    out = []
    for rules in [r for name in args.rules for r in SETTINGS.get(name, [name])]:
        preset, _, rest = rules.partition(":")
        options = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
        out.append(("heads-up", preset, options, ["ismcts", "greedy"], args.heads_up))
        out.append(("four", preset, options, ["ismcts", "greedy", "greedy", "greedy"],
                    args.four))
        out.append(("random", preset, options, ["ismcts", "random"], args.random))
    return [m for m in out if m[4] > 0]


def one(task: tuple) -> tuple[int, dict]:
    index, preset, options, order, seed, think, level = task
    game = make_game(preset, players=len(order), **options)
    return index, play_game(game, order, seed, think, level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", choices=tuple(LEVELS), default=DEFAULT_LEVEL)
    parser.add_argument("--think", type=float, default=None,
                        help="seconds a decision instead of the level's budget")
    parser.add_argument("--heads-up", type=int, default=400)
    parser.add_argument("--four", type=int, default=200)
    parser.add_argument("--random", type=int, default=100)
    parser.add_argument("--rules", nargs="+", default=["jamaica"],
                        help="PRESET or PRESET:opt=v,opt=v (e.g. studiogiochi-2017:"
                             "morgan=also,filibusters=true), or a named setting: "
                             + ", ".join(f"{k} = {' '.join(v)}" for k, v in SETTINGS.items()))
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds in all")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--progress", type=float, default=60.0,
                        help="seconds between progress lines on stderr (0: none)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    plan = matchups(args)
    # Interleave the match-ups so a budget cut leaves each with a fair share.
    tasks = []
    longest = max(m[4] for m in plan)
    for g in range(longest):
        for i, (_, preset, options, kinds, games) in enumerate(plan):
            if g < games:
                tasks.append((i, preset, options, seat_order(kinds, g, True),
                              rng.getrandbits(63), args.think, args.level))
    start = time.perf_counter()
    results: list[list[dict]] = [[] for _ in plan]
    cut = False
    shown = start
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        pending = []
        queue = iter(tasks)
        while True:
            while len(pending) < args.jobs * 2 and not cut:
                task = next(queue, None)
                if task is None:
                    break
                pending.append(pool.apply_async(one, (task,)))
            if not pending:
                break
            pending[0].wait(1.0)
            done = [p for p in pending if p.ready()]
            for p in done:
                i, r = p.get()
                results[i].append(r)
                pending.remove(p)
            now = time.perf_counter()
            if now - start > args.budget:
                cut = True
            if now - shown >= args.progress > 0:  # stdout stays one JSON line
                shown = now
                wins = ", ".join(f"{plan[i][0]} {plan[i][1]}:"
                                 f"{','.join(f'{k}={v}' for k, v in plan[i][2].items())} "
                                 f"{sum(r['winner'] is not None and r['order'][r['winner']] == 'ismcts' for r in res)}"
                                 f"/{len(res)}" for i, res in enumerate(results))
                print(f"{now - start:.0f} s: {sum(map(len, results))}/{len(tasks)} games; "
                      f"ismcts wins {wins}", file=sys.stderr, flush=True)
        elapsed = time.perf_counter() - start
    report = {"bench": "bots", "level": args.level, "level_budget": LEVELS[args.level],
              "think": args.think, "budget_s": args.budget,
              "seconds": round(elapsed, 1), "jobs": args.jobs, "cut_by_budget": cut,
              "matchups": []}
    for (name, preset, options, kinds, games), res in zip(plan, results):
        game = make_game(preset, players=len(kinds), **options)
        s = summarize(game, kinds, res, elapsed)
        k = s["kinds"]["ismcts"]
        report["matchups"].append({
            "matchup": name, "rules": preset, "options": options, "players": len(kinds),
            "opponents": kinds[1:], "games": len(res), "games_wanted": games,
            "win_rate": k["win_rate"], "ci95": k["ci95"], "target": TARGETS[name],
            "met": k["win_rate"] >= TARGETS[name],
            "decision_mean_s": k.get("decision_mean_s"),
            "decision_p99_s": k.get("decision_p99_s"),
            "iterations_per_s": k.get("iterations_per_s"),
            "mean_turns": s["mean_turns"], "unfinished": s["unfinished"],
            "search_failures": s["search_failures"], "search_errors": s["search_errors"],
        })
    print(json.dumps(report))


if __name__ == "__main__":
    main()
