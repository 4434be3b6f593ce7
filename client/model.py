"""The client's state and its reactions to keys and host messages (no I/O, no UI toolkit).

Messages in and out are plain wire dicts (``{"type": "action", ...}``) so that this
module can be driven and tested without a network. The app turns them into protocol
messages and back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from client.glyphs import symbol_keys
from client.keys import KeyHandling
from client.uistate import CreateForm, InputLine, Preview

LOG_KEEP = 200


@dataclass
class ClientModel(KeyHandling):
    """Everything the screen shows, and what to send next (``outbox``)."""

    name: str = "player"
    ascii_only: bool = False
    spectate: bool = False
    screen: str = "connecting"  # browser | connecting | lobby | game
    host_label: str = ""
    web_url: str = ""  # the host's web view, shown in the header of the host's own client
    host_id: str = ""
    color: str = "any"
    hosts: list[Any] = field(default_factory=list)
    browser_index: int = 0
    tables: list[dict[str, Any]] = field(default_factory=list)
    lobby_index: int = 0
    table: int | None = None
    seat: int | None = None
    token: str | None = None
    view: dict[str, Any] | None = None
    legal: list[str] = field(default_factory=list)
    seq: int = 0
    log: list[str] = field(default_factory=list)
    chat: list[tuple[str, str]] = field(default_factory=list)
    status: str = ""
    status_error: bool = False
    overlay: str | None = None  # help | quit
    input: InputLine | None = None
    form: CreateForm | None = None
    sel_pos: int | None = None
    preview: Preview | None = None
    mode: str = "move"  # move | morgan
    morgan_index: int = 0
    discard_pick: list[str] = field(default_factory=list)
    seat_index: int = 0
    reconnecting: bool = False
    auto_table: int | None = None
    auto_start: bool = False
    pending_create: str | None = None
    auto_bots: int = 0
    exit_requested: bool = False
    fresh_log: bool = False
    outbox: list[dict[str, Any]] = field(default_factory=list)
    presets: list[str] = field(default_factory=list)
    preset_titles: dict[str, str] = field(default_factory=dict)
    option_names: list[str] = field(default_factory=list)
    preset_players: dict[str, tuple[int, int]] = field(default_factory=dict)

    # ------------------------------------------------------------------ queries

    @property
    def table_info(self) -> dict[str, Any] | None:
        """The lobby entry of the table we sit at (or watch)."""
        for t in self.tables:
            if t.get("id") == self.table:
                return t
        return None

    @property
    def is_owner(self) -> bool:
        info = self.table_info
        return bool(info) and self.seat is not None and info.get("owner") == self.seat

    @property
    def game_over(self) -> bool:
        return bool(self.view and self.view.get("outcome"))

    @property
    def game_running(self) -> bool:
        return self.view is not None and not self.game_over and self.table is not None

    @property
    def keys(self) -> dict[str, str]:
        """Symbol → key letter for the current ruleset."""
        return symbol_keys(self.view["symbols"]) if self.view else {}

    def my_seat_view(self) -> dict[str, Any] | None:
        if not self.view or self.seat is None:
            return None
        for s in self.view["seats"]:
            if s["seat"] == self.seat:
                return s
        return None

    def my_positions(self) -> list[int]:
        """My pirates' positions, sorted (pirate number i is index i-1)."""
        me = self.my_seat_view()
        return sorted(me["pirates"]) if me else []

    def legal_kinds(self) -> set[str]:
        return {a.split()[0] for a in self.legal if a}

    def owes_discard(self) -> bool:
        return "discard" in self.legal_kinds()

    def seat_name(self, seat: int) -> str:
        """The player's name at ``seat`` (from the lobby), else its colour."""
        info = self.table_info
        if info:
            for s in info.get("seats", []):
                if s.get("seat") == seat and s.get("name"):
                    return str(s["name"])
        if self.view:
            for s in self.view["seats"]:
                if s["seat"] == seat:
                    return str(s.get("color", seat))
        return f"seat {seat}"

    def seat_color(self, seat: int | None) -> str:
        if self.view and seat is not None:
            for s in self.view["seats"]:
                if s["seat"] == seat:
                    return str(s.get("color", ""))
        return ""

    # ------------------------------------------------------------------ helpers

    def send(self, msg: dict[str, Any]) -> None:
        self.outbox.append(msg)

    def take_outbox(self) -> list[dict[str, Any]]:
        out, self.outbox = self.outbox, []
        return out

    def set_status(self, text: str, error: bool = False) -> None:
        self.status = text
        self.status_error = error

    def add_log(self, lines: list[str]) -> None:
        self.log.extend(str(x) for x in lines)
        del self.log[:-LOG_KEEP]

    # ------------------------------------------------------------------ host messages

    def on_message(self, msg: dict[str, Any]) -> None:
        """Update from one wire dict sent by the host."""
        kind = msg.get("type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.host_id = str(msg.get("host_id") or "")
        was_reconnecting, self.reconnecting = self.reconnecting, False
        resumed = msg.get("resumed")
        if resumed:
            self.table = resumed.get("table")
            self.seat = resumed.get("seat")
            self.spectate = False
            self.screen = "game" if self.view else "lobby"
            self.set_status("reconnected: back in your seat")
            self.fresh_log = True
            return
        self.screen = "lobby"
        if was_reconnecting and self.table is not None:
            table, spectating = self.table, self.spectate
            self.table = self.seat = None
            if spectating:
                self.join(table, spectate=True)
                self.set_status("reconnected")
                return
            self.view = None
            self.set_status("reconnected, but the seat could not be restored", error=True)
            return
        self.set_status(f"connected to {msg.get('host_name') or self.host_label}")

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        self.tables = list(msg.get("tables") or [])
        self.lobby_index = min(self.lobby_index, max(0, len(self.tables) - 1))
        auto = self.auto_table
        if auto is None and self.spectate and self.table is None and len(self.tables) == 1:
            auto = self.tables[0].get("id")
        if self.table is None and any(t.get("id") == auto for t in self.tables):
            self.join(int(auto))  # type: ignore[arg-type]
            self.auto_table = None

    def _on_joined(self, msg: dict[str, Any]) -> None:
        self.table = msg.get("table")
        self.seat = msg.get("seat")
        self.spectate = self.seat is None
        self.pending_create = None
        self.fresh_log = True
        if msg.get("token"):
            self.token = str(msg["token"])
        info = self.table_info
        playing = info is not None and info.get("status") != "waiting"
        self.screen = "game" if (self.view or playing) else "lobby"
        where = f"table {self.table}"
        self.set_status(
            f"watching {where}" if self.seat is None else f"seated at {where}, seat {self.seat}"
        )
        for _ in range(self.auto_bots if self.seat is not None else 0):
            self.send({"type": "add_bot", "table": self.table, "seat": None, "kind": "greedy"})
        self.auto_bots = 0
        if self.auto_start and self.seat is not None:
            self.auto_start = False
            self.send({"type": "start", "table": self.table})

    def _on_state(self, msg: dict[str, Any]) -> None:
        if self.table is not None and msg.get("table") not in (None, self.table):
            return
        old = self.view
        self.view = msg.get("view") or None
        self.legal = [str(a) for a in msg.get("legal") or []]
        self.seq = int(msg.get("seq") or 0)
        if self.fresh_log:  # a full view repeats the recent events
            self.fresh_log = False
            self.log = [x for x in self.log if x.startswith("<")]
        self.add_log(list(msg.get("lines") or []))
        self.screen = "game"
        self.preview = None
        if (self.status_error and not self.reconnecting) or self.status.startswith("sent: "):
            self.set_status("")
        if old and self.view and old.get("outcome") and not self.view.get("outcome"):
            self.log.clear()
        if not self.owes_discard():
            self.discard_pick.clear()
        if self.mode == "morgan" and "morgan" not in self.legal_kinds():
            self.mode = "move"
        self._fix_selection()

    def _on_error(self, msg: dict[str, Any]) -> None:
        self.set_status(f"{msg.get('code')}: {msg.get('message')}", error=True)
        self.preview = None

    def _on_chat(self, msg: dict[str, Any]) -> None:
        sender, text = str(msg.get("sender") or "host"), str(msg.get("text") or "")
        self.chat.append((sender, text))
        del self.chat[:-LOG_KEEP]
        self.add_log([f"<{sender}> {text}"])

    def _on_bye(self, msg: dict[str, Any]) -> None:
        self.set_status(f"host said bye: {msg.get('reason')}", error=True)

    def on_disconnect(self, reason: str, will_retry: bool) -> None:
        """The connection dropped."""
        self.reconnecting = will_retry
        if will_retry:
            self.set_status(f"reconnecting… ({reason})", error=True)
        else:
            self.set_status(f"disconnected: {reason}", error=True)

    # ------------------------------------------------------------------ outgoing helpers

    def join(self, table: int, spectate: bool | None = None) -> None:
        spec = self.spectate if spectate is None else spectate
        msg: dict[str, Any] = {"type": "join_table", "table": table, "seat": None,
                               "spectate": spec, "name": self.name}
        if self.color != "any" and not spec:
            msg["color"] = self.color
        self.send(msg)

    def _fix_selection(self) -> None:
        mine = self.my_positions()
        if not mine:
            self.sel_pos = None
            return
        if self.sel_pos in mine:
            return
        movable = {int(a.split()[1]) for a in self.legal if a.startswith("advance ")}
        candidates = [p for p in mine if p in movable]
        self.sel_pos = (candidates or mine)[0]
