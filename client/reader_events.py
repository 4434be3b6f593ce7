"""The screen-reader mode's own sentences for some events, beside the engine's
(:func:`cartagena_net.engine.sentences.event_sentence`, which names every seat in the third
person): the reader's own actions said to them in the second person ("You play the hat:
from start to 4", "Your turn."), and a move taken back said as what it undoes (the pirate
goes back, the card returns to the hand), not in the words of the move itself.

Pure functions of an event's data (its ``type`` and fields, docs/protocol.md 4.6): the
caller names seats, places and cards in the reader's language. An event of a kind or
shape not known here gives None: the caller then says the engine's sentence.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cartagena_net.i18n import _, ngettext

Name = Callable[[int], str]
Card = Callable[[str], str]


def _count(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _drawn(e: Mapping[str, Any], card: Card) -> str:
    """The cards drawn by name where they are shown, else how many (as the engine says)."""
    if "cards" in e:
        return ", ".join(card(str(c)) for c in e["cards"]) or _("no card")
    return _count(int(e["drawn"]))


def undo_sentence(e: Mapping[str, Any], who: str, place: Name, card: Card) -> str | None:
    """Another seat's move taken back: what goes back where (None for a sail's, which
    the engine says well: "takes back the sail to Tortuga")."""
    if e.get("action") != "advance":
        return None
    return _("{who} takes back the {card}: the pirate goes back from {frm} to {to}, and the "
             "{card} returns to the hand").format(
        who=who, card=card(str(e["card"])), frm=place(int(e["to"])), to=place(int(e["from"])))


def own_sentence(e: Mapping[str, Any], name: Name, place: Name, card: Card) -> str | None:
    """The reader's own event (its ``seat`` is theirs) in the second person; None for a
    kind not said here."""
    kind = e["type"]
    if kind == "turn":
        return _("Your turn.")
    if kind == "advance":
        return _("You play {card}: from {frm} to {to}").format(
            card=card(str(e["card"])), frm=place(int(e["from"])), to=place(int(e["to"])))
    if kind == "retreat":
        return _("You retreat from {frm} to {to} and draw {what}").format(
            frm=place(int(e["from"])), to=place(int(e["to"])), what=_drawn(e, card))
    if kind == "morgan":
        return _("You move {owner}'s pirate from {frm} to {to} and draw {what}").format(
            owner=name(int(e["owner"])), frm=place(int(e["from"])), to=place(int(e["to"])),
            what=_drawn(e, card))
    if kind == "undo" and e.get("action") == "sail":
        return _("You take back the sail to {shore}").format(shore=str(e["shore"]).title())
    if kind == "undo":
        return _("You take back the {card}: your pirate goes back from {frm} to {to}, and the "
                 "{card} returns to your hand").format(
            card=card(str(e["card"])), frm=place(int(e["to"])), to=place(int(e["from"])))
    if kind == "sail":
        shore = str(e["shore"]).title()
        return (_("You sail the sloop to {shore} (the Captain's free sail)") if e.get("free")
                else _("You sail the sloop to {shore}")).format(shore=shore)
    if kind == "captain":
        return _("You are the Captain (most pirates aboard) and may sail once before the first "
                 "action, free")
    if kind == "draw":
        return _("You have no cards and draw {what} as the whole turn").format(
            what=_drawn(e, card))
    if kind == "discard":
        return _("You discard {card}").format(card=card(str(e["card"])))
    if kind == "owe":
        n = int(e["count"])
        return ngettext("Filibusters! You must discard {n} card",
                        "Filibusters! You must discard {n} cards", n).format(n=n)
    if kind == "end":
        return _("You end the turn")
    if kind == "win":
        return _("You have every pirate in the {goal} and win!").format(goal=place(-1))
    return _own_magic(e, name, place, card)


def _own_magic(e: Mapping[str, Any], name: Name, place: Name, card: Card) -> str | None:
    """The Black Magic Woman's events of the reader's own."""
    kind = e["type"]
    if kind == "power":
        power, played = str(e["power"]), card(str(e["card"]))
        if power == "gun":
            return _("You play {card} for its power: look at {target}'s cards to take one"
                     ).format(card=played, target=name(int(e["target"])))
        if power == "rum":
            return _("You play {card} for its power: draw {n} to keep two and give one to "
                     "each other player").format(card=played, n=int(e["drawn"]))
        if power == "lantern":
            return _("You play {card} for its power: draw {n} to keep one and put the others "
                     "back on top of the stock").format(card=played, n=int(e["drawn"]))
        return None
    if kind == "take":
        if "card" in e:
            return _("You take {card} from {target}, who draws {what}").format(
                card=card(str(e["card"])), target=name(int(e["target"])), what=_drawn(e, card))
        return _("You take a card from {target}, who draws {what}").format(
            target=name(int(e["target"])), what=_drawn(e, card))
    if kind == "give":
        if "card" in e:
            return _("You give {to} {card}").format(to=name(int(e["to"])),
                                                    card=card(str(e["card"])))
        return _("You give {to} a card").format(to=name(int(e["to"])))
    if kind in ("keep", "stack"):
        shown = "cards" in e
        what = (", ".join(card(str(c)) for c in e["cards"]) if shown
                else _count(int(e["count"])))
        if kind == "keep":
            return _("You keep {what}").format(what=what)
        if shown and len(e["cards"]) > 1:
            return _("You put {what} back on top of the stock (top first)").format(what=what)
        return _("You put {what} back on top of the stock").format(what=what)
    if kind == "chest":
        at = place(int(e["pos"]))
        if e["tile"] == "snake":
            return _("You open the chest at {place}: the snake! Back to {to}").format(
                place=at, to=place(int(e["to"])))
        if e["tile"] == "empty":
            return _("You open the chest at {place}: empty").format(place=at)
        return _("You open the chest at {place} and draw {what}").format(
            place=at, what=_drawn(e, card))
    if kind == "parrot":
        return _("You play two parrots as {card}: from {frm} to {to}").format(
            card=card(str(e["card"])), frm=place(int(e["from"])), to=place(int(e["to"])))
    if kind == "hook":
        return _("You hook two pirates with {card}: from {frm} to {to}").format(
            card=card(str(e["cards"][1])), frm=place(int(e["from"])), to=place(int(e["to"])))
    return None


def reader_sentence(e: Mapping[str, Any], me: int | None, name: Name, place: Name,
                    card: Card) -> str | None:
    """The reader's sentence of event ``e`` where it differs from the engine's (``me``:
    the reader's seat, None for a watcher); None where the engine's is said."""
    try:
        seat = e.get("seat")
        if me is not None and seat == me:
            return own_sentence(e, name, place, card)
        if e.get("type") == "undo" and seat is not None:
            return undo_sentence(e, name(int(seat)), place, card)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return None
