"""Where records are kept: one file a game, ``<records dir>/<record id>.json``.

The records folder is ``records/`` in the per-user state directory
(:func:`cartagena_net.portable.dirs.user_state_dir`), 0700, each record 0600. A record
is written whole or not at all (a temporary file, fsync, rename), so a crash never
leaves half a record; the record of a game that ends replaces the spectator's record
the same game left when its host stopped (the same id). Nothing here deletes a record.
"""
from __future__ import annotations

import heapq
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartagena_net.i18n import N_
from cartagena_net.portable.dirs import user_state_dir
from cartagena_net.portable.files import open_fd, write_all
from cartagena_net.records.format import RECORD_ID, RecordError, compact, dumps, loads

SUFFIX = ".json"


def records_dir() -> Path:
    """This user's records folder (not created here)."""
    return user_state_dir() / "records"


def write(folder: str | os.PathLike[str], record: dict[str, Any],
          data: bytes | None = None) -> Path:
    """Write ``record`` as ``<id>.json`` in ``folder`` (made 0700 if needed); OSError if
    the disk refuses (the caller decides what that means: the host logs it). ``data``:
    the record's ``dumps``, where the caller has it already."""
    return _write_whole(Path(folder), record["id"], dumps(record) if data is None else data)


REVIEWS = "reviews"  # the reviews of records: <records dir>/reviews/<record id>.json


def review_path(folder: str | os.PathLike[str], record_id: str) -> Path:
    """Where the review of record ``record_id`` of ``folder`` is (or would be) kept."""
    if not RECORD_ID.fullmatch(record_id):
        raise RecordError(N_("not a record id: {id}"), id=repr(record_id[:80]))
    return Path(folder) / REVIEWS / f"{record_id}{SUFFIX}"


def write_review(folder: str | os.PathLike[str], review: dict[str, Any]) -> Path:
    """Write the review of a record of ``folder`` (whole or not at all, as a record)."""
    path = review_path(folder, review["record"])
    return _write_whole(path.parent, review["record"], compact(review))


def read_review(folder: str | os.PathLike[str], record_id: str) -> dict[str, Any] | None:
    """The review of record ``record_id`` of ``folder``, None if there is none yet;
    RecordError if it cannot be read or is damaged."""
    from cartagena_net.bots.review import check

    path = review_path(folder, record_id)
    try:
        with open(path, "rb") as f:
            data = _read_capped(f)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RecordError(N_("cannot read {file}: {error}"), file=path,
                          error=exc.strerror or exc) from None
    try:
        return check(json.loads(data.decode("utf-8")))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError(N_("{file}: {error}"), file=path, error=exc) from None


DUE = ".due"  # <records dir>/reviews/<record id>.due: a review is due, not yet made


def due_path(folder: str | os.PathLike[str], record_id: str) -> Path:
    """The mark that the review of record ``record_id`` of ``folder`` is due."""
    return review_path(folder, record_id).with_suffix(DUE)


def mark_due(folder: str | os.PathLike[str], record_id: str) -> None:
    """Mark the review of a record as due (an empty file), so that a host stopped before
    it was made makes it at its next start (or ``cartagena review --due``); OSError if
    the disk refuses."""
    path = due_path(folder, record_id)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(open_fd(path, os.O_WRONLY | os.O_CREAT, 0o600))


def clear_due(folder: str | os.PathLike[str], record_id: str) -> None:
    """The review is made (or cannot be): no longer due."""
    try:
        os.unlink(due_path(folder, record_id))
    except FileNotFoundError:
        pass


def due(folder: str | os.PathLike[str], mark: str = "") -> list[str]:
    """The ids of the records of ``folder`` whose review is due and not made (only those
    whose id holds ``mark``, e.g. a host's id), oldest first (an id begins with its start
    time). A mark whose review exists after all is removed."""
    reviews = Path(folder) / REVIEWS
    try:
        names = sorted(e.name for e in reviews.iterdir() if e.name.endswith(DUE))
    except OSError:
        return []
    out = []
    for name in names:
        record_id = name[: -len(DUE)]
        if not RECORD_ID.fullmatch(record_id) or mark not in record_id:
            continue
        if (reviews / f"{record_id}{SUFFIX}").exists():
            try:
                clear_due(folder, record_id)
            except OSError:
                pass
            continue
        if (Path(folder) / f"{record_id}{SUFFIX}").exists():
            out.append(record_id)
    return out


