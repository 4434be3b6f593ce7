"""A table: seats, spectators, the authoritative game state, bots and the journal."""
from __future__ import annotations

import random
from typing import Any

from twisted.logger import Logger

from cartagena_net.engine import (
    SPECTATOR,
    IllegalActionError,
    InvalidActionError,
    view,
)
from cartagena_net.host import gamerec
from cartagena_net.host.errors import HostError
from cartagena_net.host.seats import Seat
from cartagena_net.host.tokens import new_token, same_secret

log = Logger(namespace="cartagena.host.table")

RECENT_EVENTS = 20


def load_bot(kind: str, rng: random.Random, config: Any = None) -> Any:
    """A bot of ``kind`` from :mod:`cartagena_net.bots` (HostError if unknown); a
    searching bot at the host ``config``'s ``bot_level`` (or ``bot_think`` seconds)."""
    from cartagena_net.bots import BOT_KINDS, make_bot

    if kind not in BOT_KINDS:
        raise HostError("bad-field", f"unknown bot kind {kind!r} (one of {', '.join(BOT_KINDS)})")
    if config is None:
        return make_bot(kind, rng)
    return make_bot(kind, rng, think=config.bot_think, level=config.bot_level)


class Table:
    """One table of a host. ``host`` is the :class:`HostService` that owns it."""

    def __init__(
        self,
        host: Any,
        table_id: int,
        name: str,
        rules: str,
        options: dict[str, Any],
        password: str | None = None,
        spectators: bool = True,
        fresh: bool = True,
    ) -> None:
        self.host = host
        self.id = table_id
        self.name = name
        self.rules = rules
        self.options = dict(options)
        self.game = host.game_for(rules, self.options)
        self.password = password
        self.allow_spectators = spectators
        colors = gamerec.seat_colors(self.game)
        self.seats = [Seat(i, c) for i, c in enumerate(colors)]
        self.owner: int | None = None
        self.spectators: set[Any] = set()
        self.state: Any = None
        self.status = "waiting"
        self.seq = 0
        self.sent_events = 0
        self.chance_seen = 0
        self._bot_call: Any = None
        self._thinking: Any = None  # the Deferred of a bot search under way
        self.entry_cache: dict[str, Any] | None = None
        self._rng = random.Random(random.SystemRandom().getrandbits(64))
        self.journal: Any = host.open_journal(table_id, fresh)

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
            "spectators": len(self.spectators),
            "password": self.password is not None,
            "owner": self.owner,
            "seats": [s.public() for s in self.seats],
        }

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
        return self.status == "playing"

    def members(self) -> list[Any]:
        """Every live connection at this table (seated players and spectators)."""
        out = [s.conn for s in self.seats if s.conn is not None]
        out.extend(self.spectators)
        return out

    # -- joining and leaving -------------------------------------------------

    def check_password(self, password: str | None) -> None:
        if not same_secret(password, self.password):
            raise HostError("bad-password", f"table {self.id} needs its password")

    def sit(self, conn: Any, seat: int | None, name: str, color: str | None) -> Seat:
        """Seat ``conn`` (a new player) and return the seat; the first to sit owns it."""
        if self.playing:
            raise HostError("already-started", f"table {self.id} is playing")
        chosen = self._choose_seat(seat, color)
        chosen.name = name
        chosen.token = new_token()
        chosen.conn = conn
        if self.owner is None or not self.seats[self.owner].human:
            self.owner = chosen.index
        self._journal_seats()
        self.host.lobby_changed(self)
        return chosen

    def _choose_seat(self, seat: int | None, color: str | None) -> Seat:
        if color is not None:
            matches = [s for s in self.seats if s.color == color]
            if not matches:
                names = ", ".join(s.color for s in self.seats)
                raise HostError("bad-seat", f"no {color!r} seat at this table (colours: {names})")
            if seat is not None and seat != matches[0].index:
                raise HostError("bad-seat", f"seat {seat} is not {color}")
            seat = matches[0].index
        if seat is None:
            for s in self.seats:
                if not s.occupied:
                    return s
            raise HostError("table-full", f"table {self.id} has no free seat")
        if not 0 <= seat < len(self.seats):
            raise HostError("bad-seat", f"seat {seat} does not exist (0..{len(self.seats) - 1})")
        if self.seats[seat].occupied:
            raise HostError("table-full", f"seat {seat} ({self.seats[seat].color}) is taken")
        return self.seats[seat]

    def check_spectators(self) -> None:
        if not self.allow_spectators:
            raise HostError("no-spectators", f"table {self.id} is closed to spectators")

    def spectate(self, conn: Any) -> None:
        self.check_spectators()
        self.spectators.add(conn)
        self.host.lobby_changed(self)
        if self.state is not None:
            conn.write_state(self.id, self.host.encode_wire(self._full_state(SPECTATOR)))

    def _drop_spectator(self, conn: Any) -> bool:
        """Remove ``conn`` if it is a spectator here; say whether it was."""
        if conn not in self.spectators:
            return False
        self.spectators.discard(conn)
        self.host.lobby_changed(self)
        return True

    def leave(self, conn: Any) -> None:
        """``conn`` leaves: a spectator goes; a seat is freed before the start, kept after."""
        if self._drop_spectator(conn):
            return
        seat = self._seat_of(conn)
        if seat is None:
            return
        if self.playing:
            self.detach(conn)
        else:
            self.leave_seat(seat)

    def detach(self, conn: Any) -> None:
        """The connection behind a seat went away: the seat is kept for its token."""
        if self._drop_spectator(conn):
            return
        seat = self._seat_of(conn)
        if seat is None:
            return
        seat.conn = None
        log.info("table {table}: {color} disconnected", table=self.id, color=seat.color)
        if not self.playing:
            # No game is on: a player who drops before the start gives up the seat.
            self.leave_seat(seat)
            return
        self._arm_takeover(seat)
        self.host.lobby_changed(self)

    def leave_seat(self, seat: Seat) -> None:
        seat.clear()
        if self.owner == seat.index:
            humans = [s.index for s in self.seats if s.human]
            self.owner = humans[0] if humans else None
        self._journal_seats()
        self.host.lobby_changed(self)

    def attach(self, conn: Any, seat: Seat) -> None:
        """A player came back with its token: restore the seat, send a fresh full view."""
        old = seat.conn
        seat.conn = conn
        if old is not None and old is not conn:
            old.displaced()
        if seat.takeover_call is not None and seat.takeover_call.active():
            seat.takeover_call.cancel()
        seat.takeover_call = None
        seat.takeover_bot = None
        log.info("table {table}: {color} reconnected", table=self.id, color=seat.color)
        self.host.lobby_changed(self)
        if self.state is not None:
            conn.write_state(self.id, self.host.encode_wire(self._full_state(seat.index)))

    def _arm_takeover(self, seat: Seat) -> None:
        delay = self.host.config.takeover
        if delay is None or self.status != "playing" or not seat.human or seat.conn is not None:
            return
        if seat.takeover_call is not None and seat.takeover_call.active():
            return

        def take_over() -> None:
            seat.takeover_call = None
            if seat.conn is None and self.status == "playing":
                seat.takeover_bot = load_bot("greedy", self._rng)
                log.info("table {table}: a bot plays {color} until it returns",
                         table=self.id, color=seat.color)
                self._schedule_bot()

        seat.takeover_call = self.host.reactor.callLater(delay, take_over)

    def find_token(self, token: str) -> Seat | None:
        found = None
        for s in self.seats:
            if s.token is not None and same_secret(token, s.token):
                found = s
        return found

    def _seat_of(self, conn: Any) -> Seat | None:
        for s in self.seats:
            if s.conn is conn:
                return s
        return None

    # -- owner commands ------------------------------------------------------

    def _require_owner(self, conn: Any) -> None:
        """The owner may; so may the first connected player while the owner is away."""
        seat = self._seat_of(conn)
        owner = self.seats[self.owner] if self.owner is not None else None
        if seat is not None and owner is not None and owner.conn is None:
            present = [s for s in self.seats if s.human and s.conn is not None]
            if present and present[0] is seat:
                return
        if seat is None or seat.index != self.owner:
            raise HostError("not-owner", "only the table's owner (the first to sit) may do that")

    def add_bot(self, conn: Any | None, seat: int | None, kind: str) -> Seat:
        if conn is not None:
            self._require_owner(conn)
        if self.playing:
            raise HostError("already-started", "bots are added before the start")
        chosen = self._choose_seat(seat, None)
        bot = load_bot(kind, self._rng, self.host.config)
        chosen.bot_kind = kind
        chosen.bot = bot
        chosen.name = f"{kind} bot"
        self._journal_seats()
        self.host.lobby_changed(self)
        return chosen

    def remove_bot(self, conn: Any, seat: int) -> None:
        self._require_owner(conn)
        if self.playing:
            raise HostError("already-started", "bots are removed before the start")
        if not 0 <= seat < len(self.seats) or self.seats[seat].bot_kind is None:
            raise HostError("bad-seat", f"seat {seat} has no bot")
        self.seats[seat].clear()
        self._journal_seats()
        self.host.lobby_changed(self)

    def start(self, conn: Any | None) -> None:
        """Start (or, when finished, play again with the same seats)."""
        if conn is not None:
            self._require_owner(conn)
        if self.status == "playing":
            raise HostError("already-started", f"table {self.id} is already playing")
        empty = [s.color for s in self.seats if not s.occupied]
        if empty:
            raise HostError(
                "seats-empty",
                f"{len(empty)} seat(s) empty ({', '.join(empty)}): wait for players or add bots",
            )
        state = gamerec.new_state(self.game)
        outcomes = gamerec.chance_outcomes(state)
        self.seq += 1
        if self.journal is not None:
            # A new game starts the journal afresh: what came before is over.
            try:
                self.journal.rewrite(self.meta_record(), self._seats_record(),
                                     {"t": "game", "seq": self.seq, "chance": outcomes})
            except OSError as exc:
                self._journal_failed(exc)
        self.state = state
        self.chance_seen = len(outcomes)
        self._stop_thinking()
        for s in self.seats:
            reset = getattr(s.controller, "reset", None)
            if reset is not None:
                reset()
        self.status = "playing"
        self.sent_events = 0
        log.info("table {table}: a new game starts", table=self.id)
        for s in self.seats:
            self._arm_takeover(s)
        self.host.lobby_changed(self)
        self._broadcast(full=True)

    # -- playing -------------------------------------------------------------

    def act(self, conn: Any, seq: int, text: str) -> None:
        """A player's action: checked by the engine; nothing changes if it is refused."""
        if conn in self.spectators:
            raise HostError("not-allowed", "spectators watch: they cannot act")
        seat = self._seat_of(conn)
        if seat is None:
            raise HostError("not-allowed", f"you have no seat at table {self.id}")
        if self.status != "playing" or self.state is None:
            raise HostError("not-started", f"table {self.id} is not playing")
        if seq != self.seq:
            raise HostError("stale", f"stale action: seq {seq} but the game is at {self.seq}")
        if self.state.actor != seat.index:
            raise HostError("not-your-turn", f"it is not {seat.color}'s turn to act")
        self.apply(seat.index, text)

    def apply(self, seat: int, text: str) -> None:
        """Apply an action for ``seat``, journal it, then broadcast."""
        try:
            self.state.apply(text)
        except IllegalActionError as exc:
            raise HostError("illegal-action", str(exc) or "that action breaks a rule") from None
        except InvalidActionError as exc:
            raise HostError("bad-action", str(exc) or f"cannot read {text!r}") from None
        self.seq += 1
        if self.journal is not None:
            record: dict[str, Any] = {"t": "act", "seq": self.seq, "seat": seat, "action": text}
            added = gamerec.chance_outcomes(self.state, self.chance_seen)
            if added:
                record["chance"] = added
                self.chance_seen += len(added)
            self._journal(record)
        if self.state.is_over:
            self.status = "finished"
            self.host.lobby_changed(self)
        self._broadcast(first=seat)

    def _legal(self, seat: int) -> list[str]:
        if self.state is None or self.state.is_over or self.state.actor != seat:
            return []
        return [str(a) for a in self.state.legal_actions()]

    def _state_wire(self, viewer: Any, since: int) -> dict[str, Any]:
        """A ``state`` message as a wire map: the engine's view for ``viewer`` only."""
        v = view(self.state, viewer, since=since)
        events = v.pop("events", None) or []
        return {
            "type": "state",
            "table": self.id,
            "seq": self.seq,
            "view": v,
            "legal": self._legal(viewer) if viewer is not SPECTATOR else [],
            "events": events,
            "lines": [str(e.get("text", ""))[:500] for e in events],
        }

    def _full_state(self, viewer: Any) -> dict[str, Any]:
        return self._state_wire(viewer, max(0, self.state.event_count - RECENT_EVENTS))

    def full_state(self, viewer: Any) -> dict[str, Any]:
        """A fresh full ``state`` map for ``viewer`` with the recent events (web view)."""
        return self._full_state(viewer)

    def _broadcast(self, full: bool = False, first: int | None = None) -> None:
        """Each seated player's own view, then the spectators' shared frame.

        The seat that acted (``first``) is served first: its answer goes out at once.
        """
        since = 0 if full else self.sent_events
        encode = self.host.encode_wire
        seats = self.seats
        if first is not None:
            seats = [seats[first], *seats[:first], *seats[first + 1 :]]
        for s in seats:
            if s.conn is not None:
                s.conn.write_state(self.id, encode(self._state_wire(s.index, since)))
            elif s.controller is not None and hasattr(s.controller, "observe"):
                s.controller.observe(view(self.state, s.index, since=since)["events"], s.index)
        web = self.host.web
        watched = web is not None and web.watching(self.id)
        if self.spectators or self.host.config.log_events or watched:
            spec = self._state_wire(SPECTATOR, since)
            if self.host.config.log_events:
                for line in spec["lines"]:
                    log.info("table {table}: {line}", table=self.id, line=line)
            if self.spectators:
                data = encode(spec)
                for conn in list(self.spectators):
                    conn.write_state(self.id, data)
            if watched:
                web.publish_state(self, spec, full)  # encoded once for every web watcher
        self.sent_events = self.state.event_count
        self.state.forget_events(self.sent_events - RECENT_EVENTS)  # nothing older is resent
        self._schedule_bot()

    # -- bots ----------------------------------------------------------------

    def _bot_to_move(self) -> Seat | None:
        if self.status != "playing" or self.state is None or self.state.is_over:
            return None
        actor = self.state.actor
        if actor is None:
            return None
        seat = self.seats[actor]
        return seat if seat.controller is not None else None

    def _schedule_bot(self) -> None:
        if (self._bot_call is not None or self._thinking is not None
                or self._bot_to_move() is None):
            return
        seat = self._bot_to_move()
        if hasattr(seat.controller, "job"):
            self._think(seat)  # a search: think now, answer no sooner than bot_delay
            return
        self._bot_call = self.host.reactor.callLater(self.host.config.bot_delay, self._bot_move)

    def _bot_move(self) -> None:
        self._bot_call = None
        seat = self._bot_to_move()
        if seat is None:
            return
        legal = self._legal(seat.index)
        try:
            choice = seat.controller.choose(view(self.state, seat.index), legal)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: bot failed; playing a random action", table=self.id)
            choice = None
        self._bot_play(seat, legal, choice)

    def _bot_play(self, seat: Seat, legal: list[str], choice: Any) -> None:
        if choice not in legal:
            choice = self._rng.choice(legal)
        try:
            self.apply(seat.index, choice)
        except HostError as exc:
            log.error("table {table}: bot action refused: {msg}", table=self.id, msg=exc.message)

    def _think(self, seat: Seat) -> None:
        """Run the seat's search in the host's thinker (off the reactor thread)."""
        reactor = self.host.reactor
        legal = self._legal(seat.index)
        seq, bot, began = self.seq, seat.controller, reactor.seconds()
        try:
            fn, args = bot.job(view(self.state, seat.index), legal)
            d = self.host.thinker.run(fn, *args)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: bot failed; playing a random action", table=self.id)
            self._bot_call = reactor.callLater(self.host.config.bot_delay, self._bot_play,
                                               seat, legal, None)
            return
        self._thinking = d

        def answered(result: Any) -> None:
            if self._thinking is not d:
                return  # the table moved on (new game, closed)
            self._thinking = None
            if self.seq != seq or seat.controller is not bot:
                self._schedule_bot()
                return
            wait = max(0.0, self.host.config.bot_delay - (reactor.seconds() - began))
            self._bot_call = reactor.callLater(wait, self._bot_answer, seat, seq, legal,
                                               getattr(result, "action", result))

        def failed(failure: Any) -> None:
            log.failure("table {table}: bot search failed; playing a random action",
                        failure, table=self.id)
            answered(None)

        d.addCallbacks(answered, failed)

    def _bot_answer(self, seat: Seat, seq: int, legal: list[str], choice: Any) -> None:
        self._bot_call = None
        if self.seq != seq or self._bot_to_move() is not seat:
            self._schedule_bot()
            return
        self._bot_play(seat, legal, choice)

    def _stop_thinking(self) -> None:
        self._thinking = None
        if self._bot_call is not None and self._bot_call.active():
            self._bot_call.cancel()
        self._bot_call = None

    # -- lifecycle -----------------------------------------------------------

    def resumed(self) -> None:
        """Restored from the journal: arm takeovers and let bots move."""
        for s in self.seats:
            self._arm_takeover(s)
        self._schedule_bot()

    def close(self) -> None:
        """Cancel timers and close the journal (the host is stopping)."""
        self._stop_thinking()
        for s in self.seats:
            if s.takeover_call is not None and s.takeover_call.active():
                s.takeover_call.cancel()
            s.takeover_call = None
        if self.journal is not None:
            self.journal.close()

    def meta_record(self) -> dict[str, Any]:
        return {
            "t": "table",
            "id": self.id,
            "name": self.name,
            "rules": self.rules,
            "options": self.options,
            "password": self.password,
            "spectators": self.allow_spectators,
        }

    def _seats_record(self) -> dict[str, Any]:
        return {"t": "seats", "owner": self.owner, "seats": [s.record() for s in self.seats]}

    def _journal_seats(self) -> None:
        if self.journal is not None:
            self._journal(self._seats_record())

    def _journal(self, record: dict[str, Any]) -> None:
        """Append and fsync; if the disk fails, say so loudly and play on unjournaled."""
        try:
            self.journal.append(record)
        except OSError as exc:
            self._journal_failed(exc)

    def _journal_failed(self, exc: OSError) -> None:
        log.critical("table {table}: journal write failed ({err}); this table is no "
                     "longer crash-safe", table=self.id, err=str(exc))
        self.journal.close()
        self.journal = None
