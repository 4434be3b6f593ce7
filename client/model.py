"""The client's state and what it knows to ask of it (no I/O, no UI toolkit).

Its reactions are mixed in: to keys from :mod:`client.keys` (one group per mode in
:mod:`client.modes`), to host messages from :mod:`client.follow`.

Messages in and out are plain wire dicts (``{"type": "action", ...}``) so that this
module can be driven and tested without a network. The app turns them into protocol
messages and back.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cartagena_net.engine.actions import Action, parse_action
from cartagena_net.engine.errors import InvalidActionError
from cartagena_net.i18n import _, ngettext
from cartagena_net.i18n.words import bot_row_words
from client.follow import LOG_KEEP, HostFollowing
from client.glyphs import color_name, seat_words, symbol_keys
from client.keys import KeyHandling
from client.learn import ChanceCurve
from client.uistate import CreateForm, InputLine, Preview

DEFAULT_PORT = 41672  # the host's TCP port when an address names none
MOVES = ("advance", "retreat", "morgan", "draw", "discard", "undo", "sail")


@dataclass
class ClientModel(KeyHandling, HostFollowing):
    """Everything the screen shows, and what to send next (``outbox``)."""

    name: str = "player"
    ascii_only: bool = False
    spectate: bool = False  # watching (no seat) now
    watch_only: bool = False  # `cartagena spectate`: the connection only ever watches
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
    # ``legal`` as Action values: (the list they were parsed from, the values)
    _legal_values: tuple[Any, list[Action]] = field(default=(None, []), repr=False,
                                                    compare=False)
    seq: int = 0
    log: list[str] = field(default_factory=list)
    chat: list[tuple[str, str]] = field(default_factory=list)
    status: str = ""
    status_error: bool = False
    overlay: str | None = None  # help | quit
    help_top: int = 0  # the first line of the help shown (it scrolls where it is longer)
    input: InputLine | None = None
    joining: tuple[int, bool] | None = None  # the last join_table sent: (table, spectate)
    join_sent: bool = False  # a join_table is on its way (no second one is sent meanwhile)
    form: CreateForm | None = None
    pirates: list[int] = field(default_factory=list)  # my pirates by stable number - 1
    sel: int | None = None  # index into ``pirates``: the chosen pirate
    history: list[dict[str, Any]] = field(default_factory=list)  # this game's events
    log_scroll: int = 0  # lines scrolled back from the newest
    my_turn_seen: bool = False
    history_whole: bool = False  # the history goes back to the game's first event
    # the players' names when this game ended (seat -> name): its result keeps them
    # when a player leaves the finished table, or another person sits there
    names_at_end: dict[int, str] | None = None
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
    auto_bot_kind: str = "ismcts"  # the kind of bots the new-table form asked for
    exit_requested: bool = False
    hosting: bool = False  # this client runs inside the host: quitting ends every game
    solo: bool = False  # `cartagena play`: quitting ends this game against bots
    game_kept: bool = False  # hosting or solo: a journal keeps the game, offered back next start
    replay_keys: list[tuple[str, str]] | None = None  # the replay viewer's keys (client.replay)
    trouble: str = ""  # the host's own client: what is wrong with the host, shown until fixed
    host_notices: list[dict[str, Any]] = field(default_factory=list)  # lobby.notices (data)
    extra_lines: list[Any] | None = None  # lines drawn above the status (the replay's review)
    saved_seat: dict[str, Any] | None = None  # a seat an earlier run left: offered, not taken
    # every seat this user's earlier runs (or other windows) saved at this host, newest
    # first: the one offered is the newest nobody is connected to
    saved_seats: list[dict[str, Any]] = field(default_factory=list)
    gone: str | None = None  # why this client stopped talking to the host (no retries)
    fresh_log: bool = False
    board_layout: tuple[Any, int] | None = None  # the board's shape kept for a screen size
    outbox: list[dict[str, Any]] = field(default_factory=list)
    chances: ChanceCurve = field(default_factory=ChanceCurve)  # live chances (client.learn)
    hint: dict[str, Any] | None = None  # the last hint the host sent for this position
    presets: list[str] = field(default_factory=list)
    preset_titles: dict[str, str] = field(default_factory=dict)
    option_names: list[str] = field(default_factory=list)
    preset_players: dict[str, tuple[int, int]] = field(default_factory=dict)
    option_specs: list[Any] = field(default_factory=list)  # uistate.OptionSpec, the engine's
    preset_values: dict[str, dict[str, Any]] = field(default_factory=dict)  # each preset's

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
        """An earlier run's seat at this host is kept and nobody is connected to it (of
        several, the newest such becomes :attr:`saved_seat`)."""
        if self.table is not None:
            return False
        for saved in [self.saved_seat, *self.saved_seats]:
            if saved and self._seat_away(saved):
                self.saved_seat = saved
                return True
        return False

    def _seat_away(self, saved: dict[str, Any]) -> bool:
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

    def legal_actions(self) -> list[Action]:
        """The ``legal`` list as the engine's :class:`Action` values, parsed once per
        list (an entry this client cannot read, from a newer host, is left out): keys
        build their action as a value and send its notation."""
        parsed_from, values = self._legal_values
        if parsed_from is not self.legal:
            values = []
            for text in self.legal:
                try:
                    values.append(parse_action(text))
                except InvalidActionError:
                    continue
            self._legal_values = (self.legal, values)
        return values

    def legal_kinds(self) -> set[str]:
        return {a.kind for a in self.legal_actions()}

    def owes_discard(self) -> bool:
        return "discard" in self.legal_kinds()

    def owes_magic(self) -> bool:
        """A power's decision is owed (Gun's take, Rum's give, Lantern's keep/stack)."""
        return bool(self.legal_kinds() & {"take", "give", "keep", "stack"})

    def seat_name(self, seat: int) -> str:
        """The player's name at ``seat`` (from the lobby; in a finished game, as it was
        when the game ended), else its colour."""
        ended = self.names_at_end
        over = ended is not None and bool(self.view) and self.view.get("outcome") is not None
        if over and ended.get(seat):
            return ended[seat]
        info = self.table_info
        if info:
            for s in info.get("seats", []):
                if s.get("seat") == seat and s.get("name"):
                    if over:  # the first name the finished game's seat is seen with stays
                        ended[seat] = str(s["name"])
                    return str(s["name"])
        if self.view:
            for s in self.view["seats"]:
                if s["seat"] == seat:
                    return color_name(str(s["color"])) if s.get("color") else str(seat)
        return seat_words(seat)

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

    # ------------------------------------------------------------------ lobby

    def scoreboard_text(self) -> str:
        """Tonight's scoreboard in one line: ``Tonight: ann 2 wins of 3 · ...``."""
        if not self.scores:
            return ""
        parts = []
        for r in self.scores:
            name = bot_row_words(r.get("player")) if r.get("bot") else f"{r.get('player')}"
            wins, games = int(r.get("wins") or 0), r.get("games", 0)
            parts.append(f"{name} " + ngettext("{n} win of {games}", "{n} wins of {games}",
                                               wins).format(n=wins, games=games))
        note = (" — " + _("a bot's score: every seat of that kind and level, one player in each "
                           "game")
                if any(r.get("bot") for r in self.scores) else "")
        return _("Tonight: {scores}").format(scores=" · ".join(parts)) + note
