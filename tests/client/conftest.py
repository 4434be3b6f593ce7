"""Client tests run on the real asyncio reactor, driven through its asyncio loop.

The reactor never ``run()``s here (tests drive its loop), so the thread pool that
resolves host names for ``HostnameEndpoint`` is started and stopped by hand.
"""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from cartagena_net.cli.loop import install_reactor

reactor = install_reactor()


@pytest.fixture(scope="session", autouse=True)
def resolver_threads() -> Iterator[None]:
    pool = reactor.getThreadPool()
    started = not pool.started
    if started:
        pool.start()
    yield
    if started and pool.started:
        pool.stop()


@pytest.fixture(params=["en", "sv"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test in English, then in Swedish (the language set back after)."""
    from cartagena_net.i18n import language, set_language

    before = language()
    set_language(request.param)
    yield request.param
    set_language(before)
