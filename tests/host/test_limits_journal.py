"""Unit tests: token bucket, connection caps, tokens, journals (files and modes)."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock
from twisted.logger import formatEvent

from cartagena_net.host import journal as journal_module
from cartagena_net.host.journal import (
    Journal,
    ensure_state_dir,
    list_journals,
    read_journal,
)
from cartagena_net.host.limits import ConnectionCaps, TokenBucket
from cartagena_net.host.tokens import new_token, same_secret
from tests.portable import NO_POSIX_MODES, POSIX_MODES, mode_of


def test_token_bucket_allows_burst_then_refills():
    clock = Clock()
    bucket = TokenBucket(rate=10, burst=5, clock=clock.seconds)
    assert all(bucket.take() for _ in range(5))
    assert not bucket.take()
    clock.advance(0.25)  # 2.5 tokens back
    assert bucket.take() and bucket.take()
    assert not bucket.take()
    clock.advance(100)
    assert sum(bucket.take() for _ in range(20)) == 5


def test_connection_caps_per_address_and_total():
    caps = ConnectionCaps(max_total=3, max_per_address=2)
    assert caps.admit("10.0.0.1") is None
    assert caps.admit("10.0.0.1") is None
    assert "10.0.0.1" in caps.admit("10.0.0.1")
    assert caps.admit("10.0.0.2") is None
    assert "full" in caps.admit("10.0.0.3")
    caps.release("10.0.0.1")
    assert caps.admit("10.0.0.3") is None
    assert caps.total == 3


def test_tokens_are_long_random_and_compared_exactly():
    a, b = new_token(), new_token()
    assert a != b and len(a) >= 32
    assert same_secret(a, a) and not same_secret(b, a) and not same_secret(None, a)
    assert not same_secret(a[:-1], a)
    assert same_secret("anything", None)


def test_journal_modes_fsync_and_torn_tail(tmp_path):
    state = ensure_state_dir(tmp_path / "state")
    assert mode_of(state) in (0o700, None)
    path = state / "table-3.journal"
    j = Journal(path)
    j.append({"t": "table", "id": 3}, {"t": "act", "seq": 1, "action": "end"})
    j.close()
    assert mode_of(path) in (0o600, None)
    lines = path.read_bytes().splitlines()
    assert all(zlib.crc32(line[9:]) == int(line[:8], 16) for line in lines)
    with open(path, "ab") as f:
        f.write(b'1234abcd {"t":"act","seq":2,"act')  # a crash in the middle of a write
    read = read_journal(path)
    assert [r["t"] for r in read.records] == ["table", "act"]
    assert read.torn and read.bad is None and read.good < os.path.getsize(path)
    assert list_journals(state) == [(3, path)]
    with pytest.raises(FileExistsError):
        Journal(path)  # a new table never overwrites a journal
    assert len(read_journal(path).records) == 2


def test_journal_rewrite_replaces_atomically_and_keeps_appending(tmp_path):
    state = ensure_state_dir(tmp_path / "state")
    path = state / "table-1.journal"
    j = Journal(path)
    j.append({"t": "table"}, {"t": "game", "seq": 1}, {"t": "act", "seq": 2})
    j.rewrite({"t": "table"}, {"t": "game", "seq": 3})
    j.append({"t": "act", "seq": 4})
    j.close()
    records = read_journal(path).records
    assert [(r["t"], r.get("seq")) for r in records] == [("table", None), ("game", 3), ("act", 4)]
    assert mode_of(path) in (0o600, None)
    assert sorted(p.name for p in state.iterdir()) == ["table-1.journal"]


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_an_append_the_file_size_limit_cuts_short_leaves_no_part_of_it(tmp_path):
    """A real short write: the process may not grow the file past a limit (RLIMIT_FSIZE),
    so the second append writes part of its line and fails; that part is taken back, and
    once the limit is lifted the next append follows the first on a whole line."""
    path = ensure_state_dir(tmp_path / "state") / "table-1.journal"
    script = textwrap.dedent(f"""
        import errno, os, resource, signal
        from cartagena_net.host.journal import Journal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, not a signal
        j = Journal({str(path)!r})
        j.append({{"t": "act", "seq": 1}})
        good = os.path.getsize({str(path)!r})
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (good + 20, hard))
        try:
            j.append({{"t": "act", "seq": 2, "action": "x" * 200}})
        except OSError as exc:
            assert exc.errno == errno.EFBIG, exc
        else:
            raise AssertionError("the append past the limit succeeded")
        assert os.path.getsize({str(path)!r}) == good
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        j.append({{"t": "act", "seq": 3}})
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    read = read_journal(path)
    assert [r["seq"] for r in read.records] == [1, 3]
    assert not read.torn and read.bad is None and read.good == os.path.getsize(path)


