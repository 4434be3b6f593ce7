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

``--parallel-vs-serial``: the search spread over ``--workers`` processes (root
parallelization, ``cartagena_net.bots.pool.spread_search``) against the serial search,
heads-up, seats turning every game, in jamaica and in ``studiogiochi-2017 -o
magic=true``: each bot the normal level's search, timed: the serial one ``--think``
seconds a decision (default 0.2, about what the normal level takes heads-up here), the
parallel one ``--time-share`` of that (default 1: equal wall time; 0.5: half the wait).
Prints one JSON line: for each setting the games, the parallel bot's win rate with its
95% (Wilson) interval, and both bots' decision times and iterations. Target: an interval
above 45% over at least 200 games a setting. Games run one at a time (``--jobs``: that
many at once, each with its own helpers: keep ``jobs * workers`` within the cores).
``--counted``: both bots count their iterations instead, as the normal level does, with
no clock (so the machine's load cannot change a game, and ``--jobs 2`` may share the
cores): the serial one the normal level's count, each of the parallel one's shares
``--time-share`` of it (0.75: the normal level spread, ``ismcts.SPREAD_SHARE``).
``--play magic`` plays only that setting's games (the seeds stay those of the whole run).
``--kept``: which bot keeps its tree between its seat's decisions (``ismcts.keep``):
``parallel`` (the default: the normal level now, spread and keeping, against the serial
level before trees were kept), ``none`` (the runs before kept trees, whose records carry
no ``kept`` in their key) or ``both``.
``--settle``: the parallel bot's ``SearchConfig.settle`` (default 0, the normal level's:
a counted search stops only once its answer cannot change; above 0 it also stops once
its answer is settled, ``ismcts._decided``, as the runs with ``settle`` in their key
did); the serial bot always stops only once its answer cannot change.
``--record FILE`` appends each game to FILE as it ends (one JSON line, its history left
out) and skips the games FILE already holds for the same settings, so a long run can be
stopped and taken up again, in a later session too; the report counts them all.

    nice python3 tests/benchmarks/bench_bots.py --parallel-vs-serial --games 200
    nice python3 tests/benchmarks/bench_bots.py --parallel-vs-serial --games 200 \
        --time-share 0.5

``tests/benchmarks/records/parallel-vs-serial.jsonl`` holds the games played so far (the
equal-time run and the half-time one: ``--record`` that file, with the run's
``--time-share``, to add to it or to print its report again).
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

from cartagena_net.bots.ismcts import SETTLE_FROM, SearchConfig
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


PVS_SETTINGS = [("jamaica", {}), ("studiogiochi-2017", {"magic": "true"})]
PVS_NAMES = ["jamaica", "magic"]  # --play's names for PVS_SETTINGS


def one_pvs(task: tuple) -> tuple[int, dict]:
    """One heads-up game: the parallel bot at seat ``task``'s ``seat``."""
    index, preset, options, seat, seed, think, share, workers, counted, kept, settle = task
    from cartagena_net.bots.kinds import IsmctsBot

    game = make_game(preset, players=2, **options)
    rng = random.Random(seed)
    if counted:  # the normal level's count (heads-up: one opponent's), no clock
        from cartagena_net.bots.ismcts import SPREAD_SHARE

        count = LEVELS["normal"][2]  # each share gets SPREAD_SHARE of the bot's count
        parallel = IsmctsBot(random.Random(rng.getrandbits(64)), workers=workers,
                             deterministic=True, iterations=round(count * share / SPREAD_SHARE),
                             keep=kept != "none", settle=settle)
        serial = IsmctsBot(random.Random(rng.getrandbits(64)), workers=1,
                           deterministic=True, iterations=count, keep=kept == "both",
                           settle=0.0)
    else:
        parallel = IsmctsBot(random.Random(rng.getrandbits(64)), think=think * share,
                             workers=workers, keep=kept != "none", settle=settle)
        serial = IsmctsBot(random.Random(rng.getrandbits(64)), think=think, workers=1,
                           keep=kept == "both", settle=0.0)
    order = ["parallel", "serial"] if seat == 0 else ["serial", "parallel"]
    bots = [parallel, serial] if seat == 0 else [serial, parallel]
    return index, {**play_game(game, order, rng.getrandbits(63), bots=bots), "seed": seed}


def recorded(path: str | None, key: dict) -> dict[int, dict]:
    """The games ``path`` already holds for the run ``key`` describes, by seed."""
    if not path or not Path(path).exists():
        return {}
    found = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:  # a line cut short when a run was killed
            continue
        if isinstance(entry, dict) and entry.get("key") == key:
            found[entry["seed"]] = entry["result"]
    return found


