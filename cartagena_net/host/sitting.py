"""Who sits at a table: seats, tokens, the owner, bots' seats, takeovers and stand-ins.

:class:`Sitting` owns the table's seats (``table.seats``) and its owner: a player sits
with a new token and comes back with it, the first to sit owns the table, the owner adds
and removes bots and empty seats before the start, seats are reordered to play again,
and a player away for ``takeover`` seconds during a game gets a stand-in bot until they
return. It may call the host's ``config``, ``reactor``, ``game_for`` and
``lobby_changed``, and the table's ``remove_if_vacant``, ``play.journal_seats``,
``play.rewrite_journal`` and ``bots.schedule``; of the other parts of a table it imports
only the bots' ``load_bot`` and ``check_bot_kind``.
"""
from __future__ import annotations

import random
from typing import Any, Protocol

from twisted.logger import Logger

from cartagena_net.host import gamerec
from cartagena_net.host.errors import HostError
from cartagena_net.host.seats import Seat
from cartagena_net.host.tablebots import check_bot_kind, load_bot, seat_bot
from cartagena_net.host.tokens import new_token, same_secret
from protocol import messages

log = Logger(namespace="cartagena.host.table")

# Bots are named after pirates of the golden age, each one once per table.
BOT_NAMES = ("Anne Bonny", "Calico Jack", "Mary Read", "Blackbeard", "Captain Kidd",
             "Black Bart", "Ned Low", "Charles Vane", "Henry Avery", "Grace O'Malley")


class _Journaling(Protocol):
    def journal_seats(self) -> None: ...

    def rewrite_journal(self) -> None: ...


class _Scheduler(Protocol):
    def schedule(self) -> None: ...


class SittingTable(Protocol):
    """What :class:`Sitting` reads and writes of its table (and the calls it makes back)."""

    host: Any
    id: int
    rules: str
    options: dict[str, Any]
    game: Any
    seats: list[Seat]
    owner: int | None
    rng: random.Random
    play: _Journaling
    bots: _Scheduler

    @property
    def playing(self) -> bool: ...

    @property
    def status(self) -> str: ...  # the game's (``table.match``), read only

    def remove_if_vacant(self) -> bool: ...


