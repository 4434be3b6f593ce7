"""Engine speed: 4-player games under a random-legal policy, public API only.

Prints one JSON line: games_per_s, actions_per_s for ``--rules`` (default jamaica;
target: >= 300 games/s on one core), the same per CPU second of this process (steady
when other work shares the machine), and under ``"whole"`` the same figures for
``--rules studiogiochi-2017 -o story=whole`` (the Whole Jailbreak), unless --no-whole.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from cartagena_net.engine import make_game


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="jamaica")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-whole", action="store_true",
                        help="skip the Whole Jailbreak run")
    args = parser.parse_args()
    result = {"bench": "engine", **measure(args.seconds, args.rules, args.players),
              "target_games_per_s": 300, "python": sys.version.split()[0]}
    if not args.no_whole:
        result["whole"] = measure(args.seconds, "studiogiochi-2017", args.players,
                                  story="whole")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
