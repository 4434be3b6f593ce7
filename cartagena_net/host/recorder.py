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

import heapq
import time
from typing import Any

from twisted.logger import Logger

from cartagena_net.records import build
from cartagena_net.records import store as record_store

log = Logger(namespace="cartagena.host.records")

RETRY = 30.0  # the longest wait between attempts to write records the disk refused
FIRST_RETRY = 1.0  # the first wait; doubled after each refusal, up to RETRY


class Waiting:
    """A host's records that could not be written yet, tried again on a timer."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self.records: dict[str, tuple[str, dict[str, Any]]] = {}  # id -> (folder, record)
        self._call: Any = None
        self._wait = FIRST_RETRY
        self.on_written: Any = None  # called with (folder, record) once one is written

    def add(self, folder: str, record: dict[str, Any]) -> None:
        self.records[record["id"]] = (folder, record)
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
        for rid, (folder, record) in list(self.records.items()):
            try:
                path = record_store.write(folder, record)
            except OSError:
                continue
            del self.records[rid]
            if self.on_written is not None:
                self.on_written(folder, record)
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
        for rid, (folder, _record) in self.records.items():
            log.error("the record {id} could not be written to {folder} before the host "
                      "stopped (the disk refused it); its game's journal is kept",
                      id=rid, folder=str(folder))


def record_id(started: float, host_id: str, table_id: int, game: int = 0) -> str:
    """``20261124T213000Z-1a2b3c4d-1-5``: when the game started, where, which table, and
    which of its games (the seq of the game's first state: a game played again within the
    second the last one started has an id of its own). The same for a game stopped and
    resumed, so its final record replaces the spectator's."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(started))
    return f"{stamp}-{host_id[:8]}-{table_id}" + (f"-{game}" if game else "")


def players(table: Any) -> list[dict[str, Any]]:
    """The table's seats as a record's players (no tokens)."""
    from cartagena_net.records.format import player

    config = table.host.config
    # a seat's own level (add_bot.level) counts before the host's --level and --think
    return [player(s.index, s.color, s.name, bot=s.bot_kind,
                   level=s.bot_level or config.bot_level,
                   think=None if s.bot_level else config.bot_think) for s in table.seats]


EVENING = 12 * 3600.0  # the scoreboard counts this host's games that ended this long ago


class Evening:
    """The evening's scoreboard: this host's games that ended in the last ``EVENING``
    seconds, from its records (read once at start in a thread, then added as games end),
    so that a host restarted after a crash still knows who won what tonight. ``rows`` are
    the ``lobby.scores`` rows (docs/protocol.md 4.4).

    Kept as running counts: a game that ends is counted in, one that ended more than
    ``EVENING`` ago is counted out (when another ends, or on a timer when none does), so
    what a game's end costs the reactor does not grow with the games played tonight."""

    def __init__(self, host: Any) -> None:
        self.host = host
        # id -> (ended, id, players, winner, ranking): one tuple a game, which the heap
        # of ends holds too (the oldest first; one for each game counted)
        self.games: dict[str, tuple] = {}
        self._ends: list[tuple] = []
        self._counts: dict[tuple[bool, str], dict[str, Any]] = {}  # format.tally's rows
        self._expiry: Any = None  # the timer that counts out the oldest game
        self._people: dict[tuple, dict[str, Any]] = {}  # one kept entry for each player
        # one kept tuple for each set of players (by their entries) and each ranking
        self._tables: dict[tuple[int, ...], tuple[dict[str, Any], ...]] = {}
        self._rankings: dict[tuple, tuple] = {}
        self.rows: list[dict[str, Any]] = []

    def load(self) -> None:
        """Read this host's recent records in a thread of its own, off the reactor."""
        import threading

        folder = getattr(self.host.config, "records_dir", None)
        if folder is None:
            return
        since = self.host.reactor.seconds() - EVENING
        host_id, call = self.host.host_id, self.host.reactor.callFromThread

        def read() -> None:
            try:
                found = _recent(folder, host_id, since)
            except Exception as exc:  # noqa: BLE001 - logged on the reactor; nothing else
                call(log.error, "the evening's scoreboard could not be read: {why}",
                     why=str(exc))
                return
            call(self._loaded, found)

        threading.Thread(target=read, name="evening-scores", daemon=True).start()

    def _loaded(self, records: list[tuple[float, dict[str, Any]]]) -> None:
        for ended, rec in records:
            if rec["id"] not in self.games:  # one added since is newer
                self._count(ended, rec)
        self._update()

    def add(self, record: dict[str, Any]) -> None:
        """A game this host recorded (a stopped game's record is replaced once it ends)."""
        if record.get("outcome") is None:
            return
        self._count(self.host.reactor.seconds(), record)
        self._update()

    def stop(self) -> None:
        """The host stops: no more timer."""
        if self._expiry is not None and self._expiry.active():
            self._expiry.cancel()
        self._expiry = None

    def _count(self, ended: float, record: dict[str, Any]) -> None:
        """Count in a game that ended (``add`` and ``_recent`` pass only those)."""
        from cartagena_net.records.format import tally

        # What the counts read of the record, and no more, kept as one small tuple a
        # game (a 12-hour evening of short games is thousands; about 250 bytes each):
        # when it ended, its id, its players (the same entry for the same player in
        # every game), its winner and its ranking.
        out = record["outcome"]
        people = tuple(self._person(p) for p in record["players"])
        ranking = tuple(tuple(r) if isinstance(r, list) else r for r in out["ranking"])
        # the same people at a table, and the same ranking, are one tuple for every game
        people = _one(self._tables, tuple(map(id, people)), people, TABLES)
        ranking = _one(self._rankings, ranking, ranking)
        game = record["id"]
        kept = (ended, game, people, out["winner"], ranking)
        old = self.games.pop(game, None)
        if old is not None:  # counted again (a newer record of it): once in the heap
            tally(self._counts, _lean(old), -1)
            self._ends.remove(old)
            heapq.heapify(self._ends)
        self.games[game] = kept
        tally(self._counts, _lean(kept))
        heapq.heappush(self._ends, kept)  # ordered by (ended, id): the ids differ

    def _person(self, p: dict[str, Any]) -> dict[str, Any]:
        lean = {k: p[k] for k in ("kind", "name", "bot", "level", "think") if k in p}
        key = tuple(lean.items())
        if key not in self._people and len(self._people) >= SHARED:
            self._tables.clear()  # the people start again (_one): the tables' keys are ids
        return _one(self._people, key, lean)

    def _update(self) -> None:
        """Count out the games that ended too long ago, publish the rows, and set the
        timer for the next game to go."""
        from cartagena_net.records.format import ranked_rows, tally

        now = self.host.reactor.seconds()
        ends = self._ends
        while ends:
            kept = ends[0]
            ended, game = kept[0], kept[1]
            if self.games.get(game) is kept:
                if ended + EVENING > now:  # as the timer below counts
                    break
                del self.games[game]
                tally(self._counts, _lean(kept), -1)
            heapq.heappop(ends)
        rows = ranked_rows(self._counts)
        self.rows = [{"player": r["player"][:32], "bot": r["bot"], "games": r["games"],
                      "wins": r["wins"], "places": r["places"][:16]} for r in rows[:32]]
        self.host.lobby.changed()
        self.stop()
        if ends:
            self._expiry = self.host.reactor.callLater(
                max(0.0, ends[0][0] + EVENING - now), self._update)