class Sitting:
    """The seats of ``table`` and who holds them."""

    def __init__(self, table: SittingTable) -> None:
        self.table = table

    # -- players -------------------------------------------------------------

    def sit(self, conn: Any, seat: int | None, name: str, color: str | None) -> Seat:
        """Seat ``conn`` (a new player) and return the seat; the first to sit owns it."""
        t = self.table
        if t.playing:
            raise HostError("already-started", "table-playing", table=t.id)
        chosen = self._choose_seat(seat, color)
        chosen.name = name
        chosen.token = new_token()
        chosen.conn = conn
        if t.owner is None or not t.seats[t.owner].human:
            t.owner = chosen.index
        t.play.journal_seats()
        t.host.lobby_changed(t)
        return chosen

    def _choose_seat(self, seat: int | None, color: str | None) -> Seat:
        t = self.table
        seats = t.seats
        if color is not None:
            matches = [s for s in seats if s.color.casefold() == color.casefold()]
            if not matches:
                raise HostError("bad-seat", "no-color-seat", color=color,
                                colors=" ".join(s.color for s in seats))
            if seat is not None and seat != matches[0].index:
                raise HostError("bad-seat", "seat-not-color", seat=seat, color=color)
            seat = matches[0].index
        if seat is None:
            for s in seats:
                if not s.occupied:
                    return s
            raise HostError("table-full", "no-free-seat", table=t.id)
        if not 0 <= seat < len(seats):
            raise HostError("bad-seat", "seat-out-of-range", seat=seat, last=len(seats) - 1)
        if seats[seat].occupied:
            raise HostError("table-full", "seat-taken", seat=seat, color=seats[seat].color)
        return seats[seat]

    def detach(self, conn: Any) -> None:
        """The connection behind a seat went away: the seat is kept for its token."""
        t = self.table
        seat = self.seat_of(conn)
        if seat is None:
            return
        seat.conn = None
        log.info("table {table}: {color} disconnected", table=t.id, color=seat.color)
        if not t.playing:
            # No game is on: a player who drops before the start gives up the seat.
            self.leave_seat(seat)
            return
        self.arm_takeover(seat)
        t.host.lobby_changed(t)

    def leave_seat(self, seat: Seat) -> None:
        t = self.table
        seat.clear()
        if t.owner == seat.index:
            humans = [s.index for s in t.seats if s.human]
            t.owner = humans[0] if humans else None
        if t.remove_if_vacant():
            return  # its journal went with it: it held no game
        t.play.journal_seats()
        t.host.lobby_changed(t)

    def attach(self, conn: Any, seat: Seat) -> None:
        """A player came back with its token: restore the seat (the caller sends a fresh
        full view)."""
        old = seat.conn
        seat.conn = conn
        if old is not None and old is not conn:
            old.displaced()
        if seat.takeover_call is not None and seat.takeover_call.active():
            seat.takeover_call.cancel()
        seat.takeover_call = None
        seat.stand_in(None, None)  # the player is back: the stand-in bot steps aside
        log.info("table {table}: {color} reconnected", table=self.table.id, color=seat.color)
        self.table.host.lobby_changed(self.table)

    def find_token(self, token: str) -> Seat | None:
        found = None
        for s in self.table.seats:
            if s.token is not None and same_secret(token, s.token):
                found = s
        return found

    def seat_of(self, conn: Any) -> Seat | None:
        for s in self.table.seats:
            if s.conn is conn:
                return s
        return None

    def require_owner(self, conn: Any) -> None:
        """The owner may; so may the first connected player while the owner is away."""
        t = self.table
        seat = self.seat_of(conn)
        owner = t.seats[t.owner] if t.owner is not None else None
        if seat is not None and owner is not None and owner.conn is None:
            present = [s for s in t.seats if s.human and s.conn is not None]
            if present and present[0] is seat:
                return
        if seat is None or seat.index != t.owner:
            raise HostError("not-owner", "owner-only")

    # -- takeovers: a stand-in bot for an absent player --------------------------

    def arm_takeover(self, seat: Seat) -> None:
        t = self.table
        delay = t.host.config.takeover
        if delay is None or t.status != "playing" or not seat.human or seat.conn is not None:
            return
        if seat.takeover_call is not None and seat.takeover_call.active():
            return

        def take_over() -> None:
            seat.takeover_call = None
            if seat.conn is None and t.status == "playing":
                self.stand_in(seat, "greedy")

        seat.takeover_call = t.host.reactor.callLater(delay, take_over)

    def stand_in(self, seat: Seat, kind: str) -> None:
        """A bot of ``kind`` plays ``seat`` until its player returns."""
        t = self.table
        if seat.takeover_call is not None and seat.takeover_call.active():
            seat.takeover_call.cancel()
        seat.takeover_call = None
        seat.stand_in(load_bot(kind, t.rng, t.host.config), kind)
        log.info("table {table}: a bot plays {color} until it returns",
                 table=t.id, color=seat.color)
        t.host.lobby_changed(t)
        t.bots.schedule()

    def cancel_takeovers(self) -> None:
        for s in self.table.seats:
            if s.takeover_call is not None and s.takeover_call.active():
                s.takeover_call.cancel()
            s.takeover_call = None

    # -- owner commands: bots and seats --------------------------------------------

    def add_bot(self, conn: Any | None, seat: int | None, kind: str,
                level: str | None = None) -> Seat:
        """Seat a bot of ``kind`` (a searching bot at its own ``level``, None: the host's);
        during a game, a stand-in bot (at the host's level) for an absent player."""
        t = self.table
        if conn is not None:
            self.require_owner(conn)
        check_bot_kind(kind, level)  # an unknown kind or level is refused, wherever it sits
        kind, level = seat_bot(kind, level, t.host.config)  # easy: the greedy bot
        if t.playing:
            return self._hand_to_bot(seat, kind)
        chosen = self._choose_seat(seat, None)
        bot = load_bot(kind, t.rng, t.host.config, level)
        chosen.bot_kind = kind
        chosen.bot_level = level
        chosen.bot = bot
        chosen.name = self.bot_name()
        t.play.journal_seats()
        t.host.lobby_changed(t)
        return chosen

    def bot_name(self) -> str:
        """A bot name no other seat at this table uses."""
        used = {s.name for s in self.table.seats}
        free = [n for n in BOT_NAMES if n not in used]
        return free[0] if free else f"bot {len(used)}"

    def _hand_to_bot(self, seat: int | None, kind: str) -> Seat:
        """During a game: a bot plays an absent player's seat until the player returns."""
        seats = self.table.seats
        if seat is None or not 0 <= seat < len(seats):
            raise HostError("already-started", "stand-in-name-seat")
        chosen = seats[seat]
        if not chosen.human or chosen.conn is not None:
            raise HostError("bad-seat", "player-here", color=chosen.color)
        self.stand_in(chosen, kind)
        return chosen

    def remove_bot(self, conn: Any, seat: int) -> None:
        """Remove a bot; during a game, stop a stand-in bot; before it, remove an empty seat."""
        t = self.table
        self.require_owner(conn)
        if not 0 <= seat < len(t.seats):
            raise HostError("bad-seat", "seat-out-of-range", seat=seat, last=len(t.seats) - 1)
        chosen = t.seats[seat]
        if t.playing:
            if chosen.takeover_bot is None:
                raise HostError("already-started", "stand-in-only")
            chosen.stand_in(None, None)  # the seat waits for its player again
            t.host.lobby_changed(t)
            return
        if not chosen.occupied:
            self.remove_seat(seat)
            return
        if chosen.bot_kind is None:
            raise HostError("bad-seat", "no-bot", seat=seat)
        chosen.clear()
        t.play.journal_seats()
        t.host.lobby_changed(t)

    def remove_seat(self, seat: int) -> None:
        """Before the start: take an empty seat away (three friends at a four-seat table)."""
        t = self.table
        keep = [s for s in t.seats if s.index != seat]
        try:
            self.reseat(keep)
        except HostError:
            raise HostError("bad-seat", "seats-unusable", rules=t.rules,
                            seats=len(keep)) from None
        t.play.rewrite_journal()
        t.host.lobby_changed(t)

    def reseat(self, order: list[Seat]) -> None:
        """Seats in a new order (or fewer): each keeps its colour, player, bot and token."""
        t = self.table
        options = dict(t.options)
        options["players"] = len(order)
        colors = [s.color for s in order]
        if "colors" in options or colors != gamerec.seat_colors(t.game)[: len(order)]:
            options["colors"] = ",".join(colors)
        game = t.host.game_for(t.rules, options)  # HostError if the rules refuse
        owner = t.seats[t.owner] if t.owner is not None else None
        moved = [s for i, s in enumerate(order) if s.index != i]
        for i, s in enumerate(order):
            s.index = i
        t.seats = order
        t.options = options
        t.game = game  # the Game before goes with its last state (it holds no cycle)
        t.owner = owner.index if owner is not None else None
        for s in moved:  # players are told their new seat numbers with ``joined``
            if s.conn is not None:
                s.conn.send_message(messages.Joined(table=t.id, seat=s.index, token=s.token))
