"""The client's state and its reactions to keys and host messages (no I/O, no UI toolkit).

Messages in and out are plain wire dicts (``{"type": "action", ...}``) so that this
module can be driven and tested without a network. The app turns them into protocol
messages and back.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from client.glyphs import symbol_keys
from client.keys import KeyHandling
from client.plain import plain_error
from client.uistate import CreateForm, InputLine, Preview

DEFAULT_PORT = 41672  # the host's TCP port when an address names none
LOG_KEEP = 5000  # the whole game's log (a game has a few hundred lines)
HISTORY_KEEP = 2000
FULL_VIEW_EVENTS = 20  # a fresh full view carries up to this many recent events
MOVES = ("advance", "retreat", "morgan", "draw", "discard", "undo", "sail")


@dataclass
class ClientModel(KeyHandling):
    """Everything the screen shows, and what to send next (``outbox``)."""

    name: str = "player"
    ascii_only: bool = False
    spectate: bool = False
    screen: str = "connecting"  # browser | connecting | lobby | game
    host_label: str = ""
    discovery_help: list[str] = field(default_factory=list)  # why no host answers (join)
    join_url: str = ""  # where guests play from a browser (the host's own client)
    web_url: str = ""  # the host's web view, shown in the header of the host's own client
    host_id: str = ""
    color: str = "any"
    hosts: list[Any] = field(default_factory=list)
    browser_index: int = 0
    tables: list[dict[str, Any]] = field(default_factory=list)
    scores: list[dict[str, Any]] = field(default_factory=list)  # tonight's scoreboard (lobby)
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
    joining: tuple[int, bool] | None = None  # the last join_table sent: (table, spectate)
    form: CreateForm | None = None
    pirates: list[int] = field(default_factory=list)  # my pirates by stable number - 1
    sel: int | None = None  # index into ``pirates``: the chosen pirate
    history: list[dict[str, Any]] = field(default_factory=list)  # this game's events
    log_scroll: int = 0  # lines scrolled back from the newest
    my_turn_seen: bool = False
    history_whole: bool = False  # the history goes back to the game's first event
    game_started: float | None = None  # monotonic clock: the first state of this game
    game_ended: float | None = None
    preview: Preview | None = None
    mode: str = "move"  # move | morgan | power
    morgan_index: int = 0
    power_index: int = 0  # the power (or a power's decision) offered, Black Magic Woman
    discard_pick: list[str] = field(default_factory=list)
    seat_index: int = 0
    reconnecting: bool = False
    auto_table: int | None = None
    auto_start: bool = False
    pending_create: str | None = None
    auto_bots: int = 0
    exit_requested: bool = False
    hosting: bool = False  # this client runs inside the host: quitting ends every game
    solo: bool = False  # `cartagena play`: quitting ends this game against bots
    replay_keys: list[tuple[str, str]] | None = None  # the replay viewer's keys (client.replay)
    trouble: str = ""  # the host's own client: what is wrong with the host, shown until fixed
    extra_lines: list[Any] | None = None  # lines drawn above the status (the replay's review)
    saved_seat: dict[str, Any] | None = None  # a seat an earlier run left: offered, not taken
    gone: str | None = None  # why this client stopped talking to the host (no retries)
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

    def may_manage(self) -> bool:
        """This person may add bots and start (the owner, or anyone while no owner is known)."""
        if self.seat is None:
            return False
        info = self.table_info
        return info is None or info.get("owner") is None or self.is_owner

    def _my_table_seats(self) -> list[dict[str, Any]]:
        return list((self.table_info or {}).get("seats") or [])

    def absent_seats(self) -> list[int]:
        """Seats whose player is away during the game, with no bot standing in."""
        if not self.game_running:
            return []
        return [int(s["seat"]) for s in self._my_table_seats()
                if s.get("name") and s.get("connected") is False and not s.get("bot")]

    def stand_in_seats(self) -> list[int]:
        """Seats a bot plays for an absent player during the game."""
        if not self.game_running:
            return []
        return [int(s["seat"]) for s in self._my_table_seats()
                if s.get("bot") and s.get("connected") is False]

    def saved_seat_free(self) -> bool:
        """An earlier run's seat at this host is kept and nobody is connected to it."""
        saved = self.saved_seat
        if not saved or self.table is not None:
            return False
        for t in self.tables:
            if t.get("id") == saved.get("table"):
                for s in t.get("seats") or []:
                    if s.get("seat") == saved.get("seat"):
                        return s.get("connected") is False and bool(s.get("name"))
        return False

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
        """My pirates' positions by their stable numbers (pirate number i is index i-1)."""
        return list(self.pirates) if self.my_seat_view() is not None else []

    @property
    def sel_pos(self) -> int | None:
        """The position of the chosen pirate."""
        if self.sel is None or not 0 <= self.sel < len(self.pirates):
            return None
        return self.pirates[self.sel]

    @sel_pos.setter
    def sel_pos(self, pos: int | None) -> None:
        if self.sel_pos == pos:
            return
        self.sel = self.pirates.index(pos) if pos in self.pirates else None

    def game_stats(self) -> dict[str, Any]:
        """This game's numbers from the events seen: turns, and per seat cards played,
        cards drawn and retreats; ``whole`` when the events go back to the start."""
        seats: dict[int, dict[str, int]] = {}
        turns = 0
        for e in self.history:
            kind = e.get("type")
            if kind == "turn":
                turns += 1
            seat = e.get("seat")
            if not isinstance(seat, int):
                continue
            per = seats.setdefault(seat, {"played": 0, "drawn": 0, "retreats": 0})
            if kind == "advance":
                per["played"] += 1
            elif kind == "undo":
                per["played"] = max(0, per["played"] - 1)
            elif kind == "retreat":
                per["retreats"] += 1
            per["drawn"] += int(e.get("drawn") or 0) if kind in ("retreat", "morgan",
                                                                   "draw") else 0
        minutes = None
        if self.game_started is not None and self.game_ended is not None:
            minutes = max(0.0, self.game_ended - self.game_started) / 60.0
        return {"turns": turns, "seats": seats, "whole": self.history_whole,
                "minutes": minutes}

    def my_turn_now(self) -> bool:
        """It is my turn (or a decision is owed by me) and the game is on."""
        return bool(self.legal) and self.game_running and not self.spectate

    def since_my_turn(self) -> list[dict[str, Any]]:
        """The others' moves since my last action (what changed while I waited)."""
        h = self.history
        if self.seat is None:  # a watcher: the last turn played and the one going on
            turns = [i for i, e in enumerate(h) if e.get("type") == "turn"]
            start = turns[-2] if len(turns) >= 2 else 0
            return [x for x in h[start:] if x.get("type") in MOVES]
        start = len(h)
        for i in range(len(h) - 1, -1, -1):
            e = h[i]
            if e.get("type") == "turn" and e.get("seat") == self.seat and start == len(h):
                start = i  # my turn began here; look before it
                continue
            if e.get("seat") == self.seat and e.get("type") in MOVES + ("end",):
                return [x for x in h[i + 1:start] if x.get("type") in MOVES]
        return [x for x in h[:start] if x.get("type") in MOVES]

    def had_a_turn(self) -> bool:
        """I have acted in this game (so "since your last turn" means something). A history
        that does not reach back to the game's start cannot tell: then assume so."""
        if self.seat is None:
            return False
        if not self.history_whole:
            return True
        return any(e.get("seat") == self.seat and e.get("type") in MOVES + ("end",)
                   for e in self.history)

    def last_moved(self) -> set[int]:
        """Where the others' pirates landed since my last action (highlighted on the board)."""
        landed: list[int] = []
        sloop = (self.view or {}).get("sloop") or {}
        for e in self.since_my_turn():
            if e.get("type") == "sail" and "pos" in sloop:  # the sloop's number, underlined
                landed.append(int(sloop["pos"]))
            if "to" not in e:
                continue
            if e.get("from") in landed:  # moved on again: only the last landing shows
                landed.remove(e["from"])
            landed.append(int(e["to"]))
        return set(landed)

    def legal_kinds(self) -> set[str]:
        return {a.split()[0] for a in self.legal if a}

    def owes_discard(self) -> bool:
        return "discard" in self.legal_kinds()

    def owes_magic(self) -> bool:
        """A power's decision is owed (Gun's take, Rum's give, Lantern's keep/stack)."""
        return bool(self.legal_kinds() & {"take", "give", "keep", "stack"})

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

    def scoreboard_text(self) -> str:
        """Tonight's scoreboard in one line: ``Tonight: ann 2 wins of 3 · ...``."""
        if not self.scores:
            return ""
        parts = []
        for r in self.scores:
            name = f"{r.get('player')}{' (bot)' if r.get('bot') else ''}"
            wins, games = r.get("wins", 0), r.get("games", 0)
            parts.append(f"{name} {wins} win{'' if wins == 1 else 's'} of {games}")
        return "Tonight: " + " · ".join(parts)

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        self.tables = list(msg.get("tables") or [])
        self.scores = list(msg.get("scores") or [])
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
        playing = info is not None and info.get("status") == "playing"
        # A finished or waiting table shows its waiting room until a state arrives.
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
        events = [e for e in msg.get("events") or [] if isinstance(e, dict)]
        restart = bool(old and self.view and old.get("outcome") and not self.view.get("outcome"))
        if self.fresh_log or restart:  # a full view repeats the recent events
            self.fresh_log = False
            self.log = [x for x in self.log if x.startswith("<")]
            self.history = []
            self.pirates = []
            # A game seen from its first event: its summary and clock are whole.
            self.history_whole = bool(self.view) and self.seq_is_start(events)
            if self.history_whole or self.game_started is None or restart:
                self.game_started = time.monotonic()
            self.game_ended = None
        if self.view and self.view.get("outcome") and self.game_ended is None:
            self.game_ended = time.monotonic()
        self.history.extend(events)
        del self.history[:-HISTORY_KEEP]
        self.add_log(list(msg.get("lines") or []))
        self._track_pirates(events)
        self.screen = "game"
        self.preview = None
        if (self.status_error and not self.reconnecting) or self.status.startswith("sent: "):
            self.set_status("")
        if not self.owes_discard():
            self.discard_pick.clear()
        if self.mode == "morgan" and "morgan" not in self.legal_kinds():
            self.mode = "move"
        if self.mode == "power":
            self.mode = "move"
        self.power_index = 0
        self._fix_selection()

    def _on_error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code") or "")
        text = plain_error(code, str(msg.get("message") or ""))
        self.preview = None
        if code == "resumed-elsewhere":
            self.stop(f"{text}: this client stopped so the two do not fight over it")
            return
        self.set_status(text, error=True)
        if code == "bad-password" and msg.get("ref") == "join_table" and self.joining:
            self.start_input("table-password", f"password for table {self.joining[0]}: ")

    def _on_chat(self, msg: dict[str, Any]) -> None:
        sender, text = str(msg.get("sender") or "host"), str(msg.get("text") or "")
        self.chat.append((sender, text))
        del self.chat[:-LOG_KEEP]
        self.add_log([f"<{sender}> {text}"])

    def _on_bye(self, msg: dict[str, Any]) -> None:
        self.stop(str(msg.get("reason") or "the host closed the connection"))

    def stop(self, why: str) -> None:
        """The client stops talking to this host (no more retries) and says why."""
        self.gone = why
        self.reconnecting = False
        self.overlay = None
        self.preview = None
        self.set_status(why, error=True)

    def on_disconnect(self, reason: str, will_retry: bool) -> None:
        """The connection dropped."""
        self.reconnecting = will_retry
        self.set_status(reason if will_retry else f"disconnected: {reason}", error=True)

    # ------------------------------------------------------------------ outgoing helpers

    def join(self, table: int, spectate: bool | None = None,
             password: str | None = None) -> None:
        spec = self.spectate if spectate is None else spectate
        msg: dict[str, Any] = {"type": "join_table", "table": table, "seat": None,
                               "spectate": spec, "name": self.name}
        if self.color != "any" and not spec:
            msg["color"] = self.color
        if password:
            msg["password"] = password
        self.joining = (table, spec)  # asked again with a password if the table wants one
        self.send(msg)

    def seq_is_start(self, events: list[dict[str, Any]]) -> bool:
        """A full view whose events go back to the game's start: the host sends the last
        20 events, so fewer mean all of them (as does a board with nobody moved yet)."""
        untouched = all(p == 0 for seat in (self.view or {}).get("seats", [])
                        for p in seat.get("pirates", []))
        return len(events) < FULL_VIEW_EVENTS or untouched

    def _track_pirates(self, events: list[dict[str, Any]]) -> None:
        """Keep each of my pirates' number as they move (numbers never re-rank)."""
        me = self.my_seat_view()
        if me is None:
            self.pirates, self.sel = [], None
            return
        now = sorted(int(p) for p in me["pirates"])
        order = list(self.pirates) if len(self.pirates) == len(now) else []
        moved = None
        for e in events:
            owner = e.get("owner", e.get("seat"))
            if owner != self.seat or "from" not in e or "to" not in e or not order:
                continue
            frm, to = int(e["from"]), int(e["to"])
            if frm not in order:
                continue
            i = self.sel if self.sel is not None and order[self.sel] == frm else order.index(frm)
            order[i] = to
            if e.get("seat") == self.seat:
                moved = i
        if sorted(order) != now:
            # Out of step (a fresh view, an undo): keep every number whose place still
            # matches, give the others the remaining places in order.
            left = list(now)
            kept: list[int | None] = []
            for p in order:
                if p in left:
                    left.remove(p)
                    kept.append(p)
                else:
                    kept.append(None)
            rest = iter(left)
            order = [p if p is not None else next(rest) for p in kept] if order else now
        self.pirates = order
        if moved is not None:
            self.sel = moved  # the selection follows the pirate just moved

    def _fix_selection(self) -> None:
        mine = self.pirates
        if not mine:
            self.sel = None
            return
        if self.sel is not None and 0 <= self.sel < len(mine):
            return
        movable = {int(a.split()[1]) for a in self.legal if a.startswith("advance ")}
        candidates = [i for i, p in enumerate(mine) if p in movable]
        self.sel = (candidates or [0])[0]
