"""What each viewer of a table receives: state frames, broadcasts, spectators, web watchers.

:class:`Viewers` owns the table's terminal spectators (``table.spectators``) and builds
every ``state`` message: each seat's frame (its own view, spliced from parts encoded
once per game or per broadcast), the spectators' shared view (to terminal spectators
and, encoded once, to the web view's watchers), a fresh full view for a reconnect. All
hidden information is filtered by the engine's view alone. It reads the game from the
table's ``match`` (and tells it which events were sent), and may call the engine's
view, the host's ``encode_wire``, ``web.watchers`` and ``lobby_changed``, the table's
``remove_if_vacant`` and the coach's ``follow`` and ``turn``. What follows a broadcast
elsewhere (the bots' turn, the live chances) it calls back through
:attr:`Viewers.after_broadcast`, and the web view's watchers through the ``watched``
and ``publish`` callbacks it is given: it never calls the bots, nor the web's
``publish_state`` itself.

Whatever is added to what a viewer sees goes here: the live chances (the table's
``coach`` estimates them from the spectators' view) join the spectators' states, and the
players' when the table's owner chose so; after each broadcast the coach follows what
each viewer was told and estimates the new position, and :meth:`Viewers.chances_ready`
sends a new estimate when it is in.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from twisted.logger import Logger

from cartagena_net.engine import SPECTATOR, view
from cartagena_net.engine.view import fixed_part
from cartagena_net.host.errors import HostError
from cartagena_net.host.game import TableGame
from cartagena_net.host.play import RECENT_EVENTS, legal
from cartagena_net.host.seats import Seat
from protocol.framing import (
    encode_frame_entries,
    pack_array_head,
    pack_entries,
    pack_map_head,
    pack_value,
)

log = Logger(namespace="cartagena.host.table")


_NO_LEGAL = pack_entries({"legal": []})  # a seat's frame while it is not to act
_NO_CHANCES = pack_entries({"chances": None})  # a frame at a table that shows none


def _chances_entry(chances: list[float] | None) -> bytes:
    return _NO_CHANCES if chances is None else pack_entries({"chances": chances})


def _lines(events: list[dict[str, Any]]) -> list[str]:
    """A ``state`` message's ``lines``: each event's text, cut to the protocol's 500."""
    return [str(e.get("text", ""))[:500] for e in events]


class _Coach(Protocol):
    chances: list[float] | None
    chances_seq: int | None
    curve: list[dict[str, Any]]

    def follow(self, shared: dict[str, Any] | None = None) -> None: ...

    def turn(self) -> None: ...


class _ViewersHost(Protocol):
    """What :class:`Viewers` uses of the host."""

    config: Any  # its log_events
    web: Any  # its watchers' count (the lobby's spectators)

    def encode_wire(self, wire: dict[str, Any]) -> bytes: ...

    def lobby_changed(self, table: Any) -> None: ...


class ViewersTable(Protocol):
    """What :class:`Viewers` reads of its table (and the one call it makes back)."""

    host: _ViewersHost
    id: int
    allow_spectators: bool
    seats: list[Seat]
    spectators: set[Any]
    match: TableGame
    coach: _Coach
    player_chances: bool

    def remove_if_vacant(self) -> bool: ...


