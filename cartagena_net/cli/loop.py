"""One process, one loop: an asyncio loop with Twisted's asyncio reactor on it.

Call :func:`install_reactor` before anything imports ``twisted.internet.reactor``;
prompt_toolkit and Twisted then share the same loop.
"""
from __future__ import annotations

import asyncio
import sys
from typing import Any


def new_selector_loop() -> asyncio.AbstractEventLoop:
    """A fresh selector event loop: Twisted's asyncio reactor needs one.

    On Windows the default loop is the proactor, which the reactor refuses; the
    selector loop is chosen explicitly there (and is the default elsewhere).
    """
    if sys.platform == "win32":
        return asyncio.SelectorEventLoop()  # the Windows selector loop class on Windows
    return asyncio.new_event_loop()


def install_reactor() -> Any:
    """Install (once) Twisted's asyncio reactor on a fresh asyncio loop; return the reactor."""
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import reactor

        if type(reactor).__name__ != "AsyncioSelectorReactor":
            raise RuntimeError("a non-asyncio Twisted reactor was installed first")
        return reactor
    loop = new_selector_loop()
    asyncio.set_event_loop(loop)
    from twisted.internet import asyncioreactor

    asyncioreactor.install(loop)
    from twisted.internet import reactor

    return reactor
