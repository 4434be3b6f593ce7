"""Crash-safe per-table journals: JSON lines appended and fsynced before broadcast.

The state directory is 0700 and every journal 0600: journals hold seat tokens and
the engine's full record (hidden cards), so nothing here is ever logged.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

JOURNAL_RE = re.compile(r"^table-(\d+)\.journal$")


def ensure_state_dir(path: str | os.PathLike[str]) -> Path:
    """Create the state directory (0700) if needed and tighten its mode."""
    p = Path(path)
    p.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(p, 0o700)
    return p


def journal_path(state_dir: str | os.PathLike[str], table_id: int) -> Path:
    """Where table ``table_id`` keeps its journal."""
    return Path(state_dir) / f"table-{table_id}.journal"


class Journal:
    """An append-only file of records; :meth:`append` returns once they are on disk.

    ``fresh`` starts an empty journal (a new table); otherwise records are added.
    """

    def __init__(self, path: str | os.PathLike[str], fresh: bool = True) -> None:
        self.path = Path(path)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
        if fresh:
            flags |= os.O_TRUNC
        self._fd: int | None = os.open(self.path, flags, 0o600)
        os.fchmod(self._fd, 0o600)

    def append(self, *records: dict[str, Any]) -> None:
        """Write the records as one chunk of lines, then fsync."""
        if self._fd is None:
            raise ValueError("journal is closed")
        view = memoryview(_lines(records))
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        os.fsync(self._fd)

    def rewrite(self, *records: dict[str, Any]) -> None:
        """Replace the whole journal by ``records`` atomically (a new game compacts it)."""
        self.close()
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, _lines(records))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(self.path, flags)

    def close(self) -> None:
        """Close the file (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _lines(records: tuple[dict[str, Any], ...]) -> bytes:
    return b"".join(
        json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"
        for r in records
    )


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_journal(path: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], int]:
    """The complete records of a journal and the byte length they span.

    Reading stops at the first line that is incomplete or unreadable (a crash
    mid-write): such a record was never acknowledged, because appends are fsynced
    before anything is sent.
    """
    records: list[dict[str, Any]] = []
    with open(path, "rb") as f:
        data = f.read()
    good = 0
    while good < len(data):
        end = data.find(b"\n", good)
        if end < 0:
            break
        try:
            rec = json.loads(data[good:end])
        except ValueError:
            break
        if not isinstance(rec, dict):
            break
        records.append(rec)
        good = end + 1
    return records, good


def list_journals(state_dir: str | os.PathLike[str]) -> list[tuple[int, Path]]:
    """(table id, path) of every journal in the state directory, by id."""
    found = []
    for entry in Path(state_dir).iterdir():
        m = JOURNAL_RE.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry))
    return sorted(found)