def parallel_vs_serial(args: argparse.Namespace) -> None:
    from cartagena_net.bots.match import wilson

    rng = random.Random(args.seed)
    tasks = [(i, preset, options, g % 2, rng.getrandbits(63), args.think or 0.2,
              args.time_share, args.workers, args.counted, args.kept, args.settle)
             for g in range(args.games) for i, (preset, options) in enumerate(PVS_SETTINGS)]
    results: list[list[dict]] = [[] for _ in PVS_SETTINGS]
    key = {"mode": "parallel-vs-serial", "think": args.think or 0.2,
           "time_share": args.time_share, "workers": args.workers, "seed": args.seed}
    if args.counted:  # a key of its own: not the timed runs' games
        key = {**key, "think": None, "counted": True}
    if args.kept != "none":  # (the runs before kept trees: no such entry)
        key = {**key, "kept": args.kept}
    if args.settle:  # (the runs before settled answers stopped a search: no such entry)
        key = {**key, "settle": args.settle, "settle_from": SETTLE_FROM}
    earlier = recorded(args.record, key)
    for task in tasks:
        if task[4] in earlier:
            results[task[0]].append(earlier[task[4]])
    tasks = [t for t in tasks if t[4] not in earlier and PVS_NAMES[t[0]] in args.play]
    record = (open(args.record, "a", encoding="utf-8")  # noqa: SIM115 - closed in the finally below
              if args.record else None)
    start = shown = time.perf_counter()
    cut = False
    if args.jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(args.jobs)
        answers = pool.imap_unordered(one_pvs, tasks)
    else:
        pool, answers = None, map(one_pvs, tasks)
    try:
        for i, r in answers:
            results[i].append(r)
            if record is not None:
                r = {k: v for k, v in r.items() if k != "history"}
                r["times"] = {w: [round(t, 4) for t in ts] for w, ts in r["times"].items()}
                preset, options = PVS_SETTINGS[i]
                record.write(json.dumps({"key": key, "seed": r.pop("seed"), "rules": preset,
                                         "options": options, "result": r}) + "\n")
                record.flush()
            now = time.perf_counter()
            if now - start > args.budget:
                cut = True
                break
            if now - shown >= args.progress > 0:
                shown = now
                wins = ", ".join(
                    f"{PVS_SETTINGS[k][0]}{PVS_SETTINGS[k][1] or ''} "
                    f"{sum(x['winner'] is not None and x['order'][x['winner']] == 'parallel' for x in res)}"
                    f"/{len(res)}" for k, res in enumerate(results))
                print(f"{now - start:.0f} s: parallel wins {wins}", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.terminate()
        if record is not None:
            record.close()
    report = {"bench": "bots", "mode": "parallel-vs-serial", "workers": args.workers,
              "counted": args.counted, "kept": args.kept, "settle": args.settle,
              "serial_think_s": None if args.counted else args.think or 0.2,
              "parallel_think_s": None if args.counted else round(
                  (args.think or 0.2) * args.time_share, 4),
              "time_share": args.time_share, "seconds": round(time.perf_counter() - start, 1),
              "cut_by_budget": cut, "jobs": args.jobs, "recorded_before": len(earlier),
              "settings": []}
    for (preset, options), res in zip(PVS_SETTINGS, results):
        finished = [r for r in res if r["winner"] is not None]
        wins = sum(r["order"][r["winner"]] == "parallel" for r in finished)
        lo, hi = wilson(wins, len(finished))
        entry = {"rules": preset, "options": options, "players": 2, "games": len(res),
                 "games_wanted": args.games, "unfinished": len(res) - len(finished),
                 "parallel_wins": wins,
                 "win_rate": round(wins / len(finished), 4) if finished else None,
                 "ci95": [round(lo, 4), round(hi, 4)], "target_ci_low": 0.45,
                 "met": bool(finished) and lo > 0.45 and len(finished) >= 200,
                 "search_failures": sum(sum(r["search_failures"].values()) for r in res)}
        for who in ("parallel", "serial"):
            ts = [t for r in res for t in r["times"].get(who, ())]
            its = [n for r in res for n in r["iterations"].get(who, ())]
            if ts:
                entry[f"{who}_decision_mean_s"] = round(sum(ts) / len(ts), 4)
                entry[f"{who}_iterations_mean"] = round(sum(its) / len(its), 1)
        report["settings"].append(entry)
    print(json.dumps(report))


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
    parser.add_argument("--jobs", type=int, default=None,
                        help="games at once (default 2; --parallel-vs-serial: 1)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--progress", type=float, default=60.0,
                        help="seconds between progress lines on stderr (0: none)")
    parser.add_argument("--parallel-vs-serial", action="store_true",
                        help="the search on --workers processes against the serial one "
                             "(heads-up, jamaica and studiogiochi-2017 -o magic=true)")
    parser.add_argument("--games", type=int, default=200,
                        help="--parallel-vs-serial: games a setting (default 200)")
    parser.add_argument("--workers", type=int, default=2,
                        help="--parallel-vs-serial: the parallel bot's processes (default 2)")
    parser.add_argument("--record", metavar="FILE", default=None,
                        help="--parallel-vs-serial: append each game to FILE, and skip "
                             "the games it already holds")
    parser.add_argument("--play", nargs="+", choices=PVS_NAMES, default=PVS_NAMES,
                        help="--parallel-vs-serial: the settings to play games in (default "
                             "both; the report still counts every recorded game)")
    parser.add_argument("--time-share", type=float, default=1.0,
                        help="--parallel-vs-serial: the parallel bot's time a decision over "
                             "the serial one's (default 1: equal wall time)")
    parser.add_argument("--counted", action="store_true",
                        help="--parallel-vs-serial: both bots count their iterations, "
                             "without the clock: the serial one the normal level's count, "
                             "each of the parallel one's --workers shares --time-share of it")
    parser.add_argument("--kept", choices=("parallel", "none", "both"), default="parallel",
                        help="--parallel-vs-serial: which bot keeps its tree between a "
                             "seat's decisions (default: the parallel one, as the normal "
                             "level now does, against the serial search that kept none; "
                             "none: the runs before kept trees)")
    parser.add_argument("--settle", type=float, default=SearchConfig.settle,
                        help="--parallel-vs-serial: the parallel bot's SearchConfig.settle "
                             f"(default {SearchConfig.settle}, the normal level's: it stops "
                             "only once its answer cannot change; above 0 also once its "
                             "answer is settled); the serial one always stops only once "
                             "its answer cannot change")
    args = parser.parse_args()
    if args.parallel_vs_serial:
        args.jobs = args.jobs or 1
        parallel_vs_serial(args)
        return
    args.jobs = args.jobs or 2
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
