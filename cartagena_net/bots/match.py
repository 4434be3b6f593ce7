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

MAX_ACTIONS = 20_000  # a game this long is stuck (e.g. every card hoarded): stopped


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


def play_game(game: Game, order: Sequence[str], seed: int, think: float | None = None,
              level: str | None = None, max_actions: int = MAX_ACTIONS, workers: int = 1,
              deterministic: bool = False, bots: Sequence[Any] | None = None,
              ) -> dict[str, Any]:
    """One game between bots of ``order`` (one kind a seat), all randomness from ``seed``;
    searching bots decide in ``workers`` processes, by count alone if ``deterministic``
    (then the same seed plays the same game). ``bots``: ready bots instead, one a seat
    (``order`` then names them).

    Returns the winning seat, the turns and actions played and, for bots that think,
    their decision times (seconds), search iterations, and searches that failed (each
    then decided by the bot's fallback), with their reasons."""
    from cartagena_net.bots.kinds import make_bot

    n = game.players
    rng = random.Random(seed)
    only_random = all(k == "random" for k in order)
    seeds = [rng.getrandbits(64) for _ in order]  # drawn alike with ready bots
    if bots is None:
        bots = [make_bot(k, random.Random(s), think=think, level=level, workers=workers,
                         deterministic=deterministic) for k, s in zip(order, seeds)]
    bots = list(bots)
    history: list[str] = []
    state = game.new_state(seed=rng.getrandbits(64), events=not only_random)
    seen = [0] * n
    times: dict[str, list[float]] = {}
    iterations: dict[str, list[int]] = {}
    turns, actions = 1, 0
    while not state.is_over and actions < max_actions:
        legal = state.legal_actions()
        seat, turn = state.actor, state.turn
        if only_random:
            choice = rng.choice(legal)
            state.apply(choice)
            history.append(str(choice))
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
            history.append(str(choice))
            state.forget_events(min(seen))
        actions += 1
        turns += state.turn != turn
    unfinished = not state.is_over  # stopped at the cap: no winner, counted apart
    winner = None if unfinished else state.outcome.winner
    failures: dict[str, int] = {}
    errors: list[str] = []
    for kind, bot in zip(order, bots, strict=True):
        n = getattr(bot, "failures", 0)
        if n:
            failures[kind] = failures.get(kind, 0) + n
            errors.append(str(bot.last_error))
    return {"winner": winner, "order": list(order), "turns": turns, "actions": actions,
            "times": times, "iterations": iterations, "unfinished": unfinished,
            "search_failures": failures, "search_errors": errors, "history": history}


def summarize(game: Game, kinds: Sequence[str], results: Sequence[dict[str, Any]],
              seconds: float) -> dict[str, Any]:
    """Seat wins, each kind's win rate with its 95% CI, and decision times."""
    n = game.players
    wins = [0] * n
    kind_wins = dict.fromkeys(kinds, 0)
    kind_games = dict.fromkeys(kinds, 0)
    times: dict[str, list[float]] = {}
    iterations: dict[str, list[int]] = {}
    turns = actions = unfinished = 0
    failures = dict.fromkeys(kinds, 0)
    errors: list[str] = []
    for r in results:
        unfinished += bool(r.get("unfinished"))
        for k, n in r.get("search_failures", {}).items():
            failures[k] += n
        errors += [e for e in r.get("search_errors", ()) if e not in errors][:5 - len(errors)]
        order = r["order"]
        for k in set(order):
            kind_games[k] += 1
        turns += r["turns"]
        actions += r["actions"]
        for k, ts in r["times"].items():
            times.setdefault(k, []).extend(ts)
            iterations.setdefault(k, []).extend(r["iterations"][k])
        if r["winner"] is None:
            continue
        wins[r["winner"]] += 1
        kind_wins[order[r["winner"]]] += 1
    games = max(1, len(results))
    per_kind = {}
    for k in kind_wins:
        lo, hi = wilson(kind_wins[k], kind_games[k])
        entry: dict[str, Any] = {
            "wins": kind_wins[k], "games": kind_games[k],
            "win_rate": round(kind_wins[k] / kind_games[k], 4) if kind_games[k] else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
        }
        if times.get(k):
            ts, its = times[k], iterations[k]
            entry["decisions"] = len(ts)
            entry["decision_mean_s"] = round(sum(ts) / len(ts), 4)
            entry["decision_p99_s"] = round(percentile(ts, 0.99), 4)
            entry["decision_max_s"] = round(max(ts), 4)
            entry["iterations_mean"] = round(sum(its) / len(its), 1)
            entry["iterations_per_s"] = round(sum(its) / sum(ts)) if sum(ts) else 0
        if failures[k]:
            entry["search_failures"] = failures[k]
        per_kind[k] = entry
    return {
        "rules": game.preset, "players": n, "bots": list(kinds), "games": len(results),
        "mean_turns": round(turns / games, 1), "mean_actions": round(actions / games, 1),
        "wins": wins, "kinds": per_kind, "unfinished": unfinished,
        "search_failures": sum(failures.values()), "search_errors": errors,
        "seconds": round(seconds, 1),
        "games_per_s": round(len(results) / seconds, 2) if seconds else 0.0,
    }


def seat_order(kinds: Sequence[str], g: int, rotate: bool) -> list[str]:
    """The kinds seat by seat in game ``g`` (turned by ``g`` seats with ``rotate``)."""
    n = len(kinds)
    shift = g % n if rotate else 0
    return [kinds[(i - shift) % n] for i in range(n)]


def play_match(
    game: Game,
    kinds: Sequence[str],
    games: int,
    rng: random.Random,
    think: float | None = None,
    rotate: bool = False,
    level: str | None = None,
    max_actions: int = MAX_ACTIONS,
    workers: int = 1,
    deterministic: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games in this process; the :func:`summarize` of them."""
    start = time.perf_counter()
    results = [play_game(game, seat_order(kinds, g, rotate), rng.getrandbits(64), think,
                         level, max_actions, workers, deterministic) for g in range(games)]
    out = summarize(game, kinds, results, time.perf_counter() - start)
    out.update(rotate=rotate, think=think, level=level)
    return out
