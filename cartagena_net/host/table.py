"""A table: the coordinator of its parts, which the lobby, connections and web seats use.

:class:`Table` holds a table's fields (its seats, its game's state, its journal...) and
hands each job to one collaborator, each in its own module:

- ``sitting`` (:mod:`~cartagena_net.host.sitting`): who sits: seats, tokens, the owner,
  bots' seats, takeovers and stand-ins;
- ``bots`` (:mod:`~cartagena_net.host.tablebots`): the bots at the table: when they
  move, their searches on the pool, fallback, answers, and hints;
- ``viewers`` (:mod:`~cartagena_net.host.viewers`): what each viewer receives: state
  frames, broadcasts, spectators, web watchers, and the live chances;
- ``coach`` (:mod:`~cartagena_net.host.coach`): what each viewer was told of hidden
  cards, the live chances' estimates and the hints' searches;
- ``attendance`` (:mod:`~cartagena_net.host.attendance`): pause, grace and abandon of a
  game nobody plays or watches;
- ``play`` (:mod:`~cartagena_net.host.play`): the game's course: start, act, apply,
  the journal and the records.

The game itself (its state, seq, status, the events sent, the last good state's
counts, a fault) has one owner, ``match``, a :class:`~cartagena_net.host.game.TableGame`:
the table's ``state``, ``seq``, ``status``... only read it, and only its methods
change it (``play`` as the game goes, ``restore`` from a journal).

Each collaborator reaches the table through a small protocol of its own module and
never imports this one; the table routes a connection's arrivals and departures
between them, and wires what one helper's work sets off in another as callbacks (after
a broadcast: the bots' ``schedule`` and the coach's ``turn``; a spectators' state for
the web view's watchers: the web's ``publish_state``), so that no helper calls back
into the one that called it.
"""
from __future__ import annotations

import random
from typing import Any

from cartagena_net.host import gamerec
from cartagena_net.host.attendance import Attendance
from cartagena_net.host.coach import Coach
from cartagena_net.host.errors import HostError
from cartagena_net.host.game import Status, TableGame
from cartagena_net.host.passwords import StoredPassword
from cartagena_net.host.play import Play
from cartagena_net.host.seats import Seat
from cartagena_net.host.sitting import Sitting
from cartagena_net.host.tablebots import TableBots
from cartagena_net.host.viewers import Viewers


