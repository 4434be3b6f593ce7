"""Server-Sent Events fan-out: one encoded frame per update, shared by every watcher.

A :class:`Feed` is one stream (the lobby, or one table). :meth:`Feed.publish` encodes
the update once, as an SSE event and as the same event in an HTTP/1.1 chunk, and writes
those same bytes to every watcher's socket (eagerly, see :mod:`cartagena_net.host.eager`).
A watcher whose socket does not take what it is sent (more than ``max_buffer`` bytes
waiting) is dropped, so a slow or stalled reader never makes the host buffer without end.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

from cartagena_net.host.eager import pending_bytes, write_now

log = Logger(namespace="cartagena.web")


def to_json(data: Any) -> bytes:
    """Compact UTF-8 JSON on one line (JSON escapes every newline inside strings)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


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
        write_now(transport, frame.chunked if self.request.chunked else frame.raw)
        if pending_bytes(transport) > self.feed.max_buffer:
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
