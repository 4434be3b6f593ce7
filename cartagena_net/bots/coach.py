"""Learning at the table: each seat's chance of winning as the game goes (for the room),
and a hint for a seated player who asks (the bot's move, with a reason a person can
follow).

Both read one viewer's view only (:func:`cartagena_net.engine.view`), never the game's
state, and the cards that viewer saw enter hidden hands (``known``, from
:func:`cartagena_net.engine.determinize.track_known` over the events it watched):

- :func:`live_chances` (the room's bar): the review's estimator
  (:mod:`cartagena_net.bots.review`) on a **spectator's** view: ``playouts`` games played
  to their end from determinizations of what a spectator sees, one win spread as a prior.
- :func:`hint`: the ``ismcts`` search from **the asking seat's** view, configured as the
  table's bots are (:meth:`cartagena_net.bots.kinds.IsmctsBot.job`), and a reason: data
  (``kind`` and fields, for a client to say in its own language) and an English line.

Plain functions of picklable arguments: the host runs them in its bot workers (chances at
the lowest priority, only when a worker is idle). Pure Python: no Twisted, no msgpack.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cartagena_net.engine import RandomChance
from cartagena_net.engine.determinize import Determinizer
from cartagena_net.engine.reasons import hint_text

LIVE_PLAYOUTS = 96  # as many as the review's: the same estimator, the same calibration
EPSILON = 0.15  # the playouts' share of random moves, as in the search


def view_chances(seen: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None,
                 playouts: int, rng: random.Random,
                 deadline: float | None = None) -> tuple[list[float], int]:
    """Each seat's chance of winning from ``seen`` (a view, a spectator's for the room),
    and how many playouts it took (fewer than ``playouts`` only when ``deadline``, a
    ``time.monotonic()`` instant, came first). Reads nothing but the view and ``known``."""
    from cartagena_net.bots.ismcts import SearchConfig, playout

    n = len(seen["seats"])
    outcome = seen.get("outcome")
    if outcome is not None:
        return [1.0 if s == outcome["winner"] else 0.0 for s in range(n)], 0
    det = Determinizer(seen, known)
    cfg = SearchConfig(rounds=-1, playout="greedy", epsilon=EPSILON)
    wins = [1.0 / n] * n  # the prior: one win, spread evenly
    done = 0
    for _ in range(playouts):
        if deadline is not None and done and time.monotonic() >= deadline:
            break
        s = det.sample(rng)
        playout(s, rng, cfg)
        if s.outcome is not None:
            wins[s.outcome.winner] += 1
        done += 1
    total = sum(wins)
    return [round(w / total, 4) for w in wins], done


def live_chances(seen: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None,
                 playouts: int = LIVE_PLAYOUTS, seed: int = 0,
                 budget: float | None = None) -> dict[str, Any]:
    """The room's job: ``{"chances": [...], "playouts": n, "cpu": seconds}`` from a
    spectator's view ``seen``; at most ``budget`` seconds (then fewer playouts)."""
    if seen.get("viewer") != "spectator":
        raise ValueError("the room's chances are made from a spectator's view only")
    began = time.process_time()
    deadline = None if budget is None else time.monotonic() + budget
    chances, done = view_chances(seen, known, playouts, random.Random(seed), deadline)
    return {"chances": chances, "playouts": done,
            "cpu": round(time.process_time() - began, 4)}


# -- hints -------------------------------------------------------------------------


def hint_job(seen: Mapping[str, Any], legal: Sequence[str],
             known: Mapping[int, Sequence[str]] | None, level: str | None = None,
             think: float | None = None, seed: int = 0, deadline: bool = True,
             **search: Any) -> tuple[Any, tuple]:
    """``(hint, arguments)``: the job that answers a hint request, the search configured
    exactly as the table's ``ismcts`` bots are (``level`` or ``think``; ``search`` passes
    further :class:`~cartagena_net.bots.ismcts.SearchConfig` fields, e.g. for tests).
    ``deadline``: the answer is due ``think`` seconds from now, however long it waits."""
    from cartagena_net.bots.kinds import IsmctsBot

    search.setdefault("keep", False)  # a hint's tree serves no next search
    bot = IsmctsBot(random.Random(seed), think=think, level=level, **search)
    me = seen.get("viewer")
    bot.seat = me if isinstance(me, int) else None
    bot.known = {int(s): list(c) for s, c in (known or {}).items()}
    quiet = dict(seen, events=[])  # what it watched is in ``known`` already
    _, args = bot.job(quiet, list(legal), deadline=deadline)
    _, legal_, known_, config, seed_, _ = args
    return hint, (dict(seen), legal_, known_, config, seed_)


