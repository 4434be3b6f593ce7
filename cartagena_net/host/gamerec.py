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


def new_state(game: Any, rng: random.Random | None = None) -> Any:
    """A new game dealt with the OS's secure RNG (``rng``: a seeded one, for practice
    and tests only)."""
    return game.new_state(rng=rng if rng is not None else random.SystemRandom())


def deal_rng(seed: int) -> random.Random:
    """The RNG a host seeded with ``seed`` deals from (practice and tests only)."""
    return random.Random(f"deal {seed}")


def chance_outcomes(state: Any, seen: int = 0) -> list[list[int]]:
    """The chance outcomes recorded after the first ``seen``, as JSON-friendly lists."""
    return [list(o) for o in state.chance[seen:]]


def chance_count(state: Any) -> int:
    """How many chance outcomes the state has recorded so far."""
    return len(state.chance)


def restore(game: Any, outcomes: list[list[int]], actions: list[str]) -> Any:
    """Rebuild a state from its chance outcomes and accepted actions."""
    return State.replay(game, outcomes, actions)


def replay_prefix(game: Any, outcomes: list[list[int]], actions: list[tuple[list[list[int]], str]],
                  seats: list[int | None] | None = None) -> tuple[Any, int, str | None]:
    """Replay as far as the record allows: (state, actions applied, why it stopped).

    ``outcomes`` are the game's first chance outcomes; each action comes with the
    outcomes it added. Replay stops before the first action the engine refuses or
    whose recorded outcomes do not match what the engine drew, or (``seats``: the seat
    each action's record names, None for none) that names a seat not the one to act;
    the state returned is the one before it (why is None when every action was applied).
    """
    known = list(outcomes)
    for added, _ in actions:
        known.extend(added)
    state = State.replay(game, known, [])
    if len(state.chance) != len(outcomes):
        raise ValueError(f"the game used {len(state.chance)} chance outcomes at its start, "
                         f"its record holds {len(outcomes)}")
    used = len(outcomes)
    for n, (added, text) in enumerate(actions):
        seat = seats[n] if seats is not None else None
        if seat is not None and seat != state.actor:
            why = f"the record says seat {seat} acted, but seat {state.actor} was to act"
        else:
            why = _apply_recorded(state, text, len(added), used)
            if why is None:
                used += len(added)
                continue
        # Rebuild the state before that action with only the outcomes used so far.
        good = [a for _, a in actions[:n]]
        used = len(outcomes) + sum(len(c) for c, _ in actions[:n])
        return State.replay(game, known[:used], good), n, why
    return state, len(actions), None


def _apply_recorded(state: Any, text: str, added: int, used: int) -> str | None:
    """Apply one journaled action; why it does not fit its record (None: it does)."""
    try:
        state.apply(text)
    except Exception as exc:  # noqa: BLE001 - reported as where the record stops
        return f"the game refuses action {text[:60]!r}: {exc}"
    if len(state.chance) == used + added:
        return None
    return (f"action {text[:60]!r} drew {len(state.chance) - used} chance "
            f"outcome(s), the record holds {added}")
