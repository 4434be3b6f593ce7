"""How the host creates, records and restores engine states.

A game is journaled as the chance outcomes the engine recorded (``state.chance``:
board layout, deck orders) plus the accepted actions; replaying the actions against
:class:`~cartagena_net.engine.chance.ReplayChance` rebuilds the state exactly.
"""
from __future__ import annotations

import random
from typing import Any

from cartagena_net.engine import State


def seat_colors(game: Any) -> list[str]:
    """The colour of each seat of ``game``, in seat order."""
    return list(game.colors[: game.players])


def new_state(game: Any) -> Any:
    """A new game dealt with the OS's secure RNG."""
    return game.new_state(rng=random.SystemRandom())


def chance_outcomes(state: Any, seen: int = 0) -> list[list[int]]:
    """The chance outcomes recorded after the first ``seen``, as JSON-friendly lists."""
    return [list(o) for o in state.chance[seen:]]


def restore(game: Any, outcomes: list[list[int]], actions: list[str]) -> Any:
    """Rebuild a state from its chance outcomes and accepted actions."""
    return State.replay(game, outcomes, actions)
