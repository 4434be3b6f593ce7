"""The host reviews every game that ends, in the background: the bot's estimate of each
seat's chances after every action, and where the game turned
(:mod:`cartagena_net.bots.review`), kept beside the game's record
(``<records dir>/reviews/<id>.json``) for the replays on the web page and in the terminal.

The review's jobs (one a position) run one at a time in the bot workers, behind the
bots' own searches, so that a review never keeps a bot waiting for long nor holds more
than one worker; nothing of it runs on the reactor thread but assembling the answers and
writing one small file.

A review is *due* from the moment its game's record is written: a mark beside it
(``reviews/<id>.due``, :func:`cartagena_net.records.store.mark_due`) says so until the
review is written. A host stopped (or killed) before that makes the reviews due to it at
its next start (:meth:`Reviewer.resume_due`, the marks read in a thread), and
``cartagena review --due`` makes them on request; ``cartagena review ID`` makes any at
any time. A review that failed (a job failed) is logged and stays due.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.host import recorder
from cartagena_net.host.thinker import REVIEW
from cartagena_net.records.format import compact

log = Logger(namespace="cartagena.host.review")

WAITING = 32  # finished games waiting for their review, at most (the oldest give way)


class Reviewer:
    """Reviews finished games' records one after another."""

    def __init__(self, host: Any) -> None:
        self.host = host
        # (records folder, record id, the record as JSON: a fifth of its size as Python
        # objects)
        self.queue: list[tuple[str, str, bytes]] = []
        self.busy: str | None = None  # the id of the record under review
        self.done = 0  # reviews written
        self.positions = 0  # positions reviewed (jobs answered)
        self.skipped = 0  # reviews given up because too many games waited
        self._stopped = False

    def add(self, folder: str, record: dict[str, Any], mark: bool = True,
            data: bytes | None = None) -> None:
        """Review ``record`` (a full record of ``folder``) when its turn comes; ``mark``:
        mark it due first (a review found due at start is marked already). ``data``: the
        record as JSON (its file's bytes, where the caller has them), else encoded here."""
        if record.get("kind") != "full" or self._stopped:
            return
        if any(queued[1] == record["id"] for queued in self.queue) or self.busy == record["id"]:
            return
        if mark:
            from cartagena_net.records.store import mark_due

            try:
                mark_due(folder, record["id"])
            except OSError as exc:  # the review is still made now, if the host runs on
                log.error("the review of {id} could not be marked due in {folder}: {err}",
                          id=record["id"], folder=str(folder), err=str(exc))
        self.queue.append((folder, record["id"], compact(record) if data is None else data))
        if len(self.queue) > WAITING:  # games end faster than reviews: tonight's last first
            _, dropped, _ = self.queue.pop(0)
            self.skipped += 1
            log.info("the review of {id} is put off: {n} newer games wait for theirs (it "
                     "is made at the next start, or by `cartagena review --due`)",
                     id=dropped, n=WAITING)
        if self.busy is None:
            self._next()

    def resume_due(self) -> None:
        """At start: review the games whose review was due when this host (its id) last
        stopped. The marks and records are read in a thread, off the reactor."""
        import threading

        folder = getattr(self.host.config, "records_dir", None)
        if folder is None or not getattr(self.host.config, "reviews", True):
            return
        mark = recorder.host_mark(self.host.host_id)
        call = self.host.reactor.callFromThread

        def read() -> None:
            from cartagena_net.records import RecordError
            from cartagena_net.records.store import SUFFIX, due
            from cartagena_net.records.store import read as read_record

            found = []
            for record_id in due(folder, mark)[-WAITING:]:
                try:
                    found.append(read_record(Path(folder) / f"{record_id}{SUFFIX}"))
                except RecordError as exc:
                    call(log.error, "the review due of {id} cannot be made: {why}",
                         id=record_id, why=str(exc))
            call(self._due_found, str(folder), found)

        threading.Thread(target=read, name="reviews-due", daemon=True).start()

    def _due_found(self, folder: str, records: list[dict[str, Any]]) -> None:
        if records:
            log.info("{n} review(s) due since the last run are made now: {ids}",
                     n=len(records), ids=", ".join(r["id"] for r in records))
        for rec in records:
            self.add(folder, rec, mark=False)

    def stop(self) -> None:
        self._stopped = True
        self.queue.clear()

    def _next(self) -> None:
        if not self.queue or self._stopped:
            self.busy = None
            return
        folder, record_id, data = self.queue.pop(0)
        self.busy = record_id
        d = self._review(folder, data)
        d.addErrback(lambda f: log.error(
            "the review of {id} could not be made: {why}", id=record_id,
            why=f.getErrorMessage()))
        d.addBoth(lambda _: self._next())

    @defer.inlineCallbacks
    def _review(self, folder: str, data: bytes) -> Any:
        """Review the record ``data`` (JSON). While its jobs wait for the workers
        (minutes, behind the bots), it holds the record and each answer as one JSON
        text, not as a game's worth of small objects among those the host's games make
        and free: read again when the review is put together."""
        from cartagena_net.bots.review import assemble, jobs
        from cartagena_net.records.store import write_review

        answers = []
        for fn, args in jobs(data):  # (the queue's text itself, not encoded again)
            if self._stopped:
                return
            answers.append(compact((yield self.host.thinker.run(fn, *args, priority=REVIEW))))
            self.positions += 1
        if self._stopped:
            return
        record = json.loads(data)
        review = assemble(record, [json.loads(a) for a in answers])
        try:
            path = write_review(folder, review)
        except OSError as exc:
            log.error("the review of {id} could not be written: {err}", id=record["id"],
                      err=str(exc))
            return
        self.done += 1
        log.info("the review of {id} is {path}", id=record["id"], path=str(path))
        from cartagena_net.records.store import clear_due

        try:
            clear_due(folder, record["id"])
        except OSError:
            pass  # the review exists: a mark left is removed when next read
