"""Actions: small immutable values with a text notation that round-trips.

Notation (positions: 0 = start, 1..N = spaces (and the sloop in the Whole Jailbreak),
N+1 = the goal; a dark card ends in ``*``)::

    advance P CARD        play CARD, move your pirate at P forward
    retreat P             move your pirate at P back, draw 1 or 2
    morgan SEAT P         move SEAT's pirate at P forward, draw 1 or 2 (Morgan option)
    draw                  draw one card as the whole turn (when the rules allow it)
    end                   end the turn
    discard CARD [CARD…]  a decision owed: discard these cards
    sail                  move the sloop to the other shore (the Whole Jailbreak)
    undo                  take back the last action of this turn (when state.can_undo())

Black Magic Woman (``magic``): a card's power instead of a move, and its decisions::

    power gun SEAT        look at SEAT's hand, then take one card (decision: take)
    power rum             draw players + 1, keep two, give one to each other (give)
    power lantern         draw four, keep one (keep), put the rest back on top (stack)
    power chest P         open the chest tile under your pirate at P
    power parrot PARROT P SYMBOL   two parrots as one SYMBOL card: advance from P
    power hook CARD P     a hook and CARD: two of your pirates at P advance together
    take CARD             the Gun's pick from the target's hand
    give SEAT CARD        the Rum's hand-out: CARD of the drawn ones to SEAT
    keep CARD             the Lantern's card kept
    stack CARD            the Lantern's next card back on the stock (top first)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import InvalidActionError

KINDS = ("advance", "retreat", "morgan", "draw", "end", "discard", "sail", "undo", "power",
         "take", "give", "keep", "stack")
_CARD = re.compile(r"[a-z]{1,16}\*?\Z")
_MAX_POS = 10_000


@dataclass(frozen=True, slots=True)
class Action:
    """One action. ``pos`` is a pirate's position, ``seat`` the owner (Morgan only)."""

    kind: str
    pos: int = -1
    card: str = ""
    seat: int = -1
    cards: tuple[str, ...] = ()
    # Its notation, once written (the shared actions of a game's tables are written often).
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._notation()
            object.__setattr__(self, "_text", text)
        return text

    def _notation(self) -> str:
        k = self.kind
        if k == "advance":
            return f"advance {self.pos} {self.card}"
        if k == "retreat":
            return f"retreat {self.pos}"
        if k == "morgan":
            return f"morgan {self.seat} {self.pos}"
        if k == "discard":
            return "discard " + " ".join(self.cards)
        if k == "power":
            return " ".join(("power", self.card, *_power_args(self)))
        if k == "give":
            return f"give {self.seat} {self.card}"
        if k in ("take", "keep", "stack"):
            return f"{k} {self.card}"
        return k


def notations(actions: list[Action]) -> list[str]:
    """Each action's notation (``str``), without a call for one written already (a
    host writes the actor's legal actions for every state it sends)."""
    return [a._text or str(a) for a in actions]


def _power_args(a: Action) -> tuple[str, ...]:
    power = a.card.removesuffix("*")
    if power == "gun":
        return (str(a.seat),)
    if power == "chest":
        return (str(a.pos),)
    if power == "parrot":
        return (a.cards[0], str(a.pos), a.cards[1])
    if power == "hook":
        return (a.cards[0], str(a.pos))
    return ()


# The words after ``power CARD``, by the card's symbol: s = seat, p = position, c = card.
POWER_ARGS = {"gun": "s", "rum": "", "lantern": "", "chest": "p", "parrot": "cpc",
              "hook": "cp"}


_DIGITS = re.compile(r"[0-9]{1,5}\Z")


def _int(word: str, text: str) -> int:
    # Only ASCII digits are numbers: str.isdigit() also admits '²' or '①', which int()
    # refuses, and int() alone admits '٣' or '+3'.
    if not _DIGITS.match(word) or int(word) > _MAX_POS:
        raise InvalidActionError("notation-number", {"word": repr(word), "text": repr(text)})
    return int(word)


def _card(word: str, text: str) -> str:
    if not _CARD.match(word):
        raise InvalidActionError("notation-card", {"word": repr(word), "text": repr(text)})
    return word


