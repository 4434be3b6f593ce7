"""The board as a model of places: the start, one or two paths of spaces, the sloop
between two paths, and the goal. Lookups are precomputed once per layout.

Positions are numbered in the order pirates travel: 0 is the start, then the spaces
of the first path, then (the Whole Jailbreak) the sloop and the spaces of the second
path, and last the goal. ``boat`` is the goal's number (the sloop, rowboat or cove of
a one-path story). One path ending in the goal is the simplest case: no sloop.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

SEGMENT = 6  # spaces per board segment; each segment holds each symbol once
SLOOP = -1  # the "symbol" of the sloop's position in ``spaces``


class Board:
    """Immutable board.

    ``spaces[p - 1]`` is the symbol index of position ``p`` (``SLOOP`` at the sloop).
    ``paths`` holds (first, last) space of each path; ``sloop`` is the sloop's position
    between two paths, or None. For each position ``p`` before the goal:
    ``ahead[p][s]`` are the spaces of symbol ``s`` further along ``p``'s own path
    (nearest first), ``end[p]`` is where a move with no room left on the path goes (the
    sloop from the first path, else the goal), and ``back[p]`` is the first space of the
    path a retreat from ``p`` scans back to (the sloop and the goal retreat onto the path
    that ends at them). Nothing of a board changes after it is made; the views keep what
    they derive from it beside it (``view.fixed_part``: a weak reference to it).
    """

    __slots__ = ("__weakref__", "ahead", "back", "boat", "end", "length", "names", "paths",
                 "sloop", "spaces")

    def __init__(self, spaces: tuple[int, ...], symbols: tuple[str, ...],
                 sloop: int | None = None) -> None:
        nsymbols = len(symbols)
        self.spaces = spaces
        self.names = tuple(None if s == SLOOP else symbols[s] for s in spaces)
        self.length = len(spaces)
        self.boat = self.length + 1
        if sloop is None and SLOOP in spaces:
            sloop = spaces.index(SLOOP) + 1
        self.sloop = sloop
        if sloop is None:
            self.paths: tuple[tuple[int, int], ...] = ((1, self.length),)
        else:
            self.paths = ((1, sloop - 1), (sloop + 1, self.length))
        split = sloop if sloop is not None else self.boat
        # ahead: one backward pass per path
        ahead: list[tuple[tuple[int, ...], ...]] = [()] * self.boat
        following: list[tuple[int, ...]] = [()] * nsymbols
        for p in range(self.length, -1, -1):
            if p == sloop:
                ahead[p] = tuple(following)
                following = [()] * nsymbols  # the first path ends at the sloop
                continue
            ahead[p] = tuple(following)
            if p:
                s = spaces[p - 1]
                following[s] = (p, *following[s])
        self.ahead = tuple(ahead)
        self.end = tuple(split if p < split else self.boat for p in range(self.boat + 1))
        self.back = tuple(1 if p <= split else split + 1 for p in range(self.boat + 1))

    def symbol_at(self, pos: int) -> int:
        return self.spaces[pos - 1]

    def word(self, pos: int, start: str, goal: str) -> str | int:
        """Position ``pos`` as a reason's ``place`` field (engine/reasons.py): the
        place's word, or a space's number."""
        if pos == 0:
            return start
        if pos == self.sloop:
            return "sloop"
        return goal if pos == self.boat else pos

    def is_space(self, pos: int) -> bool:
        """A space of a path (at most 3 pirates), not the start, the sloop or the goal."""
        return 0 < pos < self.boat and pos != self.sloop

    @classmethod
    def of_names(cls, names: list[Any], symbols: tuple[str, ...]) -> Board:
        """The board a view's ``board`` list describes (None marks the sloop)."""
        index = {s: i for i, s in enumerate(symbols)}
        return cls(tuple(SLOOP if n is None else index[n] for n in names), symbols)

    @classmethod
    def lay_out(cls, game: Any, shuffle: Callable[[list[int]], None]) -> Board:
        """The explicit board of the game, or one random order of symbols per segment
        (the first path's segments, then the second's)."""
        n = len(game.symbols)
        two = game.story == "whole"
        if game.board:
            letters = {s[0].upper(): i for i, s in enumerate(game.symbols)}
            spaces = tuple(SLOOP if c == "/" else letters[c] for c in game.board)
            return cls(spaces, game.symbols)
        spaces: list[int] = []
        for count in ((game.segments, game.island_segments) if two else (game.segments,)):
            if spaces:
                spaces.append(SLOOP)
            for _ in range(count):
                segment = list(range(n))
                shuffle(segment)
                spaces += segment
        return cls(tuple(spaces), game.symbols)
