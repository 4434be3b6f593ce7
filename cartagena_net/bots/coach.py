"""Learning at the table: each seat's chance of winning as the game goes (for the room),
and a hint for a seated player who asks (the bot's move, with a reason a person can
follow).

Both read one viewer's view only (:func:`cartagena_net.engine.view`), never the game's
state, and the cards that viewer saw enter hidden hands (``known``, from
:func:`cartagena_net.engine.determinize.track_known` over the events it watched):

- :func:`live_chances` (the room's bar): on a **spectator's** view, the value model
  (:mod:`cartagena_net.bots.value`) where one serves the rules; else the review's
  playout estimator (:mod:`cartagena_net.bots.review`): ``playouts`` games played to
  their end from determinizations of what a spectator sees, one win spread as a prior.
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
                 budget: float | None = None, model: bool = True,
                 kinds: Sequence[str] | None = None) -> dict[str, Any]:
    """The room's job: ``{"chances": [...], "playouts": n, "cpu": seconds}`` from a
    spectator's view ``seen``; at most ``budget`` seconds (then fewer playouts). Where a
    value model serves the rules (and ``model``), its chances (``"model"``: its name;
    no playouts), knowing who plays each seat (``kinds``: the lobby's, as
    :func:`cartagena_net.bots.value.seat_kind` reads it; None: nobody said)."""
    if seen.get("viewer") != "spectator":
        raise ValueError("the room's chances are made from a spectator's view only")
    began = time.process_time()
    if model:
        from cartagena_net.bots import value

        learnt = value.model_for(seen)
        if learnt is not None:
            got = value.chances(seen, known, learnt, kinds) or []
            return {"chances": [round(p, 4) for p in got], "playouts": 0,
                    "model": learnt.name, "cpu": round(time.process_time() - began, 4)}
    deadline = None if budget is None else time.monotonic() + budget
    chances, done = view_chances(seen, known, playouts, random.Random(seed), deadline)
    return {"chances": chances, "playouts": done,
            "cpu": round(time.process_time() - began, 4)}


# -- hints -------------------------------------------------------------------------


def hint_job(seen: Mapping[str, Any], legal: Sequence[str],
             known: Mapping[int, Sequence[str]] | None, level: str | None = None,
             think: float | None = None, seed: int = 0, deadline: bool = True,
             kinds: Sequence[str] | None = None, **search: Any) -> tuple[Any, tuple]:
    """``(hint, arguments)``: the job that answers a hint request, the search configured
    exactly as the table's ``ismcts`` bots are (``level`` or ``think``; ``search`` passes
    further :class:`~cartagena_net.bots.ismcts.SearchConfig` fields, e.g. for tests).
    ``deadline``: the answer is due ``think`` seconds from now, however long it waits.
    ``kinds``: who plays each seat, for the chance the hint quotes (:func:`chance_after`)."""
    from cartagena_net.bots.kinds import IsmctsBot

    search.setdefault("keep", False)  # a hint's tree serves no next search
    bot = IsmctsBot(random.Random(seed), think=think, level=level, **search)
    me = seen.get("viewer")
    bot.seat = me if isinstance(me, int) else None
    bot.known = {int(s): list(c) for s, c in (known or {}).items()}
    quiet = dict(seen, events=[])  # what it watched is in ``known`` already
    _, args = bot.job(quiet, list(legal), deadline=deadline)
    _, legal_, known_, config, seed_, _ = args
    return hint, (dict(seen), legal_, known_, config, seed_,
                  None if kinds is None else list(kinds))


def hint(seen: Mapping[str, Any], legal: Sequence[str],
         known: Mapping[int, Sequence[str]] | None, config: Mapping[str, Any],
         seed: int, kinds: Sequence[str] | None = None) -> dict[str, Any]:
    """The bot's move for the seat whose view ``seen`` is, and why:
    ``{"action", "why": {"kind", ...fields}, "reason": English line}`` (``kinds``: who
    plays each seat, for the chances it quotes)."""
    from cartagena_net.bots.ismcts import search

    legal = [a for a in legal if a != "undo"]
    if not legal:
        raise ValueError("no legal action to hint")
    result = search(seen, legal, known, dict(config), seed)
    action = result.action
    why = reason(seen, known, action, legal)
    why.update(words(seen, known, action, kinds=kinds))
    return {"action": action, "why": why, "reason": say(why, action)}


# -- the move in the screen's words, and what it does to the seat's chance ------------



def _place(seen: Mapping[str, Any], pos: int) -> int | str:
    """A place as the screen names it: a space's number, or the start's or goal's name."""
    if pos <= 0:
        return str(seen.get("start_name") or "start")
    if pos >= int(seen["boat"]):
        return str(seen.get("goal_name") or "boat")
    return pos


