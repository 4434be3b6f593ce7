"""Finished games on the web: the list, and each one as a replay for the TV.

``/games.json`` lists this host's records (its id is in theirs), newest first, with the
evening's scoreboard; ``/game/ID`` is the replay page and ``/game/ID.json`` its data: the
record's players and moves, the spectator's view after every action (the engine's view
for a spectator: the replay never shows a card a spectator did not see), the events each
action made, and the bot's review when there is one (each seat's chance after every
action, the turning points, what the bot would have played).

Reading records and replaying a game take disk and CPU: both run in the web server's
one background thread (:class:`Background`), never on the reactor; a replay is built
once and kept (the last few). The list, a replay and a review are encoded an item at a
time (``records.format.compact``), not as a small string for each value at once. Its
review is kept apart: a replay asked for before its review was written looks for it
again (at most every ``REVIEW_TTL`` seconds), so a replay page shows the review once it
exists.
"""
from __future__ import annotations

import bisect
import collections
import time
from pathlib import Path
from typing import Any

from twisted.internet import defer
from twisted.web import http, server
from twisted.web.resource import Resource

from cartagena_net.host.recorder import host_mark
from cartagena_net.i18n import N_
from cartagena_net.records.format import compact
from cartagena_net.web.guard import JSON, finish, plain, to_json

LIST_MAX = 100  # games listed
KEEP = 8  # replays kept built
LIST_TTL = 3.0  # seconds a listing is reused
RESCAN = 600.0  # seconds after which the records folder is read whole again for the list
REVIEW_TTL = 3.0  # seconds a replay built without its review is served before looking again


