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
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidActionError

KINDS = ("advance", "retreat", "morgan", "draw", "end", "discard", "sail", "undo")
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

    def __str__(self) -> str:
        k = self.kind
        if k == "advance":
            return f"advance {self.pos} {self.card}"
        if k == "retreat":
            return f"retreat {self.pos}"
        if k == "morgan":
            return f"morgan {self.seat} {self.pos}"
        if k == "discard":
            return "discard " + " ".join(self.cards)
        return k


_DIGITS = re.compile(r"[0-9]{1,5}\Z")


def _int(word: str, text: str) -> int:
    # Only ASCII digits are numbers: str.isdigit() also admits '²' or '①', which int()
    # refuses, and int() alone admits '٣' or '+3'.
    if not _DIGITS.match(word) or int(word) > _MAX_POS:
        raise InvalidActionError(f"{word!r} is not a position or seat number in {text!r}")
    return int(word)


def _card(word: str, text: str) -> str:
    if not _CARD.match(word):
        raise InvalidActionError(f"{word!r} is not a card name in {text!r}")
    return word


def parse_action(text: str) -> Action:
    """Parse the notation; raise :class:`InvalidActionError` on anything malformed."""
    if not isinstance(text, str) or len(text) > 200:
        raise InvalidActionError("an action is a short text, e.g. 'advance 0 skull'")
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionError("empty action")
    kind, args = words[0], words[1:]
    arity = {"advance": 2, "retreat": 1, "morgan": 2, "draw": 0, "end": 0, "sail": 0,
             "undo": 0}
    if kind == "discard":
        if not 1 <= len(args) <= 30:
            raise InvalidActionError("discard names 1 to 30 cards, e.g. 'discard skull key'")
        return Action("discard", cards=tuple(_card(w, text) for w in args))
    if kind not in arity:
        raise InvalidActionError(f"unknown action {kind!r}; one of: {', '.join(KINDS)}")
    if len(args) != arity[kind]:
        raise InvalidActionError(f"{kind!r} takes {arity[kind]} argument(s): {text!r}")
    if kind == "advance":
        return Action("advance", pos=_int(args[0], text), card=_card(args[1], text))
    if kind == "retreat":
        return Action("retreat", pos=_int(args[0], text))
    if kind == "morgan":
        return Action("morgan", seat=_int(args[0], text), pos=_int(args[1], text))
    return Action(kind)


END = Action("end")
DRAW = Action("draw")
SAIL = Action("sail")
UNDO = Action("undo")


class ActionTables:
    """Every action a board of ``length`` positions can need, built once and shared."""

    def __init__(self, names: tuple[str, ...], players: int, length: int) -> None:
        boat = length + 1
        self.advance = [
            [Action("advance", pos=p, card=names[k]) for k in range(len(names))]
            for p in range(boat)
        ]
        self.retreat = [Action("retreat", pos=p) for p in range(boat + 1)]
        self.morgan = [
            [Action("morgan", seat=s, pos=p) for p in range(boat)] for s in range(players)
        ]
        self.discard = [Action("discard", cards=(n,)) for n in names]
