"""The "new table" form of the lobby: its rows, their values, Enter creates the table."""
from __future__ import annotations

from cartagena_net.i18n import _
from client.modes import Modal, Model
from client.uistate import BOT_KINDS, CreateForm

TEXT_ROWS = ("name", "options", "password")


class NewTableForm(Modal):
    """Up/down (Tab) chooses a row, left/right (or space) changes it, letters type the
    name, the password, the options and the typed option values, Enter sends
    ``create_table``, Esc closes the form."""

    name = "new table form"

    def when(self, m: Model) -> bool:
        return m.form is not None

    def on_key(self, m: Model, key: str) -> None:
        f = m.form
        assert f is not None
        rows = f.FIELDS
        field_name = rows[f.row]
        spec = f.spec(field_name)
        if key in ("escape", "c-c"):
            m.form = None
        elif key in ("up", "s-tab"):
            f.row = (f.row - 1) % len(rows)
        elif key in ("down", "tab"):
            f.row = (f.row + 1) % len(rows)
        elif key in ("left", "right") or (key == "space" and field_name in ("hints",
                                                                              "chances")):
            step = -1 if key == "left" else 1
            lo, hi = m.preset_players.get(f.presets[f.preset], (2, 6))
            if field_name == "rules":
                f.preset = (f.preset + step) % len(f.presets)
                lo, hi = m.preset_players.get(f.presets[f.preset], (2, 6))
            elif field_name == "players":
                f.players += step
            elif field_name == "bots":
                f.bots += step
            elif field_name == "hints":
                f.hints = not f.hints
            elif field_name == "chances":
                f.chances = not f.chances
            elif field_name == "bot_kind":
                at = BOT_KINDS.index(f.bot_kind) if f.bot_kind in BOT_KINDS else 0
                f.bot_kind = BOT_KINDS[(at + step) % len(BOT_KINDS)]
            elif spec is not None:
                steps = spec.steps()
                now = f.chosen.get(spec.name)
                at = steps.index(now) if now in steps else 0
                f.chosen[spec.name] = steps[(at + step) % len(steps)]
            f.players = min(hi, max(lo, f.players))
            f.bots = min(f.players - 1, max(0, f.bots))
        elif key == "enter":
            submit_form(m, f)
        elif field_name in TEXT_ROWS or (spec is not None and spec.typed):
            text = (getattr(f, field_name) if spec is None
                    else str(f.chosen.get(spec.name) or ""))
            if key == "backspace":
                text = text[:-1]
            elif key == "space":
                text += " "
            elif len(key) == 1 and key.isprintable() and len(text) < 64:
                text += key
            else:
                return
            if spec is None:
                setattr(f, field_name, text)
            else:
                f.chosen[spec.name] = text or None


def submit_form(m: Model, f: CreateForm) -> None:
    try:
        options = f.options_dict()
    except ValueError as exc:
        m.set_status(str(exc), error=True)
        return
    name = f.name.strip() or _("table")
    msg = {"type": "create_table", "name": name[:64], "rules": f.presets[f.preset],
           "options": options}
    if f.hints:
        msg["hints"] = True
    if f.chances:
        msg["player_chances"] = True
    if f.password:
        msg["password"] = f.password
    m.send(msg)
    m.pending_create = name[:64]
    m.auto_bots = f.bots
    m.auto_bot_kind = f.bot_kind
    m.form = None
    m.set_status(_("creating table {name}…").format(name=repr(name)))