SHARED = 4096  # the scoreboard's shared entries (people, rankings), at most
TABLES = 64  # its shared sets of players (the tables of late, whose games are played again)


def _one(shared: dict[Any, Any], key: Any, value: Any, most: int = SHARED) -> Any:
    """The value kept for ``key`` in ``shared`` (``value`` if none yet); a full one
    starts again (what was shared stays shared where it is kept)."""
    kept = shared.get(key)
    if kept is None:
        if len(shared) >= most:
            shared.clear()
        kept = shared[key] = value
    return kept


def _lean(kept: tuple) -> dict[str, Any]:
    """A game the scoreboard keeps, as the record ``format.tally`` counts."""
    _, _, players, winner, ranking = kept
    return {"players": players, "outcome": {"winner": winner, "ranking": ranking}}


def _recent(folder: str, host_id: str, since: float) -> list[tuple[float, dict[str, Any]]]:
    """(when it ended, its players and outcome) of each record of ``folder`` that this
    host made and that ended after ``since``. Only the files named as started after a
    day before ``since`` are read (the name holds the start time and the host id)."""
    import calendar
    from pathlib import Path

    from cartagena_net.records import RecordError
    from cartagena_net.records.store import SUFFIX, read

    mark = f"-{host_id[:8]}-"
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
        record = build(table.state, record_id=record_id(started, table.host.host_id, table.id,
                                                         table.game_seq),
                       players=players(table), started=_utc(started), ended=_utc(time.time()),
                       end=end, table=table.name, host=table.host.config.name,
                       hinted=set(getattr(getattr(table, "coach", None), "hinted_moves", ())))
    except Exception:  # noqa: BLE001 - a record must never take the table down
        log.failure("table {table}: the game's record could not be made", table=table.id)
        return None
    try:
        path = record_store.write(folder, record)
    except OSError as exc:
        waiting = getattr(table.host, "records_waiting", None)
        log.error("table {table}: the game's record could not be written to {folder}: "
                  "{err}; the game is not affected{later}", table=table.id,
                  folder=str(folder), err=str(exc),
                  later=(", and it is written as soon as the disk takes it (tried again "
                         f"within {RETRY:.0f} s)") if waiting else "")
        if waiting is not None:
            waiting.add(folder, record)
        return None
    log.info("table {table}: the game's record is {path}", table=table.id, path=str(path))
    written = getattr(table.host, "record_written", None)
    if written is not None:
        written(folder, record)
    return path


def _utc(seconds: float) -> str:
    from cartagena_net.records.format import utc_text

    return utc_text(seconds)
