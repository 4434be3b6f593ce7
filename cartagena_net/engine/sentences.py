"""An event as one readable sentence, in any language: the one piece of code behind the
host's English ``text``/``lines`` and each client's own rendering of an event's data.

:func:`event_sentence` reads only an event's data as it goes over the wire (its
``type`` and fields, see docs/protocol.md's event table), never the game's state, so a
client renders a received event exactly as the host would, in the reader's language. The
caller names the things a sentence mentions (a seat's colour, a place, a card) and gives
the translations (any object with ``gettext`` and ``ngettext``, as the standard library's
``gettext`` module makes them); the engine passes English names and no translation, which
gives the host's line. An event of a kind this code does not know gives None: the client
then shows the host's English line.
"""
from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Mapping
from typing import Any, Protocol


class Translations(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


ENGLISH: Translations = _gettext.NullTranslations()


def _same(text: str) -> str:
    return text


def event_sentence(e: Mapping[str, Any], color: Callable[[int], str],
                   place: Callable[[int], str], card: Callable[[str], str] = _same,
                   tr: Translations = ENGLISH) -> str | None:
    """The sentence of event ``e`` (a wire event's map): ``color(seat)`` names a seat,
    ``place(pos)`` a position (start, a space's number, the sloop, the goal), ``card``
    a card's name (``skull``, ``hook*``); ``tr`` translates. None for an unknown kind or
    an event whose fields do not fit its kind."""
    try:
        seat = e.get("seat")
        who = color(int(seat)) if seat is not None else ""
        make = _KINDS.get(e["type"])
        return None if make is None else make(e, who, color, place, card, tr)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


# One function for each kind of event, made once (a host makes a sentence for every event
# it sends): ``make(e, who, color, place, card, tr)``, ``who`` the acting seat's name ("" for
# an event without a seat). Each says its words in ``tr.gettext``/``tr.ngettext`` calls
# of literals, where the catalogs' extractor finds them.
_Make = Callable[[Mapping[str, Any], str, Callable[[int], str], Callable[[int], str],
                  Callable[[str], str], Translations], "str | None"]


def _cards(n: int, tr: Translations) -> str:
    return tr.ngettext("{n} card", "{n} cards", n).format(n=n)


def _drawn(e: Mapping[str, Any], card: Callable[[str], str], tr: Translations) -> str:
    """The cards drawn by name where the receiver may see them, else only how many."""
    if "cards" in e:
        return ", ".join(card(str(c)) for c in e["cards"]) or tr.gettext("no card")
    return _cards(int(e["drawn"]), tr)


def _advance(e, who, color, place, card, tr):
    return tr.gettext("{who} plays {card}: {frm} → {to}").format(
        who=who, card=card(e["card"]), frm=place(int(e["from"])), to=place(int(e["to"])))


def _retreat(e, who, color, place, card, tr):
    return tr.gettext("{who} retreats {frm} → {to} and draws {what}").format(
        who=who, what=_drawn(e, card, tr), frm=place(int(e["from"])),
        to=place(int(e["to"])))


def _morgan(e, who, color, place, card, tr):
    return tr.gettext("{who} moves {owner}'s pirate {frm} → {to} and draws {what}").format(
        who=who, owner=color(int(e["owner"])), what=_drawn(e, card, tr),
        frm=place(int(e["from"])), to=place(int(e["to"])))


def _undo(e, who, color, place, card, tr):
    if e["action"] == "sail":
        return tr.gettext("{who} takes back the sail to {shore}").format(
            who=who, shore=str(e["shore"]).title())
    return tr.gettext("{who} takes back: {frm} → {to} ({card})").format(
        who=who, card=card(e["card"]), frm=place(int(e["from"])), to=place(int(e["to"])))


def _sail(e, who, color, place, card, tr):
    shore = str(e["shore"]).title()
    if e.get("free"):
        return tr.gettext("{who} sails the sloop to {shore} (the Captain's free sail)").format(
            who=who, shore=shore)
    return tr.gettext("{who} sails the sloop to {shore}").format(who=who, shore=shore)


def _captain(e, who, color, place, card, tr):
    return tr.gettext("{who} is the Captain (most pirates aboard) and may sail once before "
                      "the first action, free").format(who=who)


def _draw(e, who, color, place, card, tr):
    return tr.gettext("{who} has no cards and draws {what} as the whole turn").format(
        who=who, what=_drawn(e, card, tr))


def _discard(e, who, color, place, card, tr):
    return tr.gettext("{who} discards {card}").format(who=who, card=card(e["card"]))


def _owe(e, who, color, place, card, tr):
    n = int(e["count"])
    return tr.ngettext("Filibusters! {who} must discard {n} card",
                       "Filibusters! {who} must discard {n} cards", n).format(who=who, n=n)


def _reshuffle(e, who, color, place, card, tr):
    n = int(e["size"])
    return tr.ngettext("the discard pile is shuffled into a new stock of {n} card",
                       "the discard pile is shuffled into a new stock of {n} cards",
                       n).format(n=n)


def _row(e, who, color, place, card, tr):
    return tr.gettext("a new face-up row: {cards}").format(
        cards=", ".join(card(str(c)) for c in e["cards"]))


def _power(e, who, color, place, card, tr):
    power = str(e["power"])
    if power == "gun":
        return tr.gettext("{who} plays {card} for its power: looks at {target}'s cards to "
                          "take one").format(who=who, card=card(e["card"]),
                                             target=color(int(e["target"])))
    n = int(e["drawn"])
    if power == "rum":
        return tr.gettext("{who} plays {card} for its power: draws {n} to keep two and give "
                          "one to each other player").format(who=who, card=card(e["card"]), n=n)
    return tr.gettext("{who} plays {card} for its power: draws {n} to keep one and put the "
                      "others back on top of the stock").format(who=who, card=card(e["card"]),
                                                                n=n)


def _take(e, who, color, place, card, tr):
    if "card" in e:
        return tr.gettext("{who} takes {card} from {target}, who draws {what}").format(
            who=who, card=card(e["card"]), target=color(int(e["target"])),
            what=_drawn(e, card, tr))
    return tr.gettext("{who} takes a card from {target}, who draws {what}").format(
        who=who, target=color(int(e["target"])), what=_drawn(e, card, tr))


def _give(e, who, color, place, card, tr):
    if "card" in e:
        return tr.gettext("{who} gives {to} {card}").format(
            who=who, to=color(int(e["to"])), card=card(e["card"]))
    return tr.gettext("{who} gives {to} a card").format(who=who, to=color(int(e["to"])))


def _keep_or_stack(e, who, color, place, card, tr):
    shown = "cards" in e
    what = (", ".join(card(str(c)) for c in e["cards"]) if shown
            else _cards(int(e["count"]), tr))
    if e["type"] == "keep":
        return tr.gettext("{who} keeps {what}").format(who=who, what=what)
    if shown and len(e["cards"]) > 1:
        return tr.gettext("{who} puts {what} back on top of the stock (top first)").format(
            who=who, what=what)
    return tr.gettext("{who} puts {what} back on top of the stock").format(who=who, what=what)


def _chest(e, who, color, place, card, tr):
    at = place(int(e["pos"]))
    if e["tile"] == "snake":
        return tr.gettext("{who} opens the chest at {place}: the snake! back to {to}").format(
            who=who, place=at, to=place(int(e["to"])))
    if e["tile"] == "empty":
        return tr.gettext("{who} opens the chest at {place}: empty").format(who=who, place=at)
    return tr.gettext("{who} opens the chest at {place} and draws {what}").format(
        who=who, place=at, what=_drawn(e, card, tr))


def _tiles(e, who, color, place, card, tr):
    return tr.gettext("all eight chest tiles are shuffled and laid face down again")


def _parrot(e, who, color, place, card, tr):
    return tr.gettext("{who} plays two parrots as {card}: {frm} → {to}").format(
        who=who, card=card(e["card"]), frm=place(int(e["from"])), to=place(int(e["to"])))


def _hook(e, who, color, place, card, tr):
    return tr.gettext("{who} hooks two pirates with {card}: {frm} → {to}").format(
        who=who, card=card(e["cards"][1]), frm=place(int(e["from"])), to=place(int(e["to"])))


def _turn(e, who, color, place, card, tr):
    return tr.gettext("{who}'s turn").format(who=who)


def _end(e, who, color, place, card, tr):
    return tr.gettext("{who} ends the turn").format(who=who)


def _win(e, who, color, place, card, tr):
    return tr.gettext("{who} has every pirate in the {goal} and wins!").format(
        who=who, goal=place(-1))


_KINDS: dict[str, _Make] = {
    "advance": _advance, "retreat": _retreat, "morgan": _morgan, "undo": _undo,
    "sail": _sail, "captain": _captain, "draw": _draw, "discard": _discard, "owe": _owe,
    "reshuffle": _reshuffle, "row": _row, "power": _power, "take": _take, "give": _give,
    "keep": _keep_or_stack, "stack": _keep_or_stack, "chest": _chest, "tiles": _tiles,
    "parrot": _parrot, "hook": _hook, "turn": _turn, "end": _end, "win": _win,
}


def english_place(start: str, goal: str, boat: int, sloop: int | None) -> Callable[[int], str]:
    """The host's names of positions: ``start``, a space's number, ``sloop``, the goal
    (``place(-1)`` is the goal too: a ``win`` names it)."""

    def place(p: int) -> str:
        if p == sloop:
            return "sloop"
        return start if p == 0 else goal if p in (boat, -1) else str(p)

    return place
