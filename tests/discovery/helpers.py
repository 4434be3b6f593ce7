"""Run Twisted code in tests: the asyncio reactor's loop runs only while we wait."""
from __future__ import annotations

import asyncio
import socket
from typing import Any

from tests.twisted_loop import WAIT, loop, reactor, run, until, wait

__all__ = ["WAIT", "loop", "reactor", "recv", "run", "udp_client", "until", "wait"]


def udp_client(timeout: float = 5.0) -> socket.socket:
    """A plain blocking UDP socket on 127.0.0.1 for poking at the services."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(timeout)
    return sock


async def recv(sock: socket.socket, timeout: float = 10.0) -> tuple[bytes, Any] | None:
    """Receive one datagram without blocking the loop; None after ``timeout``."""
    sock.setblocking(False)
    deadline = loop().time() + timeout
    while loop().time() < deadline:
        try:
            return sock.recvfrom(65535)
        except BlockingIOError:
            await asyncio.sleep(0.01)
    return None
