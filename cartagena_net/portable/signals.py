"""Stopping a program the usual way on each platform.

- POSIX: Ctrl+C at the terminal (``SIGINT``), ``kill``, a service manager or a logout
  (``SIGTERM``).
- Windows: Ctrl+C (``SIGINT``) and Ctrl+Break (``SIGBREAK``) at the console. ``SIGTERM``
  there is ``TerminateProcess``: a hard kill that no program can catch, as ``SIGKILL``
  is on POSIX; the journals keep every acknowledged action through it all the same.

:func:`stop_on_signals` makes each of these stop the reactor, the one stop path: the
reactor's "before shutdown" triggers then flush the journals, write the stopped games'
records and tell every client the host is going. It is installed before the reactor
runs, so that a signal that arrives while the program starts is not lost either
(Twisted's reactor installs handlers of its own for the same signals when it runs; they
stop it the same way).
"""
from __future__ import annotations

import signal
from typing import Any

STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, name))


def stop_on_signals(reactor: Any) -> tuple[signal.Signals, ...]:
    """From now on each of :data:`STOP_SIGNALS` stops ``reactor`` cleanly (at once if it
    runs, as soon as it runs if not). Returns the signals handled."""

    def stop() -> None:
        if reactor.running:
            reactor.stop()

    def handler(signum: int, frame: Any) -> None:
        if reactor.running:
            reactor.callFromThread(stop)
        else:
            reactor.callWhenRunning(stop)

    for signum in STOP_SIGNALS:
        signal.signal(signum, handler)
    return STOP_SIGNALS
