"""Keys of the choices inside a turn: a discard owed (Filibusters), a power's decision
owed (Gun's take, Rum's give, Lantern's keep/stack), choosing a card power (``v``,
Black Magic Woman) and choosing whom Morgan pushes (``m``). Each previews the chosen
action; Enter sends it."""
from __future__ import annotations

from collections import Counter

from client.keymap import KeyPairs, discard_keys, magic_keys, morgan_keys, power_keys
from client.landing import morgan_to, place_name
from client.modes import Modal, Model
from client.powers import DECISIONS, POWER_KEY, describe
from client.uistate import Preview


def preview_power(m: Model, acts: list[str]) -> None:
    """Show the power (or decision) at ``m.power_index`` among ``acts``."""
    if not acts or m.view is None:
        m.mode = "move"
        m.preview = None
        return
    m.power_index %= len(acts)
    action = acts[m.power_index]
    text, land, frm = describe(m.view, action)
    more = f" ({m.power_index + 1}/{len(acts)} ←→)" if len(acts) > 1 else ""
    m.preview = Preview(action, text + more, land, frm)


def preview_morgan(m: Model) -> None:
    """Show the Morgan push at ``m.morgan_index``."""
    acts = m.morgan_actions()
    if not acts or m.view is None:
        m.mode = "move"
        m.preview = None
        return
    m.morgan_index %= len(acts)
    action = acts[m.morgan_index]
    _, seat, pos = action.split()
    land, draw = morgan_to(m.view, int(pos), int(seat))
    who = m.seat_color(int(seat)) or f"seat {seat}"
    m.preview = Preview(action, (f"Morgan: push {who} {place_name(m.view, int(pos))}"
                                 f" → {place_name(m.view, land)}, draw {draw}"),
                        land, int(pos))


def key_power(m: Model, key: str, acts: list[str]) -> None:
    """Choose a power (``v``), or a power's decision, by ←→ or a card's letter."""
    if key in ("left", "right", "up", "down", POWER_KEY):
        m.power_index += -1 if key in ("left", "up") else 1
        preview_power(m, acts)
    elif key == "enter":
        if m.preview:
            m.send_action(m.preview.action)
            m.mode = "move"
        else:  # nothing chosen yet: show the first choice
            preview_power(m, acts)
    elif key == "escape":
        m.mode = "move"
        m.preview = None
    elif len(key) == 1 and key.lower() in {v: k for k, v in m.keys.items()}:
        sym = {v: k for k, v in m.keys.items()}[key.lower()]
        cards = [sym + "*", sym] if key.isupper() else [sym, sym + "*"]
        for card in cards:  # capital: dark first
            for i, a in enumerate(acts):
                w = a.split()
                if card in (w[1], w[-1]) and (w[0] != "power" or w[1] == card):
                    m.power_index = i
                    preview_power(m, acts)
                    return
        m.set_status(f"no {sym} choice now", error=True)
    elif key.isdigit() and acts and acts[0].startswith("give "):
        for i, a in enumerate(acts):
            if a.split()[1] == key:
                m.power_index = i
                preview_power(m, acts)
                return


class Discard(Modal):
    """A discard is owed: letters pick cards, Backspace takes one back, Enter discards."""

    name = "discard owed"

    def when(self, m: Model) -> bool:
        return bool(m.owes_discard())

    def help(self, m: Model, now: bool) -> KeyPairs | None:
        return discard_keys(m) if now else None

    def on_key(self, m: Model, key: str) -> None:
        by_key = {v: k for k, v in m.keys.items()}
        discards = [a for a in m.legal if a.startswith("discard ")]
        singles = all(len(a.split()) == 2 for a in discards)
        if key == "backspace":
            if m.discard_pick:
                m.discard_pick.pop()
            m.preview = None
            return
        if key == "escape":
            m.discard_pick.clear()
            m.preview = None
            return
        if key == "enter":
            if m.preview is not None:
                m.send_action(m.preview.action)
                return
            want = Counter(m.discard_pick)
            for a in discards:
                if Counter(a.split()[1:]) == want:
                    m.send_action(a)
                    m.discard_pick.clear()
                    return
            m.set_status("that discard is not allowed; pick the number owed", error=True)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain, dark = sym, sym + "*"
        order = [dark, plain] if key.isupper() else [plain, dark]
        if singles:
            action = next((f"discard {c}" for c in order if f"discard {c}" in discards), None)
            if action is None:
                m.set_status(f"you have no {sym} to discard", error=True)
                return
            m.preview = Preview(action, action)
            return
        me = m.my_seat_view() or {}
        hand = Counter(me.get("hand") or [])
        picked = Counter(m.discard_pick)
        card = next((c for c in order if picked[c] < hand[c]), None)
        if card is None:
            m.set_status(f"you have no more {sym} to discard", error=True)
            return
        m.discard_pick.append(card)


class MagicDecision(Modal):
    """A power's decision is owed (take, give to whom, keep, stack)."""

    name = "power decision"

    def when(self, m: Model) -> bool:
        return bool(m.owes_magic())

    def help(self, m: Model, now: bool) -> KeyPairs | None:
        return magic_keys(m) if now else None

    def on_key(self, m: Model, key: str) -> None:
        key_power(m, key, [a for a in m.legal if a.split()[0] in DECISIONS])


class PowerChoice(Modal):
    """``v`` was pressed: choose a card power to release."""

    name = "card powers"

    def when(self, m: Model) -> bool:
        return m.mode == "power"

    def help(self, m: Model, now: bool) -> KeyPairs | None:
        return power_keys(m) if now else None

    def on_key(self, m: Model, key: str) -> None:
        key_power(m, key, m.power_actions())


class MorganChoice(Modal):
    """``m`` was pressed: choose whose pirate Morgan pushes."""

    name = "Morgan"

    def when(self, m: Model) -> bool:
        return m.mode == "morgan"

    def help(self, m: Model, now: bool) -> KeyPairs | None:
        return morgan_keys(m) if now else None

    def on_key(self, m: Model, key: str) -> None:
        if key in ("left", "right", "up", "down", "m"):
            m.morgan_index += -1 if key in ("left", "up") else 1
            preview_morgan(m)
        elif key == "enter" and m.preview:
            m.send_action(m.preview.action)
            m.mode = "move"
        elif key == "escape":
            m.mode = "move"
            m.preview = None
