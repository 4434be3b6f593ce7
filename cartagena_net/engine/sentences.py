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
        return _sentence(e, color, place, card, tr)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


def _sentence(e: Mapping[str, Any], color: Callable[[int], str],
              place: Callable[[int], str], card: Callable[[str], str],
              tr: Translations) -> str | None:
    _ = tr.gettext
    kind = e["type"]

    def cards(n: int) -> str:
        return tr.ngettext("{n} card", "{n} cards", n).format(n=n)

    def drawn() -> str:
        # The cards by name where the receiver may see them, else only how many.
        if "cards" in e:
            return ", ".join(card(str(c)) for c in e["cards"]) or _("no card")
        return cards(int(e["drawn"]))

    def moved() -> dict[str, str]:
        return {"frm": place(int(e["from"])), "to": place(int(e["to"]))}

    seat = e.get("seat")
    who = color(int(seat)) if seat is not None else ""
    if kind == "advance":
        return _("{who} plays {card}: {frm} → {to}").format(
            who=who, card=card(e["card"]), **moved())
    if kind == "retreat":
        return _("{who} retreats {frm} → {to} and draws {what}").format(
            who=who, what=drawn(), **moved())
    if kind == "morgan":
        return _("{who} moves {owner}'s pirate {frm} → {to} and draws {what}").format(
            who=who, owner=color(int(e["owner"])), what=drawn(), **moved())
    if kind == "undo" and e["action"] == "sail":
        return _("{who} takes back the sail to {shore}").format(
            who=who, shore=str(e["shore"]).title())
    if kind == "undo":
        return _("{who} takes back: {frm} → {to} ({card})").format(
            who=who, card=card(e["card"]), **moved())
    if kind == "sail":
        shore = str(e["shore"]).title()
        if e.get("free"):
            return _("{who} sails the sloop to {shore} (the Captain's free sail)").format(
                who=who, shore=shore)
        return _("{who} sails the sloop to {shore}").format(who=who, shore=shore)
    if kind == "captain":
        return _("{who} is the Captain (most pirates aboard) and may sail once before the "
                 "first action, free").format(who=who)
    if kind == "draw":
        return _("{who} has no cards and draws {what} as the whole turn").format(
            who=who, what=drawn())
    if kind == "discard":
        return _("{who} discards {card}").format(who=who, card=card(e["card"]))
    if kind == "owe":
        n = int(e["count"])
        return tr.ngettext("Filibusters! {who} must discard {n} card",
                           "Filibusters! {who} must discard {n} cards", n).format(who=who, n=n)
    if kind == "reshuffle":
        n = int(e["size"])
        return tr.ngettext("the discard pile is shuffled into a new stock of {n} card",
                           "the discard pile is shuffled into a new stock of {n} cards",
                           n).format(n=n)
    if kind == "row":
        return _("a new face-up row: {cards}").format(
            cards=", ".join(card(str(c)) for c in e["cards"]))
    if kind == "power":
        power = str(e["power"])
        if power == "gun":
            return _("{who} plays {card} for its power: looks at {target}'s cards to take "
                     "one").format(who=who, card=card(e["card"]), target=color(int(e["target"])))
        n = int(e["drawn"])
        if power == "rum":
            return _("{who} plays {card} for its power: draws {n} to keep two and give one to "
                     "each other player").format(who=who, card=card(e["card"]), n=n)
        return _("{who} plays {card} for its power: draws {n} to keep one and put the others "
                 "back on top of the stock").format(who=who, card=card(e["card"]), n=n)
    if kind == "take":
        if "card" in e:
            return _("{who} takes {card} from {target}, who draws {what}").format(
                who=who, card=card(e["card"]), target=color(int(e["target"])), what=drawn())
        return _("{who} takes a card from {target}, who draws {what}").format(
            who=who, target=color(int(e["target"])), what=drawn())
    if kind == "give":
        if "card" in e:
            return _("{who} gives {to} {card}").format(
                who=who, to=color(int(e["to"])), card=card(e["card"]))
        return _("{who} gives {to} a card").format(who=who, to=color(int(e["to"])))
    if kind in ("keep", "stack"):
        shown = "cards" in e
        what = (", ".join(card(str(c)) for c in e["cards"]) if shown
                else cards(int(e["count"])))
        if kind == "keep":
            return _("{who} keeps {what}").format(who=who, what=what)
        if shown and len(e["cards"]) > 1:
            return _("{who} puts {what} back on top of the stock (top first)").format(
                who=who, what=what)
        return _("{who} puts {what} back on top of the stock").format(who=who, what=what)
    if kind == "chest":
        at = place(int(e["pos"]))
        if e["tile"] == "snake":
            return _("{who} opens the chest at {place}: the snake! back to {to}").format(
                who=who, place=at, to=place(int(e["to"])))
        if e["tile"] == "empty":
            return _("{who} opens the chest at {place}: empty").format(who=who, place=at)
        return _("{who} opens the chest at {place} and draws {what}").format(
            who=who, place=at, what=drawn())
    if kind == "tiles":
        return _("all eight chest tiles are shuffled and laid face down again")
    if kind == "parrot":
        return _("{who} plays two parrots as {card}: {frm} → {to}").format(
            who=who, card=card(e["card"]), **moved())
    if kind == "hook":
        return _("{who} hooks two pirates with {card}: {frm} → {to}").format(
            who=who, card=card(e["cards"][1]), **moved())
    if kind == "turn":
        return _("{who}'s turn").format(who=who)
    if kind == "end":
        return _("{who} ends the turn").format(who=who)
    if kind == "win":
        return _("{who} has every pirate in the {goal} and wins!").format(
            who=who, goal=place(-1))
    return None


def english_place(start: str, goal: str, boat: int, sloop: int | None) -> Callable[[int], str]:
    """The host's names of positions: ``start``, a space's number, ``sloop``, the goal
    (``place(-1)`` is the goal too: a ``win`` names it)."""

    def place(p: int) -> str:
        if p == sloop:
            return "sloop"
        return start if p == 0 else goal if p in (boat, -1) else str(p)

    return place
