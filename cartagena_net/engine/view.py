"""The one place hidden information is filtered: what a seat or a spectator may see.

Players, spectators, reconnects, logs and journals all get their data through
:func:`view`. A seat sees its own hand, the other hands' sizes (their cards only when the
ruleset makes hands public), the stock's size (never its order), the discard pile, the
face-up row, and every public event. A spectator sees public information only.
"""
from __future__ import annotations

from typing import Any

from .jailbreak import CAPACITY
from .state import State

SPECTATOR = "spectator"


def _viewer_seat(state: State, viewer: int | str) -> int | None:
    if viewer == SPECTATOR:
        return None
    if isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < len(state.hands):
        return viewer
    raise ValueError(f"viewer must be a seat number or {SPECTATOR!r}, not {viewer!r}")


def view(state: State, viewer: int | str, since: int | None = None) -> dict[str, Any]:
    """Plain data (dicts, lists, str, int, bool, None) for ``viewer``.

    With ``since``, ``events`` lists the events numbered from ``since`` on (each with a
    one-line ``text``; see ``state.event_count``), filtered like the rest.
    """
    me = _viewer_seat(state, viewer)
    g = state.game
    names = g.card_names
    public = g.hands_public

    def cards(hand: list[int]) -> list[str]:
        return [names[k] for k in range(len(hand)) for _ in range(hand[k])]

    seats = [
        {
            "seat": s,
            "color": g.colors[s],
            "pirates": list(state.pirates[s]),
            "hand_size": sum(hand),
            "hand": cards(hand) if public or s == me else None,
        }
        for s, hand in enumerate(state.hands)
    ]
    board = state.board
    extra = state.extra
    out: dict[str, Any] = {
        "rules": g.preset,
        "options": g.options(),
        "symbols": list(g.symbols),
        "board": list(board.names),
        "boat": board.boat,
        "start_name": g.start_name,
        "goal_name": g.goal_name,
        "story": g.story,
        "paths": [{"name": name, "first": first, "last": last}
                  for name, (first, last) in zip(g.path_names, board.paths, strict=True)],
        "sloop": None if board.sloop is None else {
            "pos": board.sloop, "shore": extra["shore"], "capacity": CAPACITY,
            "aboard": [mine.count(board.sloop) for mine in state.pirates]},
        "captain": extra.get("captain"),
        "free_sail": bool(extra.get("free_sail")),
        "seats": seats,
        "stock": len(state.stock),
        "discard": [names[k] for k in state.discard],
        "row": None if state.row is None else [names[k] for k in state.row],
        "turn": state.turn,
        "actor": state.actor,
        "actions_taken": state.taken,
        "actions_max": g.actions,
        "actions_min": g.min_actions,
        "pending": [{"seat": s, "kind": "discard", "count": n} for s, n in state.pending],
        "outcome": None if state.outcome is None else {
            "winner": state.outcome.winner, "ranking": list(state.outcome.ranking)},
        "viewer": SPECTATOR if me is None else me,
    }
    if since is not None:
        events = state.events or []
        first = max(0, since - state.events_base)
        out["events"] = [_event(state, e, me) for e in events[first:]]
    return out


def _event(state: State, e: tuple, me: int | None) -> dict[str, Any]:
    g = state.game
    names = g.card_names
    color = g.colors
    boat, sloop = state.board.boat, state.board.sloop

    def place(p: int) -> str:
        if p == sloop:
            return "sloop"
        return g.start_name if p == 0 else g.goal_name if p == boat else str(p)

    def drawn(seat: int, ks: tuple[int, ...]) -> tuple[dict[str, Any], str]:
        # Cards from the face-up row, or into open hands, are public; stock draws are not.
        if g.hands_public or state.row is not None or seat == me:
            shown = [names[k] for k in ks]
            return {"drawn": len(ks), "cards": shown}, ", ".join(shown) or "no card"
        return {"drawn": len(ks)}, f"{len(ks)} card{'s' if len(ks) != 1 else ''}"

    kind = e[0]
    d: dict[str, Any] = {"type": kind}
    if kind == "advance":
        _, seat, frm, to, k = e
        d.update(seat=seat, **{"from": frm, "to": to}, card=names[k])
        text = f"{color[seat]} plays {names[k]}: {place(frm)} → {place(to)}"
    elif kind == "retreat":
        _, seat, frm, to, ks = e
        extra, what = drawn(seat, ks)
        d.update(seat=seat, **{"from": frm, "to": to}, **extra)
        text = f"{color[seat]} retreats {place(frm)} → {place(to)} and draws {what}"
    elif kind == "morgan":
        _, seat, owner, frm, to, ks = e
        extra, what = drawn(seat, ks)
        d.update(seat=seat, owner=owner, **{"from": frm, "to": to}, **extra)
        text = (f"{color[seat]} moves {color[owner]}'s pirate {place(frm)} → {place(to)} "
                f"and draws {what}")
    elif kind == "undo" and e[2] == "sail":
        _, seat, _, shore = e
        d.update(seat=seat, action="sail", shore=shore)
        text = f"{color[seat]} takes back the sail to {shore.title()}"
    elif kind == "undo":
        _, seat, _, frm, to, k = e
        d.update(seat=seat, action="advance", **{"from": frm, "to": to}, card=names[k])
        text = f"{color[seat]} takes back: {place(frm)} → {place(to)} ({names[k]})"
    elif kind == "sail":
        _, seat, shore, free = e
        d.update(seat=seat, shore=shore, free=free)
        text = (f"{color[seat]} sails the sloop to {shore.title()}"
                + (" (the Captain's free sail)" if free else ""))
    elif kind == "captain":
        d["seat"] = e[1]
        text = (f"{color[e[1]]} is the Captain (most pirates aboard) and may sail once "
                "before the first action, free")
    elif kind == "draw":
        _, seat, ks = e
        extra, what = drawn(seat, ks)
        d.update(seat=seat, **extra)
        text = f"{color[seat]} has no cards and draws {what} as the whole turn"
    elif kind == "discard":
        _, seat, k = e
        d.update(seat=seat, card=names[k])
        text = f"{color[seat]} discards {names[k]}"
    elif kind == "owe":
        _, seat, n = e
        d.update(seat=seat, count=n)
        text = f"Filibusters! {color[seat]} must discard {n} card{'s' if n != 1 else ''}"
    elif kind == "reshuffle":
        d["size"] = e[1]
        text = f"the discard pile is shuffled into a new stock of {e[1]} cards"
    elif kind == "row":
        d["cards"] = [names[k] for k in e[1]]
        text = f"a new face-up row: {', '.join(d['cards'])}"
    elif kind == "turn":
        d["seat"] = e[1]
        text = f"{color[e[1]]}'s turn"
    elif kind == "end":
        d["seat"] = e[1]
        text = f"{color[e[1]]} ends the turn"
    elif kind == "win":
        d["seat"] = e[1]
        text = f"{color[e[1]]} has every pirate in the {g.goal_name} and wins!"
    else:  # pragma: no cover - every event kind is listed above
        raise ValueError(f"unknown event {kind!r}")
    d["text"] = text
    return d