class Viewers:
    """Everyone who sees ``table``'s game, and what each of them is sent."""

    def __init__(self, table: ViewersTable,
                 watched: Callable[[], bool] = lambda: False,
                 publish: Callable[[dict[str, Any], bool], None] | None = None) -> None:
        """``watched()``: whether the web view has watchers of this table now;
        ``publish(spectator_wire, full)``: hand them a new state."""
        self.table = table
        self.watched = watched
        self.publish = publish
        # called after each broadcast (and its events marked sent), in order
        self.after_broadcast: list[Callable[[], None]] = []
        self._fixed: tuple[dict[str, Any], bytes] | None = None  # see seat_frame
        # each seat's face as last encoded, the public one and its own (see _face)
        self._faces: dict[Any, tuple[dict[str, Any], bytes]] = {}

    # -- spectators ----------------------------------------------------------

    def check_spectators(self) -> None:
        t = self.table
        if not t.allow_spectators:
            raise HostError("no-spectators", "no-spectators", table=t.id)

    def spectate(self, conn: Any) -> None:
        t = self.table
        self.check_spectators()
        t.spectators.add(conn)
        t.host.lobby_changed(t)
        if t.match.state is not None:
            conn.write_state(t.id, t.host.encode_wire(self.full_state(SPECTATOR)))
            t.coach.turn()  # a first estimate, if none was made while nobody watched

    def drop_spectator(self, conn: Any) -> bool:
        """Remove ``conn`` if it is a spectator here; say whether it was."""
        t = self.table
        if conn not in t.spectators:
            return False
        t.spectators.discard(conn)
        t.host.lobby_changed(t)
        t.remove_if_vacant()
        return True

    def web_watchers(self) -> int:
        """Browsers watching through the web view count as spectators too."""
        web = self.table.host.web
        return web.watchers(self.table.id) if web is not None else 0

    # -- state messages --------------------------------------------------------

    def state_wire(self, viewer: Any, since: int,
                   shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """A ``state`` message as a wire map: the engine's view for ``viewer`` only
        (``shared``: the view's memo for every viewer of this one broadcast)."""
        t = self.table
        game = t.match
        v = view(game.state, viewer, since=since, shared=shared)
        events = v.pop("events", None) or []
        return {
            "type": "state",
            "table": t.id,
            "seq": game.seq,
            "view": v,
            "legal": legal(game.state, viewer) if viewer is not SPECTATOR else [],
            "events": events,
            "lines": _lines(events),
            "chances": self._chances(viewer),
        }

    def _chances(self, viewer: Any) -> list[float] | None:
        """The newest live chances, for a spectator, or a seat at a table that shows
        them to its players; else None."""
        t = self.table
        if viewer is SPECTATOR or t.player_chances:
            return t.coach.chances
        return None

    def seat_frame(self, seat: int, since: int, shared: dict[str, Any],
                   parts: dict[Any, Any]) -> bytes:
        """``seat``'s ``state`` frame in a broadcast (``shared``: the views' memo;
        ``parts``: what this broadcast encoded already). What is the same in every
        seat's frame is encoded once and put in as it is: the message's own entries but
        ``legal`` (once per broadcast), the view's fixed part (the game's rules and
        board, once per game), its public part (once per broadcast), the events with
        their lines (once for each list of events: every seat not named by one of them
        reads the same), and the seats' faces (each once, and kept from one broadcast
        to the next while it is the same: :meth:`_face`), but in the first frame (the
        acting seat's, which goes out at once): its faces are encoded with its own
        entries. A seat's own entries (its ``legal``, its own face with its hand,
        ``viewer`` and its magic) are encoded for it alone. The frame decodes to the
        whole message (:meth:`state_wire`)."""
        state = self.table.match.state
        v = view(state, seat, since=since, shared=shared, fixed=False, public=False)
        common = parts.get("common")
        if common is None:
            common = parts["common"] = self._common_parts(state, seat, shared)
        wire, chances, fixed, public, count = common
        events = v.pop("events", None) or []
        told_key = tuple(map(id, events))  # the events' maps are shared's, alive till the end
        told = parts.get(told_key)
        if told is None:
            told = parts[told_key] = pack_entries({"events": events, "lines": _lines(events)})
        entries = count + len(v)  # the view's: its seats, viewer and magic with the rest
        if "faces" not in parts:
            # The first frame (the acting seat's) goes out at once: its seats' faces are
            # encoded with the rest of its own entries.
            parts["faces"] = None
            own: tuple[bytes, ...] = (pack_entries(v),)
        else:  # the others': the seats' faces spliced in (see _seat_faces)
            own = (*self._seat_faces(v.pop("seats"), shared["seats"], parts),
                   pack_entries(v))
        can = legal(state, seat)
        return encode_frame_entries(
            8, wire, pack_entries({"legal": can}) if can else _NO_LEGAL, chances, told,
            pack_map_head("view", entries), fixed, public, *own)

    def _common_parts(self, state: Any, seat: int, shared: dict[str, Any]) -> tuple:
        """What every seat's frame of this broadcast holds alike, encoded once (``seat``:
        the first one's; the chances are the same for every seat): the message's entries
        before ``legal``, its ``chances``, the view's fixed and public parts and their
        count."""
        t = self.table
        fixed = fixed_part(state)
        kept = self._fixed
        if kept is None or kept[0] is not fixed:
            kept = self._fixed = (fixed, pack_entries(fixed))
        common = shared["public"]
        return (pack_entries({"type": "state", "table": t.id, "seq": t.match.seq}),
                _chances_entry(self._chances(seat)), kept[1],
                pack_entries(common), len(fixed) + len(common))

    def _seat_faces(self, seats: list[dict[str, Any]], public: list[dict[str, Any]],
                    parts: dict[Any, Any]) -> list[bytes]:
        """A view's ``seats`` entry, its faces spliced in: each public one encoded once a
        broadcast (and kept while unchanged: :meth:`_face`), a seat's own face (its hand)
        for it alone."""
        faces = parts.get("faces")
        if faces is None:  # every seat's public face, encoded once a broadcast
            faces = parts["faces"] = [pack_array_head("seats", len(public)),
                                      *(self._face(i, f) for i, f in enumerate(public))]
        if seats is public:  # no face of its own (the hands are public)
            return faces
        faces = list(faces)
        for i, f in enumerate(seats):
            if f is not public[i]:
                faces[i + 1] = self._face(("own", i), f)
        return faces

    def _face(self, key: Any, face: dict[str, Any]) -> bytes:
        """A seat's face (``key``: its seat, or ``("own", seat)`` for the face with its
        hand) encoded, and kept while the face stays the same: from one action to the
        next most seats' faces do (a face equal to the last one encodes alike: the
        engine builds every face with the same keys in the same order, of the same
        types; it gives an unchanged face again as the same object)."""
        kept = self._faces.get(key)
        if kept is not None and (kept[0] is face or kept[0] == face):
            return kept[1]
        data = pack_value(face)
        self._faces[key] = (face, data)
        return data

    def full_state(self, viewer: Any, web: bool = False) -> dict[str, Any]:
        """A fresh full ``state`` map for ``viewer`` with the recent events (a reconnect,
        a new spectator, the web view; ``web``: with the chances' state number and
        their curve so far, for the TV page)."""
        wire = self.state_wire(viewer,
                               max(0, self.table.match.state.event_count - RECENT_EVENTS))
        return self._for_web(wire, curve=True) if web else wire

    def _for_web(self, wire: dict[str, Any], curve: bool = False) -> dict[str, Any]:
        t = self.table
        coach = t.coach
        out = {**wire, "chances_seq": coach.chances_seq, "game": t.match.game_seq}
        if curve:
            out["curve"] = list(coach.curve)
        return out

    def broadcast(self, full: bool = False, first: int | None = None) -> None:
        """Each seated player's own view, then the spectators' shared frame.

        The seat that acted (``first``) is served first: its answer goes out at once.
        Then the coach follows what each viewer was told, the game marks its events
        sent, and :attr:`after_broadcast` is called.
        """
        t = self.table
        game = t.match
        state = game.state
        since = 0 if full else game.sent_events
        host = t.host
        shared: dict[str, Any] = {}  # the views' public part, built once for all of them
        parts: dict[Any, Any] = {}  # the seats' frames' common parts, encoded once
        seats = t.seats
        if first is not None:
            seats = [seats[first], *seats[:first], *seats[first + 1 :]]
        for s in seats:
            if s.conn is not None:
                s.conn.write_state(t.id, self.seat_frame(s.index, since, shared, parts))
            elif s.controller is not None and hasattr(s.controller, "observe"):
                s.controller.observe(view(state, s.index, since=since,
                                          shared=shared)["events"], s.index)
        watched = self.publish is not None and self.watched()
        log_events = host.config.log_events
        if t.spectators or log_events or watched:
            spec = self.state_wire(SPECTATOR, since, shared)
            if log_events:
                for line in spec["lines"]:
                    log.info("table {table}: {line}", table=t.id, line=line)
            if t.spectators:
                data = host.encode_wire(spec)
                for conn in list(t.spectators):
                    conn.write_state(t.id, data)
            if watched:  # encoded once for every web watcher
                self.publish(self._for_web(spec, curve=full), full)
        t.coach.follow(shared)  # what each viewer was told, before the state forgets it
        sent = state.event_count
        game.sent(sent)
        if sent - state.events_base >= 2 * RECENT_EVENTS:  # nothing older is resent:
            state.forget_events(sent - RECENT_EVENTS)  # forgotten twenty at a time
        for then in self.after_broadcast:
            then()

    def chances_ready(self) -> None:
        """A new live estimate: the same state again, with no events and the new
        chances, to the spectators and web watchers (and the players, if shown)."""
        t = self.table
        if t.match.state is None:
            return
        since = t.match.state.event_count
        if t.player_chances:
            shared: dict[str, Any] = {}
            parts: dict[Any, Any] = {}
            for s in t.seats:
                if s.conn is not None:
                    s.conn.write_state(t.id, self.seat_frame(s.index, since, shared, parts))
        if t.host.config.log_events:  # a headless host's own screen: its log
            chances = t.coach.chances or []
            log.info("table {table}: chances {chances}", table=t.id, chances=", ".join(
                f"{s.color} {round(p * 100)}%" for s, p in zip(t.seats, chances, strict=False)))
        watched = self.publish is not None and self.watched()
        if t.spectators or watched:
            spec = self.state_wire(SPECTATOR, since)
            if t.spectators:
                data = t.host.encode_wire(spec)
                for conn in list(t.spectators):
                    conn.write_state(t.id, data)
            if watched:
                self.publish(self._for_web(spec), False)