class Table:
    """One table of a host. ``host`` is the :class:`HostService` that owns it."""

    def __init__(
        self,
        host: Any,
        table_id: int,
        name: str,
        rules: str,
        options: dict[str, Any],
        password: StoredPassword | None = None,
        spectators: bool = True,
        open_journal: bool = True,
        creator: str | None = None,
        hints: bool = False,
        player_chances: bool = False,
    ) -> None:
        self.host = host
        self.id = table_id
        self.name = name
        self.rules = rules
        self.options = dict(options)
        self.game = host.game_for(rules, self.options)
        self.password = password  # a hash, never the password itself
        self.allow_spectators = spectators
        self.creator = creator  # the address that created it (a per-address cap counts it)
        colors = gamerec.seat_colors(self.game)
        self.seats = [Seat(i, c) for i, c in enumerate(colors)]
        self.owner: int | None = None
        self.spectators: set[Any] = set()
        self.match = TableGame()  # the game: its one owner
        self.bot_fallbacks = 0  # bot searches that failed here (the bot's fallback played)
        self.journal_failing = False  # the last journal write failed (a full disk)
        self.journal_error: dict[str, str] = {}  # why it failed (portable.files.error_fields)
        # this game came back shorter from a damaged journal (restore.py): said to all
        self.journal_damage: Any = None
        self.paused = False  # a client's bots-only game nobody plays or watches
        self.paused_since = 0.0
        self.entry_cache: dict[str, Any] | None = None
        seed = getattr(getattr(host, "config", None), "seed", None)
        self.rng = random.Random(random.SystemRandom().getrandbits(64) if seed is None
                                 else seed)
        self.sitting = Sitting(self)
        self.bots = TableBots(self, apply=lambda seat, text: self.play.apply(seat, text))
        self.viewers = Viewers(self, watched=self._watched, publish=self._publish)
        self.attendance = Attendance(self)
        # Live chances for the room (the host's choice) and, the owner's choices, hints
        # and the players' own chances.
        live = bool(getattr(getattr(host, "config", None), "live_chances", False))
        self.player_chances = player_chances
        self.coach = Coach(self, live=live, hints=hints,
                           on_chances=lambda: self.viewers.chances_ready(),
                           keep=lambda point: self.play.journal_chances(point))
        # A seeded host (practice, tests) deals from its own seeded RNG; else the OS's.
        self.play = Play(self, None if seed is None else gamerec.deal_rng(seed))
        # After each broadcast: a bot's search first (the chances take only an idle
        # worker), then the live chances of the new position.
        self.viewers.after_broadcast.extend((self.bots.schedule, self.coach.turn))
        self.journal: Any = host.open_journal(table_id) if open_journal else None

    # -- the game (read here; changed only through ``match``) -------------------

    @property
    def state(self) -> Any:
        """The engine's state of the game (None before the first)."""
        return self.match.state

    @property
    def seq(self) -> int:
        return self.match.seq

    @property
    def status(self) -> str:
        """``waiting``, ``playing`` or ``finished`` (as the lobby says it)."""
        return self.match.status.value

    @property
    def sent_events(self) -> int:
        return self.match.sent_events

    @property
    def faulted(self) -> bool:
        return self.match.faulted

    @property
    def started_at(self) -> float | None:
        return self.match.started_at

    @property
    def game_seq(self) -> int:
        return self.match.game_seq

    # -- the web view's watchers (wired into the viewers) ------------------------

    def _watched(self) -> bool:
        web = self.host.web
        return web is not None and web.watching(self.id)

    def _publish(self, spectator_wire: dict[str, Any], full: bool) -> None:
        web = self.host.web
        if web is not None:
            web.publish_state(self, spectator_wire, full)

    # -- lobby information -------------------------------------------------

    def lobby_entry(self) -> dict[str, Any]:
        """The table as listed in ``lobby`` (never the password); cached until it changes."""
        if self.entry_cache is None:
            self.entry_cache = self._entry()
        return self.entry_cache

    def _entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "options": dict(self.options),
            "status": self.status,
            "spectators": len(self.spectators) + self.viewers.web_watchers(),
            "password": self.password is not None,
            "owner": self.owner,
            "seats": [s.public(None if self.host.config.bot_think is not None
                               else self.host.config.bot_level) for s in self.seats],
            "hints": self.coach.hints,
            "player_chances": self.player_chances,
            "notices": self.notices(),
        }

    def notices(self) -> list[dict[str, Any]]:
        """What went wrong at this table, as data every seat's client says in its own
        words (docs/protocol.md 4.4): its game is paused because the disk refuses its
        journal; its game came back from a damaged journal shorter than it was."""
        out: list[dict[str, Any]] = []
        if self.journal_failing:
            out.append({"kind": "journal-failed", **self.journal_error})
        if self.journal_damage is not None:
            data = self.journal_damage.to_data()
            out.append({k: (v[:300] if isinstance(v, str) else v) for k, v in data.items()})
        return out

    def free_seats(self) -> int:
        return 0 if self.playing else sum(1 for s in self.seats if not s.occupied)

    def summary(self) -> dict[str, Any]:
        """The table as announced by discovery."""
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "status": self.status,
            "free": self.free_seats(),
            "seats": len(self.seats),
            "password": self.password is not None,
        }

    @property
    def playing(self) -> bool:
        """A game is on (seats are kept for their tokens)."""
        return self.match.status is Status.PLAYING

    def members(self) -> list[Any]:
        """Every live connection at this table (seated players and spectators)."""
        out = [s.conn for s in self.seats if s.conn is not None]
        out.extend(self.spectators)
        return out

    # -- arriving and leaving ------------------------------------------------

    def check_password(self, password: str | None, address: str = "web") -> None:
        """HostError ``bad-password`` unless ``password`` opens this table, decided at once
        (the web view; a client's ``join_table`` waits for a throttled check instead)."""
        if self.password is None:
            return
        refused = self.host.passwords.check_now(address, password, self.password,
                                                f"table {self.id}")
        if refused is not None:
            raise HostError("bad-password", refused)

    def sit(self, conn: Any, seat: int | None, name: str, color: str | None) -> Seat:
        """Seat ``conn`` (a new player) and return the seat; the first to sit owns it."""
        return self.sitting.sit(conn, seat, name, color)

    def check_spectators(self) -> None:
        self.viewers.check_spectators()

    def spectate(self, conn: Any) -> None:
        self.viewers.spectate(conn)

    def vacant(self) -> bool:
        """Nobody to keep this table for: no game on, no spectator, and no human seated
        (waiting) or no human still connected (finished). Bot seats do not count.
        A vacant table a client created is removed at once (:meth:`remove_if_vacant`)."""
        if self.playing or self.spectators:
            return False
        if self.match.status is Status.FINISHED:
            return not any(s.human and s.conn is not None for s in self.seats)
        return not any(s.human for s in self.seats)

    def remove_if_vacant(self) -> bool:
        """A client's table that is vacant goes (the host's own tables stay)."""
        if self.creator is not None and self.vacant():
            self.host.remove_table(self)
            return True
        return False

    def leave(self, conn: Any) -> None:
        """``conn`` leaves: a spectator goes; a seat is freed before the start, kept after."""
        if self.viewers.drop_spectator(conn):
            return
        seat = self.sitting.seat_of(conn)
        if seat is None:
            return
        if self.playing:
            self.sitting.detach(conn)
        else:
            self.sitting.leave_seat(seat)

    def detach(self, conn: Any) -> None:
        """The connection behind a seat went away: the seat is kept for its token."""
        if self.viewers.drop_spectator(conn):
            return
        self.sitting.detach(conn)

    def attach(self, conn: Any, seat: Seat) -> None:
        """A player came back with its token: restore the seat, send a fresh full view."""
        self.sitting.attach(conn, seat)
        if self.match.state is not None:
            conn.write_state(self.id, self.host.encode_wire(self.viewers.full_state(seat.index)))

    def find_token(self, token: str) -> Seat | None:
        return self.sitting.find_token(token)

    # -- owner commands ------------------------------------------------------

    def add_bot(self, conn: Any | None, seat: int | None, kind: str,
                level: str | None = None) -> Seat:
        return self.sitting.add_bot(conn, seat, kind, level)

    def remove_bot(self, conn: Any, seat: int) -> None:
        """Remove a bot; during a game, stop a stand-in bot; before it, remove an empty seat."""
        self.sitting.remove_bot(conn, seat)

    def start(self, conn: Any | None) -> None:
        """Start (or, when finished, play again with the same seats)."""
        self.play.start(conn)

    # -- playing -------------------------------------------------------------

    def act(self, conn: Any, seq: int, text: str) -> None:
        """A player's action: checked by the engine; nothing changes if it is refused."""
        self.play.act(conn, seq, text)

    def full_state(self, viewer: Any) -> dict[str, Any]:
        """A fresh full ``state`` map for ``viewer`` with the recent events (web view:
        with the live chances' state number and curve so far)."""
        return self.viewers.full_state(viewer, web=True)

    def hint(self, conn: Any) -> None:
        """A seated player asks for a hint (answered later, to ``conn`` alone)."""
        self.bots.hint(conn)

    # -- attendance ------------------------------------------------------------

    def unattended(self) -> bool:
        """A client's game with nobody playing or watching (see :class:`Attendance`)."""
        return self.attendance.unattended()

    def check_attendance(self) -> None:
        """Pause an unattended game, or resume it (see :class:`Attendance`)."""
        self.attendance.check()

    def abandon(self, why: str = "grace") -> None:
        """Remove an unattended game now, keeping its record and journal aside."""
        self.attendance.abandon(why)

    # -- lifecycle -----------------------------------------------------------

    def resumed(self) -> None:
        """Restored from the journal: arm takeovers and let bots move."""
        for s in self.seats:
            self.sitting.arm_takeover(s)
        self.bots.schedule()

    def close(self) -> None:
        """Cancel timers and close the journal (the host is stopping)."""
        self.bots.stop_thinking()
        self.coach.close()
        self.attendance.cancel_idle()
        self.sitting.cancel_takeovers()
        if self.journal is not None:
            self.journal.close()

    def meta_record(self) -> dict[str, Any]:
        return self.play.meta_record()
