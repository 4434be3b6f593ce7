"""How long the normal level takes to decide at four players: the wait a person feels.

On DECISIONS positions of four-player games (every preset in turn, reached by greedy
play from a seeded deal, with at least two legal actions), an ``ismcts`` bot at the
normal level (``cartagena_net.bots.kinds.LEVELS``: its iterations for each other seat,
bounded in time) chooses an action in this process, as a worker process does. Before
each decision the flat reference loop (``shared/bench/flat_reference.py`` beside the
repository, as in ``bench_engine.py``) plays for 0.2 s, so that the machine's speed is
measured in the same run, in turn with the decisions.

Prints one JSON line: p50, p90 and the longest decision in seconds, the mean iterations
a decision, the reference's games per CPU second, and the p50 counted in reference
games (``p50_reference_games``: seconds times the reference's rate, which a slower or
busier machine does not change). Target: 0.5 s on a quiet machine where the reference
plays about 1,050 games a second, i.e. ``p50_reference_games`` <= 525.
"""
from __future__ import annotations

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
REFERENCE = ROOT.parent / "shared" / "bench" / "flat_reference.py"
TARGET_S, TARGET_REFERENCE_RATE = 0.5, 1050


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


def main() -> None:
    spec = importlib.util.spec_from_file_location("flat_reference", REFERENCE)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    ref_rng = random.Random(3)
    ref_games, ref_cpu = 0, 0.0
    seconds, iterations = [], []
    for i, state in enumerate(positions(DECISIONS)):
        cpu, stop = time.process_time(), time.perf_counter() + 0.2
        while time.perf_counter() < stop:
            ref.play(ref_rng)
            ref_games += 1
        ref_cpu += time.process_time() - cpu
        bot = IsmctsBot(random.Random(i), level="normal")
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        t0 = time.perf_counter()
        choice = bot.choose(view(state, seat), legal)
        seconds.append(time.perf_counter() - t0)
        assert choice in legal and bot.failures == 0
        iterations.append(bot.last.iterations)
    rate = ref_games / ref_cpu
    ordered = sorted(seconds)
    p50 = statistics.median(ordered)
    print(json.dumps({
        "bench": "decision", "players": 4, "level": "normal", "decisions": len(seconds),
        "p50_s": round(p50, 3), "p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        "max_s": round(ordered[-1], 3), "mean_iterations": round(statistics.mean(iterations)),
        "reference_games_per_cpu_s": round(rate, 1),
        "p50_reference_games": round(p50 * rate),
        "target_p50_reference_games": round(TARGET_S * TARGET_REFERENCE_RATE),
        "target_met": p50 * rate <= TARGET_S * TARGET_REFERENCE_RATE,
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
