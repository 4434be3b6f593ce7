"""Eager writes, and the frames of one round of the reactor sent together at its end.

:func:`write_now`: Twisted's TCP transports queue every write until the reactor's next
writable event, which costs two selector updates and a callback per connection; for the
spectator fan-out (one frame to hundreds of sockets) sending at once is far cheaper.
Whatever the kernel does not take is queued through ``transport.write`` as usual, so the
order of bytes never changes.

:class:`Outbox`: while the reactor still has ready events to handle in this round (the
actions of other tables, read in the same wait), the frames written are held, and all
of them go out, in order, once the round's last event is handled (as Netty consolidates
the flushes of a read loop). A busy host then sends in bursts: a peer woken by the
first frame of a burst reads the rest without being woken again, where a frame sent at
once woke it for each action (on loopback the sender pays for every wake-up, in its
own system time). An action alone in its round, as on a quiet evening, is answered at
once, as before.
"""
from __future__ import annotations

import errno
from typing import Any

_RETRY = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EINTR, errno.ENOBUFS}


def write_now(transport: Any, data: bytes) -> int:
    """Write ``data`` to a TCP transport, sending immediately when its queue is empty;
    return the bytes written to it and not yet taken by the kernel
    (:func:`pending_bytes`, 0 when the kernel took them all at once)."""
    sock = getattr(transport, "socket", None)
    queued = getattr(transport, "dataBuffer", b"x") or getattr(transport, "_tempDataBuffer", [1])
    if (sock is None or queued or getattr(transport, "disconnecting", True)
            or not getattr(transport, "connected", False)):
        transport.write(data)
        return pending_bytes(transport)
    try:
        sent = sock.send(data)
    except OSError as exc:
        if exc.errno not in _RETRY:
            transport.write(data)  # the transport reports the error its own way
            return pending_bytes(transport)
        sent = 0
    if sent < len(data):
        transport.write(data[sent:])
        return pending_bytes(transport)
    return 0


def pending_bytes(transport: Any) -> int:
    """Bytes written to a Twisted transport and not yet taken by the kernel."""
    return len(getattr(transport, "dataBuffer", b"")) + int(
        getattr(transport, "_tempDataLen", 0) or 0
    )


class Outbox:
    """Frames for the host's connections, held while the reactor's round has more ready
    events to handle and sent together after its last (see the module).

    A connection (``conn``) has ``held`` (set here while one of its frames waits) and
    ``deliver(data)`` (writes one frame now). Everything else a connection writes must
    call :meth:`flush` first while it has frames held, so that nothing overtakes them.

    Where the reactor runs on no asyncio loop, or one that does not show its round's
    ready handles (CPython's ``BaseEventLoop._ready``; read, never changed), every frame
    is delivered at once.
    """

    def __init__(self, reactor: Any) -> None:
        self._loop = getattr(reactor, "_asyncioEventloop", None)
        self._ready = getattr(self._loop, "_ready", None)
        self._held: list[tuple[Any, bytes]] = []
        self._handle: Any = None  # the flush after this round, while frames are held

    def send(self, conn: Any, data: bytes) -> None:
        """Deliver ``data`` on ``conn``: at once if nothing else is ready in this round
        (with whatever was held before it), else after the round's last event."""
        more = self._more_to_come()
        if not more and not self._held:  # alone in its round, nothing before it
            conn.deliver(data)
            return
        self._held.append((conn, data))
        conn.held = True
        if not more:
            self.flush()
        elif self._handle is None:
            self._handle = self._loop.call_soon(self.flush)

    def _more_to_come(self) -> bool:
        """Whether the reactor's round has ready events left to handle (besides the
        flush this outbox asked for)."""
        ready = self._ready
        if not ready:
            return False
        return len(ready) > 1 or ready[0] is not self._handle

    def flush(self) -> None:
        """Deliver every frame held, in the order they were sent."""
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.cancel()
        held, self._held = self._held, []
        for conn, _ in held:
            conn.held = False
        for conn, data in held:
            conn.deliver(data)
