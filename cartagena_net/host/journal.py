"""Crash-safe per-table journals: checksummed JSON lines, written before broadcast.

The state directory is 0700 and every journal 0600: journals hold seat tokens and
the engine's full record (hidden cards), so no record is ever logged.

Each line is one record: its CRC32 as 8 lowercase hex digits, a space, and the
record as compact JSON (``1a2b3c4d {"t":"act",...}``). A line starting with ``{`` is
read as an unchecked record of an older journal. Journals are data: nothing here
deletes one; a journal that cannot be read is moved aside (:func:`move_aside`).
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import threading
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twisted.logger import Logger

from cartagena_net.portable import files as portable_files
from cartagena_net.portable.files import (
    fsync_dir,
    fsync_file,
    lock_exclusive,
    open_fd,
    restrict,
    write_all,
)
from cartagena_net.records.format import compact_text

log = Logger(namespace="cartagena.host.journal")

JOURNAL_RE = re.compile(r"^table-([0-9]+)\.journal$")  # ASCII digits only
# Any file a table's journal ever leaves behind: the journal, ``.tmp``, ``.bad-...``.
JOURNAL_FILE_RE = re.compile(r"^table-([0-9]+)\.journal(?:$|\.)")


def ensure_state_dir(path: str | os.PathLike[str]) -> Path:
    """Create the state directory (0700) if needed; tighten an existing one, saying so.

    Where there are no POSIX modes (Windows) nothing is tightened or warned: the folder
    is private by its place (:data:`cartagena_net.portable.files.WINDOWS_PRIVACY`)."""
    p = Path(path)
    existed = p.is_dir()
    p.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not portable_files.POSIX_MODES:  # Windows: its mode bits mean nothing; never warned
        log.debug("state dir {path}: {why}", path=str(p), why=portable_files.WINDOWS_PRIVACY)
        return p
    mode = p.stat().st_mode & 0o7777
    if mode != 0o700:
        os.chmod(p, 0o700)
        if existed:
            log.warn(  # noqa: G010 - twisted's Logger has warn()
                "state dir {path} was mode {old:04o}; set to 0700 (journals hold "
                "seat tokens and hidden cards)", path=str(p), old=mode)
    return p


try:
    import fcntl as _fcntl  # noqa: F401 - only whether flock exists
    _HAS_FLOCK = True
except ImportError:  # Windows: msvcrt's lock, on a descriptor opened for writing
    _HAS_FLOCK = False


def lock_state_dir(path: Path) -> int:
    """Hold the state dir for this process (an exclusive lock on its ``lock`` file).

    Two hosts on one state dir would archive or drop each other's live journals, so a
    second one is refused with an OSError naming the first one's process id, on every
    platform. Returns the descriptor that holds the lock (released when the process
    ends): ``flock`` on POSIX, ``msvcrt.locking`` on Windows
    (:func:`cartagena_net.portable.files.lock_exclusive`), whose lock lies past the
    process id written at the start of the file, so that a second host can read it.
    """
    lock = path / "lock"
    # flock holds on a descriptor opened for reading: the host then holds nothing open
    # for writing in its state dir (it can be remounted read-only under a running host).
    mode = os.O_RDONLY if _HAS_FLOCK else os.O_RDWR
    fd = open_fd(lock, mode | os.O_CREAT, 0o600)
    try:
        if not lock_exclusive(fd, wait=False):
            return fd  # no advisory locks on this platform
    except OSError:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
        except OSError:
            holder = ""
        os.close(fd)
        raise OSError(f"another host (process {holder if holder.isdigit() else '?'}) is "
                      "using it; stop that host first, or give this one another "
                      "--state-dir") from None
    if _HAS_FLOCK:
        writer = open_fd(lock, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(writer, b"%d\n" % os.getpid())
        finally:
            os.close(writer)
    else:  # the same descriptor; the file's content (before the locked byte) replaced
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, b"%-20d\n" % os.getpid())
    return fd


def journal_path(state_dir: str | os.PathLike[str], table_id: int) -> Path:
    """Where table ``table_id`` keeps its journal."""
    return Path(state_dir) / f"table-{table_id}.journal"


def encode_record(record: dict[str, Any]) -> bytes:
    """One journal line: CRC32 of the JSON, a space, the JSON, a newline."""
    body = compact_text(record).encode("utf-8")
    return b"%08x %s\n" % (zlib.crc32(body), body)


def _lines(records: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> bytes:
    if len(records) == 1:  # (an action's record: the most common by far)
        return encode_record(records[0])
    return b"".join(encode_record(r) for r in records)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` (0600): a temporary file, fsync, rename, fsync dir."""
    tmp = path.with_name(path.name + ".tmp")
    fd = open_fd(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        restrict(fd, tmp)
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def write_journal(path: Path, records: list[dict[str, Any]]) -> None:
    """Write a whole journal atomically."""
    write_atomically(path, _lines(records))


class Syncer:
    """Fsyncs journals off the action path: at most once every ``interval`` seconds each,
    in a thread (an fsync can take milliseconds on a laptop's disk; the reactor never waits
    for one).

    An append is written to the operating system before its action is answered, so any
    death of the host process loses nothing; what a power cut or a kernel crash may lose is
    the last ``interval`` of actions, and the journal read back is then a clean earlier
    prefix (checksummed lines, a torn tail cut off). ``interval`` 0: every append is fsynced
    before it returns (and before its action is answered).
    """

    def __init__(self, reactor: Any, interval: float) -> None:
        self.reactor = reactor
        self.interval = interval
        self._dirty: set[Path] = set()
        self._call: Any = None
        self._work: queue.SimpleQueue[list[Path] | None] | None = None
        self._thread: threading.Thread | None = None
        self.failures = 0
        self.synced = 0  # fsync rounds done by the thread (for tests and the log)

    @property
    def each(self) -> bool:
        return self.interval <= 0

    def dirty(self, path: Path) -> None:
        """``path`` was appended to: fsync it within ``interval``."""
        self._dirty.add(path)
        if self._call is None:
            self._call = self.reactor.callLater(self.interval, self._flush)

    def _flush(self) -> None:
        self._call = None
        paths, self._dirty = sorted(self._dirty), set()
        if not paths:
            return
        if self._work is None:  # one daemon thread: nothing to wait for when the host ends
            self._work = queue.SimpleQueue()
            self._thread = threading.Thread(target=self._run, args=(self._work,),
                                            name="journal-sync", daemon=True)
            self._thread.start()
        self._work.put(paths)

    def _run(self, work: queue.SimpleQueue[list[Path] | None]) -> None:
        while (paths := work.get()) is not None:
            try:
                _fsync_all(paths)
            except OSError as exc:
                self.reactor.callFromThread(self._failed, str(exc))
            else:
                self.reactor.callFromThread(self._done)

    def _done(self) -> None:
        self.synced += 1

    def _failed(self, err: str) -> None:
        self.failures += 1
        log.error("journal fsync failed: {err} (the journals stay as written; a power "
                  "cut now could lose the last actions)", err=err)

    def flush_now(self) -> None:
        """Fsync every dirty journal now, on this thread, those handed to the sync thread
        and not yet taken included, and end that thread once its round is done (the host
        stopping: a daemon thread would not be waited for)."""
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
        dirty, self._dirty = set(self._dirty), set()
        work, thread, self._work, self._thread = self._work, self._thread, None, None
        if work is not None:
            with contextlib.suppress(queue.Empty):
                while True:
                    dirty.update(work.get_nowait() or ())
            work.put(None)
        try:
            _fsync_all(sorted(dirty))
        except OSError as exc:
            self._failed(str(exc))
        if thread is not None:
            thread.join(timeout=10)


def _fsync_all(paths: list[Path]) -> None:
    """Fsync each file (one gone since is skipped); the first failure is raised after."""
    error: OSError | None = None
    for path in paths:
        try:
            fsync_file(path)
        except OSError as exc:
            error = error or exc
    if error is not None:
        raise error


class Journal:
    """An append-only file of records; :meth:`append` returns once they are written.

    ``fresh`` creates a new journal and refuses (``FileExistsError``) to touch an
    existing file; otherwise records are added to the existing one. With a ``syncer``,
    appends are fsynced by it (off the action path); without one, each append is fsynced
    before it returns.
    """

    def __init__(self, path: str | os.PathLike[str], fresh: bool = True,
                 syncer: Syncer | None = None) -> None:
        self.path = Path(path)
        self._where = os.fspath(self.path)  # opened at every append
        self.closed = False
        self.syncer = None if syncer is None or syncer.each else syncer
        if fresh:
            fd = open_fd(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                restrict(fd, self.path)
            finally:
                os.close(fd)
            fsync_dir(self.path.parent)
        self._good = self.path.stat().st_size  # the bytes known to be written whole
        self._torn = True  # whether the file may hold more than _good (checked, then cut)

    def append(self, *records: dict[str, Any]) -> None:
        """Write the records as one chunk of lines (then fsync, or leave that to the
        syncer).

        The file is opened for each append and closed after it, so that the host holds
        nothing open for writing between actions (a disk can then be remounted read-only
        under a running host, and taken back). Whatever an earlier failed append left
        (a full or failing disk) is cut off first: only whole appends stay. The file's
        size is read only when it may differ from what was written (at the first append
        and after a failed one), not at every action."""
        if self.closed:
            raise ValueError("journal is closed")
        data = _lines(records)
        fd = open_fd(self._where, os.O_WRONLY | os.O_APPEND)
        try:
            if self._torn:
                if os.fstat(fd).st_size != self._good:
                    os.ftruncate(fd, self._good)
                self._torn = False
            write_all(fd, data)
            if self.syncer is None:
                os.fsync(fd)
            self._good += len(data)
        except OSError:
            # A full or failing disk: take back whatever part of the records got written,
            # so that the next append starts on a whole line (nothing half written stays);
            # if even that fails, the next append cuts it off before writing.
            self._torn = True
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._good)
            raise
        finally:
            os.close(fd)
        if self.syncer is not None:
            self.syncer.dirty(self.path)

    def rewrite(self, *records: dict[str, Any]) -> None:
        """Replace the whole journal by ``records`` atomically (a new game compacts it)."""
        if self.closed:
            raise ValueError("journal is closed")
        write_journal(self.path, list(records))
        self._good = self.path.stat().st_size
        self._torn = False

    def close(self) -> None:
        """No more appends (idempotent)."""
        self.closed = True

    def remove(self) -> None:
        """Close and delete the file (only for a table that holds no game)."""
        self.close()
        try:
            self.path.unlink()
        except FileNotFoundError:
            return
        fsync_dir(self.path.parent)


@dataclass
class JournalRead:
    """What :func:`read_journal` found.

    ``records`` are the good records before the first problem; ``good`` the bytes
    they span. ``torn``: the file ends in an incomplete line (a write cut short: by
    the system's crash or a power cut, since a host's crash leaves whole writes);
    ``torn_act``: that line is the start of an action's record (an action the players
    may have seen: appends are fsynced only every ``--journal-sync`` seconds).
    ``bad``: (record number counting from 1, why) of the first complete line that is
    not a good record; ``lines`` the number of complete lines. ``passed``: (record
    number, why) of each damaged line passed over because it is a point of the live
    chances' curve (:func:`_only_a_point`), which is shown but never played: the
    records after it still count.
    """

    records: list[dict[str, Any]] = field(default_factory=list)
    good: int = 0
    size: int = 0
    lines: int = 0
    torn: bool = False
    torn_act: bool = False
    bad: tuple[int, str] | None = None
    passed: list[tuple[int, str]] = field(default_factory=list)

    @property
    def stop(self) -> tuple[int, str] | None:
        """(record number, why) of the first record that cannot be used: a bad line's,
        else an action's record cut short at the end (:data:`CUT_SHORT`); None if none."""
        if self.bad is not None:
            return self.bad
        return (self.lines + 1, CUT_SHORT) if self.torn_act else None


#: Why a torn action's record is lost (``JournalRead.torn_act``), as restore and the
#: command line's look before it say.
CUT_SHORT = "the last record was cut short (an action, written when the system stopped)"
_POINT = b'{"t":"chances",'  # how every point of the curve starts (encode_record, in order)
_ACT = b'{"t":"act",'


def record_text(line: bytes) -> bytes:
    """A line's record text, without its checksum (an older journal's line has none)."""
    return line if line.startswith(b"{") else line[9:]


def _only_a_point(line: bytes) -> bool:
    """Whether a damaged line is a point of the live chances and nothing else: its
    record starts as a point does and it is one line. (A newline lost to damage would
    join the next record to it: then that record's action goes missing, and the next
    action's seq no longer follows on, which the replay refuses as it should.)"""
    return record_text(line).startswith(_POINT)


def parse_line(line: bytes) -> dict[str, Any]:
    """One record from a complete line (without its newline); ValueError says why not."""
    body = record_text(line)
    if body is not line:  # (an older journal's record has no checksum to check)
        if len(line) < 10 or line[8:9] != b" ":
            raise ValueError("no checksum (not a journal line)")
        try:
            crc = int(line[:8], 16)
        except ValueError:
            raise ValueError("no checksum (not a journal line)") from None
        if zlib.crc32(body) != crc:
            raise ValueError("checksum mismatch (the record was damaged)")
    try:
        rec = json.loads(body)
    except ValueError:
        raise ValueError("not valid JSON") from None
    if not isinstance(rec, dict) or not isinstance(rec.get("t"), str):
        raise ValueError("not a journal record")  # noqa: TRY004 - one error type for a bad line
    return rec


def read_journal(path: str | os.PathLike[str]) -> JournalRead:
    """Read a journal up to its first problem (see :class:`JournalRead`)."""
    with open(path, "rb") as f:
        data = f.read()
    out = JournalRead(size=len(data))
    pos = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            out.torn = True
            out.torn_act = out.bad is None and record_text(data[pos:]).startswith(_ACT)
            break
        out.lines += 1
        if out.bad is None:
            line = data[pos:end]
            try:
                rec = parse_line(line)
            except ValueError as exc:
                if _only_a_point(line):
                    out.passed.append((out.lines, str(exc)))
                else:
                    out.bad = (out.lines, str(exc))
            else:
                out.records.append(rec)
                out.good = end + 1
        pos = end + 1
    return out


def list_journals(state_dir: str | os.PathLike[str]) -> list[tuple[int, Path]]:
    """(table id, path) of every journal in the state directory, by id."""
    found = []
    for entry in Path(state_dir).iterdir():
        m = JOURNAL_RE.match(entry.name)
        if m:
            found.append((int(m.group(1)), entry))
    return sorted(found)


def highest_journal_id(state_dir: str | os.PathLike[str]) -> int:
    """The highest table id any journal file (kept aside ones included) uses, else 0."""
    ids = [int(m.group(1)) for entry in Path(state_dir).iterdir()
           if (m := JOURNAL_FILE_RE.match(entry.name))]
    return max(ids, default=0)


def _stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _free_name(path: Path) -> Path:
    n = 0
    candidate = path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}-{n}")
    return candidate


def move_aside(path: Path, keep_copy: bool = False) -> Path:
    """Move (or, with ``keep_copy``, copy) a journal to ``NAME.bad-<UTC time>``."""
    target = _free_name(path.with_name(f"{path.name}.bad-{_stamp()}"))
    if keep_copy:
        shutil.copy2(path, target)
        os.chmod(target, 0o600)
    else:
        os.rename(path, target)
    fsync_dir(path.parent)
    return target


def archive_journals(state_dir: Path) -> tuple[Path | None, int]:
    """Move every journal file of an earlier run into ``archive-<UTC time>/``.

    Returns (the archive folder, how many files were moved); (None, 0) if none.
    """
    files = [e for e in state_dir.iterdir() if JOURNAL_FILE_RE.match(e.name) and e.is_file()]
    if not files:
        return None, 0
    folder = _free_name(state_dir / f"archive-{_stamp()}")
    folder.mkdir(mode=0o700)
    for f in files:
        os.rename(f, folder / f.name)
    fsync_dir(folder)
    fsync_dir(state_dir)
    return folder, len(files)