def _write_whole(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / f"{name}{SUFFIX}"
    tmp = folder / f".{name}{SUFFIX}.tmp"
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    os.close(fd)
    os.replace(tmp, path)
    return path


@dataclass
class Listed:
    """One file of the records folder: its record, or why it cannot be read."""

    path: Path
    record: dict[str, Any] | None
    error: str | None = None

    @property
    def id(self) -> str:
        return self.path.name[: -len(SUFFIX)]


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The record in a file; RecordError (with the file named) if it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = _read_capped(f)
    except OSError as exc:
        raise RecordError(N_("cannot read {file}: {error}"), file=path,
                          error=exc.strerror or exc) from None
    try:
        return loads(data)
    except RecordError as exc:
        raise RecordError(N_("{file}: {error}"), file=path, error=exc) from None


READ_CAP = 1 << 25  # bytes read of a record or review at most (larger ones are refused)


def _read_capped(f: Any) -> bytes:
    """A file's bytes, ``READ_CAP`` at most, in a buffer the size of the file (``read(n)``
    would take ``n`` bytes of memory first, 32 MB for a record of a few kilobytes)."""
    want = min(READ_CAP, os.fstat(f.fileno()).st_size + 1)
    data = f.read(want)
    if len(data) == want and want < READ_CAP:  # it grew since: the rest, up to the cap
        data += f.read(READ_CAP - want)
    return data


def record_names(folder: str | os.PathLike[str], mark: str = "") -> list[str]:
    """The names of the record files of ``folder`` that hold ``mark`` (e.g. a host's id),
    sorted: a record's name begins with its game's start time, so the newest come last.
    Nothing is read but the folder."""
    try:
        return sorted(e.name for e in Path(folder).iterdir() if _is_record(e.name, mark))
    except FileNotFoundError:
        return []


def _is_record(name: str, mark: str) -> bool:
    """Whether a folder entry's ``name`` is a record's file that holds ``mark``."""
    return name.endswith(SUFFIX) and not name.startswith(".") and mark in name


def newest_names(folder: str | os.PathLike[str], mark: str = "",
                 keep: int = 100) -> tuple[list[str], int]:
    """The names of the newest ``keep`` records of ``folder`` that hold ``mark``, sorted
    (the newest last), and how many hold it in all. The folder is read one entry at a
    time and only those names are kept: a host's records index costs the same memory at
    its ten thousandth game as at its tenth (:func:`record_names` holds every name)."""
    newest: list[str] = []  # a heap: the oldest kept first
    count = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if _is_record(name, mark):
                    count += 1
                    if len(newest) < keep:
                        heapq.heappush(newest, name)
                    elif name > newest[0]:
                        heapq.heapreplace(newest, name)
    except FileNotFoundError:
        return [], 0
    return sorted(newest), count


def listing(folder: str | os.PathLike[str] | None = None) -> list[Listed]:
    """Every record of ``folder`` (default :func:`records_dir`), oldest first."""
    folder = Path(folder) if folder is not None else records_dir()
    out = []
    for path in (folder / name for name in record_names(folder)):
        try:
            out.append(Listed(path, read(path)))
        except RecordError as exc:
            out.append(Listed(path, None, str(exc)))
    out.sort(key=lambda x: (x.record or {}).get("started", ""))
    return out


def find(key: str, folder: str | os.PathLike[str] | None = None) -> Path:
    """The file of record ``key``: an id, a unique start of one, or a file's path.

    RecordError if there is none, or several that start so.
    """
    candidate = Path(key)
    if candidate.is_file():
        return candidate
    folder = Path(folder) if folder is not None else records_dir()
    if not RECORD_ID.fullmatch(key):
        raise RecordError(N_("no record or file {key}"), key=repr(key))
    exact = folder / f"{key}{SUFFIX}"
    if exact.is_file():
        return exact
    try:
        found = sorted(e for e in folder.iterdir()
                       if e.name.startswith(key) and e.name.endswith(SUFFIX))
    except FileNotFoundError:
        found = []
    if len(found) == 1:
        return found[0]
    if not found:
        raise RecordError(N_("no record {key} in {folder} (`cartagena records` lists them)"),
                          key=repr(key), folder=folder)
    raise RecordError(N_("{n} records start with {key}: give more of the id"), n=len(found),
                      key=repr(key))
