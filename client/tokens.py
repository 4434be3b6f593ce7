"""Seat tokens kept between runs, so a player can get back into a seat after a crash.

Stored in ``tokens.json`` in the user's state directory
(:func:`cartagena_net.portable.dirs.user_state_dir`: ``$XDG_STATE_HOME/cartagena-net`` or
``~/.local/state/cartagena-net`` on Linux), directory 0700, file 0600: one entry for each
seat the user held at a host (the newest :data:`PER_HOST` a host), keyed by the host's id
and the start of the seat's token, so that two windows of one user at one host each keep
their own seat to come back to. A running client resumes only the seat it holds itself
(kept in memory); a seat saved here by an earlier run is offered in the lobby (the
newest nobody is connected to) and taken back only when the user asks, so two clients of
one user never fight over one seat.

Writes are atomic (a private temp file renamed over the old one, under a lock: ``flock``
on POSIX, ``msvcrt``'s on Windows), so clients sharing one home never corrupt the file. A file that
cannot be read as tokens is never overwritten: it is kept aside as
``tokens.json.bad-<time>`` and :attr:`TokenStore.notice` says so once. A disk that
refuses the file (full, read-only) loses nothing either: the seat's token is kept in
memory, the notice says so once, and the client's :meth:`TokenStore.retry` writes it once
the disk takes writes again.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cartagena_net.i18n import _
from cartagena_net.portable.dirs import user_state_dir
from cartagena_net.portable.files import lock_exclusive, open_fd, replace_private

FILE_NAME = "tokens.json"
KEEP = 200  # entries in all, the newest kept
PER_HOST = 4  # seats kept for one host, the newest (two windows of one user, a table or two)


def state_dir() -> Path:
    """The user's state directory for cartagena-net (each platform's own place)."""
    return user_state_dir()


def _key(host_id: str, token: str) -> str:
    """An entry's key: a host's id and the start of the seat's token, so that each seat
    one user holds at a host (two windows of one user) keeps its own entry."""
    return f"{host_id}/{token[:16]}"


def _of(key: str, host_id: str) -> bool:
    """Is ``key`` an entry of ``host_id`` (``host_id`` alone: an older file's)?"""
    return key == host_id or key.startswith(host_id + "/")


def _newest_of(data: dict[str, dict[str, Any]], host_id: str) -> list[dict[str, Any]]:
    """``host_id``'s entries in ``data``, the newest first, one a token."""
    found = sorted((dict(v) for k, v in data.items() if _of(k, host_id) and isinstance(v, dict)),
                   key=lambda v: v.get("saved", 0), reverse=True)
    out: list[dict[str, Any]] = []
    for v in found:
        if all(v.get("token") != w.get("token") for w in out):
            out.append(v)
    return out


class TokenStore:
    """A small JSON file of ``host_id/token-start -> {token, address, table, seat,
    saved}``: each seat the user held at each host (a file of an older version, keyed by
    the host id alone, reads the same)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else state_dir()
        self.path = self.directory / FILE_NAME
        self.notice: str | None = None  # a damaged file kept aside, said once
        self.damaged = False  # the notice says a damaged file was kept aside
        # Seats saved while the disk refused the file (full, read-only): kept here, seen
        # by lookups, and written by the next save, forget or retry that succeeds.
        self.unsaved: dict[str, dict[str, Any]] = {}
        self.failing = False  # the last write was refused (said once until one succeeds)

    def take_notice(self) -> str | None:
        """What went wrong with the file since last asked (shown once to the user)."""
        notice, self.notice = self.notice, None
        return notice

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the store's lock (other clients of this user wait) while reading and writing."""
        fd = None
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = open_fd(self.directory / (FILE_NAME + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
            lock_exclusive(fd)  # flock, or msvcrt's lock on Windows
        except OSError as exc:  # an unwritable directory: reading still works
            # Never a line on the terminal (the client's full screen runs over it): a
            # save that fails says so once in the status area (notice).
            logging.getLogger(__name__).debug("cannot lock %s: %s", self.path, exc)
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)  # closing releases the lock

    def _load(self) -> dict[str, dict[str, Any]] | None:
        """The saved tokens; None when the file exists but cannot be read (keep it)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            logging.getLogger(__name__).debug("cannot read %s: %s", self.path, exc)
            return None
        try:
            data = json.loads(raw.decode("utf-8"))
        except ValueError:
            data = None
        if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
            return data
        return self._set_aside()

    def _set_aside(self) -> dict[str, dict[str, Any]] | None:
        """Move a damaged file out of the way, keeping it; start afresh."""
        aside = self.path.with_name(f"{FILE_NAME}.bad-{time.strftime('%Y%m%dT%H%M%S')}")
        n = 1
        while aside.exists():
            n += 1
            aside = aside.with_name(f"{FILE_NAME}.bad-{time.strftime('%Y%m%dT%H%M%S')}-{n}")
        try:
            os.replace(self.path, aside)
        except OSError as exc:
            logging.getLogger(__name__).debug("cannot move %s aside: %s", self.path, exc)
            return None
        self.damaged = True
        self.notice = _("the saved seats file was damaged; kept it as {file}").format(
            file=aside)
        logging.getLogger(__name__).debug("%s", self.notice)
        return {}

    def _write(self, data: dict[str, dict[str, Any]]) -> None:
        replace_private(self.path, json.dumps(data).encode("utf-8"))

    def save(self, host_id: str, token: str, address: str = "", table: Any = None,
             seat: Any = None) -> None:
        """Remember the token of our seat at ``host_id``. When the disk refuses the file
        (full, read-only) the token is kept in memory, :attr:`notice` says so once, and
        :meth:`retry` (or the next save) writes it once the disk takes writes."""
        if not host_id or not token:
            return
        self.unsaved[_key(host_id, token)] = {"token": token, "address": address,
                                              "table": table, "seat": seat,
                                              "saved": time.time()}
        self.retry()

    def retry(self) -> bool:
        """Write the seats kept in memory; True when none is left unsaved."""
        if not self.unsaved:
            return True
        with self._locked():
            data = self._load()
            if data is None:
                return False
            for key, value in self.unsaved.items():  # one entry a seat: an older one goes
                host = key.split("/", 1)[0]
                for old in [k for k, v in data.items()
                            if _of(k, host) and v.get("token") == value.get("token")]:
                    del data[old]
            data.update(self.unsaved)
            for host in {key.split("/", 1)[0] for key in self.unsaved}:
                mine = sorted((k for k in data if _of(k, host)),
                              key=lambda k: data[k].get("saved", 0), reverse=True)
                for old in mine[PER_HOST:]:
                    del data[old]
            if len(data) > KEEP:
                for key in sorted(data, key=lambda k: data[k].get("saved", 0))[: len(data) - KEEP]:
                    del data[key]
            try:
                self._write(data)
            except OSError as exc:
                self._refused(exc)
                return False
        if self.failing:
            self.failing = False
            self.notice, self.damaged = _("this seat's key is saved now"), False
        self.unsaved.clear()
        return True

    def _refused(self, exc: OSError) -> None:
        if not self.failing:
            self.failing = True
            self.damaged = False
            self.notice = _("cannot save this seat's key in {file} ({error}): it is kept "
                            "while this client runs and saved once the disk has room").format(
                file=self.path, error=exc.strerror or exc)
            logging.getLogger(__name__).debug("%s", self.notice)

    def entries(self, host_id: str) -> list[dict[str, Any]]:
        """Every saved ``{token, address, table, seat, saved}`` of a host id, the newest
        first (one a seat the user held there)."""
        if not host_id:
            return []
        return _newest_of(self._all(), host_id)

    def _all(self) -> dict[str, dict[str, Any]]:
        """The file's entries (none if it cannot be read), with those kept in memory."""
        with self._locked():
            data = self._load() or {}
        data.update(self.unsaved)
        return data

    def entry(self, host_id: str) -> dict[str, Any] | None:
        """The newest saved ``{token, address, table, seat, saved}`` of a host id."""
        found = self.entries(host_id)
        return found[0] if found else None

    def lookup(self, host_id: str = "", address: str = "") -> str | None:
        """The newest stored token for a host id, else for the address it was last seen
        at."""
        data = self._all()
        mine = _newest_of(data, host_id) if host_id else []
        if mine:
            return str(mine[0].get("token") or "") or None
        if address:
            best = [v for v in data.values() if v.get("address") == address]
            if best:
                best.sort(key=lambda v: v.get("saved", 0))
                return str(best[-1].get("token") or "") or None
        return None

    def forget(self, host_id: str = "", token: str = "") -> None:
        """Drop a token that the host no longer accepts."""

        def kept(data: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
            return {k: v for k, v in data.items()
                    if not ((token and v.get("token") == token)
                            or (not token and host_id and _of(k, host_id)))}

        self.unsaved = kept(self.unsaved)
        with self._locked():
            data = self._load()
            if data is None:
                return
            keep = kept(data)
            if keep != data:
                try:
                    self._write(keep)
                except OSError as exc:  # a stale key stays on disk: the host refuses it
                    self._refused(exc)
