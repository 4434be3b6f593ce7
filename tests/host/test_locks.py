"""A second host on a state dir in use is told which process holds it, on every platform.

For real here (``flock``), and with Windows' lock simulated: ``fcntl`` missing and an
``msvcrt`` whose ``locking`` takes a byte-range lock that is mandatory, as on Windows (a
read of a range another process has locked fails), and whose ``LK_LOCK`` would wait 10 s
before it gave up (the host must not use it)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cartagena_net.host.journal import lock_state_dir
from cartagena_net.portable import files

ROOT = Path(__file__).resolve().parents[2]

FAKE_MSVCRT = textwrap.dedent("""
    import errno, os, sys, time, types
    import asyncio, subprocess            # (they ask whether msvcrt exists: not Windows)
    import fcntl as _fcntl
    sys.modules["fcntl"] = None           # import fcntl -> ImportError, as on Windows
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_LOCK, msvcrt.LK_NBLCK, msvcrt.LK_RLCK, msvcrt.LK_NBRLCK = range(5)
    msvcrt.used = []

    def locking(fd, mode, nbytes):
        msvcrt.used.append(mode)
        where = os.lseek(fd, 0, os.SEEK_CUR)
        if mode == msvcrt.LK_UNLCK:
            _fcntl.lockf(fd, _fcntl.LOCK_UN, nbytes, where)
            return
        try:
            _fcntl.lockf(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB, nbytes, where)
        except OSError:
            if mode == msvcrt.LK_LOCK:    # Windows retries for about 10 s, then fails
                time.sleep(10)
            raise PermissionError(errno.EACCES, "Permission denied") from None

    msvcrt.locking = locking
    sys.modules["msvcrt"] = msvcrt

    _read = os.read
    def mandatory_read(fd, n):            # a range another process locked cannot be read
        where = os.lseek(fd, 0, os.SEEK_CUR)
        dup = os.open(f"/proc/self/fd/{fd}", os.O_RDONLY)
        try:
            _fcntl.lockf(dup, _fcntl.LOCK_SH | _fcntl.LOCK_NB, n, where)
        except OSError:
            raise PermissionError(errno.EACCES, "Permission denied") from None
        else:
            os.close(dup)  # (closing drops this process's own locks on the file too:
        return _read(fd, n)  #  only the second host reads, and it holds none)
    os.read = mandatory_read
""")


def _windows_like(code: str, *args: str, **kw) -> subprocess.Popen:
    script = FAKE_MSVCRT + f"sys.path.insert(0, {str(ROOT)!r})\n" + textwrap.dedent(code)
    return subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


HOLD = """
    from pathlib import Path
    from cartagena_net.host.journal import lock_state_dir
    fd = lock_state_dir(Path(sys.argv[1]))
    print("held", msvcrt.used, flush=True)
    sys.stdin.readline()
"""

SECOND = """
    from pathlib import Path
    from cartagena_net.host.journal import lock_state_dir
    started = time.monotonic()
    try:
        lock_state_dir(Path(sys.argv[1]))
    except OSError as exc:
        print("refused", round(time.monotonic() - started, 1), msvcrt.used, exc, flush=True)
    else:
        print("locked", flush=True)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="the simulation of Windows' "
                    "mandatory locks reopens descriptors through /proc (Linux)")
def test_windows_lock_a_second_host_reads_the_first_ones_process_id(tmp_path):
    first = _windows_like(HOLD, str(tmp_path), stdin=subprocess.PIPE)
    try:
        line = first.stdout.readline()
        assert line.startswith("held"), line + first.stderr.read()
        second = _windows_like(SECOND, str(tmp_path))
        out, err = second.communicate(timeout=60)
        assert out.startswith("refused"), out + err
        seconds, rest = out.split(" ", 2)[1:]
        assert float(seconds) < 2  # no 10 s retry
        assert "[2]" in rest  # LK_NBLCK only, never LK_LOCK
        assert f"another host (process {first.pid}) is using it" in rest, rest
    finally:
        first.stdin.close()
        first.wait(timeout=30)
    # once the first is gone, the dir is free
    again = _windows_like(SECOND, str(tmp_path))
    out, err = again.communicate(timeout=60)
    assert out.startswith("locked"), out + err


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="the simulation of Windows' "
                    "mandatory locks reopens descriptors through /proc (Linux)")
def test_the_simulated_lock_is_mandatory_where_it_lies(tmp_path):
    """The simulation bites: a lock on the file's first byte would hide the process id."""
    (tmp_path / "f").write_bytes(b"1234\n")
    code = """
        fd = os.open(sys.argv[1], os.O_RDWR)
        os.lseek(fd, int(sys.argv[2]), os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        print("held", flush=True)
        sys.stdin.readline()
    """
    reader = """
        fd = os.open(sys.argv[1], os.O_RDONLY)
        try:
            print("read", os.read(fd, 32))
        except PermissionError:
            print("denied")
    """
    seen = {}
    for offset in (0, files.LOCK_OFFSET):
        holder = _windows_like(code, str(tmp_path / "f"), str(offset), stdin=subprocess.PIPE)
        try:
            assert holder.stdout.readline() == "held\n"
            out, _ = _windows_like(reader, str(tmp_path / "f")).communicate(timeout=60)
            seen[offset] = out.strip()
        finally:
            holder.stdin.close()
            holder.wait(timeout=30)
    assert seen == {0: "denied", files.LOCK_OFFSET: "read b'1234\\n'"}


def test_a_second_host_on_this_platform_names_the_first(tmp_path):
    fd = lock_state_dir(tmp_path)
    try:
        code = ("import sys; from pathlib import Path; "
                "from cartagena_net.host.journal import lock_state_dir; "
                "lock_state_dir(Path(sys.argv[1]))")
        done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 1
        assert f"another host (process {os.getpid()}) is using it" in done.stderr
    finally:
        os.close(fd)


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="the simulation of Windows' "
                    "mandatory locks reopens descriptors through /proc (Linux)")
def test_windows_lock_two_clients_share_one_tokens_file(tmp_path):
    """The seat tokens' lock waits for the other client (polling LK_NBLCK) on Windows too:
    two clients saving at once lose nothing."""
    import json

    from tests.client.test_tokens import WRITER

    procs = [_windows_like(WRITER + "\nprint(sorted(set(msvcrt.used)))\n",
                           str(tmp_path / "d"), me) for me in "ab"]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [e for _, e in outs]
    assert all(out.strip() == "[2]" for out, _ in outs), outs  # LK_NBLCK only
    data = json.loads((tmp_path / "d" / "tokens.json").read_text())
    newest = {}  # each host's newest seat (the file keeps a few a host)
    for v in data.values():
        host = v["token"].rsplit("-", 1)[0].removeprefix("tok-")
        if v["saved"] >= newest.get(host, {"saved": -1})["saved"]:
            newest[host] = v
    assert {h: v["token"] for h, v in newest.items()} == {
        f"{me}{i}": f"tok-{me}{i}-7" for me in "ab" for i in range(25)}
