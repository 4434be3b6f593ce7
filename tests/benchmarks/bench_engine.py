"""Engine speed: 4-player games under a random-legal policy, public API only.

Prints one JSON line: games_per_s, actions_per_s for ``--rules`` (default jamaica;
target: >= 300 games/s on one core), the same per CPU second of this process (steady
when other work shares the machine), and under ``"whole"`` the same figures for
``--rules studiogiochi-2017 -o story=whole`` (the Whole Jailbreak), unless --no-whole.

``ratio``: 4-player jamaica games per CPU second against the flat reference loop
(``shared/bench/flat_reference.py`` beside the repository), measured in the same run,
the two interleaved a slice at a time so that a change in the machine's load falls on
both (target: >= 0.8). The engine's games there follow the reference's random policy as
far as its legal list allows: a random legal action, but never ``end`` before the turn's
actions are used up (the reference never ends a turn early; a random ``end`` makes
games longer, about 390 actions against 345). The reference's policy also weighs a
space's moves by the pirates on it, which the engine lists once: its games are still a
few actions shorter (``*_actions_per_game``).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from cartagena_net.engine import make_game
from cartagena_net.engine.actions import END


def measure(seconds: float, rules: str, players: int, **options: Any) -> dict[str, Any]:
    game = make_game(rules, players=players, **options)
    rng = random.Random(1)
    games = actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_state(rng=rng, events=False)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "rules": rules, "options": options, "players": players,
        "games": games, "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1), "actions_per_s": round(actions / elapsed),
        "actions_per_game": round(actions / games, 1),
        "games_per_cpu_s": round(games / cpu, 1), "actions_per_cpu_s": round(actions / cpu),
    }


REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "bench" / "flat_reference.py"


def against_reference(seconds: float, slice_s: float = 0.5) -> dict[str, Any]:
    """Engine and flat reference games per CPU second, interleaved; their ratio."""
    if not REFERENCE.is_file():
        return {"ratio": None, "reference": f"not found: {REFERENCE}"}
    spec = importlib.util.spec_from_file_location("flat_reference", REFERENCE)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    game = make_game("jamaica", players=4)
    rng_e, rng_r = random.Random(3), random.Random(3)
    totals = {"engine": [0, 0.0], "reference": [0, 0.0]}

    choice = rng_e.choice

    def engine_game() -> int:
        state = game.new_state(rng=rng_e, events=False)
        n = 0
        while not state.is_over:
            legal = state.legal_actions()
            action = choice(legal)
            while action is END and len(legal) > 1:  # the reference never ends early
                action = choice(legal)
            state.apply(action)
            n += 1
        return n

    runs = {"engine": engine_game, "reference": lambda: ref.play(rng_r)}
    actions = {"engine": 0, "reference": 0}
    end = time.perf_counter() + 2 * seconds
    while time.perf_counter() < end:
        for name, run in runs.items():
            cpu = time.process_time()
            stop = time.perf_counter() + slice_s
            while time.perf_counter() < stop:
                actions[name] += run()
                totals[name][0] += 1
            totals[name][1] += time.process_time() - cpu
    rate = {k: g / c for k, (g, c) in totals.items()}
    return {"ratio": round(rate["engine"] / rate["reference"], 3),
            "engine_games_per_cpu_s": round(rate["engine"], 1),
            "reference_games_per_cpu_s": round(rate["reference"], 1),
            **{f"{k}_actions_per_game": round(actions[k] / totals[k][0], 1) for k in actions}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="jamaica")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-whole", action="store_true",
                        help="skip the Whole Jailbreak run")
    args = parser.parse_args()
    result = {"bench": "engine", **against_reference(args.seconds), "target_ratio": 0.8,
              **measure(args.seconds, args.rules, args.players),
              "target_games_per_s": 300, "python": sys.version.split()[0]}
    if not args.no_whole:
        result["whole"] = measure(args.seconds, "studiogiochi-2017", args.players,
                                  story="whole")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
