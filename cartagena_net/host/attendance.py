"""Attendance at a table: a client's bots-only game nobody plays or watches pauses.

:class:`Attendance` owns the pause of an unattended game (``table.paused``,
``paused_since``) and its grace timer: the game pauses at once (its bots stop
thinking), resumes the moment someone sits or watches again, and is abandoned after
``idle_table_grace`` seconds (or when the host needs the slot), its record kept and its
journal put aside. It may call the host's ``web``, ``reactor``, ``config`` and
``remove_table``, the recorder, and the table's ``bots.schedule``; it imports no other
part of a table.
"""
from __future__ import annotations

import time
from typing import Any, Protocol

from twisted.logger import Logger

from cartagena_net.host import recorder
from cartagena_net.host.seats import Seat

log = Logger(namespace="cartagena.host.table")


class _Scheduler(Protocol):
    def schedule(self) -> None: ...


class AttendanceTable(Protocol):
    """What :class:`Attendance` reads and writes of its table."""

    host: Any
    id: int
    creator: str | None
    seats: list[Seat]
    spectators: set[Any]
    journal: Any
    paused: bool
    paused_since: float
    bots: _Scheduler

    @property
    def playing(self) -> bool: ...

    @property
    def state(self) -> Any: ...  # the game's (``table.match``), read only


class Attendance:
    """Whether anyone attends ``table``'s game, and what happens when nobody does."""

    def __init__(self, table: AttendanceTable) -> None:
        self.table = table
        self._idle_call: Any = None  # removes a paused table after the grace period

    def unattended(self) -> bool:
        """A game on at a table a client created, with no human connected at a seat, no
        spectator and no web watcher: nobody would see its bots play."""
        t = self.table
        if t.creator is None or not t.playing or t.state is None:
            return False
        if any(s.human and s.conn is not None for s in t.seats) or t.spectators:
            return False
        web = t.host.web
        return not (web is not None and web.watching(t.id))

    def check(self) -> None:
        """Pause an unattended game at once (its bots stop thinking) and remove it after
        ``idle_table_grace`` seconds; resume the moment someone sits or watches again."""
        t = self.table
        if self.unattended():
            if not t.paused:
                t.paused = True
                t.paused_since = t.host.reactor.seconds()
                grace = t.host.config.idle_table_grace
                log.info("table {table}: paused, nobody plays or watches; removed in "
                         "{grace:.0f} s unless someone comes back", table=t.id,
                         grace=grace)
                self._idle_call = t.host.reactor.callLater(grace, self.abandon)
        elif t.paused:
            t.paused = False
            self.cancel_idle()
            log.info("table {table}: resumed", table=t.id)
            t.bots.schedule()

    def cancel_idle(self) -> None:
        if self._idle_call is not None and self._idle_call.active():
            self._idle_call.cancel()
        self._idle_call = None

    def abandon(self, why: str = "grace") -> None:
        """The grace period passed with nobody back (or the host needs the slot for a new
        table): the table goes; its record is kept, its journal kept aside as
        ``table-N.journal.abandoned-<UTC time>`` (games are never deleted)."""
        t = self.table
        self.cancel_idle()
        if not self.unattended():
            t.paused = False
            t.bots.schedule()
            return
        if t.state is not None and not t.state.is_over:
            recorder.keep(t, "abandoned")
        if t.journal is not None:
            t.journal.close()
            path = t.journal.path
            t.journal = None
            try:
                path.rename(path.with_name(
                    f"{path.name}.abandoned-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"))
            except OSError as exc:
                log.error("table {table}: cannot keep its journal aside: {err}",
                          table=t.id, err=str(exc))
        if why == "grace":
            log.info("table {table}: removed after {grace:.0f} s with nobody playing or "
                     "watching", table=t.id, grace=t.host.config.idle_table_grace)
        else:
            log.info("table {table}: removed, paused with nobody playing or watching, to "
                     "make room for a new table", table=t.id)
        t.host.remove_table(t)
