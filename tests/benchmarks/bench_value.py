"""How long the value model takes a position, against the playout estimate it replaces.

Positions: every ``--every``-th action of ``--games`` four-seat games of greedy bots
(jamaica and the 2017 Black Magic Woman), each seen by a spectator. Timed: the model's
chances (:func:`cartagena_net.bots.value.chances`: the features and the network) on every
position, ``--repeat`` times; and, on the first ``--reference`` positions, the playout
estimate the room's chances used before (:func:`cartagena_net.bots.coach.view_chances`,
``LIVE_PLAYOUTS`` playouts). Prints one JSON line: microseconds a position for each, and
their ratio.

    nice python3 tests/benchmarks/bench_value.py
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


def positions(games: int, every: int, seed: int) -> list[tuple[dict, dict]]:
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.engine import SPECTATOR, make_game, view
    from cartagena_net.engine.determinize import track_known

    out = []
    for g in range(games):
        preset, opts = [("jamaica", {}), ("studiogiochi-2017", {"magic": True})][g % 2]
        state = make_game(preset, players=4, **opts).new_state(seed=seed + g)
        bots = [make_bot("greedy", random.Random(seed + g * 5 + s)) for s in range(4)]
        known: dict = {}
        told = 0
        k = 0
        while not state.is_over:
            seen = view(state, SPECTATOR, since=told)
            track_known(known, seen.pop("events"), -1)
            told = state.event_count
            if k % every == 0:
                out.append((seen, {s: list(c) for s, c in known.items()}))
            k += 1
            legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
            state.apply(bots[state.actor].choose(view(state, state.actor), legal))
    return out


def main() -> int:
    from cartagena_net.bots import value
    from cartagena_net.bots.coach import LIVE_PLAYOUTS, view_chances

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--reference", type=int, default=12)
    ap.add_argument("--seed", type=int, default=58)
    args = ap.parse_args()
    pos = positions(args.games, args.every, args.seed)
    for seen, _ in pos:
        value.model_for(seen)  # loaded once, as a host does
    start = time.perf_counter()
    for _ in range(args.repeat):
        for seen, known in pos:
            value.chances(seen, known)
    model_us = (time.perf_counter() - start) / (args.repeat * len(pos)) * 1e6
    rng = random.Random(args.seed)
    ref = pos[:: max(1, len(pos) // args.reference)][: args.reference]
    start = time.perf_counter()
    for seen, known in ref:
        view_chances(seen, known, LIVE_PLAYOUTS, rng)
    playout_us = (time.perf_counter() - start) / len(ref) * 1e6
    print(json.dumps({"bench": "value-model-speed", "positions": len(pos),
                      "model_us": round(model_us, 1),
                      "playouts_us": round(playout_us, 1), "playouts": LIVE_PLAYOUTS,
                      "reference_positions": len(ref),
                      "ratio": round(playout_us / model_us, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
