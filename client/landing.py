"""Where a pirate would land, for previews: the engine's movement rules applied to a view.

The host decides; this only lets the player see the result before confirming.
"""
from __future__ import annotations

from typing import Any

from cartagena_net.engine import moves


def occupancy(view: dict[str, Any]) -> list[int]:
    """How many pirates (of any colour) stand on each position 0..boat."""
    counts = [0] * (_boat(view) + 1)
    for seat in view.get("seats", []):
        for p in seat.get("pirates", []):
            if 0 <= p < len(counts):
                counts[p] += 1
    return counts


def _boat(view: dict[str, Any]) -> int:
    return int(view.get("boat", len(view["board"]) + 1))


def advance_to(view: dict[str, Any], pos: int, symbol: str) -> int:
    """Landing of a pirate at ``pos`` playing ``symbol``: next free space of it, else the boat."""
    board, boat = view["board"], _boat(view)
    base = symbol.rstrip("*")
    ahead = (q for q in range(pos + 1, boat) if board[q - 1] == base)
    return moves.advance_target(occupancy(view), ahead, boat)


def retreat_to(view: dict[str, Any], pos: int) -> tuple[int, int] | None:
    """(landing, cards drawn) of a retreat from ``pos``: nearest space behind with 1 or 2."""
    occ = occupancy(view)
    q = moves.retreat_target(occ, min(pos, len(occ) - 1))
    return (q, occ[q]) if q else None


def morgan_to(view: dict[str, Any], pos: int) -> tuple[int, int]:
    """(landing, cards drawn) of a Morgan push from ``pos``: next space ahead with 1 or 2."""
    return moves.morgan_target(occupancy(view), pos, _boat(view))


def place_name(view: dict[str, Any], pos: int | None) -> str:
    """A position as players read it: the edition's start and goal names, else its number."""
    if pos is None:
        return "?"
    if pos == 0:
        return str(view.get("start_name") or "start")
    if pos == _boat(view):
        return str(view.get("goal_name") or "boat")
    return str(pos)
