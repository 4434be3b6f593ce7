"""The web's feeds: Server-Sent Events for web watchers (the lobby, each table).

A :class:`Feed` is one stream (the lobby, or one table). :meth:`Feed.publish` encodes
the update once, as an SSE event and as the same event in an HTTP/1.1 chunk, and writes
those same bytes to every watcher's socket (eagerly, see :mod:`cartagena_net.host.eager`).
A watcher whose socket does not take what it is sent (more than ``max_buffer`` bytes
waiting) is dropped, so a slow or stalled reader never makes the host buffer without end.

:class:`Feeds` keeps the lobby's feed and one feed per watched table: it opens a
watcher's stream (:class:`Stream`, with the first frames a watcher needs), publishes
each new state the host hands it (the engine's spectator view, encoded once for every
watcher of the table), coalesces the lobby's and tables' changes, pings, and closes a
table's feed when the table goes. It calls the host back only to count its watchers
(``watchers_changed``); a watcher's first view is the table's ``full_state``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import task
from twisted.logger import Logger
from twisted.web import server

from cartagena_net.host.eager import write_now
from cartagena_net.web.guard import JSON, Leaf, event_stream, plain, to_json

log = Logger(namespace="cartagena.web")

__all__ = ["Feed", "Feeds", "Frame", "Stream", "TablesJSON", "state_frame", "to_json"]


class Frame:
    """One SSE event, encoded once: ``raw`` for HTTP/1.0 peers, ``chunked`` for HTTP/1.1."""

    __slots__ = ("chunked", "raw")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.chunked = b"%x\r\n%b\r\n" % (len(raw), raw)

    @classmethod
    def event(cls, kind: str, data: Any, event_id: int | None = None) -> Frame:
        head = b"" if event_id is None else b"id: %d\n" % event_id
        return cls(b"%bevent: %b\ndata: %b\n\n" % (head, kind.encode("ascii"), to_json(data)))

    @classmethod
    def comment(cls, text: str = "") -> Frame:
        return cls(b": %b\n\n" % text.encode("ascii"))


class Watcher:
    """One open ``text/event-stream`` response."""

    __slots__ = ("feed", "request", "transport")

    def __init__(self, feed: Feed, request: Any) -> None:
        self.feed = feed
        self.request = request
        self.transport = request.channel.transport if request.channel else None

    def send(self, frame: Frame) -> None:
        transport = self.transport
        if transport is None or self.request.finished or self.request._disconnected:
            self.feed.discard(self)
            return
        if write_now(transport, frame.chunked if self.request.chunked
                     else frame.raw) > self.feed.max_buffer:
            log.info("web: dropping a watcher that does not read ({addr})",
                     addr=getattr(self.request.getClientAddress(), "host", "?"))
            self.feed.discard(self)
            transport.abortConnection()


class Feed:
    """The watchers of one stream."""

    def __init__(self, name: str, max_buffer: int,
                 on_change: Callable[[Feed], None] | None = None) -> None:
        self.name = name
        self.max_buffer = max_buffer
        self.watchers: set[Watcher] = set()
        self._on_change = on_change  # called when a watcher joins or leaves

    def __len__(self) -> int:
        return len(self.watchers)

    def add(self, request: Any, first: Callable[[], list[Frame]]) -> Watcher:
        """Join the feed, then start the event stream on ``request`` with the frames
        ``first()`` makes (made once the watcher counts, so they include it)."""
        watcher = Watcher(self, request)
        self.watchers.add(watcher)
        if self._on_change is not None:
            self._on_change(self)
        request.write(b"".join(f.raw for f in first()) or b": \n\n")  # headers + first data
        request.notifyFinish().addBoth(lambda _: self.discard(watcher))
        return watcher

    def discard(self, watcher: Watcher) -> None:
        if watcher in self.watchers:
            self.watchers.discard(watcher)
            if self._on_change is not None:
                self._on_change(self)

    def publish(self, frame: Frame) -> None:
        """Write one already encoded frame to every watcher."""
        for watcher in list(self.watchers):
            watcher.send(frame)

    def close(self, last: Frame | None = None) -> None:
        """End every stream (the host stops, the table closes to watchers or is removed),
        after ``last`` (a final event) when given. The feed is left without watchers and
        calls nobody back."""
        if last is not None:
            self.publish(last)
        self._on_change = None
        for watcher in list(self.watchers):
            self.watchers.discard(watcher)
            if not watcher.request.finished and not watcher.request._disconnected:
                watcher.request.finish()


def state_frame(wire: dict[str, Any], reset: bool) -> Frame:
    """A ``state`` event from a table's spectator ``state`` map (engine view + events)."""
    data = {"seq": wire["seq"], "view": wire["view"], "events": wire["events"],
            "reset": reset, "chances": wire.get("chances"), "game": wire.get("game")}
    if "chances_seq" in wire:  # live chances: the state number they are of, and on a
        data["chances_seq"] = wire["chances_seq"]  # first view the curve so far
    if reset and "curve" in wire:
        data["curve"] = wire["curve"]
    return Frame.event("state", data, wire["seq"])


