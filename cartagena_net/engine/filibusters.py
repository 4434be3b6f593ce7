"""Filibusters (2017): when a dark card is played, every other player holding more than
the hand limit owes a discard down to it, in turn order from the player's left, before
play goes on (rules D14)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalActionError
from .events import Discard, Owe
from .rules import Variant

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .state import State


class Filibusters(Variant):
    kinds = ("discard",)

    def card_played(self, state: State, seat: int, k: int) -> None:
        g = self.game
        if k < len(g.symbols):  # a light card
            return
        for i in range(1, g.players):
            other = (seat + i) % g.players
            over = sum(state.hands[other]) - g.hand_limit
            if over > 0:
                state.pending.append((other, over, "discard"))
                state.log(Owe(other, over))

    def apply(self, state: State, seat: int, action: Action) -> int:
        if not state.pending or state.pending[0][2] != "discard":
            raise IllegalActionError("discard-not-owed")
        cards = action.cards
        owed = state.pending[0][1]
        if len(cards) > owed:
            raise IllegalActionError("discard-too-many", {"cards": owed, "given": len(cards)})
        g = self.game
        hand = list(state.hands[seat])
        ks = []
        for c in cards:
            k = g.card_index.get(c)
            if k is None or not hand[k]:
                raise IllegalActionError("card-not-in-hand", {"card": c})
            hand[k] -= 1
            ks.append(k)
        state.hands[seat] = hand
        for k in ks:
            state.discard.append(k)
            state.log(Discard(seat, k))
        if owed == len(ks):
            state.pending.pop(0)
        else:
            state.pending[0] = (seat, owed - len(ks), "discard")
        return 0

    def decisions(self, state: State) -> list[Action]:
        """The discards the seat owing one may make (one card at a time)."""
        t = state.tables
        hand = state.hands[state.pending[0][0]]
        return [t.discard[k] for k in range(len(hand)) if hand[k]]
