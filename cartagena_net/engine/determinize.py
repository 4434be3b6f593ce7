"""Determinization: a full game state consistent with what one seat knows.

A seat knows its view (``cartagena_net.engine.view``): the board, every pirate, its own
hand, the size of every hand (the cards too when hands are public), the discard pile,
the face-up row and the stock's size. From the public history it watched it may also
know some cards in other hands: cards it saw them draw from the face-up row (or into
open hands), until they play or discard a card of that kind.

Everything else is hidden: the other hands' remaining cards and the stock's order.
:class:`Determinizer` deals those hidden cards at random, uniformly among the deals
that agree with the seat's knowledge, into a fresh :class:`State` that shares nothing
mutable with the real game (its own chance source included). A search bot samples one
per iteration, so a sample deals only the hidden hands and leaves the stock loose
(``State.loose``): each card drawn from it is drawn at random then.

Limitation (documented in docs/architecture.md): the composition of the stock after a
reshuffle of the discard pile is not tracked, so the pool of unseen cards is dealt
uniformly between the hidden hands and the stock.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .chance import RandomChance
from .game import Game
from .state import State

_GAMES: dict[tuple, Game] = {}


def game_of_view(v: Mapping[str, Any]) -> Game:
    """The :class:`Game` a view describes (cached; views carry every parameter)."""
    fields = {k: tuple(x) if isinstance(x, list) else x for k, x in v["options"].items()}
    key = tuple(sorted(fields.items()))
    game = _GAMES.get(key)
    if game is None:
        game = Game(**fields)
        if len(_GAMES) > 64:
            _GAMES.clear()
        _GAMES[key] = game
    return game


def track_known(
    known: dict[int, list[str]], events: Sequence[Mapping[str, Any]], me: int
) -> dict[int, list[str]]:
    """Update ``known`` (seat -> cards seen entering that hidden hand) from public events.

    A card drawn in the open (face-up row, open hands) is known to be in the drawer's
    hand until that seat plays or discards a card of the same kind. Returns ``known``.
    """
    for e in events:
        kind = e.get("type")
        seat = e.get("seat")
        if not isinstance(seat, int) or seat == me:
            continue
        if kind in ("retreat", "morgan", "draw"):
            cards = e.get("cards")
            if cards:
                known.setdefault(seat, []).extend(str(c) for c in cards)
        elif kind in ("advance", "discard"):
            hand = known.get(seat)
            card = e.get("card")
            if hand and card in hand:
                hand.remove(card)
    return known


class Determinizer:
    """Deals the hidden cards of ``view`` (a seat's view) consistently, many times over.

    ``known`` maps other seats to cards known to be in their hands (see
    :func:`track_known`); cards that no longer fit (a hand smaller than its known cards,
    or more copies than are unseen) are ignored. Hands shown in the view are used as is.
    """

    def __init__(self, view: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None = None):
        me = view["viewer"]
        if me == "spectator":
            raise ValueError("a determinization is for a seat, not a spectator")
        g = game_of_view(view)
        self.game = g
        self.seat = me
        index = g.card_index
        nk = g.kinds
        # Unseen cards start as the whole deck; remove everything the seat can see.
        unseen = [0] * nk
        for k in g.deck:
            unseen[k] += 1

        def take(names: Sequence[str]) -> list[int]:
            counts = [0] * nk
            for name in names:
                counts[index[name]] += 1
            return counts

        def remove(counts: list[int]) -> None:
            for k in range(nk):
                unseen[k] -= counts[k]

        seats = sorted(view["seats"], key=lambda s: s["seat"])
        self.players = len(seats)
        fixed: list[list[int] | None] = []
        for s in seats:
            hand = s.get("hand")
            if hand is not None:
                counts = take(hand)
                remove(counts)
                fixed.append(counts)
            else:
                fixed.append(None)
        remove(take(view["discard"]))
        if view.get("row") is not None:
            remove(take(view["row"]))
        if any(n < 0 for n in unseen):
            raise ValueError("the view shows more cards than the deck holds")
        # Known cards of hidden hands, as far as they fit.
        self.partial: list[list[int]] = [[0] * nk for _ in seats]
        self.hidden: list[int] = [0] * len(seats)  # cards of each hand still to deal
        for s in seats:
            i = s["seat"]
            if fixed[i] is not None:
                continue
            size = int(s["hand_size"])
            got = 0
            for name in (known or {}).get(i, ()):
                k = index.get(name)
                if k is not None and got < size and unseen[k] > 0:
                    unseen[k] -= 1
                    self.partial[i][k] += 1
                    got += 1
            self.hidden[i] = size - got
        self.pool = [k for k in range(nk) for _ in range(unseen[k])]
        self.stock_size = int(view["stock"])
        if len(self.pool) != self.stock_size + sum(self.hidden):
            raise ValueError("hand sizes and stock size do not add up to the unseen cards")
        self.fixed = fixed
        self.dealt = sum(self.hidden)  # cards dealt into hidden hands each sample
        # The public part of the state, built once (by the engine, from the view).
        self.base = State.from_view(g, dict(view), RandomChance(random.Random(0)))

    def sample(self, rng: random.Random) -> State:
        """A fresh state: the hidden cards dealt at random; chance drawn from ``rng``.

        Only the hidden hands are dealt now (a partial Fisher-Yates shuffle of the unseen
        cards); the rest is the stock, left loose (``State.loose``): each draw takes one
        of its cards at random, which deals it in the same random order a full shuffle
        would, at the cost of the cards an iteration really draws."""
        s = self.base.copy(chance=RandomChance(rng))
        pool = list(self.pool)
        top = len(pool)
        first = top - self.dealt  # pool[first:] goes into the hidden hands
        rand = rng.random
        for i in range(top - 1, first - 1, -1):  # pool[first:] becomes a random draw
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        hands = []
        at = first
        for i, fixed in enumerate(self.fixed):
            if fixed is not None:
                hands.append(list(fixed))
                continue
            hand = list(self.partial[i])
            n = self.hidden[i]
            for k in pool[at:at + n]:
                hand[k] += 1
            at += n
            hands.append(hand)
        s.hands = hands
        del pool[first:]
        s.stock = pool
        s.loose = first
        return s


def determinize(
    view: Mapping[str, Any],
    rng: random.Random,
    known: Mapping[int, Sequence[str]] | None = None,
) -> State:
    """One state consistent with ``view`` (a seat's view) and the ``known`` cards."""
    return Determinizer(view, known).sample(rng)