def parse_action(text: str) -> Action:
    """Parse the notation; raise :class:`InvalidActionError` on anything malformed."""
    if not isinstance(text, str) or len(text) > 200:
        raise InvalidActionError("notation-long")
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError("notation-empty")
    kind, args = words[0], words[1:]
    arity = {"advance": 2, "retreat": 1, "morgan": 2, "draw": 0, "end": 0, "sail": 0,
             "undo": 0}
    if kind == "discard":
        if not 1 <= len(args) <= 30:
            raise InvalidActionError("notation-discard")
        return Action("discard", cards=tuple(_card(w, text) for w in args))
    if kind == "power":
        return _parse_power(args, text)
    if kind in ("take", "keep", "stack"):
        if len(args) != 1:
            raise InvalidActionError("notation-one-card", {"kind": repr(kind),
                                                           "text": repr(text)})
        return Action(kind, card=_card(args[0], text))
    if kind == "give":
        if len(args) != 2:
            raise InvalidActionError("notation-give", {"text": repr(text)})
        return Action("give", seat=_int(args[0], text), card=_card(args[1], text))
    if kind not in arity:
        raise InvalidActionError("notation-kind", {"kind": repr(kind), "kinds": ", ".join(KINDS)})
    if len(args) != arity[kind]:
        raise InvalidActionError("notation-arity", {"kind": repr(kind), "n": arity[kind],
                                                    "text": repr(text)})
    if kind == "advance":
        return Action("advance", pos=_int(args[0], text), card=_card(args[1], text))
    if kind == "retreat":
        return Action("retreat", pos=_int(args[0], text))
    if kind == "morgan":
        return Action("morgan", seat=_int(args[0], text), pos=_int(args[1], text))
    return Action(kind)


def _parse_power(args: list[str], text: str) -> Action:
    if not args:
        raise InvalidActionError("notation-power")
    card = _card(args[0], text)
    shape = POWER_ARGS.get(card.removesuffix("*"))
    if shape is None:
        raise InvalidActionError("notation-no-power", {"word": repr(card),
                                                       "powers": ", ".join(POWER_ARGS)})
    rest = args[1:]
    if len(rest) != len(shape):
        example = {"gun": "power gun 1", "rum": "power rum", "lantern": "power lantern",
                   "chest": "power chest 6", "parrot": "power parrot parrot 3 rum",
                   "hook": "power hook rum 3"}[card.removesuffix("*")]
        raise InvalidActionError("notation-power-words", {
            "card": card, "text": repr(text), "example": repr(example)})
    seat, pos, cards = -1, -1, []
    for code, word in zip(shape, rest, strict=True):
        if code == "s":
            seat = _int(word, text)
        elif code == "p":
            pos = _int(word, text)
        else:
            cards.append(_card(word, text))
    return Action("power", pos=pos, card=card, seat=seat, cards=tuple(cards))


END = Action("end")
DRAW = Action("draw")
SAIL = Action("sail")
UNDO = Action("undo")


HANDS_KEPT = 512  # hands (and sets of kinds held) whose advances a board's tables keep
SHARED_KEPT = 4096  # other actions (the powers' and decisions') a board's tables share
TABLES_KEPT = 12  # boards (kinds of cards and length) whose tables are kept for games to come
EAGER_KINDS = 6  # boards of at most this many kinds of cards make every position's at once


class Advances(dict):  # type: ignore[type-arg]
    """One set of kinds' advances at each position (``self[p]``: a tuple, in kind
    order), each made the first time it is asked for: most sets of kinds are held at a
    few positions only, and a board of twelve kinds (the 2017 edition's) meets hundreds
    of sets a game, which made whole rows of every position about 0.9 MB a game's
    tables (issue 62)."""

    __slots__ = ("_kinds", "_rows")

    def __init__(self, rows: list[list[Action]], kinds: tuple[int, ...]) -> None:
        super().__init__()
        self._rows = rows
        self._kinds = kinds

    def __missing__(self, p: int) -> tuple[Action, ...]:
        row = self._rows[p]
        made = self[p] = tuple([row[k] for k in self._kinds])
        return made


