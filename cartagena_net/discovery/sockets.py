"""UDP sockets for discovery, adopted into the (passed-in) Twisted reactor."""
from __future__ import annotations

import socket
from typing import Any

MAX_DATAGRAM = 65535


def udp_socket(address: str, port: int, *, broadcast: bool, reuse: bool) -> socket.socket:
    """A bound, non-blocking IPv4 UDP socket.

    ``reuse`` sets SO_REUSEADDR and SO_REUSEPORT so that several processes on one
    machine can bind the discovery port and all receive its broadcasts.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        if reuse:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, "SO_REUSEPORT"):
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
                except OSError:
                    pass
        if broadcast:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        sock.bind((address, port))
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock


def listen_udp(
    reactor: Any,
    protocol: Any,
    address: str,
    port: int,
    *,
    broadcast: bool = True,
    reuse: bool = True,
) -> Any:
    """Bind a UDP socket with our options and hand it to ``reactor``; returns the port."""
    sock = udp_socket(address, port, broadcast=broadcast, reuse=reuse)
    try:
        return reactor.adoptDatagramPort(
            sock.fileno(), socket.AF_INET, protocol, maxPacketSize=MAX_DATAGRAM
        )
    finally:
        sock.close()  # the reactor holds its own duplicate of the descriptor
