"""The host keeps a record of every game: at its end (``won``), and when the host stops
while it is played (``stopped``: a spectator's record, replaced by the full one if the
game is resumed and ends).

One small file is written on the reactor thread when a game ends (a few milliseconds:
the record is built by replaying the game once); a failure to write it (disk full, no
permission) is logged and changes nothing else: the game, its journal and its players
never notice. The record is then kept in memory (:class:`Waiting`) and written again
soon (after ``FIRST_RETRY`` seconds, then twice as long each time, up to ``RETRY``)
until the disk takes it (logged when it does), at once when the host sees the disk take
writes again (:meth:`Waiting.room`: a journal written after it was refused), and once
more when the host stops: a full disk delays a record a few seconds past the moment
there is room, it does not lose it while the host runs.
"""
from __future__ import annotations

import time
from typing import Any

from twisted.logger import Logger

from cartagena_net.records import store as record_store
from cartagena_net.records.format import encode

log = Logger(namespace="cartagena.host.records")

RETRY = 30.0  # the longest wait between attempts to write records the disk refused
FIRST_RETRY = 1.0  # the first wait; doubled after each refusal, up to RETRY


class Waiting:
    """A host's records that could not be written yet, tried again on a timer."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        # id -> (folder, the record without its moves, its file's bytes)
        self.records: dict[str, tuple[str, dict[str, Any], bytes]] = {}
        self._call: Any = None
        self._wait = FIRST_RETRY
        self.on_written: Any = None  # called with (folder, record, bytes) once written

    def add(self, folder: str, record: dict[str, Any], data: bytes) -> None:
        """``record``: its head at least (``encode``), ``data``: its file's bytes."""
        self.records[record["id"]] = (folder, record, data)
        self._wait = FIRST_RETRY  # a new record: try soon again
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = self.reactor.callLater(self._wait, self.retry)

    def room(self) -> None:
        """The disk took a write it had refused (a journal): try the records now."""
        if self.records:
            self._wait = FIRST_RETRY
            if self._call is not None and self._call.active():
                self._call.cancel()
            self.retry()

    def retry(self) -> None:
        """Write every waiting record the disk now takes; the rest wait for the next try."""
        self._call = None
        for rid, (folder, record, data) in list(self.records.items()):
            try:
                path = record_store.write(folder, record, data)
            except OSError:
                continue
            del self.records[rid]
            if self.on_written is not None:
                self.on_written(folder, record, data)
            log.info("the record {id}, refused by the disk before, is now {path}",
                     id=rid, path=str(path))
        if self.records:
            self._wait = min(RETRY, self._wait * 2)
            self._call = self.reactor.callLater(self._wait, self.retry)

    def stop(self) -> None:
        """A last try, then say what could not be written (the journals still hold it)."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        if self.records:
            self.retry()
            if self._call is not None and self._call.active():
                self._call.cancel()
            self._call = None
        for rid, (folder, _record, _data) in self.records.items():
            log.error("the record {id} could not be written to {folder} before the host "
                      "stopped (the disk refused it); its game's journal is kept",
                      id=rid, folder=str(folder))


def host_mark(host_id: str) -> str:
    """What every record id of the host ``host_id`` holds (:func:`record_id`), by which
    its records are told from other hosts' in a shared folder: ``-1a2b3c4d-``."""
    return f"-{host_id[:8]}-"