class ActionTables:
    """Every action a board of ``length`` positions can need, built once and shared.

    ``legal_actions`` lists these shared objects, the same object for the same action
    in every state of a game, and of every game on a board of the same kinds and
    length (:func:`action_tables`): a search keys its tree by their identity. Actions
    not built here up front (the Black Magic Woman's) are shared through :meth:`one`;
    Morgan's, one row a seat, as seats come (:meth:`seat_rows`)."""

    def __init__(self, names: tuple[str, ...], players: int, length: int) -> None:
        boat = self._boat = length + 1
        self.advance = [
            [Action("advance", pos=p, card=names[k]) for k in range(len(names))]
            for p in range(boat)
        ]
        self.retreat = [Action("retreat", pos=p) for p in range(boat + 1)]
        self.discard = [Action("discard", cards=(n,)) for n in names]
        self._shared: dict[Action, Action] = {}
        # The notation of each action built here, to its object: what a client sends
        # back is most often exactly one of these (anything else is parsed).
        self.by_text: dict[str, Action] = {
            str(a): a for a in (*(a for row in self.advance for a in row), *self.retreat,
                                *self.discard, END, DRAW, SAIL, UNDO)}
        self.morgan: list[list[Action]] = []
        self.seat_rows(players)
        # A hand's advances at each position, by the hand's counts (``by_hand``) and by
        # the kinds it holds: the newest HANDS_KEPT of each are kept.
        self.by_hand: dict[tuple[int, ...], Advances | list[tuple[Action, ...]]] = {}
        self._by_kinds: dict[tuple[int, ...], Advances | list[tuple[Action, ...]]] = {}
        self._lazy = len(names) > EAGER_KINDS

    def seat_rows(self, players: int) -> None:
        """Morgan's actions (``morgan[seat][pos]``) for every seat up to ``players``."""
        morgan = self.morgan
        while len(morgan) < players:
            row = [Action("morgan", seat=len(morgan), pos=p) for p in range(self._boat)]
            morgan.append(row)
            self.by_text.update((str(a), a) for a in row)

    def advances(self, hand: list[int]) -> Advances | list[tuple[Action, ...]]:
        """For a hand (card counts by kind): at each position, the advances with each
        kind it holds, in kind order (``by_hand.get(tuple(hand))`` when seen before).
        On a board of at most six kinds every position's at once (a list: 63 sets of
        kinds at most, and a list is the fastest to read); on one of more, each
        position's when first asked for (:class:`Advances`)."""
        kinds = tuple(k for k, n in enumerate(hand) if n)
        by_pos = self._by_kinds.get(kinds)
        if by_pos is None:
            _make_room(self._by_kinds)
            by_pos = self._by_kinds[kinds] = (
                Advances(self.advance, kinds) if self._lazy
                else [tuple([row[k] for k in kinds]) for row in self.advance])
        _make_room(self.by_hand)
        self.by_hand[tuple(hand)] = by_pos
        return by_pos

    def one(self, action: Action) -> Action:
        """The shared object equal to ``action`` (``action`` itself the first time)."""
        shared = self._shared
        got = shared.get(action)
        if got is None:
            _make_room(shared, SHARED_KEPT)
            got = shared[action] = action
        return got


def _make_room(kept: dict, most: int | None = None) -> None:  # type: ignore[type-arg]
    """Forget the oldest entry of a cache holding ``most`` (HANDS_KEPT) entries, one
    at a time: the newest stay (a dict keeps its keys in the order they came)."""
    if len(kept) >= (HANDS_KEPT if most is None else most):
        del kept[next(iter(kept))]


_TABLES: dict[tuple[tuple[str, ...], int], ActionTables] = {}


def action_tables(names: tuple[str, ...], players: int, length: int) -> ActionTables:
    """The action tables of a board of ``length`` positions and these kinds of cards,
    with Morgan's rows for ``players`` seats: one for every game on such a board, the
    ones that come later included. A host makes a new board every game, mostly of the
    same few kinds and lengths; built a game at a time, each game's tables (a few
    thousand actions and the tuples of their advances, 150 to 250 KB after a game)
    went with its last table, in the middle of other games' memory (issue 62). The
    newest TABLES_KEPT are kept; a game holds its own (``Game.action_tables``), so one
    forgotten here goes when its last game does."""
    key = (names, length)
    tables = _TABLES.pop(key, None)  # put back last: the newest
    if tables is None:
        tables = ActionTables(names, players, length)
        _make_room(_TABLES, TABLES_KEPT)
    else:
        tables.seat_rows(players)
    _TABLES[key] = tables
    return tables
