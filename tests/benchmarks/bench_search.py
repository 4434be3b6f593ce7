"""Engine speed under search: what one ismcts iteration costs, and iterations per second.

On mid-game positions of every preset (4 players), times the search's engine calls:
a determinization (``Determinizer.sample``), ``State.copy``, ``legal_actions`` and
``apply`` (the checked, atomic one) against ``apply_unchecked`` (the search's), then
runs the search for ``--seconds`` per position. Prints one JSON line (microseconds per
call, iterations per second and per CPU second).

``per_reference_game``: the search's iterations per CPU second over the flat reference
loop's games per CPU second (``shared/bench/flat_reference.py``, as in
``bench_engine.py``), the reference run for half a second before each search, so that a
slower or busier machine cannot fake a change (on a quiet machine the reference plays
about 1,050 games a second: 32,000 iterations per CPU second is about 30 a game).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots.ismcts import SearchConfig, search
from cartagena_net.engine import PRESETS, make_game, view
from cartagena_net.engine.determinize import Determinizer


def position(preset: str, seed: int):
    game = make_game(preset, players=4)
    state = game.new_state(seed=seed, events=False)
    rng = random.Random(seed)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            state = game.new_state(seed=seed + 1, events=False)
    return state


def reference_rate(seconds: float = 0.5) -> tuple[int, float]:
    """(games, CPU seconds) of the flat reference loop, or (0, 0.0) without it."""
    ref = REFERENCE if REFERENCE is not None and REFERENCE.is_file() else None
    if ref is None:
        return 0, 0.0
    spec = importlib.util.spec_from_file_location("flat_reference", ref)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rng = random.Random(3)
    games, cpu = 0, time.process_time()
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        module.play(rng)
        games += 1
    return games, time.process_time() - cpu


REFERENCE = ROOT.parent / "shared" / "bench" / "flat_reference.py"


def per_call(fn, n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time a position")
    args = parser.parse_args()
    rng = random.Random(1)
    out: dict = {"bench": "search", "presets": {}}
    ref_games, ref_cpu, its, its_cpu = 0, 0.0, 0, 0.0
    for preset in sorted(PRESETS):
        state = position(preset, 7)
        me = state.actor
        v = view(state, me)
        det = Determinizer(v)
        world = det.sample(rng)
        acts = world.legal_actions()

        def checked(world=world, acts=acts):
            s = world.copy(chance=world._chance)
            s.apply(acts[0])

        def unchecked(world=world, acts=acts):
            s = world.copy(chance=world._chance)
            s.apply_unchecked(acts[0])

        copy_us = per_call(lambda world=world: world.copy(chance=world._chance), 3000)
        legal = [str(a) for a in acts]
        games, cpu = reference_rate()
        ref_games, ref_cpu = ref_games + games, ref_cpu + cpu
        cpu0, t0 = time.process_time(), time.perf_counter()
        result = search(v, legal, config=SearchConfig(think=args.seconds))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
        its, its_cpu = its + result.iterations, its_cpu + cpu
        out["presets"][preset] = {
            "sample_us": round(per_call(lambda det=det: det.sample(rng), 3000), 1),
            "copy_us": round(copy_us, 1),
            "legal_actions_us": round(per_call(world.legal_actions, 3000), 1),
            "apply_us": round(per_call(checked, 3000) - copy_us, 1),
            "apply_unchecked_us": round(per_call(unchecked, 3000) - copy_us, 1),
            "iterations_per_s": round(result.iterations / wall),
            "iterations_per_cpu_s": round(result.iterations / cpu) if cpu else None,
        }
    rates = [p["iterations_per_s"] for p in out["presets"].values()]
    out["iterations_per_s_min"] = min(rates)
    out["iterations_per_cpu_s"] = round(its / its_cpu)
    if ref_games:
        out["reference_games_per_cpu_s"] = round(ref_games / ref_cpu, 1)
        out["per_reference_game"] = round(its / its_cpu / (ref_games / ref_cpu), 2)
        out["target_per_reference_game"] = round(32_000 / 1_050, 2)
    out["python"] = sys.version.split()[0]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
