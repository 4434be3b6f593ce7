"""The movement rules applied to a view's public data: where a move would land.

Bots simulate moves with it and the client previews them; the engine's own checks
(``jailbreak.refusal``, ``morgan.island_refusal``) and landing rules (``moves``) are
shared, so a preview agrees with what the engine will do.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from . import moves
from .board import Board
from .jailbreak import CARTAGENA, island, refusal
from .morgan import island_refusal


@lru_cache(maxsize=64)
def _board(names: tuple[Any, ...], symbols: tuple[str, ...]) -> Board:
    return Board.of_names(list(names), symbols)


class Preview:
    """Pirates on a view's board; ``None`` answers a move the rules do not allow."""

    __slots__ = ("board", "island_morgan", "pirates", "shore", "symbols")

    def __init__(self, view: Mapping[str, Any]) -> None:
        symbols = tuple(str(s).removesuffix("*") for s in view["symbols"])
        self.symbols = symbols
        self.board = _board(tuple(view["board"]), symbols)
        sloop = view.get("sloop")
        self.shore: str | None = sloop["shore"] if sloop else None
        self.pirates = {int(s["seat"]): [int(p) for p in s["pirates"]] for s in view["seats"]}
        options = view.get("options") or {}
        self.island_morgan = options.get("morgan") == "island"

    def copy(self) -> Preview:
        c = type(self).__new__(type(self))
        c.board, c.symbols, c.shore = self.board, self.symbols, self.shore
        c.island_morgan = self.island_morgan
        c.pirates = {s: list(p) for s, p in self.pirates.items()}
        return c

    @property
    def boat(self) -> int:
        return self.board.boat

    @property
    def sloop(self) -> int | None:
        return self.board.sloop

    def occupancy(self) -> list[int]:
        occ = [0] * (self.board.boat + 1)
        for positions in self.pirates.values():
            for p in positions:
                if 0 <= p <= self.board.boat:
                    occ[p] += 1
        return occ

    def allowed(self, owner: int, frm: int, to: int, how: str) -> bool:
        sloop = self.board.sloop
        if sloop is None:
            return True
        if refusal(sloop, self.shore or CARTAGENA, self.pirates.get(owner, []).count(sloop),
                   frm, to, how) is not None:
            return False
        return not self.island_morgan or island_refusal(
            island(sloop, self.shore, frm), how) is None

    def advance(self, seat: int, pos: int, symbol: str, occ: list[int] | None = None) -> int | None:
        """Landing of ``seat``'s pirate at ``pos`` playing ``symbol`` (a dark card's ``*``
        is ignored), or None if not allowed."""
        b = self.board
        if not 0 <= pos < b.boat:
            return None
        s = self.symbols.index(symbol.removesuffix("*"))
        to = moves.advance_target(occ or self.occupancy(), b.ahead[pos][s], b.end[pos])
        return to if self.allowed(seat, pos, to, "advance") else None

    def retreat(self, seat: int, pos: int, occ: list[int] | None = None) -> tuple[int, int] | None:
        """(landing, cards drawn) of a retreat from ``pos``, or None."""
        b = self.board
        if not 0 < pos <= b.boat:
            return None
        occ = occ or self.occupancy()
        to = moves.retreat_target(occ, pos, b.back[pos])
        if not to or not self.allowed(seat, pos, to, "retreat"):
            return None
        return to, occ[to]

    def push(self, owner: int, pos: int, occ: list[int] | None = None) -> tuple[int, int] | None:
        """(landing, cards drawn) of a Morgan push of ``owner``'s pirate at ``pos``, or None."""
        b = self.board
        if not 0 <= pos < b.boat:
            return None
        to, n = moves.morgan_target(occ or self.occupancy(), pos, b.end[pos])
        return (to, n) if self.allowed(owner, pos, to, "morgan") else None

    def landings(self, occ: list[int], positions: Iterable[int]) -> dict[int, dict[str, int]]:
        """For each position: where a card of each symbol would take a pirate from there
        along its path (the sloop or the goal when no space is free), in one backward
        pass; whether the owner may go there is :meth:`allowed`'s question."""
        b = self.board
        wanted = set(positions)
        sloop = b.sloop
        current = dict.fromkeys(self.symbols, b.boat)
        found: dict[int, dict[str, int]] = {}
        names = b.names
        for q in range(b.boat - 1, -1, -1):
            if q in wanted:
                found[q] = dict(current)
            if q == sloop:
                current = dict.fromkeys(self.symbols, sloop)
            elif q and occ[q] == 0:
                current[names[q - 1]] = q
        return found

    def move(self, seat: int, frm: int, to: int) -> None:
        positions = self.pirates[seat]
        positions[positions.index(frm)] = to

    def sail(self) -> None:
        self.shore = "tortuga" if self.shore == CARTAGENA else CARTAGENA
