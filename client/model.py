"""The client's state and its reactions to keys and host messages (no I/O, no UI toolkit).

Messages in and out are plain wire dicts (``{"type": "action", ...}``) so that this
module can be driven and tested without a network. The app turns them into protocol
messages and back.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from client.glyphs import symbol_keys
from client.landing import advance_to, morgan_to, retreat_to

LOG_KEEP = 200
COLORS = ("any", "red", "blue", "yellow", "green", "purple", "grey")
BOT_KINDS = ("greedy", "random")


@dataclass
class InputLine:
    """A line being typed: a chat message, an address, a name."""

    purpose: str
    prompt: str
    text: str = ""


@dataclass
class CreateForm:
    """The "new table" form in the lobby."""

    presets: list[str]
    preset: int = 0
    players: int = 4
    bots: int = 0
    name: str = "table"
    options: str = ""
    row: int = 0

    FIELDS = ("rules", "players", "bots", "name", "options")

    def options_dict(self) -> dict[str, Any]:
        """``k=v`` words as an options map (ints and booleans recognised)."""
        out: dict[str, Any] = {}
        for word in self.options.split():
            key, sep, val = word.partition("=")
            if not sep or not key:
                raise ValueError(f"option {word!r} is not KEY=VALUE")
            out[key] = parse_value(val)
        out["players"] = self.players
        return out


def parse_value(val: str) -> int | str | bool:
    """An option value from text: int, bool or str."""
    low = val.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(val)
    except ValueError:
        return val


@dataclass
class Preview:
    """An action shown with its result, waiting for Enter."""

    action: str
    text: str
    landing: int | None = None
    origin: int | None = None


@dataclass
class ClientModel:
    """Everything the screen shows, and what to send next (``outbox``)."""

    name: str = "player"
    ascii_only: bool = False
    spectate: bool = False
    screen: str = "connecting"  # browser | connecting | lobby | game
    host_label: str = ""
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
    outbox: list[dict[str, Any]] = field(default_factory=list)
    presets: list[str] = field(default_factory=list)

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

    # ------------------------------------------------------------------ keys

    def on_key(self, key: str) -> None:
        """React to one key (``"a"``, ``"A"``, ``"enter"``, ``"left"``, ``"c-c"``, ...)."""
        if self.overlay == "help":
            self.overlay = None
            return
        if self.overlay == "quit":
            if key in ("y", "Y", "c-c", "enter"):
                self.exit_requested = True
            else:
                self.overlay = None
            return
        if self.input is not None:
            self._key_input(key)
            return
        if self.form is not None:
            self._key_form(key)
            return
        if key == "?":
            self.overlay = "help"
            return
        if key in ("q", "c-c"):
            if self.screen == "game" and self.game_running and self.seat is not None:
                self.overlay = "quit"
            else:
                self.exit_requested = True
            return
        handler = getattr(self, f"_key_{self.screen}", None)
        if handler is not None:
            handler(key)

    # -- text input

    def _key_input(self, key: str) -> None:
        line = self.input
        assert line is not None
        if key == "escape":
            self.input = None
        elif key == "backspace":
            line.text = line.text[:-1]
        elif key == "enter":
            self.input = None
            self._submit(line.purpose, line.text.strip())
        elif len(key) == 1 and key.isprintable() and len(line.text) < 400:
            line.text += key
        elif key == "space":
            line.text += " "

    def _submit(self, purpose: str, text: str) -> None:
        if purpose == "chat" and text:
            msg: dict[str, Any] = {"type": "chat", "text": text[:500]}
            if self.table is not None:
                msg["table"] = self.table
            self.send(msg)
        elif purpose == "name" and text:
            self.name = text[:32]
            self.set_status(f"name: {self.name} (used when you next sit down)")
        elif purpose == "address" and text:
            self.send({"type": "_connect", "address": text})

    def start_input(self, purpose: str, prompt: str, text: str = "") -> None:
        self.input = InputLine(purpose, prompt, text)

    # -- host browser

    def _key_browser(self, key: str) -> None:
        if key in ("up", "k"):
            self.browser_index = max(0, self.browser_index - 1)
        elif key in ("down", "j"):
            self.browser_index = min(max(0, len(self.hosts) - 1), self.browser_index + 1)
        elif key == "enter" and self.hosts:
            h = self.hosts[min(self.browser_index, len(self.hosts) - 1)]
            self.send({"type": "_connect", "address": f"{h.address}:{h.port}"})
        elif key in ("a", ":"):
            self.start_input("address", "address (host[:port]): ")
        elif key == "n":
            self.start_input("name", "your name: ", self.name)

    # -- lobby and waiting room

    def _key_lobby(self, key: str) -> None:
        if self.table is not None:
            self._key_waiting(key)
            return
        n = len(self.tables)
        if key in ("up", "k"):
            self.lobby_index = max(0, self.lobby_index - 1)
        elif key in ("down", "j"):
            self.lobby_index = min(max(0, n - 1), self.lobby_index + 1)
        elif key == "enter" and n:
            self.join(int(self.tables[self.lobby_index]["id"]))
        elif key == "w" and n:
            self.join(int(self.tables[self.lobby_index]["id"]), spectate=True)
        elif key == "t" and not self.spectate:
            self.form = CreateForm(presets=self.presets or ["jamaica"])
        elif key == "n":
            self.start_input("name", "your name: ", self.name)
        elif key == "o":
            self.color = COLORS[(COLORS.index(self.color) + 1) % len(COLORS)]
            self.set_status(f"colour: {self.color}")
        elif key == "c":
            self.start_input("chat", "say: ")

    def _key_waiting(self, key: str) -> None:
        info = self.table_info or {}
        seats = info.get("seats") or []
        if key in ("up", "k"):
            self.seat_index = max(0, self.seat_index - 1)
        elif key in ("down", "j"):
            self.seat_index = min(max(0, len(seats) - 1), self.seat_index + 1)
        elif key in ("b", "B"):
            kind = "greedy" if key == "b" else "random"
            self.send({"type": "add_bot", "table": self.table, "seat": None, "kind": kind})
        elif key == "x" and seats:
            seat = seats[min(self.seat_index, len(seats) - 1)]
            self.send({"type": "remove_bot", "table": self.table, "seat": seat.get("seat")})
        elif key in ("s", "enter"):
            self.send({"type": "start", "table": self.table})
        elif key == "l":
            self.leave()
        elif key == "c":
            self.start_input("chat", "say: ")

    def leave(self) -> None:
        if self.table is not None:
            self.send({"type": "leave", "table": self.table})
        self.table = None
        self.seat = None
        self.view = None
        self.legal = []
        self.log.clear()
        self.screen = "lobby"
        self.spectate = False

    # -- create-table form

    def _key_form(self, key: str) -> None:
        f = self.form
        assert f is not None
        field_name = f.FIELDS[f.row]
        if key == "escape":
            self.form = None
        elif key in ("up", "s-tab"):
            f.row = (f.row - 1) % len(f.FIELDS)
        elif key in ("down", "tab"):
            f.row = (f.row + 1) % len(f.FIELDS)
        elif key in ("left", "right"):
            step = 1 if key == "right" else -1
            if field_name == "rules":
                f.preset = (f.preset + step) % len(f.presets)
            elif field_name == "players":
                f.players = min(6, max(1, f.players + step))
            elif field_name == "bots":
                f.bots = min(f.players - 1, max(0, f.bots + step))
        elif key == "enter":
            self._submit_form(f)
        elif field_name in ("name", "options"):
            text = getattr(f, field_name)
            if key == "backspace":
                setattr(f, field_name, text[:-1])
            elif key == "space":
                setattr(f, field_name, text + " ")
            elif len(key) == 1 and key.isprintable() and len(text) < 64:
                setattr(f, field_name, text + key)

    def _submit_form(self, f: CreateForm) -> None:
        try:
            options = f.options_dict()
        except ValueError as exc:
            self.set_status(str(exc), error=True)
            return
        name = f.name.strip() or "table"
        self.send({"type": "create_table", "name": name[:64], "rules": f.presets[f.preset],
                   "options": options})
        self.pending_create = name[:64]
        self.auto_bots = f.bots
        self.form = None
        self.set_status(f"creating table {name!r}…")

    # -- game

    def _key_game(self, key: str) -> None:
        if key == "c":
            self.start_input("chat", "say: ")
            return
        if self.game_over:
            if key in ("p", "enter") and self.seat is not None:
                self.send({"type": "start", "table": self.table})
                self.set_status("asked for another game with the same table")
            elif key == "l":
                self.leave()
            return
        if self.spectate or self.seat is None:
            if key == "l":
                self.leave()
            return
        browsing = key in ("left", "right", "up", "down") or key.isdigit()
        if not self.legal and not browsing:
            self.set_status("not your turn")
            return
        if self.owes_discard():
            self._key_discard(key)
            return
        if self.mode == "morgan":
            self._key_morgan(key)
            return
        self._key_move(key)

    def _select(self, pos: int) -> None:
        self.sel_pos = pos
        self.preview = None
        if self.status_error:
            self.set_status("")

    def _key_move(self, key: str) -> None:
        mine = self.my_positions()
        distinct = sorted(set(mine))
        keys = self.keys
        by_key = {v: k for k, v in keys.items()}
        if key.isdigit() and key != "0":
            i = int(key) - 1
            if i < len(mine):
                self._select(mine[i])
            return
        if key in ("left", "right", "up", "down") and distinct:
            step = 1 if key in ("right", "down") else -1
            cur = distinct.index(self.sel_pos) if self.sel_pos in distinct else 0
            self._select(distinct[(cur + step) % len(distinct)])
            return
        if key == "enter":
            if self.preview:
                self.send_action(self.preview.action)
            return
        if key == "escape":
            self.preview = None
            return
        if key == "e":
            self.try_action("end", "end the turn")
            return
        if key == "w":
            self.try_action("draw", "draw a card (whole turn)")
            return
        if key == "m":
            if "morgan" in self.legal_kinds():
                self.mode = "morgan"
                self.morgan_index = 0
                self._preview_morgan()
            else:
                self.set_status("Morgan is not possible now", error=True)
            return
        if self.sel_pos is None:
            return
        pos = self.sel_pos
        if key == "r":
            action = f"retreat {pos}"
            if action not in self.legal:
                self.set_status(f"the pirate at {pos} cannot retreat", error=True)
                return
            assert self.view is not None
            res = retreat_to(self.view, pos)
            land, draw = res if res else (None, 0)
            self.preview = Preview(action, f"retreat {pos} → {land}, draw {draw}", land, pos)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain, dark = f"advance {pos} {sym}", f"advance {pos} {sym}*"
        order = [dark, plain] if key.isupper() else [plain, dark]
        action = next((a for a in order if a in self.legal), None)
        if action is None:
            self.set_status(f"cannot play {sym} with the pirate at {pos}", error=True)
            return
        assert self.view is not None
        land = advance_to(self.view, pos, sym)
        boat = self.view.get("boat")
        where = "the boat" if land == boat else str(land)
        card = action.split()[-1]
        self.preview = Preview(action, f"play {card}: {pos} → {where}", land, pos)

    def try_action(self, action: str, what: str) -> None:
        if action in self.legal:
            self.send_action(action)
        else:
            self.set_status(f"cannot {what} now", error=True)

    def send_action(self, action: str) -> None:
        self.send({"type": "action", "table": self.table, "seq": self.seq, "action": action})
        self.preview = None
        self.set_status(f"sent: {action}")

    def morgan_actions(self) -> list[str]:
        return [a for a in self.legal if a.startswith("morgan ")]

    def _preview_morgan(self) -> None:
        acts = self.morgan_actions()
        if not acts or self.view is None:
            self.mode = "move"
            self.preview = None
            return
        self.morgan_index %= len(acts)
        action = acts[self.morgan_index]
        _, seat, pos = action.split()
        land, draw = morgan_to(self.view, int(pos))
        who = self.seat_color(int(seat)) or f"seat {seat}"
        self.preview = Preview(action, f"Morgan: push {who} {pos} → {land}, draw {draw}",
                               land, int(pos))

    def _key_morgan(self, key: str) -> None:
        if key in ("left", "right", "up", "down", "m"):
            self.morgan_index += -1 if key in ("left", "up") else 1
            self._preview_morgan()
        elif key == "enter" and self.preview:
            self.send_action(self.preview.action)
            self.mode = "move"
        elif key == "escape":
            self.mode = "move"
            self.preview = None

    def _key_discard(self, key: str) -> None:
        by_key = {v: k for k, v in self.keys.items()}
        discards = [a for a in self.legal if a.startswith("discard ")]
        singles = all(len(a.split()) == 2 for a in discards)
        if key == "backspace":
            if self.discard_pick:
                self.discard_pick.pop()
            self.preview = None
            return
        if key == "escape":
            self.discard_pick.clear()
            self.preview = None
            return
        if key == "enter":
            if self.preview is not None:
                self.send_action(self.preview.action)
                return
            want = Counter(self.discard_pick)
            for a in discards:
                if Counter(a.split()[1:]) == want:
                    self.send_action(a)
                    self.discard_pick.clear()
                    return
            self.set_status("that discard is not allowed; pick the number owed", error=True)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain, dark = sym, sym + "*"
        order = [dark, plain] if key.isupper() else [plain, dark]
        if singles:
            action = next((f"discard {c}" for c in order if f"discard {c}" in discards), None)
            if action is None:
                self.set_status(f"you have no {sym} to discard", error=True)
                return
            self.preview = Preview(action, action)
            return
        me = self.my_seat_view() or {}
        hand = Counter(me.get("hand") or [])
        picked = Counter(self.discard_pick)
        card = next((c for c in order if picked[c] < hand[c]), None)
        if card is None:
            self.set_status(f"you have no more {sym} to discard", error=True)
            return
        self.discard_pick.append(card)
