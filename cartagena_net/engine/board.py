"""The passage: symbols on spaces 1..N, with lookups precomputed once per layout."""
from __future__ import annotations

from collections.abc import Callable

from .game import SEGMENT, Game


class Board:
    """Immutable board. Position 0 is the start, 1..N the spaces, N+1 the boat."""

    __slots__ = ("ahead", "boat", "length", "names", "spaces")

    def __init__(self, spaces: tuple[int, ...], symbols: tuple[str, ...]) -> None:
        nsymbols = len(symbols)
        self.spaces = spaces  # spaces[i] = symbol index of space i+1
        self.names = tuple(symbols[s] for s in spaces)
        self.length = len(spaces)
        self.boat = self.length + 1
        # ahead[p][s]: positions > p holding symbol s, nearest first (one backward pass)
        following: list[tuple[int, ...]] = [()] * nsymbols
        ahead: list[tuple[tuple[int, ...], ...]] = [()] * self.boat
        for p in range(self.length, -1, -1):
            ahead[p] = tuple(following)
            if p:
                s = spaces[p - 1]
                following[s] = (p, *following[s])
        self.ahead = tuple(ahead)

    def symbol_at(self, pos: int) -> int:
        return self.spaces[pos - 1]

    @classmethod
    def lay_out(cls, game: Game, shuffle: Callable[[list[int]], None]) -> Board:
        """The explicit board of the game, or one random order of symbols per segment."""
        n = len(game.symbols)
        if game.board:
            letters = {s[0].upper(): i for i, s in enumerate(game.symbols)}
            return cls(tuple(letters[c] for c in game.board), game.symbols)
        spaces: list[int] = []
        for _ in range(game.segments):
            segment = list(range(n))
            shuffle(segment)
            spaces += segment
        assert len(spaces) == game.segments * SEGMENT
        return cls(tuple(spaces), game.symbols)
