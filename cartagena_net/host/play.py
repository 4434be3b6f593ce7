"""The game at a table: start, act, apply, the journal and the records.

:class:`Play` owns the game's course: it starts a game (and plays again), checks a
player's action, has the engine apply it, journals it (and the seats' snapshots), puts
back the last good state after an engine fault or a journal failure, and keeps the
record of a game that ends. The game itself is the table's ``match`` (a
:class:`~cartagena_net.host.game.TableGame`), which Play moves on through its steps
(``start``, ``acted``, ``put_back``, ``fault``); it calls, through :class:`PlayTable`,
only the viewers' ``broadcast``, the bots' ``stop_thinking``, the sitting's ``reseat``,
``seat_of``, ``require_owner`` and ``arm_takeover``, the coach's hint marks, and the
host's ``lobby_changed`` and ``lobby_now``. It imports no other part of a table.
"""
from __future__ import annotations

import random
import time
from typing import Any, Protocol

from twisted.logger import Logger

from cartagena_net.engine import IllegalActionError, InvalidActionError
from cartagena_net.engine.actions import notations
from cartagena_net.host import gamerec, recorder
from cartagena_net.host.errors import HostError
from cartagena_net.host.game import Status, TableGame
from cartagena_net.host.passwords import StoredPassword
from cartagena_net.host.seats import Seat
from cartagena_net.portable.files import error_fields

log = Logger(namespace="cartagena.host.table")

RECENT_EVENTS = 20  # a state keeps (and a fresh full view resends) this many past events


def legal(state: Any, seat: Any) -> list[str]:
    """The actions ``seat`` may send now in ``state``; "undo" too when the engine
    allows it (none for a spectator, a finished game or a seat not to act)."""
    if state is None or state.actor != seat:
        return []
    return notations(state.legal_actions(undo=True))


class _Broadcaster(Protocol):
    def broadcast(self, full: bool = False, first: int | None = None) -> None: ...


class _Thinking(Protocol):
    def stop_thinking(self) -> None: ...


class _Hinting(Protocol):
    hints: bool
    hinted_moves: list[int]

    def new_game(self) -> None: ...

    def was_hinted(self, seat: int, seq: int) -> bool: ...


class _Reseating(Protocol):
    def reseat(self, order: list[Seat]) -> None: ...

    def seat_of(self, conn: Any) -> Seat | None: ...

    def require_owner(self, conn: Any) -> None: ...

    def arm_takeover(self, seat: Seat) -> None: ...


class PlayTable(Protocol):
    """What :class:`Play` reads and writes of its table."""

    host: Any
    id: int
    name: str
    rules: str
    options: dict[str, Any]
    game: Any
    password: StoredPassword | None
    allow_spectators: bool
    creator: str | None
    seats: list[Seat]
    owner: int | None
    spectators: set[Any]
    match: TableGame
    journal_failing: bool
    journal_error: dict[str, str]
    journal_damage: Any
    journal: Any
    viewers: _Broadcaster
    bots: _Thinking
    sitting: _Reseating
    coach: _Hinting
    player_chances: bool


