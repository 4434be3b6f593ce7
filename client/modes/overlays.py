"""Keys that apply above any screen: the help and quit overlays, a line being typed,
the whole-game log, and the two keys every screen shares (``?`` and ``q``)."""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import _
from client.modes import KeyGroup, Modal, Model


class HelpOverlay(Modal):
    """The ``?`` overlay: ↑↓ PgUp/PgDn scroll it where it is longer than the window, any
    other key closes it."""

    name = "help overlay"

    def when(self, m: Model) -> bool:
        return m.overlay == "help"

    def on_key(self, m: Model, key: str) -> None:
        step = {"up": -1, "down": 1, "pageup": -10, "pagedown": 10}.get(key)
        if step is not None:
            m.help_top = max(0, m.help_top + step)  # (render_help holds it to the end)
            return
        m.overlay = None
        m.help_top = 0


class QuitQuestion(Modal):
    """"Quit? y/n": y (and the language's own yes key, Swedish ``j``), Ctrl-C or Enter
    quits, any other key stays."""

    name = "quit question"

    def when(self, m: Model) -> bool:
        return m.overlay == "quit"

    def on_key(self, m: Model, key: str) -> None:
        if key in yes_keys() or key in ("c-c", "enter"):
            m.exit_requested = True
        else:
            m.overlay = None


def yes_keys() -> set[str]:
    """The keys that answer yes: ``y`` in every language, and the language's own
    (``j`` in Swedish, as the resume question's ``[J/n]``), either case."""
    keys = {"y", _("y")}
    return keys | {k.upper() for k in keys}


class TextInput(Modal):
    """A line being typed (chat, name, address, password): Enter submits, Esc drops."""

    name = "text input"

    def when(self, m: Model) -> bool:
        return m.input is not None

    def on_key(self, m: Model, key: str) -> None:
        line = m.input
        assert line is not None
        if key in ("escape", "c-c"):
            m.input = None
        elif key == "backspace":
            line.text = line.text[:-1]
        elif key == "enter":
            m.input = None
            submit(m, line.purpose, line.text.strip())
        elif len(key) == 1 and key.isprintable() and len(line.text) < 400:
            line.text += key
        elif key == "space":
            line.text += " "


def submit(m: Model, purpose: str, text: str) -> None:
    """What a typed line does, by its purpose."""
    if purpose == "chat" and text:
        msg: dict[str, Any] = {"type": "chat", "text": text[:500]}
        if m.table is not None:
            msg["table"] = m.table
        m.send(msg)
    elif purpose == "name" and text:
        m.name = text[:32]
        if m.game_running and m.seat is not None:
            m.set_status(_("name: {name} (this game keeps the name it started with)").format(
                name=m.name))
        else:
            m.set_status(_("name: {name}").format(name=m.name))
        m.send({"type": "_name", "name": m.name})
    elif purpose == "address" and text:
        m.send({"type": "_connect", "address": text})
    elif purpose == "password" and text:
        m.send({"type": "_password", "text": text})
    elif purpose == "table-password" and text and m.joining:
        m.join(m.joining[0], m.joining[1], password=text)


class HelpKey(KeyGroup):
    """``?`` opens the help of the screen below."""

    name = "help key"

    def handle(self, m: Model, key: str) -> bool:
        if key != "?":
            return False
        m.overlay = "help"
        return True


class LogOverlay(Modal):
    """The whole-game log on the full screen: scroll it, any other key closes it."""

    name = "log"

    def when(self, m: Model) -> bool:
        return m.overlay == "log"

    def on_key(self, m: Model, key: str) -> None:
        if key in ("up", "k", "pageup", "home", "down", "j", "pagedown", "end"):
            m.scroll_log(key)
        else:
            m.overlay = None
            m.log_scroll = 0


class QuitKey(KeyGroup):
    """``q`` or Ctrl-C: leave, asking first where leaving ends or pauses a game."""

    name = "quit key"

    def handle(self, m: Model, key: str) -> bool:
        if key not in ("q", "c-c"):
            return False
        if m.gone is None and (m.hosting or (
                m.screen == "game" and m.game_running and m.seat is not None)):
            m.overlay = "quit"
        else:
            m.exit_requested = True
        return True