def _number(seen: Mapping[str, Any], seat: int, pos: int) -> int | None:
    """The number the screens show for ``seat``'s pirate that moves from ``pos`` (the
    lowest-numbered there), None if the view carries no numbers."""
    numbered = seen["seats"][seat].get("numbered")
    if isinstance(numbered, list) and pos in numbered:
        return numbered.index(pos) + 1
    return None


def chance_after(seen: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None,
                 action: str, kinds: Sequence[str] | None = None
                 ) -> tuple[float, float] | None:
    """The seat's chance of winning now and after ``action``, by the value model from
    the seat's own view (:func:`cartagena_net.bots.value.action_values`) and who plays
    each seat (``kinds``); None where no model serves the rules."""
    from cartagena_net.bots import value

    model = value.model_for(seen)
    me = seen.get("viewer")
    if model is None or not isinstance(me, int):
        return None
    before = model.chances(value.features(seen, known, kinds))[me]
    after = value.action_values(seen, known, [action], model, kinds=kinds).get(action)
    return None if after is None else (before, after)


def _said(key: str, **args: Any) -> dict[str, Any]:
    return {"why": key, "args": {k: v for k, v in args.items() if v is not None}}


def words(seen: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None,
          action: str, chances: bool = True, kinds: Sequence[str] | None = None
          ) -> dict[str, Any]:
    """The move ``action`` as the screens say it, as data: ``move`` (a reason's key and
    its fields: the card, the pirate's number as the screens show it, from where to
    where, what it draws), ``also`` (why, when the move alone does not say it) and the
    seat's chance of winning ``before`` and ``after`` it, in percent, where a value model
    serves the rules (``kinds``: who plays each seat). Each client words them
    (``hint_text``)."""
    me = seen["viewer"]
    out: dict[str, Any] = {}
    w = action.split()
    kind = w[0] if w else ""
    det = Determinizer(seen, known)
    before = det.base
    after = before.copy(chance=RandomChance(random.Random(0)))
    moved: tuple[int, int] | None = None
    drawn = 0
    try:
        after.apply(action, seat=me)
        was, now = Counter(before.pirates[me]), Counter(after.pirates[me])
        left, came = sorted((was - now).elements()), sorted((now - was).elements())
        if left and came:
            moved = (min(left), max(came))
        drawn = max(0, after.hand_size(me) - before.hand_size(me))
    except Exception:  # noqa: BLE001 - the words are a courtesy: the move stands regardless
        after = None
    colors = [s.get("color") for s in seen["seats"]]
    card = w[2].removesuffix("*") if kind == "advance" and len(w) > 2 else None
    if kind == "advance" and moved is not None:
        frm, to = moved
        key = "hint-advance-goal" if to >= int(seen["boat"]) else "hint-advance"
        out["move"] = _said(key, card=card, pirate=_number(seen, me, frm),
                            **{"from": _place(seen, frm), "to": _place(seen, to)})
    elif kind == "retreat" and moved is not None:
        frm, to = moved[0], min(Counter(after.pirates[me]) - Counter(before.pirates[me]))
        out["move"] = _said("hint-back", pirate=_number(seen, me, frm), cards=drawn,
                            **{"from": _place(seen, frm), "to": _place(seen, to)})
    elif kind == "morgan" and len(w) >= 3 and after is not None:
        seat, frm = int(w[1]), int(w[2])
        was, now = Counter(before.pirates[seat]), Counter(after.pirates[seat])
        came = sorted((now - was).elements())
        if came:
            out["move"] = _said("hint-morgan", color=colors[seat], cards=drawn,
                                **{"from": _place(seen, frm), "to": _place(seen, came[-1])})
    elif kind == "power" and len(w) >= 2:
        power = w[1].removesuffix("*")
        if power == "gun" and len(w) >= 3:
            out["move"] = _said("hint-gun", power=power, color=colors[int(w[2])])
        elif power in ("rum", "lantern"):
            out["move"] = _said(f"hint-{power}", power=power)
        elif power == "chest" and len(w) >= 3:
            out["move"] = _said("hint-chest", power=power, pirate=_number(seen, me, int(w[2])),
                                **{"from": _place(seen, int(w[2]))})
        elif power == "parrot" and moved is not None and len(w) >= 5:
            out["move"] = _said("hint-parrot", card=w[4].removesuffix("*"),
                                pirate=_number(seen, me, moved[0]),
                                **{"from": _place(seen, moved[0]), "to": _place(seen, moved[1])})
        elif power == "hook" and moved is not None and len(w) >= 3:
            out["move"] = _said("hint-advance-two", power=power, card=w[2].removesuffix("*"),
                                **{"from": _place(seen, moved[0]), "to": _place(seen, moved[1])})
    elif kind == "end":
        out["move"] = _said("hint-end")
    elif kind == "draw":
        out["move"] = _said("hint-draw-card")
    elif kind == "discard" and len(w) >= 2:
        out["move"] = _said("hint-discard", card=w[1].removesuffix("*"))
    elif kind == "sail":
        out["move"] = _said("hint-sail-now")
    elif kind in ("take", "keep", "stack") and len(w) >= 2:
        card = w[-1].removesuffix("*")
        if kind == "take":
            power = (seen.get("magic") or {}).get("power") or {}
            target = power.get("target")
            out["move"] = _said("hint-take", card=card, color=colors[target]
                                if isinstance(target, int) else None)
        else:
            out["move"] = _said("hint-keep-card" if kind == "keep" else "hint-stack", card=card)
        if kind in ("take", "keep") and after is not None:
            spaces = _advance_of(after, me, card)
            if spaces:
                out["also"] = _said("hint-card-moves", card=card, spaces=spaces)
    elif kind == "give" and len(w) >= 3:
        seat, card = int(w[1]), w[2].removesuffix("*")
        out["move"] = _said("hint-give", card=card, color=colors[seat])
        spaces = _advance_of(before, seat, card)
        out["also"] = _said("hint-card-helps", color=colors[seat], spaces=spaces)
    if kind in ("end", "discard") and "also" not in out and after is not None:
        best, spaces = _best_card(after, me)
        if best is not None and spaces:
            out["also"] = _said("hint-keep", card=best, spaces=spaces)
    try:
        change = chance_after(seen, known, action, kinds) if chances else None
    except Exception:  # noqa: BLE001 - the chance is a courtesy too
        change = None
    if change is not None:
        out["before"], out["after"] = (round(100 * change[0]), round(100 * change[1]))
    return out


def _advance_of(state: Any, seat: int, card: str) -> int:
    """How far one ``card`` moves ``seat``'s pirates at most now (0 for no such symbol)."""
    from cartagena_net.bots.ismcts import best_advances

    index = state.game.card_index.get(card)
    if index is None:
        return 0
    k = index % len(state.game.symbols)
    return best_advances(state, seat, [k])[k]


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
    (``means`` is accepted and ignored: a search's rating is no unit a person reads.)"""
    me = seen["viewer"]
    out: dict[str, Any] = {}
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
