"""How long the normal level takes to decide at four players: the wait a person feels,
searched in one process and spread over several (``--workers``, root parallelization).

On DECISIONS positions of four-player games (every preset in turn, reached by greedy
play from a seeded deal, with at least two legal actions), an ``ismcts`` bot at the
normal level (``cartagena_net.bots.kinds.LEVELS``: its iterations for each other seat,
bounded in time) chooses an action in this process, as a worker process does, once for
each ``--workers`` count (in turn, the order alternating), the shares beyond the first
in helper processes at this process's priority (``cartagena_net.bots.pool``). Before
each position the flat reference loop (``shared/bench/flat_reference.py`` beside the
repository, as in ``bench_engine.py``) plays for 0.2 s, so that the machine's speed is
measured in the same run, in turn with the decisions.

Prints one JSON line: for one worker (the serial search) p50, p90 and the longest
decision in seconds, the mean iterations a decision, the reference's games per CPU
second, and the p50 counted in reference games (``p50_reference_games``: seconds times
the reference's rate, which a slower or busier machine does not change); for each
workers count its own figures (``by_workers``) and ``iterations_per_wall_s``, the
search iterations over the decisions' wall time; ``parallel_speedup``, the most workers'
iterations per wall second over one worker's (target on a 2-core machine: 1.7), and
``p50_speedup``; and how idle the machine was meanwhile (``machine_idle_share`` of
its CPU time, Linux; ``load_before``): on a shared, busy machine there is no second core
to spread over. Targets: serial p50 0.5 s on a quiet machine where the reference plays
about 1,050 games a second, i.e. ``p50_reference_games`` <= 525. A spread normal
decision searches three quarters of the count on each worker (``ismcts.SPREAD_SHARE``:
half on each of two was weaker than the serial search), so these single decisions gain
little wall time from a second worker (``p50_speedup``) while ``parallel_speedup``
measures how fast the shares search; issue 47's aim, half the wait of the level before
it, is measured over whole turns:

``turns``: the wait a person feels over whole turns. From ``--turns`` four-player
positions at the start of a seat's turn, that seat's whole turn is played twice, once by
the normal level as it was before (one worker, each decision searched afresh and only
stopped early once its answer could not change) and once by the level now (the most
``--workers``, spread, each decision growing the tree its seat kept below its last
answer, ``ismcts.keep``), both counting their iterations without the clock (so the 1 s
bound does not cut a slow machine's searches short), in turn. For each: p50, p90, the
longest and the mean decision in seconds, the mean new iterations and the mean kept
visits a decision began with; and ``p50_speedup`` and ``mean_speedup``, before over now
(issue 47's aim: 2; measured on a 2-core machine, 40 turns: see docs/bots.md).

    python3 tests/benchmarks/bench_decision.py --workers 1 2
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots.kinds import GreedyBot, IsmctsBot
from cartagena_net.engine import PRESETS, make_game, view

DECISIONS = int(os.environ.get("BENCH_DECISIONS", "40"))
TURNS = int(os.environ.get("BENCH_TURNS", "20"))
REFERENCE = ROOT.parent / "shared" / "bench" / "flat_reference.py"
TARGET_S, TARGET_REFERENCE_RATE = 0.5, 1050
TARGET_SPEEDUP = 1.7  # iterations per wall second, 2 workers over 1, on 2 cores


def positions(n: int) -> list:
    """``n`` four-player states, presets in turn, each with two or more legal actions."""
    out = []
    seed = 0
    presets = sorted(PRESETS)
    while len(out) < n:
        preset = presets[len(out) % len(presets)]
        seed += 1
        rng = random.Random(seed)
        state = make_game(preset, players=4).new_state(seed=seed)
        greedy = GreedyBot(rng)
        for _ in range(rng.randrange(10, 150)):
            if state.is_over:
                break
            seat = state.actor
            state.apply(greedy.choose(view(state, seat),
                                      [str(a) for a in state.legal_actions()]))
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def turn_starts(n: int) -> list:
    """``n`` four-player states at the start of a seat's turn (from :func:`positions`,
    greedy play on to the next turn's first decision)."""
    out = []
    for i, state in enumerate(positions(n)):
        greedy = GreedyBot(random.Random(i))
        while state.taken and not state.is_over:
            seat = state.actor
            state.apply(greedy.choose(view(state, seat),
                                      [str(a) for a in state.legal_actions()]))
        if not state.is_over:
            out.append(state)
    return out


def play_turn(state, bot: IsmctsBot, seconds: list[float], iterations: list[int],
              reused: list[int]) -> None:
    """The acting seat's whole turn, each decision by ``bot`` (timed, in the seat's
    view), on a copy of ``state``."""
    state = state.copy()
    seat, turn = state.actor, state.turn
    while not state.is_over and state.actor == seat and state.turn == turn:
        legal = [str(a) for a in state.legal_actions()]
        t0 = time.perf_counter()
        choice = bot.choose(view(state, seat), legal)
        if len(legal) > 1:
            seconds.append(time.perf_counter() - t0)
            iterations.append(bot.last.iterations)
            reused.append(bot.last.reused)
        assert choice in legal and bot.failures == 0
        state.apply(choice, seat=seat)


