"""Run Twisted code in tests on the one asyncio loop: the reactor never ``run()``s; each
test drives its loop until a coroutine completes. Also a started host on loopback."""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from twisted.internet.defer import Deferred

from cartagena_net.cli.loop import install_reactor

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


async def until(predicate: Callable[[], Any], what: str = "", timeout: float = WAIT,
                step: float = 0.02) -> Any:
    """Wait until ``predicate()`` is truthy; return its value (AssertionError on timeout)."""
    deadline = loop().time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(step)


def make_host(**overrides: Any) -> Any:
    """A started host on 127.0.0.1 with an ephemeral port; bots act at once."""
    from cartagena_net.host import HostConfig, HostService

    settings: dict[str, Any] = {"port": 0, "bind": "127.0.0.1", "bot_delay": 0.0,
                                "name": "test host", "lobby_delay": 0.01}
    settings.update(overrides)
    host = HostService(HostConfig(**settings), reactor)
    host.startService()
    return host


async def stop_host(host: Any) -> None:
    await wait(host.stopService())
