"""Where a move lands: the movement rules as pure functions of the pirates' occupancy.

``occ[p]`` is the number of pirates on position ``p`` (0 = start, 1..N spaces, N+1 the
goal; see ``board.py`` for the sloop between two paths). The state uses these to apply
moves; bots and the client use them on a view (:func:`landings`) to preview a move.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence


def advance_target(occ: Sequence[int], ahead: Iterable[int], boat: int) -> int:
    """The first vacant space among ``ahead`` (the spaces of the card's symbol beyond the
    pirate on its path, nearest first), else ``boat`` (the path's end)."""
    for q in ahead:
        if not occ[q]:
            return q
    return boat


def retreat_target(occ: Sequence[int], pos: int, first: int = 1) -> int:
    """The nearest space behind ``pos`` (down to ``first``, the first space of its path)
    holding 1 or 2 pirates, or 0 (no retreat): empty spaces and spaces with 3 are passed
    by, and nothing retreats to the start."""
    for q in range(pos - 1, first - 1, -1):
        c = occ[q]
        if c == 1 or c == 2:
            return q
    return 0


def retreat_targets(occ: Sequence[int], positions: Iterable[int],
                    back: Sequence[int]) -> list[tuple[int, int]]:
    """(position, :func:`retreat_target`) for each distinct position of ``positions``
    (ascending) that has a target (the start never has), ``back[p]`` the first space of
    ``p``'s path: one sweep, each space looked at once, since a target behind the next
    position up is the nearest space of 1 or 2 pirates between the two, else the one
    below's target."""
    out = []
    last = first = -1
    found = 0
    for p in positions:
        if p == last or not p:
            continue
        f = back[p]
        if f != first:  # a new path: nothing of it scanned yet
            first, low, found = f, f, 0
        else:  # [first, last) scanned: ``found`` is last's target
            low = last
        found = retreat_target(occ, p, low) or found
        last = p
        if found:
            out.append((p, found))
    return out


def sweep(occ: Sequence[int], positions: Iterable[int], back: Sequence[int], boat: int,
          advances: Sequence[list] | None, retreats: Sequence | None, out: list) -> None:
    """One pass over a seat's pirates (``positions``, ascending), for the legal list where
    nothing checks a move: onto ``out``, each distinct position's advances
    (``advances[p]``, if given) for positions below ``boat``, then the retreat
    (``retreats[p]``, if given) of each distinct position that has a retreat target
    (those of :func:`retreat_targets`, without finding the targets: once a position of a
    path has one, every position above it on that path has one, so the rest of the path
    is not scanned)."""
    rets: list = []
    prev = first = low = -1
    found = False
    for p in positions:
        if p == prev:
            continue
        if advances is not None and p < boat:
            out += advances[p]
        if p and retreats is not None:
            f = back[p]
            if f != first:  # a new path: nothing of it scanned yet
                first, low, found = f, f, False
            if not found:  # [first, low) had no target
                q = p - 1
                while q >= low:
                    c = occ[q]
                    if c == 1 or c == 2:
                        found = True
                        break
                    q -= 1
                low = p
            if found:
                rets.append(retreats[p])
        prev = p
    out += rets


def morgan_target(occ: Sequence[int], pos: int, boat: int) -> tuple[int, int]:
    """(landing, cards drawn) for pushing a pirate at ``pos`` forward (Morgan): the next
    space before ``boat`` (the path's end) holding 1 or 2 pirates, drawing that many;
    with none, ``boat`` and 2 cards."""
    for q in range(pos + 1, boat):
        c = occ[q]
        if c == 1 or c == 2:
            return q, c
    return boat, 2
