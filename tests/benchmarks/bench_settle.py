"""What stopping a counted search once its answer is settled saves, and what it changes.

On ``--positions`` positions of each setting (four-player jamaica, heads-up jamaica and
heads-up ``studiogiochi-2017 -o magic=true``; reached by greedy play from a seeded deal,
each with two or more legal actions), the normal level's count (12,000 at four players,
5,000 heads-up) is searched in this process three times:

- ``certain``: stopped only once no other action could come close in the iterations
  left (``SearchConfig(settle=0)``, every level before issue 47): the answer of the
  whole count;
- ``settled``: the same seed, stopped once the answer is settled (the level now,
  ``SearchConfig.settle``): the same search cut where the stop rule says, so where its
  answer differs, it is the rule that changed it;
- ``other_seed``: the whole count again, with another seed: how often the search's own
  noise changes the answer, to measure the rule's changes against.

Prints one JSON line: for each setting the positions, the mean share of the count each
stop searched (``settled_share``, ``certain_share``) and their ratio
(``settled_over_certain``, the reference being the certain stop in the same run), how
many answers the settled stop changed and how many another seed changed, and the mean
and largest gap in mean reward between the whole count's answer and the changed one (as
the whole count's search values them).

    python3 tests/benchmarks/bench_settle.py --positions 80
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots.ismcts import SearchConfig, search
from cartagena_net.bots.kinds import LEVELS, GreedyBot
from cartagena_net.engine import make_game, view

POSITIONS = int(os.environ.get("BENCH_SETTLE_POSITIONS", "40"))
SETTINGS = [("jamaica", {}, 4), ("jamaica", {}, 2), ("studiogiochi-2017", {"magic": True}, 2)]


def positions(preset: str, options: dict, players: int, n: int) -> list:
    """``n`` states of greedy play from seeded deals, each with two or more actions."""
    out = []
    seed = 0
    while len(out) < n:
        seed += 1
        rng = random.Random(seed)
        state = make_game(preset, players=players, **options).new_state(seed=seed)
        greedy = GreedyBot(rng)
        for _ in range(rng.randrange(5, 40 * players)):
            if state.is_over:
                break
            state.apply(greedy.choose(view(state, state.actor),
                                      [str(a) for a in state.legal_actions()]))
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def measure(preset: str, options: dict, players: int, n: int) -> dict:
    _, _, per_seat, most = LEVELS["normal"]
    count = min(per_seat * (players - 1), most)
    used = {"settled": 0.0, "certain": 0.0}
    changed = {"settled": 0, "other_seed": 0}
    gaps: list[float] = []
    for i, state in enumerate(positions(preset, options, players, n)):
        seat = state.actor
        v, legal = view(state, seat), [str(a) for a in state.legal_actions()]
        results = {}
        for name, settle, seed in (("certain", 0.0, i), ("settled", SearchConfig.settle, i),
                                   ("other_seed", 0.0, i + 7919)):
            config = SearchConfig(think=1e9, iterations=count, keep=False, settle=settle)
            results[name] = search(v, legal, config=config, seed=seed)
        whole = results["certain"]
        for name in ("settled", "certain"):
            used[name] += results[name].iterations / count
        for name in changed:
            if results[name].action != whole.action:
                changed[name] += 1
                if name == "settled":
                    gaps.append(whole.means[whole.action]
                                - whole.means.get(results[name].action, 0.0))
    return {"rules": preset, "options": options, "players": players, "count": count,
            "positions": n,
            "settled_share": round(used["settled"] / n, 3),
            "certain_share": round(used["certain"] / n, 3),
            "settled_over_certain": round(used["settled"] / used["certain"], 3),
            "answers_changed_by_settling": changed["settled"],
            "answers_changed_by_another_seed": changed["other_seed"],
            "mean_gap": round(sum(gaps) / n, 4), "largest_gap": round(max(gaps, default=0), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=POSITIONS,
                        help=f"positions a setting (default {POSITIONS})")
    args = parser.parse_args()
    start = time.perf_counter()
    settings = [measure(preset, options, players, args.positions)
                for preset, options, players in SETTINGS]
    print(json.dumps({"bench": "settle", "settle": SearchConfig.settle,
                      "settings": settings, "seconds": round(time.perf_counter() - start, 1),
                      "python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
