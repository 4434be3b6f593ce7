"""Where a pirate would land, for previews: the engine's movement rules applied to a view
(``cartagena_net.engine.preview``: both paths and the sloop of the Whole Jailbreak too).

The host decides; this only lets the player see the result before confirming.
"""
from __future__ import annotations

from typing import Any

from cartagena_net.engine.preview import Preview
from client.glyphs import place


def occupancy(view: dict[str, Any]) -> list[int]:
    """How many pirates (of any colour) stand on each position 0..boat."""
    return Preview(view).occupancy()


def _mover(view: dict[str, Any]) -> int:
    actor = view.get("actor")
    return actor if isinstance(actor, int) else -1


def advance_to(view: dict[str, Any], pos: int, symbol: str) -> int:
    """Landing of a pirate at ``pos`` playing ``symbol``: next free space of it on its
    path, else the path's end (the sloop or the goal); ``pos`` if the move is refused."""
    to = Preview(view).advance(_mover(view), pos, symbol)
    return pos if to is None else to


def retreat_to(view: dict[str, Any], pos: int) -> tuple[int, int] | None:
    """(landing, cards drawn) of a retreat from ``pos``: nearest space behind with 1 or 2."""
    preview = Preview(view)
    return preview.retreat(_mover(view), min(pos, preview.boat))


def morgan_to(view: dict[str, Any], pos: int, owner: int = -1) -> tuple[int, int]:
    """(landing, cards drawn) of a Morgan push from ``pos``: next space ahead with 1 or 2."""
    got = Preview(view).push(owner, pos)
    return got if got is not None else (pos, 0)


def place_name(view: dict[str, Any], pos: int | None) -> str:
    """A position as players read it: the edition's start, goal and sloop names, else its
    number."""
    if pos is None:
        return "?"
    if pos == 0:
        return place(str(view.get("start_name") or "start"))
    if pos == int(view.get("boat", len(view["board"]) + 1)):
        return place(str(view.get("goal_name") or "boat"))
    sloop = view.get("sloop")
    if isinstance(sloop, dict) and sloop.get("pos") == pos:
        return place("sloop")
    return str(pos)

