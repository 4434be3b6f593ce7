"""Chance as an explicit actor: every random outcome is recorded so games replay exactly.

Real games use the OS's secure RNG (:class:`random.SystemRandom`); tests and replays a
seeded :class:`random.Random`. The outcomes (board layout, deck orders) are kept in
``state.chance`` so a journal can restore a game whose RNG cannot be re-seeded.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol


class Chance(Protocol):
    def shuffle(self, items: list[int]) -> None: ...


class RandomChance:
    """Shuffles with an RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, items: list[int]) -> None:
        self.rng.shuffle(items)


class ReplayChance:
    """Plays back recorded outcomes, checking each is a permutation of what is shuffled."""

    def __init__(self, outcomes: Iterable[Sequence[int]]) -> None:
        self._outcomes = [tuple(o) for o in outcomes]
        self._next = 0

    def shuffle(self, items: list[int]) -> None:
        if self._next >= len(self._outcomes):
            raise ValueError("replay ran out of recorded chance outcomes")
        outcome = self._outcomes[self._next]
        if sorted(outcome) != sorted(items):
            raise ValueError("recorded chance outcome does not match the cards shuffled")
        self._next += 1
        items[:] = outcome
