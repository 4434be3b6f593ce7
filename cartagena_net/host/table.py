"""A table: seats, spectators, the authoritative game state, bots and the journal."""
from __future__ import annotations

import random
import time
from typing import Any

from twisted.logger import Logger

from cartagena_net.engine import (
    SPECTATOR,
    IllegalActionError,
    InvalidActionError,
    view,
)
from cartagena_net.engine.view import fixed_part
from cartagena_net.host import gamerec, recorder
from cartagena_net.host.errors import HostError
from cartagena_net.host.passwords import StoredPassword
from cartagena_net.host.seats import Seat
from cartagena_net.host.thinker import BOTS, HUMAN
from cartagena_net.host.tokens import new_token, same_secret
from protocol import messages
from protocol.framing import encode_frame_nested, pack_entries

log = Logger(namespace="cartagena.host.table")

RECENT_EVENTS = 20
# Bots are named after pirates of the golden age, each one once per table.
BOT_NAMES = ("Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Captain Kidd",
             "Black Bart", "Ned Low", "Charles Vane", "Henry Avery", "Grace O'Malley")


def _lines(events: list[dict[str, Any]]) -> list[str]:
    """A ``state`` message's ``lines``: each event's text, cut to the protocol's 500."""
    return [str(e.get("text", ""))[:500] for e in events]


def check_bot_kind(kind: str) -> None:
    """HostError ``bad-field`` unless ``kind`` is one of the bots' kinds."""
    from cartagena_net.bots.kinds import BOT_KINDS

    if kind not in BOT_KINDS:
        raise HostError("bad-field", f"unknown bot kind {kind!r} (one of {', '.join(BOT_KINDS)})")