def record_id(started: float, host_id: str, table_id: int, game: int = 0) -> str:
    """``20261124T213000Z-1a2b3c4d-1-5``: when the game started, where, which table, and
    which of its games (the seq of the game's first state: a game played again within the
    second the last one started has an id of its own). The same for a game stopped and
    resumed, so its final record replaces the spectator's."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(started))
    return f"{stamp}{host_mark(host_id)}{table_id}" + (f"-{game}" if game else "")


def players(table: Any) -> list[dict[str, Any]]:
    """The table's seats as a record's players (no tokens)."""
    from cartagena_net.records.format import player

    config = table.host.config
    # a seat's own level (add_bot.level) counts before the host's --level and --think
    return [player(s.index, s.color, s.name, bot=s.bot_kind,
                   level=s.bot_level or config.bot_level,
                   think=None if s.bot_level else config.bot_think) for s in table.seats]


EVENING = 12 * 3600.0  # the scoreboard counts this host's games that ended this long ago
BUCKET = 300.0  # ... counted out by the five minutes they ended in


class Evening:
    """The evening's scoreboard: this host's games that ended in the last ``EVENING``
    seconds, from its records (read once at start in a thread, then added as games end),
    so that a host restarted after a crash still knows who won what tonight. ``rows`` are
    the ``lobby.scores`` rows (docs/protocol.md 4.4).

    Kept as counts by the five minutes the games ended in (``BUCKET``), not game by
    game: a game that ends is counted into its five minutes' rows and the evening's
    (``records.format.tally``); five minutes that ended more than ``EVENING`` ago are
    counted out whole (when another game ends, or on a timer), and the evening's rows
    added up again from those left. So a game is counted out between 12 hours and 12
    hours 5 minutes after it ended, and the scoreboard holds at most 145 sets of rows
    (a row for each player of those five minutes) however many games are played: a
    café's host that plays thousands of short games keeps no more than one that plays
    a few (issue 62). What a game's end costs the reactor does not grow with the
    games played tonight either.

    Each game is counted once: a record with an outcome is written once, when the game
    is won; only the records read at start may be of games already counted (those that
    ended while they were read), and ``_early`` keeps those games' ids until then."""

    def __init__(self, host: Any) -> None:
        self.host = host
        # the five minutes (ended // BUCKET) -> the rows of the games that ended in them
        self._buckets: dict[int, dict[tuple[bool, str], dict[str, Any]]] = {}
        self._counts: dict[tuple[bool, str], dict[str, Any]] = {}  # the evening's rows
        self._early: set[str] | None = None  # games counted while the records are read
        self._expiry: Any = None  # the timer that counts out the oldest five minutes
        self.rows: list[dict[str, Any]] = []

    def load(self) -> None:
        """Read this host's recent records in a thread of its own, off the reactor."""
        import threading

        folder = getattr(self.host.config, "records_dir", None)
        if folder is None:
            return
        self._early = set()
        since = self.host.reactor.seconds() - EVENING
        host_id, call = self.host.host_id, self.host.reactor.callFromThread

        def read() -> None:
            try:
                found = _recent(folder, host_id, since)
            except Exception as exc:  # noqa: BLE001 - logged on the reactor; nothing else
                call(log.error, "the evening's scoreboard could not be read: {why}",
                     why=str(exc))
                found = []
            call(self._loaded, found)

        threading.Thread(target=read, name="evening-scores", daemon=True).start()

    def _loaded(self, records: list[tuple[float, dict[str, Any]]]) -> None:
        early, self._early = self._early or set(), None
        for ended, rec in records:
            if rec["id"] not in early:  # else it ended since the host started: counted
                self._count(ended, rec)
        self._update()

    def add(self, record: dict[str, Any]) -> None:
        """A game this host recorded (a stopped game's record, with no outcome, counts
        for nothing)."""
        if record.get("outcome") is None:
            return
        if self._early is not None:
            self._early.add(record["id"])
        self._count(self.host.reactor.seconds(), record)
        self._update()

    def stop(self) -> None:
        """The host stops: no more timer."""
        if self._expiry is not None and self._expiry.active():
            self._expiry.cancel()
        self._expiry = None

    def _count(self, ended: float, record: dict[str, Any]) -> None:
        """Count in a game that ended (``add`` and ``_recent`` pass only those): what
        the rows read of the record, and no more (nothing of it is kept)."""
        from cartagena_net.records.format import tally

        lean = {"players": record["players"], "outcome": record["outcome"]}
        tally(self._buckets.setdefault(int(ended // BUCKET), {}), lean)
        tally(self._counts, lean)

    def _update(self) -> None:
        """Count out the five minutes that ended too long ago, publish the rows, and set
        the timer for the next to go."""
        from cartagena_net.records.format import add_rows, ranked_rows

        now = self.host.reactor.seconds()
        gone = [b for b in self._buckets if (b + 1) * BUCKET + EVENING <= now]
        if gone:
            for b in gone:
                del self._buckets[b]
            self._counts = {}
            for rows in self._buckets.values():
                add_rows(self._counts, rows)
        rows = ranked_rows(self._counts)
        self.rows = [{"player": r["player"][:32], "bot": r["bot"], "games": r["games"],
                      "wins": r["wins"], "places": r["places"][:16]} for r in rows[:32]]
        self.host.lobby.changed()
        self.stop()
        if self._buckets:
            first = (min(self._buckets) + 1) * BUCKET + EVENING
            self._expiry = self.host.reactor.callLater(max(0.0, first - now), self._update)


def _recent(folder: str, host_id: str, since: float) -> list[tuple[float, dict[str, Any]]]:
    """(when it ended, its players and outcome) of each record of ``folder`` that this
    host made and that ended after ``since``. Only the files named as started after a
    day before ``since`` are read (the name holds the start time and the host id)."""
    import calendar
    from pathlib import Path

    from cartagena_net.records import RecordError
    from cartagena_net.records.store import SUFFIX, read

    mark = host_mark(host_id)
    out = []
    try:
        names = [e for e in Path(folder).iterdir()
                 if e.name.endswith(SUFFIX) and mark in e.name and not e.name.startswith(".")]
    except OSError:
        return []
    for path in names:
        try:
            started = calendar.timegm(time.strptime(path.name[:16], "%Y%m%dT%H%M%SZ"))
        except ValueError:
            continue
        if started < since - 2 * EVENING:  # a game of a day or more is not tonight's
            continue
        try:
            rec = read(path)
        except RecordError:
            continue
        try:
            ended = calendar.timegm(time.strptime(str(rec.get("ended")), "%Y-%m-%dT%H:%M:%SZ"))
        except ValueError:
            ended = started
        if ended < since or rec.get("outcome") is None:
            continue
        out.append((ended, {"id": rec["id"], "players": rec["players"],
                            "outcome": rec["outcome"]}))
    return out


def keep(table: Any, end: str) -> Any:
    """Write the record of ``table``'s game (``end``: won, stopped or abandoned).

    Returns the file written, or None (records off, no game, or the write failed:
    logged, never raised).
    """
    folder = getattr(table.host.config, "records_dir", None)
    if folder is None or table.state is None:
        return None
    started = table.started_at if table.started_at is not None else time.time()
    try:
        record, data = encode(
            table.state,
            record_id=record_id(started, table.host.host_id, table.id, table.game_seq),
            players=players(table), started=_utc(started), ended=_utc(time.time()),
            end=end, table=table.name, host=table.host.config.name,
            hinted=set(getattr(getattr(table, "coach", None), "hinted_moves", ())),
            kept=getattr(getattr(table, "match", None), "kept", None))
    except Exception:  # noqa: BLE001 - a record must never take the table down
        log.failure("table {table}: the game's record could not be made", table=table.id)
        return None
    try:
        path = record_store.write(folder, record, data)
    except OSError as exc:
        waiting = getattr(table.host, "records_waiting", None)
        log.error("table {table}: the game's record could not be written to {folder}: "
                  "{err}; the game is not affected{later}", table=table.id,
                  folder=str(folder), err=str(exc),
                  later=(", and it is written as soon as the disk takes it (tried again "
                         f"within {RETRY:.0f} s)") if waiting else "")
        if waiting is not None:
            waiting.add(folder, record, data)
        return None
    log.info("table {table}: the game's record is {path}", table=table.id, path=str(path))
    written = getattr(table.host, "record_written", None)
    if written is not None:
        written(folder, record, data)
    return path


def _utc(seconds: float) -> str:
    from cartagena_net.records.format import utc_text

    return utc_text(seconds)