class Background:
    """One thread for the web's slow work (disk, replays); results on the reactor."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self._pool: Any = None

    def run(self, fn: Any, *args: Any) -> defer.Deferred:
        if self._pool is None:
            from twisted.python.threadpool import ThreadPool

            self._pool = ThreadPool(minthreads=0, maxthreads=1, name="cartagena-web")
            self._pool.start()
        from twisted.internet.threads import deferToThreadPool

        return deferToThreadPool(self.reactor, self._pool, fn, *args)

    def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()


def summary(rec: dict[str, Any]) -> dict[str, Any]:
    """One line of the list: when, what, who, who won (labels in the notation, and as data
    the pages word in each browser's language: ``preset``, ``options``, ``people``)."""
    from cartagena_net.records.format import (
        player_label,
        rules_label,
        rules_options,
        winner_label,
    )

    preset, options = rules_options(rec)
    people = [person(p) for p in rec.get("players") or []]
    out = rec.get("outcome")
    return {"id": rec["id"], "started": rec.get("started"), "ended": rec.get("ended"),
            "end": rec.get("end"), "kind": rec.get("kind"), "rules": rules_label(rec),
            "preset": preset, "options": options, "people": people,
            "winner_seat": out["winner"] if out is not None else None,
            "players": [player_label(p) for p in rec.get("players") or []],
            "winner": winner_label(rec), "actions": len(rec.get("moves") or ())}


def person(p: dict[str, Any]) -> dict[str, Any]:
    """A record's player as the pages word it: a name, and a bot's kind and level (or its
    seconds of thought)."""
    return {k: p[k] for k in ("name", "bot", "level", "think") if p.get(k) is not None}


class Newest:
    """The names of this host's newest ``LIST_MAX`` records, and how many it has: read
    from the folder once (entry by entry, in the web's thread), then kept as the host
    writes records (:meth:`written`, on the reactor), so that a list costs the same at a
    host's ten thousandth game as at its tenth. The folder is read whole again every
    ``RESCAN`` seconds (records removed or copied in by hand, a record that replaced an
    older one of the same id counted twice)."""

    def __init__(self) -> None:
        self.names: list[str] | None = None  # sorted: the newest last; None: not read yet
        self.count = 0
        self.read_at = 0.0
        self._during: list[str] | None = None  # written while the folder is read

    def due(self, now: float) -> bool:
        """Whether the folder should be read (none is being read now)."""
        return self._during is None and (self.names is None or now - self.read_at >= RESCAN)

    def reading(self, now: float) -> None:
        self._during, self.read_at = [], now

    def read(self, names: list[str], count: int) -> None:
        """What reading the folder found; the records written meanwhile are added."""
        during, self._during = self._during or [], None
        self.names, self.count = list(names), count
        for name in during:
            self._add(name)

    def failed(self) -> None:
        self._during = None

    def written(self, name: str) -> None:
        """The host wrote the record file ``name``."""
        if self._during is not None:
            self._during.append(name)
        elif self.names is not None:
            self._add(name)

    def _add(self, name: str) -> None:
        names = self.names
        if names is None or name in names:  # not read yet, or a record replaced
            return
        self.count += 1
        bisect.insort(names, name)
        if len(names) > LIST_MAX:
            del names[0]


def read_newest(folder: str, host_id: str) -> tuple[list[str], int]:
    """The names of the newest ``LIST_MAX`` records of this host, and how many it has,
    read from the folder entry by entry."""
    from cartagena_net.records import store

    return store.newest_names(folder, host_mark(host_id), LIST_MAX)


def build_list(folder: str, host_id: str,
               known: dict[tuple[str, int, int], dict[str, Any]] | None = None,
               newest: tuple[list[str], int] | None = None) -> bytes:
    """The list: the newest ``LIST_MAX`` records of this host, newest first, and how many
    older ones there are. ``newest``: their names and count (:class:`Newest`), else the
    folder is read for them. Only those files are looked at, and only those not in
    ``known`` are read (``known``: each line listed last time, by the file's name,
    modification time and size; left holding this list's lines)."""
    from cartagena_net.records import store
    from cartagena_net.records.format import RecordError

    mine = host_mark(host_id)
    names, count = newest if newest is not None else read_newest(folder, host_id)
    lines: dict[tuple[str, int, int], dict[str, Any]] = {}
    for name in names:
        path = Path(folder) / name
        try:
            st = path.stat()
        except OSError:
            continue
        key = (name, st.st_mtime_ns, st.st_size)
        line = known.get(key) if known is not None else None
        if line is None:
            try:
                rec = store.read(path)
            except RecordError:
                continue
            if mine not in rec["id"]:
                continue
            line = summary(rec)
        lines[key] = line
    if known is not None:
        known.clear()
        known.update(lines)
    games = sorted(lines.values(), key=lambda line: line.get("started") or "")[::-1]
    return compact({"games": games, "more": max(0, count - LIST_MAX)})


def build_replay(folder: str, record_id: str) -> tuple[bytes, bytes | None] | None:
    """The replay's data, or None if there is no such record. RecordError if it is
    damaged or not a finished game's. Two parts: everything but the review (built once,
    the costly part) and the review as JSON (None while there is none yet: it is looked
    for again, :func:`read_review`); :func:`joined` makes the answer of them."""
    from cartagena_net.engine import SPECTATOR, view
    from cartagena_net.records import store
    from cartagena_net.records.format import RecordError, in_file, player_label, walk

    path = store.review_path(folder, record_id).parent.parent / f"{record_id}{store.SUFFIX}"
    if not path.is_file():
        return None
    rec = store.read(path)
    if rec.get("kind") != "full":
        raise RecordError(N_("this game did not end on this host: its record holds what a "
                             "spectator saw, which cannot be replayed move by move"))
    views, events, seen = [], [], 0
    with in_file(path.name):  # the file's name, not where the host keeps it
        for state in walk(rec):
            v = view(state, SPECTATOR, since=seen)
            seen = len(state.events)
            events.append(v.pop("events", []))
            views.append(v)
    return compact({
        "id": rec["id"], "summary": summary(rec),
        "players": [{"seat": p.get("seat"), "color": p.get("color"),
                     "label": player_label(p), **person(p)} for p in rec["players"]],
        "moves": [{"seat": m["seat"], "action": m["action"]} for m in rec["moves"]],
        "views": views, "events": events,
    }), read_review(folder, record_id)


def read_review(folder: str, record_id: str) -> bytes | None:
    """The review of a record as JSON, None while there is none (or it is damaged: not
    shown; the record still replays)."""
    from cartagena_net.records import store
    from cartagena_net.records.format import RecordError

    try:
        review = store.read_review(folder, record_id)
    except RecordError:
        review = None
    return None if review is None else compact(review)


def joined(parts: tuple[bytes, bytes | None]) -> bytes:
    """``/game/ID.json``: the replay's data with its ``review`` (null while none)."""
    body, review = parts
    return body[:-1] + b',"review":' + (review if review is not None else b"null") + b"}"


class GamesJSON(Resource):
    isLeaf = True

    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web
        self._cached: tuple[float, bytes] | None = None
        self._known: dict[tuple[str, int, int], dict[str, Any]] = {}  # build_list's lines

    def render_GET(self, request: Any) -> Any:
        refused = self.web.refusal(request, None)  # behind the host's password, as the lobby
        if refused is not None:
            return plain(request, *refused)
        folder = self.web.records_folder()
        if folder is None:
            request.setHeader(b"Content-Type", JSON.encode())
            return to_json({"games": [], "more": 0, "off": True})
        now = time.monotonic()
        if self._cached is not None and now - self._cached[0] < LIST_TTL:
            request.setHeader(b"Content-Type", JSON.encode())
            return self._cached[1]
        host_id, known, newest = self.web.host.host_id, self._known, self.web.newest
        if newest.due(now):
            newest.reading(now)

            def read_and_list() -> tuple[list[str], int, bytes]:
                names, count = read_newest(folder, host_id)
                return names, count, build_list(folder, host_id, known, (names, count))

            def read(found: tuple[list[str], int, bytes]) -> bytes:
                newest.read(found[0], found[1])
                return found[2]

            def failed(f: Any) -> Any:
                newest.failed()
                return f

            d = self.web.background.run(read_and_list).addCallbacks(read, failed)
        elif newest.names is None:  # read by another request now: this one reads too
            d = self.web.background.run(build_list, folder, host_id, known)
        else:
            d = self.web.background.run(build_list, folder, host_id, known,
                                        (list(newest.names), newest.count))

        def done(body: bytes) -> None:
            self._cached = (time.monotonic(), body)
            finish(request, http.OK, JSON, body)

        d.addCallbacks(done, lambda f: finish(request, http.INTERNAL_SERVER_ERROR,
                                              JSON, to_json(
                                                  {"error": f.getErrorMessage()[:200]})))
        return server.NOT_DONE_YET


class GamePage(Resource):
    """``/game/ID`` (the page) and ``/game/ID.json`` (its data)."""

    isLeaf = True

    def __init__(self, web: Any, page: bytes) -> None:
        super().__init__()
        self.web = web
        self.page = page
        # id -> ((the replay's data, its review or None), when the review was looked for)
        self._built: collections.OrderedDict[
            str, tuple[tuple[bytes, bytes | None], float]] = collections.OrderedDict()

    def render_GET(self, request: Any) -> Any:
        from cartagena_net.records.format import RECORD_ID

        parts = request.postpath
        name = parts[0].decode("ascii", "replace") if len(parts) == 1 else ""
        as_json = name.endswith(".json")
        record_id = name[:-5] if as_json else name
        if not RECORD_ID.fullmatch(record_id) or not record_id.isascii():
            return plain(request, http.NOT_FOUND, "no such game")
        if not as_json:
            request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
            return self.page
        refused = self.web.refusal(request, None)  # behind the host's password, as the lobby
        if refused is not None:
            return plain(request, *refused)
        folder = self.web.records_folder()
        words = self.web.translation(request)  # the browser's language
        if folder is None:
            return plain(request, http.NOT_FOUND, words.gettext("this host keeps no records"))
        built = self._built.get(record_id)
        if built is not None:
            self._built.move_to_end(record_id)
            parts, looked = built
            if parts[1] is not None or time.monotonic() - looked < REVIEW_TTL:
                request.setHeader(b"Content-Type", JSON.encode())
                return joined(parts)
            # Built before its review was written (the host reviews a game after it
            # ends; `cartagena review` may write one later): look for it again.
            d = self.web.background.run(read_review, folder, record_id)
            d.addCallback(lambda review: (parts[0], review))
        else:
            d = self.web.background.run(build_replay, folder, record_id)

        def done(parts: tuple[bytes, bytes | None] | None) -> None:
            if parts is None:
                finish(request, http.NOT_FOUND, JSON,
                       to_json({"error": words.gettext("no game {id} on this host").format(
                           id=record_id)}))
                return
            self._built[record_id] = (parts, time.monotonic())
            self._built.move_to_end(record_id)
            while len(self._built) > KEEP:
                self._built.popitem(last=False)
            finish(request, http.OK, JSON, joined(parts))

        def failed(failure: Any) -> None:
            from cartagena_net.records.format import RecordError

            error = failure.value
            text = (error.text(words.gettext) if isinstance(error, RecordError)
                    else failure.getErrorMessage())
            finish(request, http.CONFLICT, JSON, to_json({"error": text[:300]}))

        d.addCallbacks(done, failed)
        return server.NOT_DONE_YET


def records_folder(host: Any) -> str | None:
    folder = getattr(host.config, "records_dir", None)
    return str(Path(folder)) if folder else None
