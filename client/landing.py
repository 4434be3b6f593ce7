"""Where a pirate would land: the movement rules, mirrored from the view for previews.

The host decides; these functions only let the player see the result before confirming.
"""
from __future__ import annotations

from collections import Counter
from typing import Any


def occupancy(view: dict[str, Any]) -> Counter[int]:
    """How many pirates (of any colour) stand on each position."""
    counts: Counter[int] = Counter()
    for seat in view.get("seats", []):
        counts.update(seat.get("pirates", []))
    return counts


def advance_to(view: dict[str, Any], pos: int, symbol: str) -> int:
    """Landing of a pirate at ``pos`` playing ``symbol``: next free space of it, else the boat."""
    board = view["board"]
    base = symbol.rstrip("*")
    counts = occupancy(view)
    for q in range(pos + 1, len(board) + 1):
        if board[q - 1] == base and counts[q] == 0:
            return q
    return int(view.get("boat", len(board) + 1))


def retreat_to(view: dict[str, Any], pos: int) -> tuple[int, int] | None:
    """(landing, cards drawn) of a retreat from ``pos``: nearest space behind with 1 or 2."""
    counts = occupancy(view)
    for q in range(min(pos, len(view["board"]) + 1) - 1, 0, -1):
        if counts[q] in (1, 2):
            return q, counts[q]
    return None


def morgan_to(view: dict[str, Any], pos: int) -> tuple[int, int]:
    """(landing, cards drawn) of a Morgan push from ``pos``: next space ahead with 1 or 2."""
    counts = occupancy(view)
    n = len(view["board"])
    for q in range(pos + 1, n + 1):
        if counts[q] in (1, 2):
            return q, counts[q]
    return int(view.get("boat", n + 1)), 2