class Feeds:
    """The lobby's feed and the watched tables' feeds.

    ``table(id)``: the table or None; ``lobby_data()``: the lobby as the pages read it;
    ``watchers_changed(table)``: a table's web watchers came or went (the host counts
    them among its spectators). A table is read for its ``id``, ``seq``, ``coach``,
    ``state``, ``allow_spectators``, ``lobby_entry()`` and ``full_state(viewer)``."""

    def __init__(self, reactor: Any, config: Any, table: Callable[[int], Any],
                 lobby_data: Callable[[], dict[str, Any]],
                 watchers_changed: Callable[[Any], None]) -> None:
        self.reactor = reactor
        self.config = config
        self._table, self._lobby_data = table, lobby_data
        self._watchers_changed = watchers_changed
        self.lobby = Feed("lobby", config.web_max_buffer)
        self.tables: dict[int, Feed] = {}
        self._full: dict[int, tuple[Any, Frame]] = {}
        self._dirty: set[int] = set()
        self._push_call: Any = None
        self._keepalive: Any = None
        self.open = False  # pushing (between start and stop)

    def start(self) -> None:
        self.open = True
        self._keepalive = task.LoopingCall(self._ping)
        self._keepalive.clock = self.reactor
        self._keepalive.start(self.config.web_keepalive, now=False)

    def stop(self) -> None:
        self.open = False
        if self._keepalive is not None and self._keepalive.running:
            self._keepalive.stop()
        if self._push_call is not None and self._push_call.active():
            self._push_call.cancel()
        self._push_call = None
        for feed in [self.lobby, *self.tables.values()]:
            feed.close()
        self.tables.clear()

    # -- watchers ------------------------------------------------------------------

    def watch(self, request: Any, table_id: int | None) -> None:
        """Start ``request``'s stream: the lobby's (None) or a table's (it exists)."""
        if table_id is None:
            self.lobby.add(request, lambda: [Frame.event("lobby", self._lobby_data())])
            return
        table = self._table(table_id)
        feed = self.tables.get(table_id)
        if feed is None:
            feed = self.tables[table_id] = Feed(
                f"table {table_id}", self.config.web_max_buffer,
                lambda f: self._feed_changed(table_id, f))

        def first() -> list[Frame]:
            frames = [Frame.event("table", table.lobby_entry())]
            if table.state is not None:
                frames.append(self._full_frame(table))
            return frames
        feed.add(request, first)

    def _feed_changed(self, table_id: int, feed: Feed) -> None:
        """A web watcher came or went: the table's watcher count changed."""
        if not len(feed) and self.tables.get(table_id) is feed:
            del self.tables[table_id]
            self._full.pop(table_id, None)
        table = self._table(table_id)
        if table is not None and self.open:
            self._watchers_changed(table)

    def watching(self, table_id: int) -> bool:
        return table_id in self.tables

    def watchers(self, table_id: int) -> int:
        """How many browsers watch the table (counted with its spectators)."""
        feed = self.tables.get(table_id)
        return len(feed) if feed is not None else 0

    def _full_frame(self, table: Any) -> Frame:
        """A watcher's first view of a game: encoded once per table change."""
        from cartagena_net.engine import SPECTATOR

        coach = getattr(table, "coach", None)  # a new live estimate: a new first view
        key = (table.seq, None if coach is None else len(coach.curve),
               None if coach is None else coach.chances)
        cached = self._full.get(table.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        frame = state_frame(table.full_state(SPECTATOR), reset=True)
        self._full[table.id] = (key, frame)
        return frame

    # -- what the host hands on ------------------------------------------------------

    def publish_state(self, table: Any, spectator_wire: dict[str, Any], full: bool) -> None:
        """The table's new state (the spectators' wire map, built from the engine's
        spectator view): one frame for every web watcher of the table."""
        feed = self.tables.get(table.id)
        if feed is not None:
            feed.publish(state_frame(spectator_wire, reset=full))

    def table_changed(self, table: Any) -> None:
        """Seats, names, status or spectators changed: push it soon, coalesced."""
        if table is not None:
            if not table.allow_spectators and table.id in self.tables:
                self.tables.pop(table.id).close()
            self._dirty.add(table.id)
        if self._push_call is None:
            self._push_call = self.reactor.callLater(self.config.lobby_delay, self._push)

    def push_now(self) -> None:
        """What :meth:`table_changed` would push soon, now."""
        if self._push_call is not None and self._push_call.active():
            self._push_call.cancel()
        self._push()

    def table_removed(self, table_id: int) -> None:
        """The host removed the table: its watchers are told (a ``gone`` event) and
        their streams end; the page says so and links to the list of tables."""
        self._full.pop(table_id, None)
        self._dirty.discard(table_id)
        feed = self.tables.pop(table_id, None)
        if feed is not None:
            feed.close(Frame.event("gone", {"id": table_id,
                                            "text": f"table {table_id} is gone"}))

    def _push(self) -> None:
        self._push_call = None
        dirty, self._dirty = self._dirty, set()
        for tid in dirty:
            table = self._table(tid)
            feed = self.tables.get(tid)
            if table is not None and feed is not None:
                feed.publish(Frame.event("table", table.lobby_entry()))
        if len(self.lobby):
            self.lobby.publish(Frame.event("lobby", self._lobby_data()))

    def _ping(self) -> None:
        """A comment now and then: finds dead peers and keeps proxies from timing out."""
        frame = Frame.comment()
        for feed in [self.lobby, *self.tables.values()]:
            feed.publish(frame)


class Watched(Leaf):
    """A resource behind the lobby's and the table's passwords: ``web.refusal``."""

    def __init__(self, web: Any, table_id: int | None = None) -> None:
        super().__init__()
        self.web = web
        self.table_id = table_id

    def refused(self, request: Any) -> bytes | None:
        refused = self.web.refusal(request, self.table_id)
        return None if refused is None else plain(request, *refused)


class TablesJSON(Watched):
    """``/tables.json``: the lobby, once."""

    def render_GET(self, request: Any) -> bytes:
        refused = self.refused(request)
        if refused is not None:
            return refused
        request.setHeader(b"Content-Type", JSON.encode())
        return to_json(self.web.lobby_data())


class Stream(Watched):
    """A ``text/event-stream``: the lobby's (``table_id`` None) or one table's."""

    def _open(self, request: Any) -> bytes | None:
        refused = self.refused(request)
        if refused is not None:
            return refused
        event_stream(request)
        return None

    def render_HEAD(self, request: Any) -> bytes:
        body = self._open(request)
        request.setHeader(b"Content-Length", b"%d" % len(body or b""))
        return b""

    def render_GET(self, request: Any) -> Any:
        refused = self._open(request)
        if refused is not None:
            return refused
        self.web.feeds.watch(request, self.table_id)
        return server.NOT_DONE_YET
