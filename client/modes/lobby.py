"""The screens before a game: the host browser, connecting, a stopped client, the
lobby's table list and a table's waiting room."""
from __future__ import annotations

from cartagena_net.i18n import _
from client.glyphs import color_name
from client.keymap import (
    KeyPairs,
    browser_keys,
    connecting_keys,
    gone_keys,
    lobby_keys,
    waiting_keys,
)
from client.modes import Modal, Model
from client.uistate import COLORS, CreateForm, add_bot_message

# The bots a table's owner adds: the searching bot at the level the host runs (its
# --level: normal unless told), one of each level (easy: the greedy bot) and a random one
# (client.uistate.BOT_CHOICES).
BOT_KEYS = {"b": "ismcts", "e": "easy", "N": "normal", "H": "hard", "B": "random"}


class Gone(Modal):
    """The client stopped (host gone, wrong address, seat taken elsewhere)."""

    name = "stopped"

    def when(self, m: Model) -> bool:
        return m.gone is not None

    def on_key(self, m: Model, key: str) -> None:
        if key == "r":
            m.send({"type": "_reconnect"})
        elif key in ("a", ":"):
            m.start_input("address", _("address (host[:port]): "))

    def help(self, m: Model, now: bool) -> KeyPairs:
        return gone_keys(m)


class Browser(Modal):
    """Hosts found on the LAN: choose one, or type an address."""

    name = "host browser"

    def when(self, m: Model) -> bool:
        return m.screen == "browser"

    def on_key(self, m: Model, key: str) -> None:
        if key in ("up", "k"):
            m.browser_index = max(0, m.browser_index - 1)
        elif key in ("down", "j"):
            m.browser_index = min(max(0, len(m.hosts) - 1), m.browser_index + 1)
        elif key == "enter" and m.hosts:
            h = m.hosts[min(m.browser_index, len(m.hosts) - 1)]
            m.send({"type": "_connect", "address": f"{h.address}:{h.port}"})
        elif key in ("a", ":"):
            m.start_input("address", _("address (host[:port]): "))
        elif key == "n":
            m.start_input("name", _("your name: "), m.name)

    def help(self, m: Model, now: bool) -> KeyPairs:
        return browser_keys(m)


class Connecting(Modal):
    """Connecting to a host: another address may be typed meanwhile."""

    name = "connecting"

    def when(self, m: Model) -> bool:
        return m.screen == "connecting"

    def on_key(self, m: Model, key: str) -> None:
        if key in ("a", ":"):
            m.start_input("address", _("address (host[:port]): "))

    def help(self, m: Model, now: bool) -> KeyPairs:
        return connecting_keys(m)


class Lobby(Modal):
    """The host's tables: sit, watch, take back a saved seat, a new table, name, colour."""

    name = "lobby"

    def when(self, m: Model) -> bool:
        return m.screen == "lobby" and m.table is None

    def on_key(self, m: Model, key: str) -> None:
        n = len(m.tables)
        if key in ("up", "k"):
            m.lobby_index = max(0, m.lobby_index - 1)
        elif key in ("down", "j"):
            m.lobby_index = min(max(0, n - 1), m.lobby_index + 1)
        elif key == "enter" and n:
            m.join(int(m.tables[m.lobby_index]["id"]))
        elif key == "r" and m.saved_seat_free():
            m.send({"type": "_resume"})
        elif key == "w" and n:
            m.join(int(m.tables[m.lobby_index]["id"]), spectate=True)
        elif key == "t" and not m.spectate:
            m.form = CreateForm(presets=m.presets or ["jamaica"], name=_("table"),
                                specs=tuple(m.option_specs))
        elif key == "n":
            m.start_input("name", _("your name: "), m.name)
        elif key == "o":
            m.color = COLORS[(COLORS.index(m.color) + 1) % len(COLORS)]
            m.set_status(_("colour: {color}").format(
                color=_("any") if m.color == "any" else color_name(m.color)))
        elif key == "c":
            m.start_input("chat", _("say: "))

    def help(self, m: Model, now: bool) -> KeyPairs:
        return lobby_keys(m)


class WaitingRoom(Modal):
    """A table before its game: the owner manages seats and bots and starts."""

    name = "waiting room"

    def when(self, m: Model) -> bool:
        return m.screen == "lobby" and m.table is not None

    def on_key(self, m: Model, key: str) -> None:
        info = m.table_info or {}
        seats = info.get("seats") or []
        if key == "l":
            m.leave()
            return
        if key == "c":
            m.start_input("chat", _("say: "))
            return
        if not m.may_manage():
            if key in ("s", "enter", "x", "d", *BOT_KEYS):
                m.set_status(_("watchers cannot change the table") if m.seat is None else
                             _("only the table's owner can do that; wait for the start"))
            return
        if key in ("up", "k"):
            m.seat_index = max(0, m.seat_index - 1)
        elif key in ("down", "j"):
            m.seat_index = min(max(0, len(seats) - 1), m.seat_index + 1)
        elif key in BOT_KEYS:
            m.send(add_bot_message(m.table, BOT_KEYS[key]))
        elif key == "x" and seats:
            seat = seats[min(m.seat_index, len(seats) - 1)]
            if seat.get("name") and not seat.get("bot"):
                m.set_status(_("a player sits there: only bots and empty seats can be "
                               "removed"), error=True)
                return
            m.send({"type": "remove_bot", "table": m.table, "seat": seat.get("seat")})
            m.seat_index = max(0, min(m.seat_index, len(seats) - 2))
        elif key in ("s", "enter"):
            m.send({"type": "start", "table": m.table})

    def help(self, m: Model, now: bool) -> KeyPairs:
        return waiting_keys(m)