def hint(seen: Mapping[str, Any], legal: Sequence[str],
         known: Mapping[int, Sequence[str]] | None, config: Mapping[str, Any],
         seed: int) -> dict[str, Any]:
    """The bot's move for the seat whose view ``seen`` is, and why:
    ``{"action", "why": {"kind", ...fields}, "reason": English line}``."""
    from cartagena_net.bots.ismcts import search

    legal = [a for a in legal if a != "undo"]
    if not legal:
        raise ValueError("no legal action to hint")
    result = search(seen, legal, known, dict(config), seed)
    action = result.action
    why = reason(seen, known, action, legal, result.means)
    return {"action": action, "why": why, "reason": say(why, action)}


def _best_card(state: Any, seat: int) -> tuple[str | None, int]:
    """The card in ``seat``'s hand that moves a pirate furthest now, and how far."""
    from cartagena_net.bots.ismcts import best_advances

    counts = state.symbol_counts(seat)
    held = [k for k, n in enumerate(counts) if n]
    if not held:
        return None, 0
    best = best_advances(state, seat, held)
    k = max(held, key=lambda k: (best[k], -k))
    return state.game.symbols[k], best[k]


def reason(seen: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None,
           action: str, legal: Sequence[str],
           means: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Why ``action`` is good, as data: the move played on a position built from the
    seat's view (what a pirate's move does is public; a draw's cards are not read).
    ``gain``: the search's rating of the move over the next best, in points of 100."""
    me = seen["viewer"]
    out: dict[str, Any] = {}
    if means and len(legal) > 1 and action in means:
        others = [m for a, m in means.items() if a != action]
        if others:
            out["gain"] = max(0, round(100 * (means[action] - max(others))))
            second = max((a for a in means if a != action), key=lambda a: means[a])
            out["next"] = second
    if len(legal) == 1:
        return {"kind": "only", **out}
    det = Determinizer(seen, known)
    before = det.base
    after = before.copy(chance=RandomChance(random.Random(0)))
    words = action.split()
    kind = words[0]
    try:
        after.apply(action, seat=me)
    except Exception:  # noqa: BLE001 - a reason is a courtesy: the move stands regardless
        return {"kind": "gain", **out}
    was, now = Counter(before.pirates[me]), Counter(after.pirates[me])
    moved_from = sorted((was - now).elements())  # one entry a pirate that left a space
    moved_to = sorted((now - was).elements())
    drawn = max(0, after.hand_size(me) - before.hand_size(me) + (1 if kind == "advance" else 0))
    boat = before.board.boat
    if kind == "sail":
        return {"kind": "sail", "aboard": after.pirates[me].count(before.board.sloop)
                if before.board.sloop is not None else 0, **out}
    if kind == "morgan":
        return {"kind": "push", "seat": int(words[1]), "cards": drawn, **out}
    if moved_from and moved_to:
        frm, to = min(moved_from), max(moved_to)
        if to > frm:
            base = {"kind": "boat" if to >= boat else "jump", "spaces": to - frm,
                    "pirates": len(moved_from), **out}
            if to >= boat:
                base["place"] = before.game.goal_name
            if kind == "power":
                base["power"] = words[1].removesuffix("*")
            return base
        return {"kind": "retreat", "spaces": frm - to, "cards": drawn, **out}
    if kind in ("end", "discard"):
        card, spaces = _best_card(after, me)
        if card is not None:
            return {"kind": "keep", "card": card, "spaces": spaces, **out}
        return {"kind": "gain", **out}
    if kind == "power":
        return {"kind": "power", "power": words[1].removesuffix("*"), **out}
    if kind in ("take", "keep", "give", "stack") and len(words) >= 2:
        return {"kind": "choose", "choice": kind, "card": words[-1], **out}
    if kind == "draw":
        return {"kind": "draw", **out}
    return {"kind": "gain", **out}


def say(why: Mapping[str, Any], action: str = "") -> str:
    """The English line for a reason's data (each client says it in its own words from
    the same templates: :func:`cartagena_net.engine.reasons.hint_text`)."""
    return hint_text(why) or "the bot rates it best"
