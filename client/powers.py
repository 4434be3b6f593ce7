"""Black Magic Woman in the client: what a power or a power's decision does, in words,
with the landing a preview marks on the board (the host decides; this only shows)."""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import N_, _, ngettext
from client.glyphs import color_name, seat_words, symbol_name
from client.landing import advance_to, place_name

DECISIONS = ("take", "give", "keep", "stack")
POWER_KEY = "v"  # voodoo: the card powers
TILE_WORDS = {"empty": N_("empty"), "snake": N_("snake")}  # chest tiles with a name


def color(view: dict[str, Any], seat: Any) -> str:
    for s in view.get("seats") or []:
        if s.get("seat") == seat and s.get("color"):
            return color_name(str(s["color"]))
    return seat_words(seat)


def _cards(names: list[Any]) -> str:
    return " ".join(symbol_name(str(c)) for c in names)


def describe(view: dict[str, Any], action: str) -> tuple[str, int | None, int | None]:
    """(text, landing, from) for a ``power ...`` or decision action."""
    words = action.split()
    kind = words[0]
    if kind == "take":
        power = (view.get("magic") or {}).get("power") or {}
        return _("Gun: take {card} from {who}").format(
            card=symbol_name(words[1]), who=color(view, power.get("target"))), None, None
    if kind == "give":
        return _("Rum: give {card} to {who}").format(
            card=symbol_name(words[2]), who=color(view, int(words[1]))), None, None
    if kind == "keep":
        return _("Lantern: keep {card}").format(card=symbol_name(words[1])), None, None
    if kind == "stack":
        placed = ((view.get("magic") or {}).get("power") or {}).get("placed") or []
        nth = len(placed) + 1
        if nth == 1:
            return _("Lantern: put {card} back on the stock, on top").format(
                card=symbol_name(words[1])), None, None
        return _("Lantern: put {card} back on the stock, card {n} from the top").format(
            card=symbol_name(words[1]), n=nth), None, None
    power = words[1].removesuffix("*")
    card = symbol_name(words[1])
    players = len(view.get("seats") or [])
    if power == "gun":
        return (_("Gun ({card}): look at {who}'s cards, take one").format(
            card=card, who=color(view, int(words[2]))), None, None)
    if power == "rum":
        return (_("Rum ({card}): draw {n}, keep 2, give 1 to each other").format(
            card=card, n=players + 1), None, None)
    if power == "lantern":
        return (_("Lantern ({card}): draw 4, keep 1, put 3 back in your order").format(
            card=card), None, None)
    if power == "chest":
        pos = int(words[2])
        return (_("Chest ({card}): open the tile at {place} (cards, empty or snake)").format(
            card=card, place=place_name(view, pos))), None, pos
    if power == "parrot":
        pos, sym = int(words[3]), words[4]
        land = advance_to(view, pos, sym)
        return (_("Parrots ({cards}) as {card}: {frm} → {to}").format(
            cards=f"{card} {symbol_name(words[2])}", card=symbol_name(sym),
            frm=place_name(view, pos), to=place_name(view, land))), land, pos
    if power == "hook":
        second, pos = words[2], int(words[3])
        land = advance_to(view, pos, second.removesuffix("*"))
        return (_("Hook ({card} + {second}), two actions: two pirates {frm} → {to}").format(
            card=card, second=symbol_name(second), frm=place_name(view, pos),
            to=place_name(view, land))), land, pos
    return action, None, None


def magic_lines_text(view: dict[str, Any], me: int | None) -> list[str]:
    """The chests, the power being resolved and what I know of the stock, as lines."""
    m = view.get("magic")
    if not m:
        return []
    closed = [str(c["pos"]) for c in m.get("chests") or [] if c.get("closed")]
    opened = [str(c["pos"]) for c in m.get("chests") or [] if not c.get("closed")]
    line = (_("chests: {places} closed").format(places=", ".join(closed)) if closed
            else _("chests: none closed"))
    if opened:
        line += " · " + _("{places} opened").format(places=", ".join(opened))
    if m.get("tiles_open"):
        line += " · " + _("tiles seen: {tiles}").format(tiles=", ".join(
            _(TILE_WORDS[t]) if t in TILE_WORDS else str(t) for t in m["tiles_open"]))
    if m.get("tiles_aside"):
        line += " · " + _("{n} aside").format(n=m["tiles_aside"])
    out = [line]
    p = m.get("power")
    if p:
        who = color(view, p.get("seat"))
        if p["kind"] == "gun":
            text = _("Gun: {who} looks at {target}'s cards").format(
                who=who, target=color(view, p.get("target")))
            if "hand" in p:
                text += ": " + _cards(p["hand"])
        elif p["kind"] == "rum":
            n = int(p.get("left") or 0)
            text = ngettext("Rum: {who} hands out {n} drawn card",
                            "Rum: {who} hands out {n} drawn cards", n).format(who=who, n=n)
            if "pool" in p:
                text += ": " + _cards(p["pool"])
            if p.get("given"):
                text += " · " + _("given to {who}").format(
                    who=", ".join(color(view, s) for s in p["given"]))
        else:
            n = int(p.get("left") or 0)
            text = ngettext("Lantern: {who} chooses among {n} card",
                            "Lantern: {who} chooses among {n} cards", n).format(who=who, n=n)
            if "pool" in p:
                text += ": " + _cards(p["pool"])
            if p.get("placed"):
                text += " · " + _("back on top so far (top first): {cards}").format(
                    cards=_cards(p["placed"]))
        out.append(text)
    if m.get("known_stock"):
        out.append(_("you know the top of the stock (top first): {cards}").format(
            cards=_cards(m["known_stock"])))
    return out


def move_words(view: dict[str, Any], action: str) -> str:
    """A move in a reader's words (never the engine's notation): ``advance 4 hat`` is
    "hat from 4", a retreat "back from 9", a decision or power as its preview says."""
    words = action.split()
    try:
        kind = words[0]
        if kind == "advance":
            return _("{card} from {place}").format(card=symbol_name(words[2]),
                                                  place=place_name(view, int(words[1])))
        if kind == "retreat":
            return _("back from {place}").format(place=place_name(view, int(words[1])))
        if kind == "morgan":
            seat = int(words[1])
            colour = next((str(s.get("color")) for s in view.get("seats") or ()
                           if s.get("seat") == seat), str(seat))
            return _("Morgan: {color}'s pirate from {place}").format(
                color=color_name(colour), place=place_name(view, int(words[2])))
        if kind == "end":
            return _("end of the turn")
        if kind == "draw":
            return _("draws a card")
        if kind == "sail":
            return _("sails the sloop")
        if kind == "undo":
            return _("takes back the last move")
        if kind == "discard":
            return _("discards {cards}").format(cards=", ".join(symbol_name(w)
                                                                for w in words[1:]))
        return describe(view, action)[0]
    except (IndexError, ValueError, KeyError, TypeError):
        return action
