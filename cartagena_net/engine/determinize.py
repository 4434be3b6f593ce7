"""Determinization: a full game state consistent with what one seat knows.

A seat knows its view (``cartagena_net.engine.view``): the board, every pirate, its own
hand, the size of every hand (the cards too when hands are public), the discard pile,
the face-up row and the stock's size. From the public history it watched it may also
know some cards in other hands: cards it saw them draw from the face-up row (or into
open hands), until they play or discard a card of that kind.

In the Black Magic Woman a seat may also see what only it knows: the Gun's target hand
(to the Gun's player), its own power's drawn cards, the top of the stock its Lantern
put back, and which card a Gun took or a Rum gave when it was one of the two seats.

Everything else is hidden: the other hands' remaining cards, another seat's power pool,
the stock's order below what the seat knows, and the closed chest tiles.
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
from .rules import Variant
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
    hand until that seat plays or discards a card of the same kind; so is a card a Gun
    took from ``me`` or ``me``'s Rum gave. A Gun taking an unseen card from a seat
    forgets what was known of that hand. Returns ``known``.
    """
    for e in events:
        kind = e.get("type")
        seat = e.get("seat")
        if not isinstance(seat, int):
            continue
        if kind == "take":  # the Gun (Black Magic Woman): a card moves between hands
            target, card = e.get("target"), e.get("card")
            if card is None:  # unseen: any card the target was known to hold may be gone
                known.pop(target, None)
            elif target == me:
                known.setdefault(seat, []).append(str(card))
            elif target in known and card in known[target]:
                known[target].remove(card)
            if target != me and e.get("cards"):  # the target's new card, drawn in the open
                known.setdefault(target, []).extend(str(c) for c in e["cards"])
            continue
        if kind == "give" and seat == me and e.get("card") is not None:  # the Rum
            known.setdefault(e["to"], []).append(str(e["card"]))
            continue
        if seat == me:
            continue
        if kind in ("retreat", "morgan", "draw", "chest", "keep"):
            cards = e.get("cards")
            if cards:
                known.setdefault(seat, []).extend(str(c) for c in cards)
        if kind in ("advance", "discard", "power", "chest", "parrot", "hook"):
            hand = known.get(seat)
            played = e.get("cards") if kind in ("parrot", "hook") else [e.get("card")]
            for card in played or ():
                if hand and card in hand:
                    hand.remove(card)
    return known


class Determinizer:
    """Deals the hidden cards of ``view`` (a seat's or a spectator's view) consistently,
    many times over.

    What is hidden and where it goes comes from the engine (``State.rebuild``): the
    other hands (a hand the view shows, e.g. the Gun's target to its player, is kept as
    is), another seat's power pool, and the stock below the top the seat knows (its
    Lantern's cards). ``known`` maps other seats to cards known to be in their hands
    (see :func:`track_known`); cards that no longer fit (a hand smaller than its known
    cards, or more copies than are unseen) are ignored.
    """

    def __init__(self, view: Mapping[str, Any], known: Mapping[int, Sequence[str]] | None = None):
        me = view["viewer"]
        g = game_of_view(view)
        self.game = g
        self.seat = me if isinstance(me, int) else None  # None: a spectator's view
        index = g.card_index
        blank, hidden = State.rebuild(g, dict(view), RandomChance(random.Random(0)))
        self.players = len(blank.hands)
        unseen = [0] * g.kinds
        for k in hidden.pool:
            unseen[k] += 1
        # Known cards of hidden hands, as far as they fit: in the hand before any deal.
        for seat, cards in (known or {}).items():
            if not 0 <= seat < self.players or seat == me or not hidden.hands[seat]:
                continue
            for name in cards:
                k = index.get(name)
                if k is not None and hidden.hands[seat] and unseen[k] > 0:
                    unseen[k] -= 1
                    blank.hands[seat][k] += 1
                    hidden.hands[seat] -= 1
        hidden.pool = [k for k in range(g.kinds) for _ in range(unseen[k])]
        self.hidden = hidden
        self.blank = blank
        self.pool = hidden.pool
        self.dealt = self._placed(hidden)  # cards dealt into hidden places each sample
        self.stock_size = len(hidden.pool) - self.dealt + len(hidden.top)
        self.variants = [v for v in g.rules.variants  # those with hidden tiles or such
                         if type(v).shuffle_hidden is not Variant.shuffle_hidden]
        # A whole state (the hidden cards in a fixed order): the legal actions, once.
        self.base = blank.copy()
        self.base.deal_hidden(hidden, hidden.pool)

    @staticmethod
    def _placed(hidden: Any) -> int:
        return sum(hidden.hands) + sum(n for _, sizes in hidden.held for n in sizes)

    def sample(self, rng: random.Random) -> State:
        """A fresh state: the hidden cards dealt at random; chance drawn from ``rng``.

        Only the hidden hands and places are dealt now (a partial Fisher-Yates shuffle
        of the unseen cards); the rest is the stock, left loose (``State.loose``): each
        draw takes one of its cards at random, which deals it in the same random order a
        full shuffle would, at the cost of the cards an iteration really draws."""
        s = self.blank.copy(chance=RandomChance(rng))
        pool = list(self.pool)
        top = len(pool)
        first = top - self.dealt  # pool[first:] goes into the hidden hands and places
        rand = rng.random
        for i in range(top - 1, first - 1, -1):  # pool[first:] becomes a random draw
            j = int(rand() * (i + 1))
            pool[i], pool[j] = pool[j], pool[i]
        s.deal_hidden(self.hidden, pool[first:] + pool[:first])
        for v in self.variants:
            v.shuffle_hidden(s, rng)
        return s


def determinize(
    view: Mapping[str, Any],
    rng: random.Random,
    known: Mapping[int, Sequence[str]] | None = None,
) -> State:
    """One state consistent with ``view`` (a seat's view) and the ``known`` cards."""
    return Determinizer(view, known).sample(rng)