def cpu_times() -> tuple[int, int] | None:
    """(idle, total) jiffies of the whole machine (Linux), to tell how busy it was."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return fields[3] + fields[4], sum(fields)


def figures(seconds: list[float], iterations: list[int]) -> dict:
    ordered = sorted(seconds)
    return {"p50_s": round(statistics.median(ordered), 3),
            "p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
            "max_s": round(ordered[-1], 3),
            "mean_iterations": round(statistics.mean(iterations)),
            "iterations_per_wall_s": round(sum(iterations) / sum(seconds))}


def turn_figures(seconds: dict[str, list[float]], iterations: dict[str, list[int]],
                 reused: dict[str, list[int]], turns: int, workers: int) -> dict | None:
    """The whole turns' figures: each level's decisions, and the level now's speed-up
    over the level before in median and mean wait (``p50_speedup``, ``mean_speedup``:
    issue 47's aim is 2)."""
    if not seconds["before"] or not seconds["now"]:
        return None
    out: dict = {"turns": turns, "workers_now": workers}
    for who in ("before", "now"):
        out[who] = {**figures(seconds[who], iterations[who]),
                    "decisions": len(seconds[who]),
                    "mean_s": round(statistics.mean(seconds[who]), 3),
                    "mean_reused": round(statistics.mean(reused[who]))}
    out["p50_speedup"] = round(out["before"]["p50_s"] / out["now"]["p50_s"], 2)
    out["mean_speedup"] = round(out["before"]["mean_s"] / out["now"]["mean_s"], 2)
    out["target_speedup"] = 2.0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="processes a decision searches in, each measured (default 1 2)")
    parser.add_argument("--decisions", type=int, default=DECISIONS)
    parser.add_argument("--turns", type=int, default=TURNS,
                        help="whole turns played from their first decision, by the level "
                             "before kept trees (serial, none kept) and by the level now "
                             "(the most --workers, trees kept): the wait a person feels")
    args = parser.parse_args()
    counts = sorted({max(1, n) for n in [1, *args.workers]})
    spec = importlib.util.spec_from_file_location("flat_reference", REFERENCE)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    ref_rng = random.Random(3)
    ref_games, ref_cpu = 0, 0.0
    seconds: dict[int, list[float]] = {n: [] for n in counts}
    iterations: dict[int, list[int]] = {n: [] for n in counts}
    states = positions(args.decisions)
    for n in counts:  # helpers started (and imported) before the clock runs
        IsmctsBot(random.Random(0), level="normal", workers=n).choose(
            view(states[0], states[0].actor), [str(a) for a in states[0].legal_actions()])
    busy0, load0 = cpu_times(), os.getloadavg() if hasattr(os, "getloadavg") else None
    for i, state in enumerate(states):
        cpu, stop = time.process_time(), time.perf_counter() + 0.2
        while time.perf_counter() < stop:
            ref.play(ref_rng)
            ref_games += 1
        ref_cpu += time.process_time() - cpu
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        for n in counts if i % 2 == 0 else counts[::-1]:
            bot = IsmctsBot(random.Random(i), level="normal", workers=n)
            t0 = time.perf_counter()
            choice = bot.choose(view(state, seat), legal)
            seconds[n].append(time.perf_counter() - t0)
            assert choice in legal and bot.failures == 0
            iterations[n].append(bot.last.iterations)
    # Whole turns: the normal level as it was (one worker, no tree kept between a
    # seat's decisions, a search stopped only once its answer cannot change) against
    # the level now (the most workers, trees kept), each
    # counting its iterations without the clock: the wait for the level's count, which
    # the 1 s bound would cut short on a slow machine.
    turn_s: dict[str, list[float]] = {"before": [], "now": []}
    turn_its: dict[str, list[int]] = {"before": [], "now": []}
    turn_reused: dict[str, list[int]] = {"before": [], "now": []}
    for i, state in enumerate(turn_starts(args.turns)):
        for who in ("before", "now") if i % 2 == 0 else ("now", "before"):
            bot = IsmctsBot(random.Random(i), level="normal", deterministic=True,
                            workers=1 if who == "before" else counts[-1], keep=who == "now")
            play_turn(state, bot, turn_s[who], turn_its[who], turn_reused[who])
    busy1 = cpu_times()
    idle = None
    if busy0 and busy1 and busy1[1] > busy0[1]:
        idle = round((busy1[0] - busy0[0]) / (busy1[1] - busy0[1]), 3)
    rate = ref_games / ref_cpu
    by = {str(n): figures(seconds[n], iterations[n]) for n in counts}
    serial, most = by["1"], by[str(counts[-1])]
    p50 = statistics.median(seconds[1])
    print(json.dumps({
        "bench": "decision", "players": 4, "level": "normal", "decisions": len(seconds[1]),
        "p50_s": serial["p50_s"], "p90_s": serial["p90_s"], "max_s": serial["max_s"],
        "mean_iterations": serial["mean_iterations"],
        "reference_games_per_cpu_s": round(rate, 1),
        "p50_reference_games": round(p50 * rate),
        "target_p50_reference_games": round(TARGET_S * TARGET_REFERENCE_RATE),
        "target_met": p50 * rate <= TARGET_S * TARGET_REFERENCE_RATE,
        "iterations_per_wall_s": {k: v["iterations_per_wall_s"] for k, v in by.items()},
        "parallel_speedup": round(most["iterations_per_wall_s"]
                                  / serial["iterations_per_wall_s"], 2),
        "p50_speedup": round(serial["p50_s"] / most["p50_s"], 2),
        "target_parallel_speedup": TARGET_SPEEDUP,
        "by_workers": by, "cpus": os.cpu_count(),
        "turns": turn_figures(turn_s, turn_its, turn_reused, args.turns, counts[-1]),
        # How much of the machine the others left: a speedup needs idle cores.
        "machine_idle_share": idle, "load_before": load0 and [round(x, 2) for x in load0],
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
