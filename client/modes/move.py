"""A seated player's turn: choose a pirate, preview a card, a retreat or a sail, and
confirm; end the turn, draw, undo, or open the power and Morgan choices."""
from __future__ import annotations

from cartagena_net.engine.actions import Action
from cartagena_net.i18n import _, ngettext
from client.glyphs import symbol_name
from client.keymap import SAIL_KEY, UNDO_KEY, KeyPairs, move_keys
from client.landing import advance_to, place_name, retreat_to
from client.modes import Modal, Model
from client.modes.choices import preview_morgan, preview_power
from client.powers import POWER_KEY
from client.uistate import Preview


def select(m: Model, pos: int) -> None:
    m.sel_pos = pos
    m.preview = None
    if m.status_error:
        m.set_status("")


class Move(Modal):
    """The turn's own keys (what is left when no choice is open)."""

    name = "move"

    def help(self, m: Model, now: bool) -> KeyPairs:
        return move_keys(m, now)

    def on_key(self, m: Model, key: str) -> None:
        mine = m.my_positions()
        distinct = sorted(set(mine))
        by_key = {v: k for k, v in m.keys.items()}
        if key.isdigit() and key != "0":
            i = int(key) - 1
            if i < len(mine):
                select(m, mine[i])
                # where several share a place, the lowest-numbered one moves from it (the
                # host's numbers: docs/protocol.md), so that is the one chosen
                m.sel = mine.index(mine[i])
            return
        if key in ("left", "right", "up", "down") and distinct:
            step = 1 if key in ("right", "down") else -1
            cur = distinct.index(m.sel_pos) if m.sel_pos in distinct else 0
            select(m, distinct[(cur + step) % len(distinct)])
            return
        if key == "enter":
            if m.preview:
                m.send_action(m.preview.action)
            else:
                m.set_status(_("nothing to confirm: choose a pirate (1-9) and a card letter "
                               "first"), error=True)
            return
        if key == "escape":
            m.preview = None
            return
        if key == "e":
            if "end" not in m.legal and m.view is not None:
                need = int(m.view.get("actions_min", 1)) - int(m.view.get("actions_taken", 0))
                if need > 0:
                    m.set_status(ngettext(
                        "you cannot end the turn yet: {n} more action is required (play a "
                        "card or retreat)",
                        "you cannot end the turn yet: {n} more actions are required (play a "
                        "card or retreat)", need).format(n=need), error=True)
                    return
            m.try_action("end", _("cannot end the turn now"))
            return
        if key == SAIL_KEY:
            preview_sail(m)
            return
        if key == UNDO_KEY:
            if "undo" in m.legal:
                m.send_action("undo")
            else:
                m.set_status(_("nothing to undo: only an advance or sail that revealed "
                               "nothing, before your next action"), error=True)
            return
        if key == "w":
            m.try_action("draw", _("cannot draw a card (whole turn) now"))
            return
        if key == POWER_KEY:
            if m.power_actions():
                m.mode = "power"
                m.power_index = 0
                preview_power(m, m.power_actions())
            else:
                m.set_status(_("no card power is possible now"), error=True)
            return
        if key == "m":
            if "morgan" in m.legal_kinds():
                m.mode = "morgan"
                m.morgan_index = 0
                preview_morgan(m)
            else:
                m.set_status(_("Morgan is not possible now"), error=True)
            return
        if m.sel_pos is None:
            return
        pos = m.sel_pos
        assert m.view is not None
        view = m.view
        if key == "r":
            retreat = Action("retreat", pos=pos)
            if retreat not in m.legal_actions():
                m.set_status(_("the pirate at {place} cannot retreat").format(
                    place=place_name(view, pos)), error=True)
                return
            res = retreat_to(view, pos)
            land, draw = res if res else (None, 0)
            m.preview = Preview(str(retreat), _("retreat {frm} → {to}, draw {n}").format(
                frm=place_name(view, pos), to=place_name(view, land), n=draw), land, pos)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain = Action("advance", pos=pos, card=sym)
        dark = Action("advance", pos=pos, card=f"{sym}*")
        order = [dark, plain] if key.isupper() else [plain, dark]
        legal = m.legal_actions()
        action = next((a for a in order if a in legal), None)
        if action is None:
            hand = (m.my_seat_view() or {}).get("hand") or []
            held = [c for c in hand if c.rstrip("*") == sym]
            if not held:
                m.set_status(_("you hold no {card}").format(card=symbol_name(sym)), error=True)
            elif key.isupper() and f"{sym}*" not in held:
                m.set_status(_("you hold no dark {card}").format(card=symbol_name(sym)),
                             error=True)
            elif pos == view.get("boat"):
                m.set_status(_("that pirate is already in the {place}: choose another (1-9)")
                             .format(place=place_name(view, pos)), error=True)
            else:
                m.set_status(_("cannot play {card} with the pirate at {place}").format(
                    card=symbol_name(sym), place=place_name(view, pos)), error=True)
            return
        land = advance_to(view, pos, sym)
        m.preview = Preview(str(action), _("play {card}: {frm} → {to}").format(
            card=symbol_name(action.card), frm=place_name(view, pos), to=place_name(view, land)),
            land, pos)


def preview_sail(m: Model) -> None:
    """``f``: where the sloop would go and what it costs, waiting for Enter."""
    view = m.view
    sloop = (view or {}).get("sloop")
    if view is None or not isinstance(sloop, dict):
        m.set_status(_("there is no sloop to sail in this story (story=whole has one)"),
                     error=True)
        return
    here = str(sloop.get("shore") or "cartagena")
    there = "tortuga" if here == "cartagena" else "cartagena"
    if "sail" not in m.legal:
        m.preview = None
        m.set_status(why_no_sail(m, view, here), error=True)
        return
    taken, most = int(view.get("actions_taken", 0)), int(view.get("actions_max", 0))
    if view.get("free_sail") and view.get("captain") == m.seat and not taken:
        cost = _("free, Captain's sail")
    elif most - taken <= 1:
        cost = _("last action, turn ends")
    else:
        cost = _("1 action, {n} left").format(n=most - taken - 1)
    m.preview = Preview("sail", _("sail {frm} → {to}: {cost}").format(
        frm=here.title(), to=there.title(), cost=cost),
                        None, sloop.get("pos"))


def why_no_sail(m: Model, view: dict, shore: str) -> str:
    pos = (view.get("sloop") or {}).get("pos")
    mine = m.my_positions()
    if shore == "cartagena" and pos not in mine:
        return _("the sloop sails to Tortuga only with one of your pirates aboard")
    low = 0 if (view.get("options") or {}).get("jail_in_passage", True) else 1
    if shore == "tortuga" and not any(low <= p < pos for p in mine if isinstance(pos, int)):
        return _("the sloop sails back to Cartagena only while you have a pirate in the "
                 "underground passage")
    return _("you cannot sail the sloop now")
