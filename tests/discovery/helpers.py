"""Run Twisted code in tests: the asyncio reactor's loop runs only while we wait."""
from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Coroutine
from typing import Any

from twisted.internet.defer import Deferred

from cartagena_net.loop import install_reactor

reactor = install_reactor()
WAIT = 30.0


def loop() -> asyncio.AbstractEventLoop:
    return reactor._asyncioEventloop


def run(coro: Coroutine[Any, Any, Any], timeout: float = 120.0) -> Any:
    """Run a coroutine on the reactor's asyncio loop until it completes."""
    return loop().run_until_complete(asyncio.wait_for(coro, timeout))


async def wait(d: Deferred, timeout: float = WAIT) -> Any:
    """Await a Deferred (with a generous timeout)."""
    return await asyncio.wait_for(d.asFuture(loop()), timeout)


async def until(predicate: Callable[[], Any], timeout: float = WAIT, step: float = 0.02) -> Any:
    """Wait until ``predicate()`` is truthy; return its value (AssertionError on timeout)."""
    deadline = loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {predicate}")
        await asyncio.sleep(step)


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
