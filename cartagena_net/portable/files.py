"""Files that must survive a crash, and be private, on every platform.

- :func:`restrict`: owner-only permissions (0600). ``os.fchmod`` where there is one
  (POSIX; Windows only from Python 3.13), else ``os.chmod`` on the path. On Windows the
  mode bits say little: the file is private by living in the user's own profile.
- :func:`fsync_dir`: make a directory's entries (a created, renamed or removed file)
  durable. POSIX needs the directory itself fsynced; Windows refuses to open a directory
  as a file and makes renames durable with the file system's own journal, so a refusal
  there is no error.
- :func:`lock_exclusive`: an exclusive lock on an open file: ``fcntl.flock`` on POSIX,
  ``msvcrt.locking`` on Windows; where neither exists, no lock (and ``False``).
- :data:`POSIX_MODES`: whether files have POSIX permission bits. Windows has none (it
  reports 0o666 or 0o777 whatever protects a file): there a user's state folder is
  private by living in the user's own profile folder (``%LOCALAPPDATA%``), whose access
  list (ACL) admits that user, the administrators and the system alone
  (:data:`WINDOWS_PRIVACY`).
- :func:`write_all`: all of a buffer to a descriptor (``os.write`` may take part of it).
- :func:`open_fd`: ``os.open`` in binary mode. Windows opens a descriptor in text mode
  unless ``O_BINARY`` is given, and then writes each ``\n`` as ``\r\n`` (a journal's
  checksums no longer match). Every ``os.open`` of the product goes through it
  (tests/test_platforms.py checks that each one names ``O_BINARY``).
"""
from __future__ import annotations

import errno
import os

O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation; elsewhere 0
POSIX_MODES = os.name != "nt"
WINDOWS_PRIVACY = ("Windows has no POSIX permission bits: the folder is private by being "
                   "in the user's own profile folder, whose access list (ACL) admits only "
                   "that user, the administrators and the system")

# What opening a directory for fsync may raise where the platform cannot do it.
_NO_DIR_FSYNC = {errno.EACCES, errno.EPERM, errno.EISDIR, errno.EINVAL, errno.EBADF,
                 errno.ENOTSUP if hasattr(errno, "ENOTSUP") else errno.EINVAL}


def error_fields(exc: OSError) -> dict[str, str]:
    """An OSError as data a client can word in its own language: ``error`` (the OS's
    own words, English) and ``errno`` (the symbolic name, e.g. ``ENOSPC``, where the
    error has one)."""
    out = {"error": str(exc.strerror or exc)[:200]}
    name = errno.errorcode.get(exc.errno) if isinstance(exc.errno, int) else None
    if name:
        out["errno"] = name
    return out


def open_fd(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
    """``os.open`` in binary mode (never text mode, as Windows would by default), and not
    inherited by child processes."""
    return os.open(path, flags | O_BINARY | O_CLOEXEC, mode)


def restrict(fd: int, path: str | os.PathLike[str]) -> None:
    """Owner read and write only (0600), by descriptor where the platform can."""
    fchmod = getattr(os, "fchmod", None)
    if fchmod is not None:
        fchmod(fd, 0o600)
    else:
        os.chmod(path, 0o600)


def fsync_dir(path: str | os.PathLike[str]) -> bool:
    """Fsync a directory; False where the platform cannot (nothing to do there)."""
    try:
        fd = os.open(path, os.O_RDONLY | O_BINARY | O_CLOEXEC)
    except OSError as exc:
        if exc.errno in _NO_DIR_FSYNC or isinstance(exc, (PermissionError, IsADirectoryError)):
            return False
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno in _NO_DIR_FSYNC:
            return False
        raise
    finally:
        os.close(fd)
    return True


def fsync_file(path: str | os.PathLike[str]) -> bool:
    """Fsync a file's data by its name (False: it is gone). POSIX opens it read-only,
    so that a sync never holds it open for writing; Windows needs a writable handle."""
    mode = os.O_WRONLY | os.O_APPEND if os.name == "nt" else os.O_RDONLY
    try:
        fd = os.open(path, mode | O_BINARY | O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


# Where msvcrt's lock is taken: one byte far past any content. Windows' locks are
# mandatory, so a lock on the file's first bytes would keep a second process from reading
# what the holder wrote there (the host's process id); past the end, nothing is in the way.
LOCK_OFFSET = 1 << 30
LOCK_POLL = 0.05  # seconds between tries while waiting for msvcrt's lock


def lock_exclusive(fd: int, wait: bool = True, timeout: float = 30.0) -> bool:
    """Lock an open file for this process (released when the descriptor is closed).

    True when locked; False where the platform has no such lock. With ``wait=False`` a
    lock held by another process raises OSError at once; with ``wait`` it is waited for
    (at most ``timeout`` seconds on Windows, then OSError). On Windows the lock is one
    byte at :data:`LOCK_OFFSET`, taken with ``LK_NBLCK`` (never ``LK_LOCK``, which gives up
    after 10 s of its own), so the file's content stays readable to other processes; the
    file position is left at 0."""
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        return True
    try:
        import msvcrt
    except ImportError:
        return False
    import time

    deadline = time.monotonic() + timeout
    while True:
        os.lseek(fd, LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            if not wait or time.monotonic() >= deadline:
                os.lseek(fd, 0, os.SEEK_SET)
                raise
            time.sleep(LOCK_POLL)
            continue
        os.lseek(fd, 0, os.SEEK_SET)
        return True


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``: one ``os.write`` takes the whole of it but where a
    signal or a disk filling up cuts it short; the rest is written after it."""
    written = os.write(fd, data)
    if written < len(data):
        view = memoryview(data)[written:]
        while view:
            view = view[os.write(fd, view):]


def replace_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` at once, readable by this user alone
    (0600): a private temporary file beside it, written, synced and renamed over it, or
    removed if anything fails (raises OSError). ``mkstemp`` opens in binary mode
    (``O_BINARY`` on Windows) and bytes are written: no newline is ever translated."""
    import contextlib
    import tempfile

    folder, name = os.path.split(os.fspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or None)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
