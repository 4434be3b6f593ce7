"""What progress and a hand of cards are worth: one measure for the greedy bot and the
search.

Pure Python. Units are spaces of progress. A card is worth half a flat value and half
the advance its symbol gives now; a second card of a symbol is worth less than the
first; cards beyond what the way ahead needs are worth less and less; with Filibusters,
cards beyond the hand limit are worth half (the next dark card may take them); the first
few cards carry a bonus (an empty hand wastes actions).
"""
from __future__ import annotations

from collections.abc import Iterable

REAR_WEIGHTS = (1.6, 1.35, 1.2, 1.1, 1.05, 1.0)  # a space of progress, rearmost pirate first
BOAT_BONUS = 4.0  # a pirate aboard is safe for good
CARD_VALUE = 4.0  # a card is worth about this much progress
LOW_HAND = 3
LOW_HAND_BONUS = 3.0  # extra value of each of the first LOW_HAND cards
DUPLICATE_DECAY = 0.8  # each further card of the same symbol is worth less
CARDS_PER_SPACE = 1 / 5  # cards needed per space still to go (surplus is worth less)
SURPLUS_DECAY = 0.5
OVER_LIMIT = 0.5  # the worth kept by a card beyond the Filibusters hand limit


def cards_needed(togo: int) -> int:
    """How many cards the ``togo`` spaces still to go (all pirates) call for."""
    return max(2, round(togo * CARDS_PER_SPACE))


MAX_GAIN = 3.0 * CARD_VALUE  # an advance counts in a card's worth up to this
_SYMBOL_CARDS: dict[tuple[int, float], tuple[float, ...]] = {}


def symbol_cards(count: int, gain: float) -> tuple[float, ...]:
    """The worth of each of ``count`` cards of one symbol whose best advance now is
    ``gain``: half a flat value and half the advance (at most three cards' worth), less
    for each further card. Computed once for each (count, gain): searches ask often."""
    key = (count, min(gain, MAX_GAIN))
    cards = _SYMBOL_CARDS.get(key)
    if cards is None:
        base = 0.5 * CARD_VALUE + 0.5 * min(float(gain), MAX_GAIN)
        cards = _SYMBOL_CARDS[key] = tuple(base * DUPLICATE_DECAY**k for k in range(count))
    return cards


def card_values(symbols: Iterable[tuple[int, float]]) -> list[float]:
    """Each card's own worth, from (cards held, best advance now) of each symbol."""
    cards: list[float] = []
    for count, gain in symbols:
        cards += symbol_cards(count, gain)
    return cards


def hand_worth(cards: list[float], need: int, limit: int | None = None,
               total: float = 0.0) -> float:
    """``total`` plus the worth of a hand whose cards are worth ``cards`` each alone: the
    best count first; beyond ``need`` each is worth less; beyond ``limit`` (Filibusters)
    half."""
    for term in hand_terms(cards, need, limit):
        total += term
    return total


def hand_terms(cards: list[float], need: int, limit: int | None = None) -> tuple[float, ...]:
    """What each card of :func:`hand_worth`'s hand adds, in the order it adds them (a
    search keeps these for the hands it meets again: the same sum, term by term)."""
    terms = []
    for i, v in enumerate(sorted(cards, reverse=True)):
        if i >= need:
            v *= SURPLUS_DECAY ** (i - need + 1)
        if limit is not None and i >= limit:
            v *= OVER_LIMIT
        terms.append(v + (LOW_HAND_BONUS if i < LOW_HAND else 0.0))
    return tuple(terms)
