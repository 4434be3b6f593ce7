"""Black Magic Woman in the client: what a power or a power's decision does, in words,
with the landing a preview marks on the board (the host decides; this only shows)."""
from __future__ import annotations

from typing import Any

from client.landing import advance_to, place_name

DECISIONS = ("take", "give", "keep", "stack")
POWER_KEY = "v"  # voodoo: the card powers


def color(view: dict[str, Any], seat: Any) -> str:
    for s in view.get("seats") or []:
        if s.get("seat") == seat:
            return str(s.get("color") or f"seat {seat}")
    return f"seat {seat}"


def describe(view: dict[str, Any], action: str) -> tuple[str, int | None, int | None]:
    """(text, landing, from) for a ``power ...`` or decision action."""
    words = action.split()
    kind = words[0]
    if kind == "take":
        power = (view.get("magic") or {}).get("power") or {}
        return f"Gun: take {words[1]} from {color(view, power.get('target'))}", None, None
    if kind == "give":
        return f"Rum: give {words[2]} to {color(view, int(words[1]))}", None, None
    if kind == "keep":
        return f"Lantern: keep {words[1]}", None, None
    if kind == "stack":
        placed = ((view.get("magic") or {}).get("power") or {}).get("placed") or []
        nth = len(placed) + 1
        return (f"Lantern: put {words[1]} back on the stock, "
                f"{'on top' if nth == 1 else f'card {nth} from the top'}"), None, None
    card = words[1]
    power = card.removesuffix("*")
    players = len(view.get("seats") or [])
    if power == "gun":
        return (f"Gun ({card}): look at {color(view, int(words[2]))}'s cards, take one",
                None, None)
    if power == "rum":
        return (f"Rum ({card}): draw {players + 1}, keep 2, give 1 to each other",
                None, None)
    if power == "lantern":
        return (f"Lantern ({card}): draw 4, keep 1, put 3 back in your order",
                None, None)
    if power == "chest":
        pos = int(words[2])
        return (f"Chest ({card}): open the tile at {place_name(view, pos)} (cards, empty "
                "or snake)"), None, pos
    if power == "parrot":
        pos, sym = int(words[3]), words[4]
        land = advance_to(view, pos, sym)
        return (f"Parrots ({card} {words[2]}) as {sym}: {place_name(view, pos)} → "
                f"{place_name(view, land)}"), land, pos
    if power == "hook":
        second, pos = words[2], int(words[3])
        land = advance_to(view, pos, second.removesuffix("*"))
        return (f"Hook ({card} + {second}), two actions: two pirates "
                f"{place_name(view, pos)} → {place_name(view, land)}"), land, pos
    return action, None, None


def magic_lines_text(view: dict[str, Any], me: int | None) -> list[str]:
    """The chests, the power being resolved and what I know of the stock, as lines."""
    m = view.get("magic")
    if not m:
        return []
    closed = [str(c["pos"]) for c in m.get("chests") or [] if c.get("closed")]
    opened = [str(c["pos"]) for c in m.get("chests") or [] if not c.get("closed")]
    line = "chests: " + (", ".join(closed) + " closed" if closed else "none closed")
    if opened:
        line += f" · {', '.join(opened)} opened"
    if m.get("tiles_open"):
        line += f" · tiles seen: {', '.join(m['tiles_open'])}"
    if m.get("tiles_aside"):
        line += f" · {m['tiles_aside']} aside"
    out = [line]
    p = m.get("power")
    if p:
        who = color(view, p.get("seat"))
        if p["kind"] == "gun":
            text = f"Gun: {who} looks at {color(view, p.get('target'))}'s cards"
            if "hand" in p:
                text += f": {' '.join(p['hand'])}"
        elif p["kind"] == "rum":
            text = f"Rum: {who} hands out {p.get('left', 0)} drawn card(s)"
            if "pool" in p:
                text += f": {' '.join(p['pool'])}"
            if p.get("given"):
                text += f" · given to {', '.join(color(view, s) for s in p['given'])}"
        else:
            text = f"Lantern: {who} chooses among {p.get('left', 0)} card(s)"
            if "pool" in p:
                text += f": {' '.join(p['pool'])}"
            if p.get("placed"):
                text += f" · back on top so far (top first): {' '.join(p['placed'])}"
        out.append(text)
    if m.get("known_stock"):
        out.append(f"you know the top of the stock (top first): {' '.join(m['known_stock'])}")
    return out
