"""The journal, the state-dir lock and the seat tokens file where the POSIX-only calls are
missing, as on Windows: no ``os.fchmod`` (before Python 3.13), no ``fcntl``, and a
directory that cannot be opened to be fsynced. They still keep every acknowledged record,
private to the user, through a kill."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cartagena_net.host.journal import (
    Journal,
    lock_state_dir,
    read_journal,
    write_journal,
)
from cartagena_net.portable import files
from tests.portable import mode_of

ROOT = Path(__file__).resolve().parents[2]

# Applied in this process by the fixture, and in a child process by the kill test.
WINDOWS_LIKE = textwrap.dedent("""
    import errno, os, sys
    sys.modules["fcntl"] = None        # import fcntl -> ImportError
    sys.modules["msvcrt"] = None       # ... and no Windows lock either
    del os.fchmod                      # as on Windows before Python 3.13
    _open = os.open
    def _no_dir_open(path, flags, *args, **kw):
        if os.path.isdir(path):        # Windows refuses to open a directory as a file
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return _open(path, flags, *args, **kw)
    os.open = _no_dir_open
""")


@pytest.fixture
def windows_like(monkeypatch):
    real_open = os.open

    def no_dir_open(path, flags, *args, **kw):
        if os.path.isdir(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args, **kw)

    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    monkeypatch.delattr(os, "fchmod")
    monkeypatch.setattr(os, "open", no_dir_open)
    return monkeypatch


def test_the_calls_really_are_missing(windows_like, tmp_path):
    assert not hasattr(os, "fchmod")
    with pytest.raises(ImportError):
        import fcntl  # noqa: F401
    with pytest.raises(PermissionError):
        os.open(tmp_path, os.O_RDONLY)
    assert files.fsync_dir(tmp_path) is False  # refused: nothing to do there


def test_journal_writes_reads_and_keeps_its_file_private(windows_like, tmp_path):
    path = tmp_path / "table-1.journal"
    journal = Journal(path)
    records = [{"t": "table", "id": 1}, *({"t": "act", "seq": n} for n in range(1, 40))]
    journal.append(records[0])
    journal.append(*records[1:])
    journal.close()
    assert read_journal(path).records == records
    assert mode_of(path) in (0o600, None)
    write_journal(path, records[:5])  # the atomic rewrite (temp file, rename)
    assert read_journal(path).records == records[:5]
    assert mode_of(path) in (0o600, None)
    assert not list(tmp_path.glob("*.tmp"))


def test_state_dir_lock_without_any_lock_call(windows_like, tmp_path):
    fd = lock_state_dir(tmp_path)  # no lock to take: the host still starts
    try:
        assert (tmp_path / "lock").exists()
    finally:
        os.close(fd)


def test_state_dir_lock_refuses_a_second_host_where_locks_exist(tmp_path):
    fd = lock_state_dir(tmp_path)
    try:
        with pytest.raises(OSError, match="another host"):
            lock_state_dir(tmp_path)
    finally:
        os.close(fd)


def test_tokens_file_without_fcntl(windows_like, tmp_path):
    from client.tokens import TokenStore

    store = TokenStore(tmp_path / "state")
    store.save("host-a", "tok-a", "127.0.0.1:41672", 1, 0)
    store.save("host-b", "tok-b", "127.0.0.1:41672", 2, 1)
    again = TokenStore(tmp_path / "state")
    assert again.entry("host-a")["token"] == "tok-a" and again.lookup("host-b") == "tok-b"
    data = json.loads((tmp_path / "state" / "tokens.json").read_text())
    assert set(data) == {"host-a/tok-a", "host-b/tok-b"}  # a seat's entry: host, token
    assert mode_of(tmp_path / "state" / "tokens.json") in (0o600, None)


def test_every_acknowledged_record_survives_a_kill(tmp_path):
    """A child with the POSIX calls removed appends records and says which are on disk;
    killed with SIGKILL at some moment, every record it acknowledged is read back."""
    path = tmp_path / "table-1.journal"
    script = WINDOWS_LIKE + textwrap.dedent(f"""
        sys.path.insert(0, {str(ROOT)!r})
        from cartagena_net.host.journal import Journal
        j = Journal({str(path)!r})
        n = 0
        while True:
            n += 1
            j.append({{"t": "act", "seq": n, "pad": "x" * (n % 300)}})
            print(n, flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    acked = 0
    try:
        for line in proc.stdout:
            acked = int(line)
            if acked >= 300:
                break
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert acked >= 300
    read = read_journal(path)
    assert read.bad is None
    assert [r["seq"] for r in read.records][:acked] == list(range(1, acked + 1))
