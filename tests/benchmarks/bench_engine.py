"""Engine speed: 4-player jamaica games under a random-legal policy, public API only.

Prints one JSON line: games_per_s, actions_per_s (target: >= 300 games/s on one core),
and the same per CPU second of this process (steady when other work shares the machine).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time

from cartagena_net.engine import make_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rules", default="jamaica")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = make_game(args.rules, players=args.players)
    rng = random.Random(1)
    games = actions = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    while time.perf_counter() - start < args.seconds:
        state = game.new_state(rng=rng, events=False)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(json.dumps({
        "bench": "engine", "rules": args.rules, "players": args.players,
        "games": games, "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1), "actions_per_s": round(actions / elapsed),
        "actions_per_game": round(actions / games, 1), "target_games_per_s": 300,
        "games_per_cpu_s": round(games / cpu, 1), "actions_per_cpu_s": round(actions / cpu),
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