def load_bot(kind: str, rng: random.Random, config: Any = None) -> Any:
    """A bot of ``kind`` from :mod:`cartagena_net.bots.kinds` (HostError if unknown); a
    searching bot at the host ``config``'s ``bot_level`` (or ``bot_think`` seconds)."""
    from cartagena_net.bots.kinds import make_bot

    check_bot_kind(kind)
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
        password: StoredPassword | None = None,
        spectators: bool = True,
        open_journal: bool = True,
        creator: str | None = None,
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
        self.state: Any = None
        self.status = "waiting"
        self.seq = 0
        self.sent_events = 0
        self.chance_seen = 0  # chance outcomes and actions of the last good state
        self.actions_seen = 0
        self._bot_call: Any = None
        self._thinking: Any = None  # the Deferred of a bot search under way
        self._bot_failures = 0
        self.bot_fallbacks = 0  # bot searches that failed here (the bot's fallback played)
        self.faulted = False  # the engine failed and the state could not be rebuilt
        self.journal_failing = False  # the last journal write failed (a full disk)
        self.journal_error = ""  # why it failed (the OS's words)
        self.paused = False  # a client's bots-only game nobody plays or watches
        self._idle_call: Any = None  # removes a paused table after the grace period
        self.paused_since = 0.0
        self.started_at: float | None = None  # when the game started (Unix time)
        self.entry_cache: dict[str, Any] | None = None
        self._fixed: tuple[dict[str, Any], bytes] | None = None  # see _seat_frame
        seed = getattr(getattr(host, "config", None), "seed", None)
        self._rng = random.Random(random.SystemRandom().getrandbits(64) if seed is None
                                  else seed)
        # A seeded host (practice, tests) deals from its own seeded RNG; else the OS's.
        self._deal_rng = None if seed is None else gamerec.deal_rng(seed)
        self.journal: Any = host.open_journal(table_id) if open_journal else None

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
            "spectators": len(self.spectators) + self._web_watchers(),
            "password": self.password is not None,
            "owner": self.owner,
            "seats": [s.public() for s in self.seats],
        }

    def _web_watchers(self) -> int:
        """Browsers watching through the web view count as spectators too."""
        web = self.host.web
        return web.watchers(self.id) if web is not None else 0

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

    def check_password(self, password: str | None, address: str = "web") -> None:
        """HostError ``bad-password`` unless ``password`` opens this table, decided at once
        (the web view; a client's ``join_table`` waits for a throttled check instead)."""
        if self.password is None:
            return
        refused = self.host.passwords.check_now(address, password, self.password,
                                                f"table {self.id}")
        if refused is not None:
            raise HostError("bad-password", f"table {self.id} needs its password: {refused}")

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
            matches = [s for s in self.seats if s.color.casefold() == color.casefold()]
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
        self._remove_if_vacant()
        return True

    def vacant(self) -> bool:
        """Nobody to keep this table for: no game on, no spectator, and no human seated
        (waiting) or no human still connected (finished). Bot seats do not count.
        A vacant table a client created is removed at once; see :meth:`leave_seat`."""
        if self.playing or self.spectators:
            return False
        if self.status == "finished":
            return not any(s.human and s.conn is not None for s in self.seats)
        return not any(s.human for s in self.seats)

    def _remove_if_vacant(self) -> bool:
        """A client's table that is vacant goes (the host's own tables stay)."""
        if self.creator is not None and self.vacant():
            self.host.remove_table(self)
            return True
        return False

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
        if self._remove_if_vacant():
            return  # its journal went with it: it held no game
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
        seat.stand_in(None, None)  # the player is back: the stand-in bot steps aside
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
                self._stand_in(seat, "greedy")

        seat.takeover_call = self.host.reactor.callLater(delay, take_over)

    def _stand_in(self, seat: Seat, kind: str) -> None:
        """A bot of ``kind`` plays ``seat`` until its player returns."""
        if seat.takeover_call is not None and seat.takeover_call.active():
            seat.takeover_call.cancel()
        seat.takeover_call = None
        seat.stand_in(load_bot(kind, self._rng, self.host.config), kind)
        log.info("table {table}: a bot plays {color} until it returns",
                 table=self.id, color=seat.color)
        self.host.lobby_changed(self)
        self._schedule_bot()

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
        check_bot_kind(kind)  # an unknown kind is refused as such, wherever it would sit
        if self.playing:
            return self._hand_to_bot(seat, kind)
        chosen = self._choose_seat(seat, None)
        bot = load_bot(kind, self._rng, self.host.config)
        chosen.bot_kind = kind
        chosen.bot = bot
        chosen.name = self.bot_name()
        self._journal_seats()
        self.host.lobby_changed(self)
        return chosen

    def bot_name(self) -> str:
        """A bot name no other seat at this table uses."""
        used = {s.name for s in self.seats}
        free = [n for n in BOT_NAMES if n not in used]
        return free[0] if free else f"bot {len(used)}"

    def _hand_to_bot(self, seat: int | None, kind: str) -> Seat:
        """During a game: a bot plays an absent player's seat until the player returns."""
        if seat is None or not 0 <= seat < len(self.seats):
            raise HostError("already-started", "during a game a bot can only stand in for "
                            "an absent player: name the seat")
        chosen = self.seats[seat]
        if not chosen.human or chosen.conn is not None:
            raise HostError("bad-seat", f"the {chosen.color} player is here: a bot stands in "
                            "only for an absent player")
        self._stand_in(chosen, kind)
        return chosen

    def remove_bot(self, conn: Any, seat: int) -> None:
        """Remove a bot; during a game, stop a stand-in bot; before it, remove an empty seat."""
        self._require_owner(conn)
        if not 0 <= seat < len(self.seats):
            raise HostError("bad-seat", f"seat {seat} does not exist (0..{len(self.seats) - 1})")
        chosen = self.seats[seat]
        if self.playing:
            if chosen.takeover_bot is None:
                raise HostError("already-started", "during a game only a bot standing in "
                                "for an absent player can be taken off")
            chosen.stand_in(None, None)  # the seat waits for its player again
            self.host.lobby_changed(self)
            return
        if not chosen.occupied:
            self.remove_seat(seat)
            return
        if chosen.bot_kind is None:
            raise HostError("bad-seat", f"seat {seat} has no bot")
        chosen.clear()
        self._journal_seats()
        self.host.lobby_changed(self)

    def remove_seat(self, seat: int) -> None:
        """Before the start: take an empty seat away (three friends at a four-seat table)."""
        keep = [s for s in self.seats if s.index != seat]
        try:
            self._reseat(keep)
        except HostError:
            raise HostError("bad-seat", f"a {self.rules} table cannot have "
                            f"{len(keep)} seats") from None
        if self.journal is not None:
            try:
                self.journal.rewrite(self.meta_record(), self._seats_record())
            except OSError as exc:
                self._journal_trouble(exc)
        self.host.lobby_changed(self)

    def _reseat(self, order: list[Seat]) -> None:
        """Seats in a new order (or fewer): each keeps its colour, player, bot and token."""
        options = dict(self.options)
        options["players"] = len(order)
        colors = [s.color for s in order]
        if "colors" in options or colors != gamerec.seat_colors(self.game)[: len(order)]:
            options["colors"] = ",".join(colors)
        game = self.host.game_for(self.rules, options)  # HostError if the rules refuse
        owner = self.seats[self.owner] if self.owner is not None else None
        moved = [s for i, s in enumerate(order) if s.index != i]
        for i, s in enumerate(order):
            s.index = i
        self.seats = order
        self.options = options
        self.game = game
        self.owner = owner.index if owner is not None else None
        for s in moved:  # players are told their new seat numbers with ``joined``
            if s.conn is not None:
                s.conn.send_message(messages.Joined(table=self.id, seat=s.index, token=s.token))

    def _rotate_start_player(self) -> None:
        """Play again: the next seat starts (everyone keeps a colour; players are told
        their new seat numbers with ``joined``)."""
        if len(self.seats) < 2:
            return
        self._reseat(self.seats[1:] + self.seats[:1])

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
        rotated = self.status == "finished"
        if rotated:
            self._rotate_start_player()
        state = gamerec.new_state(self.game, self._deal_rng)
        outcomes = gamerec.chance_outcomes(state)
        started_at = round(time.time(), 3)
        if self.journal is not None:
            # A new game starts the journal afresh: what came before is over.
            try:
                self.journal.rewrite(self.meta_record(), self._seats_record(),
                                     {"t": "game", "seq": self.seq + 1, "chance": outcomes,
                                      "started": started_at})
            except OSError as exc:
                self._journal_trouble(exc)
                if rotated:  # the seats as they were
                    self._reseat(self.seats[-1:] + self.seats[:-1])
                raise HostError("journal-failed", self._journal_message(exc)) from None
            self._journal_ok()
        self.seq += 1
        self.started_at = started_at
        self.state = state
        self.chance_seen = len(outcomes)
        self._stop_thinking()
        for s in self.seats:
            reset = getattr(s.controller, "reset", None)
            if reset is not None:
                reset()
        self.actions_seen = 0
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
        if self.faulted:
            raise HostError("table-fault", f"table {self.id} stopped after a host fault")
        if seq != self.seq:
            raise HostError("stale", f"stale action: seq {seq} but the game is at {self.seq}")
        if self.state.actor != seat.index:
            raise HostError("not-your-turn", f"it is not {seat.color}'s turn to act")
        self.apply(seat.index, text)

    def apply(self, seat: int, text: str) -> None:
        """Apply an action for ``seat``, journal it, then broadcast.

        Any other exception from the engine is a fault of this table only: the action
        is refused (``table-fault``) and the table keeps its last good state.
        """
        try:
            self.state.apply(text)
        except IllegalActionError as exc:
            raise HostError("illegal-action", str(exc) or "that action breaks a rule") from None
        except InvalidActionError as exc:
            raise HostError("bad-action", str(exc) or f"cannot read {text!r}") from None
        except Exception:  # noqa: BLE001 - an engine bug must not take the table down
            self._engine_fault(seat, text)
            raise HostError(
                "table-fault",
                f"the host failed to apply {text[:60]!r} (a fault logged on the host); "
                "the action was refused and the game is unchanged",
            ) from None
        if self.journal is not None:
            record: dict[str, Any] = {"t": "act", "seq": self.seq + 1, "seat": seat,
                                      "action": text}
            if gamerec.chance_count(self.state) > self.chance_seen:
                record["chance"] = gamerec.chance_outcomes(self.state, self.chance_seen)
            try:
                self.journal.append(record)
            except OSError as exc:
                # Not on disk, so not done: the game goes back to its last journaled
                # state, and nothing is sent but the refusal.
                self._journal_trouble(exc)
                self._restore_last_good()
                raise HostError("journal-failed", self._journal_message(exc)) from None
            self._journal_ok()
        self.seq += 1
        self.chance_seen = gamerec.chance_count(self.state)
        self.actions_seen += 1
        if self.state.is_over:
            self.status = "finished"
            self.host.lobby_changed(self)
        self._broadcast(first=seat)
        if self.state.is_over:
            recorder.keep(self, "won")

    def _engine_fault(self, seat: int, text: str) -> None:
        """Log an engine failure and make sure the state is the last good one.

        The state is rebuilt from what was journaled (its chance outcomes and accepted
        actions), so even an engine that changed something before failing leaves no
        trace; if that cannot be done the table refuses every further action.
        """
        log.failure("table {table}: engine fault at seq {seq} on {action!r} by seat {seat}; "
                    "the action is refused and the table keeps its last good state",
                    table=self.id, seq=self.seq, action=text[:200], seat=seat)
        self._restore_last_good()

    def _restore_last_good(self) -> None:
        """Put back the state of the last accepted action: rebuilt from its chance
        outcomes and accepted actions, whatever the engine changed since (if that cannot
        be done, the table refuses every further action)."""
        state = self.state
        try:
            good = gamerec.restore(self.game, gamerec.chance_outcomes(state)[: self.chance_seen],
                                   [str(a) for a in state.history[: self.actions_seen]])
            good.forget_events(self.sent_events - RECENT_EVENTS)
        except Exception:  # noqa: BLE001 - then the table cannot go on
            log.failure("table {table}: cannot rebuild its last good state; the table "
                        "refuses every further action", table=self.id)
            self.faulted = True
            return
        if good.event_count != self.sent_events:
            log.error("table {table}: the rebuilt state has {n} events, {m} were sent",
                      table=self.id, n=good.event_count, m=self.sent_events)
        self.state = good

    def _legal(self, seat: int) -> list[str]:
        """The actions ``seat`` may send now; "undo" too when the engine allows it."""
        if self.state is None or self.state.is_over or self.state.actor != seat:
            return []
        acts = [str(a) for a in self.state.legal_actions()]
        can_undo = getattr(self.state, "can_undo", None)
        if can_undo is not None and can_undo():
            acts.append("undo")
        return acts

    def _state_wire(self, viewer: Any, since: int,
                    shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """A ``state`` message as a wire map: the engine's view for ``viewer`` only
        (``shared``: the view's memo for every viewer of this one broadcast)."""
        v = view(self.state, viewer, since=since, shared=shared)
        events = v.pop("events", None) or []
        return {
            "type": "state",
            "table": self.id,
            "seq": self.seq,
            "view": v,
            "legal": self._legal(viewer) if viewer is not SPECTATOR else [],
            "events": events,
            "lines": _lines(events),
        }

    def _seat_frame(self, seat: int, since: int, shared: dict[str, Any],
                    parts: dict[Any, Any]) -> bytes:
        """``seat``'s ``state`` frame in a broadcast (``shared``: the views' memo;
        ``parts``: what this broadcast encoded already). What is the same in every
        seat's frame is encoded once and put in as it is: the view's fixed part (the
        game's rules and board, once per game), its public part (once per broadcast),
        and the events with their lines (once for each list of events: every seat not
        named by one of them reads the same). The frame decodes to the whole message."""
        state = self.state
        v = view(state, seat, since=since, shared=shared, fixed=False, public=False)
        events = v.pop("events", None) or []
        head = parts.get("head")
        if head is None:
            fixed = fixed_part(state)
            kept = self._fixed
            if kept is None or kept[0] is not fixed:
                kept = self._fixed = (fixed, pack_entries(fixed))
            common = shared["public"]
            head = parts["head"] = (kept[1] + pack_entries(common), len(fixed) + len(common))
        told_key = tuple(map(id, events))  # the events' maps are shared's, alive till the end
        told = parts.get(told_key)
        if told is None:
            told = parts[told_key] = pack_entries({"events": events, "lines": _lines(events)})
        wire = {"type": "state", "table": self.id, "seq": self.seq, "legal": self._legal(seat)}
        return encode_frame_nested(wire, "view", head[0], head[1], v, more=told, more_count=2)

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
        shared: dict[str, Any] = {}  # the views' public part, built once for all of them
        parts: dict[Any, Any] = {}  # the seats' frames' common parts, encoded once
        seats = self.seats
        if first is not None:
            seats = [seats[first], *seats[:first], *seats[first + 1 :]]
        for s in seats:
            if s.conn is not None:
                s.conn.write_state(self.id, self._seat_frame(s.index, since, shared, parts))
            elif s.controller is not None and hasattr(s.controller, "observe"):
                s.controller.observe(view(self.state, s.index, since=since,
                                          shared=shared)["events"], s.index)
        web = self.host.web
        watched = web is not None and web.watching(self.id)
        if self.spectators or self.host.config.log_events or watched:
            spec = self._state_wire(SPECTATOR, since, shared)
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
        if (self.status != "playing" or self.state is None or self.state.is_over
                or self.faulted):
            return None
        actor = self.state.actor
        if actor is None:
            return None
        seat = self.seats[actor]
        return seat if seat.controller is not None else None

    # -- attendance: a client's bots-only game nobody plays or watches pauses -----

    def unattended(self) -> bool:
        """A game on at a table a client created, with no human connected at a seat, no
        spectator and no web watcher: nobody would see its bots play."""
        if self.creator is None or not self.playing or self.state is None:
            return False
        if any(s.human and s.conn is not None for s in self.seats) or self.spectators:
            return False
        web = self.host.web
        return not (web is not None and web.watching(self.id))

    def check_attendance(self) -> None:
        """Pause an unattended game at once (its bots stop thinking) and remove it after
        ``idle_table_grace`` seconds; resume the moment someone sits or watches again."""
        if self.unattended():
            if not self.paused:
                self.paused = True
                self.paused_since = self.host.reactor.seconds()
                grace = self.host.config.idle_table_grace
                log.info("table {table}: paused, nobody plays or watches; removed in "
                         "{grace:.0f} s unless someone comes back", table=self.id,
                         grace=grace)
                self._idle_call = self.host.reactor.callLater(grace, self._abandon)
        elif self.paused:
            self.paused = False
            self._cancel_idle()
            log.info("table {table}: resumed", table=self.id)
            self._schedule_bot()

    def _cancel_idle(self) -> None:
        if self._idle_call is not None and self._idle_call.active():
            self._idle_call.cancel()
        self._idle_call = None

    def _abandon(self, why: str = "grace") -> None:
        """The grace period passed with nobody back (or the host needs the slot for a new
        table): the table goes; its record is kept, its journal kept aside as
        ``table-N.journal.abandoned-<UTC time>`` (games are never deleted)."""
        self._cancel_idle()
        if not self.unattended():
            self.paused = False
            self._schedule_bot()
            return
        if self.state is not None and not self.state.is_over:
            recorder.keep(self, "abandoned")
        if self.journal is not None:
            self.journal.close()
            path = self.journal.path
            self.journal = None
            try:
                path.rename(path.with_name(
                    f"{path.name}.abandoned-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"))
            except OSError as exc:
                log.error("table {table}: cannot keep its journal aside: {err}",
                          table=self.id, err=str(exc))
        if why == "grace":
            log.info("table {table}: removed after {grace:.0f} s with nobody playing or "
                     "watching", table=self.id, grace=self.host.config.idle_table_grace)
        else:
            log.info("table {table}: removed, paused with nobody playing or watching, to "
                     "make room for a new table", table=self.id)
        self.host.remove_table(self)

    def _schedule_bot(self) -> None:
        if (self._bot_call is not None or self._thinking is not None or self.paused
                or self._bot_to_move() is None):
            return
        seat = self._bot_to_move()
        if hasattr(seat.controller, "job"):
            self._think(seat)  # a search: think now, answer no sooner than bot_delay
            return
        self._bot_call = self.host.reactor.callLater(self.host.config.bot_delay, self._bot_move)

    def _bot_move(self) -> None:
        """A timed call: whatever fails, the bot's seat is tried again (never stalls)."""
        self._bot_call = None
        try:
            self._bot_play()
        except Exception:  # noqa: BLE001 - a timed call must not die silently
            log.failure("table {table}: bot move failed", table=self.id)
            self._bot_failed()

    def _bot_play(self) -> None:
        seat = self._bot_to_move()
        if seat is None:
            return
        if hasattr(seat.controller, "job"):  # a search never runs on the reactor thread
            if self._thinking is None:
                self._think(seat)
            return
        legal = [a for a in self._legal(seat.index) if a != "undo"]  # bots never undo
        try:
            choice = seat.controller.choose(view(self.state, seat.index), legal)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: bot failed; playing a random action", table=self.id)
            choice = None
        self._bot_apply(seat, legal, choice)

    def _bot_apply(self, seat: Seat, legal: list[str], choice: Any) -> None:
        if choice not in legal:
            choice = self._rng.choice(legal)
        # If the engine refuses the bot's choice, a few other legal actions are tried.
        others = [a for a in legal if a != choice]
        self._rng.shuffle(others)
        for text in [choice, *others][:4]:
            try:
                self.apply(seat.index, text)
            except HostError as exc:
                log.error("table {table}: bot action {action!r} refused: {msg}",
                          table=self.id, action=text, msg=exc.message)
                if self.faulted:
                    return
                continue
            self._bot_failures = 0
            return
        self._bot_failed()

    def _bot_failed(self) -> None:
        """Nothing the bot tried was applied: try again later, backing off to a minute."""
        self._bot_failures += 1
        if self._bot_call is None and self._bot_to_move() is not None:
            delay = min(60.0, self.host.config.bot_delay + 2.0 ** min(self._bot_failures, 6))
            self._bot_call = self.host.reactor.callLater(delay, self._bot_move)

    def _think(self, seat: Seat) -> None:
        """Run the seat's search in the host's thinker (off the reactor thread)."""
        reactor = self.host.reactor
        legal = [a for a in self._legal(seat.index) if a != "undo"]  # bots never undo
        seq, bot, began = self.seq, seat.controller, reactor.seconds()
        try:
            fn, args = bot.job(view(self.state, seat.index), legal)
            d = self.host.thinker.run(fn, *args, priority=self._think_priority())
        except Exception as exc:  # noqa: BLE001 - a bot bug must not stop the table
            choice = self._fallback(seat, legal, f"{type(exc).__name__}: {exc}")
            self._bot_call = reactor.callLater(self.host.config.bot_delay, self._bot_answer,
                                               seat, seq, legal, choice)
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
            choice = None
            if self._thinking is d and self.seq == seq and seat.controller is bot:
                reason = f"{failure.type.__name__}: {failure.getErrorMessage()}"
                choice = self._fallback(seat, legal, reason)
            answered(choice)

        d.addCallbacks(answered, failed)

    def _think_priority(self) -> int:
        """A person connected at this table waits for its bots: they think first."""
        if any(s.human and s.conn is not None for s in self.seats):
            return HUMAN
        return BOTS

    def _fallback(self, seat: Seat, legal: list[str], reason: str) -> str | None:
        """A bot's search failed (a bug): its level's fallback (greedy, a one-move look,
        quick enough for the reactor thread) decides instead. One log line, and the
        count in the table's and the host's ``bot_fallbacks`` (the web's /tables.json)."""
        self.bot_fallbacks += 1
        self.host.bot_fallbacks = getattr(self.host, "bot_fallbacks", 0) + 1
        fallback = getattr(seat.controller, "fallback", None)
        log.error("table {table}: {color}'s bot search failed ({reason}); its fallback "
                  "{kind} plays instead ({n} fallbacks at this table)", table=self.id,
                  color=seat.color, reason=reason, n=self.bot_fallbacks,
                  kind=getattr(fallback, "kind", "random"))
        if fallback is None:
            return None  # _bot_apply plays a random legal action
        try:
            return fallback.choose(view(self.state, seat.index), legal)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: the fallback bot failed; playing a random action",
                        table=self.id)
            return None

    def _bot_answer(self, seat: Seat, seq: int, legal: list[str], choice: Any) -> None:
        """A timed call: play a search's answer if the position is still the same."""
        self._bot_call = None
        try:
            if self.seq != seq or self._bot_to_move() is not seat:
                self._schedule_bot()
                return
            self._bot_apply(seat, legal, choice)
        except Exception:  # noqa: BLE001 - a timed call must not die silently
            log.failure("table {table}: bot move failed", table=self.id)
            self._bot_failed()

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
        self._cancel_idle()
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
            "password_hash": None if self.password is None else self.password.hash,
            "spectators": self.allow_spectators,
            "creator": self.creator,
        }

    def _seats_record(self) -> dict[str, Any]:
        return {"t": "seats", "owner": self.owner, "seats": [s.record() for s in self.seats]}

    def _journal_seats(self) -> None:
        if self.journal is not None:
            self._journal(self._seats_record())

    def _journal(self, record: dict[str, Any]) -> None:
        """Append (and have fsynced) a record that is a whole snapshot (the seats): if the disk
        fails it is said once, and the next snapshot written catches up."""
        try:
            self.journal.append(record)
        except OSError as exc:
            self._journal_trouble(exc)
        else:
            self._journal_ok()

    def _journal_message(self, exc: OSError) -> str:
        return (f"the host cannot save the game ({exc.strerror or exc}): nothing was "
                "changed; try again once the host's disk has room")

    def _journal_trouble(self, exc: OSError) -> None:
        """The journal cannot be written: said once (until it writes again)."""
        self.journal_error = exc.strerror or str(exc)
        if not self.journal_failing:
            self.journal_failing = True
            log.error("table {table}: cannot write the journal {path} ({err}); actions "
                      "are refused until the disk takes writes again", table=self.id,
                      path=str(self.journal.path), err=exc.strerror or str(exc))
            self.host.lobby_changed(self)

    def _journal_ok(self) -> None:
        if self.journal_failing:
            self.journal_failing = False
            log.info("table {table}: the journal writes again; the game goes on",
                     table=self.id)
            self.host.lobby_changed(self)
