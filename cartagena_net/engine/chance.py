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

    def pick(self, n: int) -> int:
        """One of ``range(n)`` at random: a card drawn from a determinization's loose
        stock (``State.loose``); a real game's stock is always in order."""
        ...

    def fork(self) -> Chance:
        """An independent source with the same future: using one never changes the other."""
        ...


class RandomChance:
    """Shuffles with an RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, items: list[int]) -> None:
        self.rng.shuffle(items)

    def pick(self, n: int) -> int:
        return self.rng.randrange(n)

    def fork(self) -> RandomChance:
        if isinstance(self.rng, random.SystemRandom):
            # The OS's RNG has no state to share: each draw is fresh for everyone.
            return self
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        return RandomChance(twin)


class ReplayChance:
    """Plays back recorded outcomes, checking each is a permutation of what is shuffled.

    Once the recorded outcomes are used up (a game restored from its journal plays on),
    the ``fallback`` source makes fresh ones: by default the OS's secure RNG.
    """

    def __init__(self, outcomes: Iterable[Sequence[int]], fallback: Chance | None = None) -> None:
        self._outcomes = tuple(tuple(o) for o in outcomes)
        self._next = 0
        self.fallback: Chance = fallback or RandomChance(random.SystemRandom())

    @property
    def replaying(self) -> bool:
        """True while recorded outcomes remain."""
        return self._next < len(self._outcomes)

    def shuffle(self, items: list[int]) -> None:
        if self._next >= len(self._outcomes):
            self.fallback.shuffle(items)
            return
        outcome = self._outcomes[self._next]
        if sorted(outcome) != sorted(items):
            raise ValueError("recorded chance outcome does not match the cards shuffled")
        self._next += 1
        items[:] = outcome

    def pick(self, n: int) -> int:
        raise ValueError("a replayed game's stock is in the recorded order: nothing is loose")

    def fork(self) -> ReplayChance:
        twin = ReplayChance.__new__(ReplayChance)
        twin._outcomes, twin._next = self._outcomes, self._next
        twin.fallback = self.fallback.fork()
        return twin
