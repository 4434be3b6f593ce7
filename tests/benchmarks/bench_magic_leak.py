"""The Black Magic Woman leak test over many random games (default 1,000).

For every viewer, every ``--every`` actions and at every step of a power, everything
that viewer cannot know is re-dealt and its view must not change (see
tests/engine/test_magic_leak.py). Prints one JSON line: games, views checked, seconds,
failures (0 expected).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from cartagena_net.engine import make_game
from tests.engine.test_magic_leak import GAMES, leak_checked_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    checks = failures = 0
    for n in range(args.games):
        game = make_game("studiogiochi-2017", **GAMES[n % len(GAMES)])
        try:
            checks += leak_checked_game(game, 10_000 + n, every=args.every)[1]
        except AssertionError as err:
            failures += 1
            print(f"leak: {err}", file=sys.stderr)
    print(json.dumps({"benchmark": "magic_leak", "games": args.games, "every": args.every,
                      "views_checked": checks, "failures": failures,
                      "seconds": round(time.perf_counter() - start, 1)}))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
