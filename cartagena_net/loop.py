"""One process, one loop: an asyncio loop with Twisted's asyncio reactor on it.

Call :func:`install_reactor` before anything imports ``twisted.internet.reactor``;
prompt_toolkit and Twisted then share the same loop.
"""
from __future__ import annotations

import asyncio
import sys
from typing import Any


def install_reactor() -> Any:
    """Install (once) Twisted's asyncio reactor on a fresh asyncio loop; return the reactor."""
    if "twisted.internet.reactor" in sys.modules:
        from twisted.internet import reactor

        if type(reactor).__name__ != "AsyncioSelectorReactor":
            raise RuntimeError("a non-asyncio Twisted reactor was installed first")
        return reactor
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    from twisted.internet import asyncioreactor

    asyncioreactor.install(loop)
    from twisted.internet import reactor

    return reactor