class Play:
    """The game itself at ``table``: its start, its actions, its journal."""

    def __init__(self, table: PlayTable, deal_rng: random.Random | None) -> None:
        self.table = table
        self._deal_rng = deal_rng  # a seeded host's (practice, tests); else the OS's

    # -- starting ------------------------------------------------------------

    def start(self, conn: Any | None) -> None:
        """Start (or, when finished, play again with the same seats)."""
        t = self.table
        game = t.match
        if conn is not None:
            t.sitting.require_owner(conn)
        if game.status is Status.PLAYING:
            raise HostError("already-started", "table-playing", table=t.id)
        empty = [s.color for s in t.seats if not s.occupied]
        if empty:
            raise HostError("seats-empty", "seats-empty", colors=" ".join(empty))
        rotated = game.status is Status.FINISHED
        if rotated:
            self._rotate_start_player()
        state = gamerec.new_state(t.game, self._deal_rng)
        outcomes = gamerec.chance_outcomes(state)
        started_at = round(time.time(), 3)
        if t.journal is not None:
            # A new game starts the journal afresh: what came before is over.
            try:
                t.journal.rewrite(self.meta_record(), self.seats_record(),
                                  {"t": "game", "seq": game.seq + 1, "chance": outcomes,
                                   "started": started_at})
            except OSError as exc:
                self.journal_trouble(exc)
                if rotated:  # the seats as they were
                    t.sitting.reseat(t.seats[-1:] + t.seats[:-1])
                raise HostError("journal-failed", "journal-failed",
                                **error_fields(exc)) from None
            self.journal_ok()
        game.start(state, len(outcomes), started_at)
        t.journal_damage = None  # a new game: what an old one lost is no longer news
        t.bots.stop_thinking()
        for s in t.seats:
            reset = getattr(s.controller, "reset", None)
            if reset is not None:
                reset()
        t.coach.new_game()
        log.info("table {table}: a new game starts", table=t.id)
        for s in t.seats:
            t.sitting.arm_takeover(s)
        t.host.lobby_changed(t)
        if rotated:  # who sits where changed: said before the new game's first state,
            lobby_now = getattr(t.host, "lobby_now", None)  # so no page names a seat
            if lobby_now is not None:  # of it after the game before
                lobby_now()
        t.viewers.broadcast(full=True)

    def _rotate_start_player(self) -> None:
        """Play again: the next seat starts (everyone keeps a colour; players are told
        their new seat numbers with ``joined``)."""
        seats = self.table.seats
        if len(seats) < 2:
            return
        self.table.sitting.reseat(seats[1:] + seats[:1])

    # -- playing -------------------------------------------------------------

    def act(self, conn: Any, seq: int, text: str) -> None:
        """A player's action: checked by the engine; nothing changes if it is refused."""
        t = self.table
        if conn in t.spectators:
            raise HostError("not-allowed", "spectators-cannot-act")
        seat = t.sitting.seat_of(conn)
        if seat is None:
            raise HostError("not-allowed", "no-seat-here", table=t.id)
        game = t.match
        if game.status is not Status.PLAYING or game.state is None:
            raise HostError("not-started", "not-playing", table=t.id)
        if game.faulted:
            raise HostError("table-fault", "table-faulted", table=t.id)
        if seq != game.seq:
            raise HostError("stale", "stale", seq=seq, now=game.seq)
        if game.state.actor != seat.index:
            raise HostError("not-your-turn", "not-your-turn", color=seat.color)
        self.apply(seat.index, text)

    def apply(self, seat: int, text: str) -> None:
        """Apply an action for ``seat``, journal it, then broadcast.

        Any other exception from the engine is a fault of this table only: the action
        is refused (``table-fault``) and the table keeps its last good state.
        """
        t = self.table
        game = t.match
        state = game.state
        actor = state.actor  # the seat of this move in the game's record
        try:
            state.apply(text)
        except IllegalActionError as exc:
            raise HostError.of("illegal-action", exc) from None
        except InvalidActionError as exc:
            raise HostError.of("bad-action", exc) from None
        except Exception:  # noqa: BLE001 - an engine bug must not take the table down
            self._engine_fault(seat, text)
            raise HostError("table-fault", "action-fault", action=repr(text[:60])) from None
        hinted = t.coach.was_hinted(seat, game.seq)  # the record marks a move after a hint
        chances = gamerec.chance_count(state)
        if t.journal is not None:
            record: dict[str, Any] = {"t": "act", "seq": game.seq + 1, "seat": seat,
                                      "action": text}
            if hinted:
                record["hinted"] = True
            if chances > game.chance_seen:
                record["chance"] = gamerec.chance_outcomes(state, game.chance_seen)
            try:
                t.journal.append(record)
            except OSError as exc:
                # Not on disk, so not done: the game goes back to its last journaled
                # state, and nothing is sent but the refusal.
                self.journal_trouble(exc)
                self._restore_last_good()
                raise HostError("journal-failed", "journal-failed",
                                **error_fields(exc)) from None
            self.journal_ok()
        if hinted:
            t.coach.hinted_moves.append(game.actions_seen)
        ended = game.acted(actor, chances)
        if ended:
            t.host.lobby_changed(t)
        t.viewers.broadcast(first=seat)
        if ended:
            recorder.keep(t, "won")

    def _engine_fault(self, seat: int, text: str) -> None:
        """Log an engine failure and make sure the state is the last good one.

        The state is rebuilt from what was journaled (its chance outcomes and accepted
        actions), so even an engine that changed something before failing leaves no
        trace; if that cannot be done the table refuses every further action.
        """
        t = self.table
        log.failure("table {table}: engine fault at seq {seq} on {action!r} by seat {seat}; "
                    "the action is refused and the table keeps its last good state",
                    table=t.id, seq=t.match.seq, action=text[:200], seat=seat)
        self._restore_last_good()

    def _restore_last_good(self) -> None:
        """Put back the state of the last accepted action: rebuilt from its chance
        outcomes and accepted actions, whatever the engine changed since (if that cannot
        be done, the table refuses every further action)."""
        t = self.table
        game = t.match
        state = game.state
        try:
            good = gamerec.restore(t.game, gamerec.chance_outcomes(state)[: game.chance_seen],
                                   [str(a) for a in state.history[: game.actions_seen]])
            good.forget_events(game.sent_events - RECENT_EVENTS)
        except Exception:  # noqa: BLE001 - then the table cannot go on
            log.failure("table {table}: cannot rebuild its last good state; the table "
                        "refuses every further action", table=t.id)
            game.fault()
            return
        if good.event_count != game.sent_events:
            log.error("table {table}: the rebuilt state has {n} events, {m} were sent",
                      table=t.id, n=good.event_count, m=game.sent_events)
        game.put_back(good)

    # -- the journal -----------------------------------------------------------

    def meta_record(self) -> dict[str, Any]:
        t = self.table
        return {
            "t": "table",
            "id": t.id,
            "name": t.name,
            "rules": t.rules,
            "options": t.options,
            "password_hash": None if t.password is None else t.password.hash,
            "spectators": t.allow_spectators,
            "creator": t.creator,
            "hints": t.coach.hints,
            "player_chances": t.player_chances,
        }

    def seats_record(self) -> dict[str, Any]:
        t = self.table
        return {"t": "seats", "owner": t.owner, "seats": [s.record() for s in t.seats]}

    def journal_seats(self) -> None:
        if self.table.journal is not None:
            self._journal(self.seats_record())

    def journal_chances(self, point: dict[str, Any]) -> None:
        """A point of the live chances' curve, journaled after the actions it follows
        (``{"t": "chances", "seq", "turn", "chances"}``), so that a restored game shows
        its whole curve again. Not a promise as an action is: a disk that refuses it is
        said once, as for the seats, and the game goes on."""
        if self.table.journal is not None:
            self._journal({"t": "chances", **point})

    def _journal(self, record: dict[str, Any]) -> None:
        """Append (and have fsynced) a record that is a whole snapshot (the seats): if the disk
        fails it is said once, and the next snapshot written catches up."""
        try:
            self.table.journal.append(record)
        except OSError as exc:
            self.journal_trouble(exc)
        else:
            self.journal_ok()

    def rewrite_journal(self) -> None:
        """The journal afresh with the table's and seats' records (the seats changed
        before the start); a failure is said once, as for any journal write."""
        if self.table.journal is not None:
            try:
                self.table.journal.rewrite(self.meta_record(), self.seats_record())
            except OSError as exc:
                self.journal_trouble(exc)

    def journal_trouble(self, exc: OSError) -> None:
        """The journal cannot be written: said once (until it writes again)."""
        t = self.table
        t.journal_error = error_fields(exc)
        if not t.journal_failing:
            t.journal_failing = True
            log.error("table {table}: cannot write the journal {path} ({err}); actions "
                      "are refused until the disk takes writes again", table=t.id,
                      path=str(t.journal.path), err=exc.strerror or str(exc))
            t.host.lobby_changed(t)

    def journal_ok(self) -> None:
        t = self.table
        if t.journal_failing:
            t.journal_failing = False
            log.info("table {table}: the journal writes again; the game goes on", table=t.id)
            t.host.lobby_changed(t)
            waiting = getattr(t.host, "records_waiting", None)
            if waiting is not None:  # the disk has room: a record waiting for it, now
                waiting.room()
