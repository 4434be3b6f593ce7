"""The host reviews every game that ends, in the background: the bot's estimate of each
seat's chances after every action, and where the game turned
(:mod:`cartagena_net.bots.review`), kept beside the game's record
(``<records dir>/reviews/<id>.json``) for the replays on the web page and in the terminal.

The review's jobs (one a position) run one at a time in the bot workers, behind the
bots' own searches, so that a review never keeps a bot waiting for long nor holds more
than one worker; nothing of it runs on the reactor thread but assembling the answers and
writing one small file. A review the host could not finish (it stopped, a job failed) is
logged; ``cartagena review ID`` makes it at any time.
"""
from __future__ import annotations

import json
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.host.thinker import REVIEW

log = Logger(namespace="cartagena.host.review")

WAITING = 32  # finished games waiting for their review, at most (the oldest give way)


class Reviewer:
    """Reviews finished games' records one after another."""

    def __init__(self, host: Any) -> None:
        self.host = host
        # (records folder, record id, the record as compact JSON: a fifth of its size as
        # Python objects)
        self.queue: list[tuple[str, str, bytes]] = []
        self.busy: str | None = None  # the id of the record under review
        self.done = 0  # reviews written
        self.positions = 0  # positions reviewed (jobs answered)
        self.skipped = 0  # reviews given up because too many games waited
        self._stopped = False

    def add(self, folder: str, record: dict[str, Any]) -> None:
        """Review ``record`` (a full record of ``folder``) when its turn comes."""
        if record.get("kind") != "full" or self._stopped:
            return
        self.queue.append((folder, record["id"], json.dumps(
            record, separators=(",", ":"), ensure_ascii=False).encode("utf-8")))
        if len(self.queue) > WAITING:  # games end faster than reviews: tonight's last first
            _, dropped, _ = self.queue.pop(0)
            self.skipped += 1
            log.info("the review of {id} is skipped: {n} newer games wait for theirs "
                     "(`cartagena review {id}` makes it at any time)", id=dropped,
                     n=WAITING)
        if self.busy is None:
            self._next()

    def stop(self) -> None:
        self._stopped = True
        self.queue.clear()

    def _next(self) -> None:
        if not self.queue or self._stopped:
            self.busy = None
            return
        folder, record_id, data = self.queue.pop(0)
        record = json.loads(data)
        self.busy = record_id
        d = self._review(folder, record)
        d.addErrback(lambda f: log.error(
            "the review of {id} could not be made: {why}", id=record["id"],
            why=f.getErrorMessage()))
        d.addBoth(lambda _: self._next())

    @defer.inlineCallbacks
    def _review(self, folder: str, record: dict[str, Any]) -> Any:
        from cartagena_net.bots.review import assemble, jobs
        from cartagena_net.records.store import write_review

        answers = []
        for fn, args in jobs(record):
            if self._stopped:
                return
            answers.append((yield self.host.thinker.run(fn, *args, priority=REVIEW)))
            self.positions += 1
        if self._stopped:
            return
        review = assemble(record, answers)
        try:
            path = write_review(folder, review)
        except OSError as exc:
            log.error("the review of {id} could not be written: {err}", id=record["id"],
                      err=str(exc))
            return
        self.done += 1
        log.info("the review of {id} is {path}", id=record["id"], path=str(path))
