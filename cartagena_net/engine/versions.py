"""The personalised versions a game plays, composed from its options once per game."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import filibusters, jailbreak, magic, morgan, retreat
from .errors import IllegalActionError
from .rules import Refusal, Variant

if TYPE_CHECKING:  # pragma: no cover
    from .state import State


def _overrides(variant: Variant, name: str) -> bool:
    return getattr(type(variant), name) is not getattr(Variant, name)


class Rules:
    """The variants of one game and their hooks, gathered once for speed."""

    def __init__(self, game: Any) -> None:
        variants: list[Variant] = []
        if game.morgan != "instead":
            variants.append(retreat.Retreat(game))
        if game.morgan != "off":
            variants.append(morgan.Morgan(game))
        if game.story == "whole":
            variants.append(jailbreak.Sloop(game))
        if game.filibusters:
            variants.append(filibusters.Filibusters(game))
        if game.magic:
            variants.append(magic.Magic(game))
        self.variants = tuple(variants)
        self.handlers: dict[str, Variant] = {k: v for v in variants for k in v.kinds}
        # Only the checks that can refuse something in this game: legal_actions asks
        # them for every move it lists.
        self.checks = tuple(v.check for v in variants
                            if _overrides(v, "check") and v.refuses)
        # Where nothing checks a move, legal_actions' sweep of the pirates lists the
        # retreats (Variant.swept) and the variant's own ``legal`` is not called.
        self.swept_retreats = not self.checks and any(v.swept for v in variants)
        self.legal = tuple(v.legal for v in variants if _overrides(v, "legal")
                           and not (v.swept and self.swept_retreats))
        self.recharges = tuple(v for v in variants if v.recharge)
        self.card_hooks = tuple(v.card_played for v in variants if _overrides(v, "card_played"))
        self.reshuffle_hooks = tuple(v.reshuffled for v in variants
                                     if _overrides(v, "reshuffled"))
        self.turn_hooks = tuple(v.turn_started for v in variants if _overrides(v, "turn_started"))
        # An advance changes only the mover's hand, pirates, the discard pile and the
        # turn: State.apply saves just those (State._plain_advance).
        self.plain_advance = not (self.checks or self.card_hooks or self.turn_hooks)
        # Actions that change no seat's pirates or hand but the actor's (and no variant
        # follows them): State.apply saves just that seat's.
        hooked = self.card_hooks or self.turn_hooks or self.reshuffle_hooks
        self.seat_kinds = frozenset() if hooked else frozenset(
            ("end", "draw", *(k for v in variants if v.actor_only for k in v.kinds)))
        # ... and the cards one of them may draw at most (the whole-turn draw's one).
        self.seat_draws = max((1, *(v.most_drawn for v in variants if v.actor_only)))
        self.setups = tuple(v.setup for v in variants if _overrides(v, "setup"))
        self.undoable = frozenset(k for v in variants for k in v.undoable)
        assert not self.undoable & self.seat_kinds, "an undo entry is a whole position"
        self.extra_keys = tuple(k for v in variants for k in v.extra_keys)

    def decisions(self, state: State) -> list:
        """What the seat owing a decision may do (``state.pending`` is not empty)."""
        decider = self.handlers.get(state.pending[0][2])
        assert decider is not None, "a decision is owed only where a variant made one"
        return decider.decisions(state)

    def refusal(self, state: State, seat: int, owner: int, frm: int, to: int,
                how: str) -> Refusal | None:
        for check in self.checks:
            refused = check(state, seat, owner, frm, to, how)
            if refused is not None:
                return refused
        return None

    def check(self, state: State, seat: int, owner: int, frm: int, to: int, how: str) -> None:
        """Raise :class:`IllegalActionError` if a variant refuses the move."""
        for check in self.checks:
            refused = check(state, seat, owner, frm, to, how)
            if refused is not None:
                raise IllegalActionError(*refused)
