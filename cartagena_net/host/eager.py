"""Eager writes: send a frame on the socket at once when nothing is queued before it.

Twisted's TCP transports queue every write until the reactor's next writable event,
which costs two selector updates and a callback per connection; for the spectator
fan-out (one frame to hundreds of sockets) sending at once is far cheaper. Whatever
the kernel does not take is queued through ``transport.write`` as usual, so the order
of bytes never changes.
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
