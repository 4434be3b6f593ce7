"""The "new table" form of the lobby: its rows, their values, Enter creates the table."""
from __future__ import annotations

from client.modes import Modal, Model
from client.uistate import CreateForm


class NewTableForm(Modal):
    """Up/down (Tab) chooses a row, left/right changes it, letters type the name and
    options, Enter sends ``create_table``, Esc closes the form."""

    name = "new table form"

    def when(self, m: Model) -> bool:
        return m.form is not None

    def on_key(self, m: Model, key: str) -> None:
        f = m.form
        assert f is not None
        field_name = f.FIELDS[f.row]
        if key in ("escape", "c-c"):
            m.form = None
        elif key in ("up", "s-tab"):
            f.row = (f.row - 1) % len(f.FIELDS)
        elif key in ("down", "tab"):
            f.row = (f.row + 1) % len(f.FIELDS)
        elif key in ("left", "right"):
            step = 1 if key == "right" else -1
            lo, hi = m.preset_players.get(f.presets[f.preset], (2, 6))
            if field_name == "rules":
                f.preset = (f.preset + step) % len(f.presets)
                lo, hi = m.preset_players.get(f.presets[f.preset], (2, 6))
            elif field_name == "players":
                f.players += step
            elif field_name == "bots":
                f.bots += step
            f.players = min(hi, max(lo, f.players))
            f.bots = min(f.players - 1, max(0, f.bots))
        elif key == "enter":
            submit_form(m, f)
        elif field_name in ("name", "options"):
            text = getattr(f, field_name)
            if key == "backspace":
                setattr(f, field_name, text[:-1])
            elif key == "space":
                setattr(f, field_name, text + " ")
            elif len(key) == 1 and key.isprintable() and len(text) < 64:
                setattr(f, field_name, text + key)


def submit_form(m: Model, f: CreateForm) -> None:
    try:
        options = f.options_dict()
    except ValueError as exc:
        m.set_status(str(exc), error=True)
        return
    name = f.name.strip() or "table"
    m.send({"type": "create_table", "name": name[:64], "rules": f.presets[f.preset],
            "options": options})
    m.pending_create = name[:64]
    m.auto_bots = f.bots
    m.form = None
    m.set_status(f"creating table {name!r}…")
