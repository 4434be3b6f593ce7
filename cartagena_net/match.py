"""Bot matches in-process: play games between bot kinds and measure them.

Used by ``cartagena selfplay`` and ``tests/benchmarks/bench_bots.py``. Each bot gets
only its seat's view (with the events since its last view) and the legal action strings.
With ``rotate``, seat assignments turn each game, so every kind plays every seat.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from cartagena_net.engine import Game, view


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    den = 1 + z * z / games
    mid = (p + z * z / (2 * games)) / den
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def play_match(
    game: Game,
    kinds: Sequence[str],
    games: int,
    rng: random.Random,
    think: float | None = None,
    rotate: bool = False,
    progress: Any = None,
) -> dict[str, Any]:
    """Play ``games`` games; return seat wins, each kind's win rate (95% CI) and the
    decision times of bots that think (mean and p99, seconds)."""
    from cartagena_net.bots import make_bot

    n = game.players
    wins = [0] * n
    kind_wins = dict.fromkeys(kinds, 0)
    kind_games = dict.fromkeys(kinds, 0)
    times: dict[str, list[float]] = {}
    iterations: dict[str, list[int]] = {}
    turns = actions = 0
    start = time.perf_counter()
    for g in range(games):
        shift = g % n if rotate else 0
        order = [kinds[(i - shift) % n] for i in range(n)]
        only_random = all(k == "random" for k in order)
        bots = [make_bot(k, random.Random(rng.getrandbits(64)), think=think) for k in order]
        state = game.new_state(seed=rng.getrandbits(64), events=not only_random)
        seen = [0] * n
        turns += 1
        while not state.is_over:
            legal = state.legal_actions()
            seat, turn = state.actor, state.turn
            if only_random:
                state.apply(rng.choice(legal))
            else:
                v = view(state, seat, since=seen[seat])
                seen[seat] = state.event_count
                t0 = time.perf_counter()
                choice = bots[seat].choose(v, [str(a) for a in legal])
                last = getattr(bots[seat], "last", None)
                if last is not None and len(legal) > 1:
                    times.setdefault(order[seat], []).append(time.perf_counter() - t0)
                    iterations.setdefault(order[seat], []).append(last.iterations)
                state.apply(choice, seat=seat)
                state.forget_events(min(seen))
            actions += 1
            turns += state.turn != turn
        winner = state.outcome.winner
        wins[winner] += 1
        for k in set(order):
            kind_games[k] += 1
        kind_wins[order[winner]] += 1
        if progress is not None:
            progress(g + 1, order[winner])
    elapsed = time.perf_counter() - start
    per_kind = {}
    for k in kind_wins:
        lo, hi = wilson(kind_wins[k], kind_games[k])
        entry: dict[str, Any] = {
            "wins": kind_wins[k], "games": kind_games[k],
            "win_rate": round(kind_wins[k] / kind_games[k], 4) if kind_games[k] else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
        }
        if k in times:
            entry["decisions"] = len(times[k])
            entry["decision_mean_s"] = round(sum(times[k]) / len(times[k]), 4)
            entry["decision_p99_s"] = round(percentile(times[k], 0.99), 4)
            entry["decision_max_s"] = round(max(times[k]), 4)
            entry["iterations_mean"] = round(sum(iterations[k]) / len(iterations[k]), 1)
            total_t = sum(times[k])
            entry["iterations_per_s"] = round(sum(iterations[k]) / total_t) if total_t else 0
        per_kind[k] = entry
    return {
        "rules": game.preset, "players": n, "bots": list(kinds), "games": games,
        "rotate": rotate, "think": think,
        "mean_turns": round(turns / games, 1), "mean_actions": round(actions / games, 1),
        "wins": wins, "kinds": per_kind, "seconds": round(elapsed, 1),
        "games_per_s": round(games / elapsed, 1),
    }