def test_what_a_failed_append_could_not_take_back_is_cut_at_the_next(tmp_path, monkeypatch):
    """A disk that fails a write half way and then refuses the truncation too: the half
    line stays on disk until the next append, which cuts it off before writing."""
    from cartagena_net.host import journal

    path = ensure_state_dir(tmp_path / "state") / "table-1.journal"
    j = Journal(path)
    j.append({"t": "act", "seq": 1})
    good = os.path.getsize(path)
    real_write, real_truncate = os.write, os.ftruncate

    def half_then_full(fd, data):
        real_write(fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")

    def refused(fd, size):
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as m:
        m.setattr(journal.os, "write", half_then_full)
        m.setattr(journal.os, "ftruncate", refused)
        with pytest.raises(OSError):
            j.append({"t": "act", "seq": 2, "action": "advance 3 bottle"})
    assert os.path.getsize(path) > good  # the half line is still there
    assert os.write is real_write and os.ftruncate is real_truncate
    j.append({"t": "act", "seq": 3})
    read = read_journal(path)
    assert [r["seq"] for r in read.records] == [1, 3]
    assert not read.torn and read.bad is None
    j.append({"t": "act", "seq": 4})  # and on from there, each append whole
    assert [r["seq"] for r in read_journal(path).records] == [1, 3, 4]


def test_a_damaged_record_in_the_middle_is_found_by_its_checksum(tmp_path):
    path = ensure_state_dir(tmp_path / "state") / "table-1.journal"
    j = Journal(path)
    j.append({"t": "table"}, {"t": "game", "seq": 1}, {"t": "act", "seq": 2, "action": "end"},
             {"t": "act", "seq": 3, "action": "end"})
    j.close()
    data = bytearray(path.read_bytes())
    third = data.index(b'"seq":2')
    data[third + 6] ^= 0x01  # seq 2 -> 3: still valid JSON, only the checksum tells
    path.write_bytes(bytes(data))
    read = read_journal(path)
    assert [r["t"] for r in read.records] == ["table", "game"]
    assert read.bad == (3, "checksum mismatch (the record was damaged)")
    assert read.lines == 4 and not read.torn


@pytest.mark.skipif(not POSIX_MODES, reason=NO_POSIX_MODES)
def test_an_existing_state_dir_is_tightened_and_the_change_logged(tmp_path):
    from twisted.logger import globalLogPublisher

    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    os.chmod(loose, 0o755)
    seen = []
    globalLogPublisher.addObserver(seen.append)
    try:
        ensure_state_dir(loose)
    finally:
        globalLogPublisher.removeObserver(seen.append)
    assert mode_of(loose) in (0o700, None)
    texts = [formatEvent(e) for e in seen]
    assert any(str(loose) in t and "0755" in t and "0700" in t for t in texts), texts


def test_where_there_are_no_posix_modes_the_state_dir_is_left_and_nothing_warned(
        tmp_path, monkeypatch):
    """As on Windows (every folder reported 0o777): no "was mode 0777" at each start; what
    protects the folder there is said once, at debug level."""
    from twisted.logger import LogLevel, globalLogPublisher

    from cartagena_net.portable import files

    monkeypatch.setattr(files, "POSIX_MODES", False)
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o777)
    os.chmod(loose, 0o777)
    seen = []
    globalLogPublisher.addObserver(seen.append)
    try:
        assert ensure_state_dir(loose) == loose
        ensure_state_dir(tmp_path / "new" / "state")
    finally:
        globalLogPublisher.removeObserver(seen.append)
    assert (tmp_path / "new" / "state").is_dir()
    assert [e for e in seen if e.get("log_level") != LogLevel.debug] == []
    texts = [formatEvent(e) for e in seen]
    assert any("profile folder" in t and "ACL" in t for t in texts), texts
    assert not any("0777" in t or "set to 0700" in t for t in texts)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=8), st.dictionaries(st.text(max_size=8), _JSON_VALUES, max_size=8))
def test_a_journal_line_is_the_records_standard_compact_json(kind, fields):
    """The journal encodes a line with the standard library's C encoder made once: the
    same text as ``json.dumps`` with compact separators and no ASCII escaping, keys in
    their order, and its checksum over that text; it reads back as the record."""
    record = {**fields, "t": kind}
    line = journal_module.encode_record(record)
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    assert line == b"%08x %s\n" % (zlib.crc32(text.encode()), text.encode())
    assert journal_module.parse_line(line[:-1]) == json.loads(text)


def test_every_file_is_written_whole_when_the_kernel_takes_a_few_bytes_at_a_time(
        tmp_path, monkeypatch):
    """``os.write`` may take part of a buffer (a signal, a disk filling up): a journal's
    append and rewrite, a record's file and a private replace each write the rest after
    it, every byte once and in order."""
    from cartagena_net.portable.files import replace_private
    from cartagena_net.records import store

    real_write = os.write
    calls = []

    def few(fd, data):
        calls.append(len(data))
        return real_write(fd, bytes(data[:5]))

    path = ensure_state_dir(tmp_path / "state") / "table-1.journal"
    line = {"t": "act", "seq": 2, "action": "advance 3 bottle", "who": "Åsa"}
    with monkeypatch.context() as m:
        m.setattr(os, "write", few)
        j = Journal(path)
        j.append({"t": "table", "id": 1}, {"t": "game", "seq": 1})
        j.append(line)
        j.rewrite({"t": "table", "id": 1}, {"t": "seats", "seats": []})
        j.append(line)
        replace_private(tmp_path / "private", b"0123456789" * 7)
        kept = store._write_whole(tmp_path / "records", "r1", b'{"id":"r1","x":"' +
                                  b"y" * 40 + b'"}')
    assert len(calls) > 20 and max(calls) > 5  # writes were cut short, and went on
    read = read_journal(path)
    assert [r["t"] for r in read.records] == ["table", "seats", "act"]
    assert read.records[-1] == line and not read.torn and read.bad is None
    assert (tmp_path / "private").read_bytes() == b"0123456789" * 7
    assert kept.read_bytes() == b'{"id":"r1","x":"' + b"y" * 40 + b'"}'
