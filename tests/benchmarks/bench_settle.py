"""What stopping a counted search once its answer is settled saves, and what it changes.

On ``--positions`` positions of each setting (four-player jamaica, heads-up jamaica and
heads-up ``studiogiochi-2017 -o magic=true``; reached by greedy play from a seeded deal,
each with two or more legal actions), the normal level's count (12,000 at four players,
5,000 heads-up) is searched in this process three times:

- ``certain``: stopped only once no other action could come close in the iterations
  left (``SearchConfig(settle=0)``, every level): the answer of the
  whole count;
- ``settled``: the same seed, stopped once the answer is settled (``--settle``, default
  2.5 from ``SETTLE_FROM``, the rule measured in games and not the level's: it lost to
  the level before, docs/bots.md): the same search cut where the stop rule says, so where its
  answer differs, it is the rule that changed it;
- ``other_seed``: the whole count again, with another seed: how often the search's own
  noise changes the answer, to measure the rule's changes against.

``--quality N``: how well the spread search chooses, settled and not, against the level
before issue 47. On the first N positions of each heads-up setting a long search
(``--reference`` iterations, default 30,000, one worker, the whole count) values every
root action; then the level before (one worker, the normal count, the certain stop),
the spread search (two shares of three quarters of the count each, run one after the
other here, merged as the host merges them) with the certain stop, and the same with
the settled stop each choose, and each choice's *regret* is the best
action's value less the chosen one's (actions the long search visited 50 times or
more count as the best). Prints each one's mean regret, and its mean difference from
the level before with that difference's standard error (the same positions: paired).

``--merged N``: what settling a spread decision on its shares' merged statistics would
save (not built: docs/bots.md). On the first N positions of each heads-up setting, both
shares of a spread search run their whole counts while their root statistics are
recorded every ``STOP_CHECK`` iterations (``ismcts._decided`` is wrapped to record and
never stop); the stop is then replayed on the records share by share (the level now:
the decision waits for the later share) and on the shares' sums, at ``settle`` 2.5 and
2; prints each one's mean iterations on the longer share and mean regret against a
``--reference`` search.

Prints one JSON line: for each setting the positions, the mean share of the count each
stop searched (``settled_share``, ``certain_share``) and their ratio
(``settled_over_certain``, the reference being the certain stop in the same run), how
many answers the settled stop changed and how many another seed changed, and the mean
and largest gap in mean reward between the whole count's answer and the changed one (as
the whole count's search values them).

    python3 tests/benchmarks/bench_settle.py --positions 80
    python3 tests/benchmarks/bench_settle.py --positions 0 --quality 60
    python3 tests/benchmarks/bench_settle.py --positions 0 --merged 40
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cartagena_net.bots import ismcts
from cartagena_net.bots.ismcts import SETTLE_FROM, SearchConfig, merge, search, spread
from cartagena_net.bots.kinds import LEVELS, GreedyBot
from cartagena_net.engine import make_game, view

POSITIONS = int(os.environ.get("BENCH_SETTLE_POSITIONS", "40"))
SETTLED = 2.5  # the settled stop measured in games (not the levels': docs/bots.md)
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


def counted(iterations: int, settle: float) -> SearchConfig:
    """A search of ``iterations`` without the clock, keeping no tree, stopped early by
    ``settle`` (0: only once its answer cannot change)."""
    return SearchConfig(think=1e9, iterations=iterations, keep=False, settle=settle)


def measure(preset: str, options: dict, players: int, n: int, settle: float) -> dict:
    _, _, per_seat, most = LEVELS["normal"]
    count = min(per_seat * (players - 1), most)
    used = {"settled": 0.0, "certain": 0.0}
    changed = {"settled": 0, "other_seed": 0}
    gaps: list[float] = []
    for i, state in enumerate(positions(preset, options, players, n)):
        seat = state.actor
        v, legal = view(state, seat), [str(a) for a in state.legal_actions()]
        results = {}
        for name, rule, seed in (("certain", 0.0, i), ("settled", settle, i),
                                 ("other_seed", 0.0, i + 7919)):
            results[name] = search(v, legal, config=counted(count, rule), seed=seed)
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


def judged(n: int, reference: int):
    """For each heads-up setting, ``(preset, options, players, its positions)``: the
    first ``n`` positions as ``(i, view, legal, long search, best value)``, each root
    action valued by a ``reference``-iteration search (actions it visited 50 times or
    more count as the best)."""
    for preset, options, players in SETTINGS:
        if players != 2:
            continue
        judged_positions = []
        for i, state in enumerate(positions(preset, options, players, n)):
            v, legal = view(state, state.actor), [str(a) for a in state.legal_actions()]
            ref = search(v, legal, None, counted(reference, 0.0), 10**6 + i)
            best = max(m for a, m in ref.means.items() if ref.visits.get(a, 0) >= 50)
            judged_positions.append((i, v, legal, ref, best))
        yield preset, options, players, judged_positions


def quality(n: int, reference: int, settle: float) -> list[dict]:
    """Mean regret of the level before, the spread search and the spread search settled,
    against a ``reference``-iteration search, on ``n`` heads-up positions a setting."""
    _, _, count, _ = LEVELS["normal"]

    def spread_search(v: dict, legal: list[str], settle: float, seed: int):
        args = (v, legal, None, counted(count, settle), seed, None)
        return merge(legal, [search(*share) for share in spread(args, 2)])

    choosers = {
        "before": lambda v, legal, seed: search(v, legal, None, counted(count, 0.0), seed),
        "spread": lambda v, legal, seed: spread_search(v, legal, 0.0, seed),
        "spread_settled": lambda v, legal, seed: spread_search(
            v, legal, settle, seed),
    }
    out = []
    for preset, options, players, judged_positions in judged(n, reference):
        regrets: dict[str, list[float]] = {name: [] for name in choosers}
        iterations: dict[str, list[int]] = {name: [] for name in choosers}
        for i, v, legal, ref, best in judged_positions:
            for name, choose in choosers.items():
                result = choose(v, legal, 31 * i + 7)
                regrets[name].append(best - ref.means.get(result.action, 0.0))
                iterations[name].append(result.iterations)
        entry: dict = {"rules": preset, "options": options, "players": players,
                       "positions": n, "reference_iterations": reference}
        for name in choosers:
            diff = [x - y for x, y in zip(regrets[name], regrets["before"])]
            entry[name] = {"mean_regret": round(statistics.mean(regrets[name]), 4),
                           "mean_iterations": round(statistics.mean(iterations[name])),
                           "minus_before": round(statistics.mean(diff), 4),
                           "minus_before_se": round(statistics.stdev(diff) / n**0.5, 4)}
        out.append(entry)
    return out


def merged(n: int, reference: int, settle: float) -> list[dict]:
    """The settled stop replayed on recorded root statistics of a spread search's two
    shares: share by share (the decision waits for the later) and on their sums."""
    _, _, count, _ = LEVELS["normal"]
    record: list[tuple[int, dict]] = []
    decided = ismcts._decided

    def recorded(roots, remaining, settle=0.0):  # every STOP_CHECK: never stops
        stats = {}
        for root in roots:
            for ch in root.children.values():
                stats[str(ch.action)] = (ch.visits, ch.wins)
        record.append((remaining, stats))
        return False

    def added(*snaps: dict) -> dict:
        out: dict = {}
        for snap in snaps:
            for a, (v, w) in snap.items():
                ov, ow = out.get(a, (0, 0.0))
                out[a] = (ov + v, ow + w)
        return out

    def stops(snap: dict, remaining: int, settle: float) -> bool:
        root = ismcts.Node(-1)
        for i, (v, _) in enumerate(snap.values()):
            root.children[i] = ismcts.Node(0)
            root.children[i].visits = v
        return decided([root], remaining, settle)

    rules = {"share_by_share": settle, "merged": settle, "merged_at_2": 2.0}
    out = []
    for preset, options, players, judged_positions in judged(n, reference):
        regrets: dict[str, list[float]] = {name: [] for name in rules}
        waits: dict[str, list[int]] = {name: [] for name in rules}
        for i, v, legal, ref, best in judged_positions:
            shares = spread((v, legal, None, counted(count, 0.0), 31 * i + 7, None), 2)
            share = shares[0][3]["iterations"]
            records = []
            ismcts._decided = recorded
            try:
                for args in shares:
                    record.clear()
                    r = search(*args)
                    record.append((0, {a: (n, r.means.get(a, 0.0) * n)
                                       for a, n in r.visits.items()}))
                    records.append(list(record))
            finally:
                ismcts._decided = decided
            last = min(len(r) for r in records) - 1
            for name, rule in rules.items():
                if name == "share_by_share":
                    at = [next(j for j, (rem, snap) in enumerate(r)
                               if j == len(r) - 1 or stops(snap, rem, rule))
                          for r in records]
                    snap = added(*(r[j][1] for r, j in zip(records, at)))
                    wait = max(share - r[j][0] for r, j in zip(records, at))
                else:
                    j = next(j for j in range(last + 1) if j == last or stops(
                        added(records[0][j][1], records[1][j][1]),
                        records[0][j][0] + records[1][j][0], rule))
                    snap = added(records[0][j][1], records[1][j][1])
                    wait = share - records[0][j][0]
                visits = {a: v for a, (v, _) in snap.items()}
                means = {a: w / v for a, (v, w) in snap.items() if v}
                regrets[name].append(best - ref.means.get(ismcts.answer(legal, visits, means),
                                                          0.0))
                waits[name].append(wait)
        entry: dict = {"rules": preset, "options": options, "players": players,
                       "positions": n, "share_count": share}
        for name, rule in rules.items():
            diff = [x - y for x, y in zip(regrets[name], regrets["share_by_share"])]
            entry[name] = {"settle": rule,
                           "mean_iterations_longer_share": round(statistics.mean(waits[name])),
                           "mean_regret": round(statistics.mean(regrets[name]), 4),
                           "minus_share_by_share": round(statistics.mean(diff), 4)}
        out.append(entry)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=POSITIONS,
                        help=f"positions a setting (default {POSITIONS})")
    parser.add_argument("--quality", type=int, default=0,
                        help="heads-up positions a setting to measure the choices' regret "
                             "on, against a long search (default 0: not measured)")
    parser.add_argument("--settle", type=float, default=SETTLED,
                        help=f"the settled stop's settle (default {SETTLED}, the rule "
                             "measured in games)")
    parser.add_argument("--merged", type=int, default=0,
                        help="heads-up positions a setting to replay the settled stop on, "
                             "share by share and on the shares' sums (default 0: not measured)")
    parser.add_argument("--reference", type=int, default=30_000,
                        help="--quality, --merged: the long search's iterations (default 30000)")
    args = parser.parse_args()
    start = time.perf_counter()
    settings = [measure(preset, options, players, args.positions, args.settle)
                for preset, options, players in SETTINGS] if args.positions > 0 else []
    report = {"bench": "settle", "settle": args.settle, "settle_from": SETTLE_FROM,
              "settings": settings}
    if args.quality > 0:
        report["quality"] = quality(args.quality, args.reference, args.settle)
    if args.merged > 0:
        report["merged"] = merged(args.merged, args.reference, args.settle)
    report.update(seconds=round(time.perf_counter() - start, 1),
                  python=sys.version.split()[0])
    print(json.dumps(report))


if __name__ == "__main__":
    main()
