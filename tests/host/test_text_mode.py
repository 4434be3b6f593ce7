"""Journals, records and seat tokens where files open in text mode unless asked not to,
as on Windows: a descriptor opened without ``O_BINARY`` writes each ``\\n`` as ``\\r\\n``
and reads ``\\r\\n`` back as ``\\n``. Ours are opened binary, so they round-trip byte for
byte; the same journal opened without the flag is read back damaged (the test shows that
the simulation bites)."""
from __future__ import annotations

import os
import tempfile

import pytest

from cartagena_net.host.journal import (
    Journal,
    lock_state_dir,
    read_journal,
    write_journal,
)
from cartagena_net.portable import files
from cartagena_net.records import store
from cartagena_net.records.format import dumps

FAKE_O_BINARY = 1 << 29  # a bit no real flag of this platform uses here
REAL_O_BINARY = getattr(os, "O_BINARY", 0)  # on Windows: only the simulation translates


class TextMode:
    """os.open / os.write / os.read / os.close with Windows' text-mode translation."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, binary_flag: int) -> None:
        self.text: set[int] = set()
        self.translated = 0  # newlines written as \r\n
        real_open, real_write, real_read, real_close = os.open, os.write, os.read, os.close

        def fake_open(path, flags, *args, **kw):
            fd = real_open(path, (flags & ~FAKE_O_BINARY) | REAL_O_BINARY, *args, **kw)
            if os.path.isfile(path) or not os.path.exists(path):
                if not flags & FAKE_O_BINARY:
                    self.text.add(fd)
                else:
                    self.text.discard(fd)
            return fd

        def fake_write(fd, data):
            if fd in self.text:
                raw = bytes(data)
                self.translated += raw.count(b"\n")
                real_write(fd, raw.replace(b"\n", b"\r\n"))
                return len(raw)
            return real_write(fd, data)

        def fake_read(fd, n):
            data = real_read(fd, n)
            return data.replace(b"\r\n", b"\n") if fd in self.text else data

        def fake_close(fd):
            self.text.discard(fd)
            return real_close(fd)

        monkeypatch.setattr(os, "open", fake_open)
        monkeypatch.setattr(os, "write", fake_write)
        monkeypatch.setattr(os, "read", fake_read)
        monkeypatch.setattr(os, "close", fake_close)
        monkeypatch.setattr(os, "O_BINARY", FAKE_O_BINARY, raising=False)
        monkeypatch.setattr(files, "O_BINARY", binary_flag)
        # tempfile.mkstemp opens with O_BINARY where the platform has it, as on Windows.
        monkeypatch.setattr(tempfile, "_bin_openflags",
                            tempfile._bin_openflags | FAKE_O_BINARY)


@pytest.fixture
def text_mode(monkeypatch):
    return TextMode(monkeypatch, FAKE_O_BINARY)


@pytest.fixture
def no_binary_flag(monkeypatch):
    """As the code was before every os.open named O_BINARY."""
    return TextMode(monkeypatch, 0)


RECORDS = [{"t": "table", "id": 1, "name": "a\nb"},
           *({"t": "act", "seq": n, "note": "x" * n} for n in range(1, 30))]


def _journal(tmp_path):
    path = tmp_path / "table-1.journal"
    journal = Journal(path)
    journal.append(RECORDS[0])
    journal.append(*RECORDS[1:])
    journal.close()
    return path


def test_the_simulation_translates_a_file_opened_without_the_flag(text_mode, tmp_path):
    fd = os.open(tmp_path / "t", os.O_WRONLY | os.O_CREAT)
    os.write(fd, b"a\nb\n")
    os.close(fd)
    assert (tmp_path / "t").read_bytes() == b"a\r\nb\r\n"
    fd = os.open(tmp_path / "u", os.O_WRONLY | os.O_CREAT | os.O_BINARY)
    os.write(fd, b"a\nb\n")
    os.close(fd)
    assert (tmp_path / "u").read_bytes() == b"a\nb\n"


def test_journal_round_trips_in_binary_mode(text_mode, tmp_path):
    path = _journal(tmp_path)
    assert b"\r" not in path.read_bytes()
    read = read_journal(path)
    assert read.bad is None and read.records == RECORDS
    write_journal(path, RECORDS[:3])  # the atomic rewrite
    assert read_journal(path).records == RECORDS[:3]
    assert text_mode.translated == 0


def test_a_journal_opened_without_the_flag_would_be_damaged(no_binary_flag, tmp_path):
    path = _journal(tmp_path)
    assert no_binary_flag.translated > 0
    read = read_journal(path)
    assert read.records == [] and read.bad is not None
    assert "checksum" in read.bad[1]


def test_record_and_review_files_are_byte_for_byte(text_mode, tmp_path):
    record = {"id": "20261126T140000-abc", "started": "2026-11-26T14:00:00",
              "moves": [{"a": 1}, {"a": 2}], "note": "two\nlines"}
    path = store.write(tmp_path, record)
    assert path.read_bytes() == dumps(record)
    assert text_mode.translated == 0


def test_seat_tokens_round_trip(text_mode, tmp_path):
    from client.tokens import TokenStore

    saved = TokenStore(tmp_path / "state")
    saved.save("host-a", "tok\na", "127.0.0.1:41672", 1, 0)
    again = TokenStore(tmp_path / "state")
    assert again.entry("host-a")["token"] == "tok\na"
    assert b"\r" not in (tmp_path / "state" / "tokens.json").read_bytes()
    assert text_mode.translated == 0


def test_state_dir_lock_names_its_holder(text_mode, tmp_path):
    fd = lock_state_dir(tmp_path)
    try:
        with pytest.raises(OSError, match=rf"another host \(process {os.getpid()}\)"):
            lock_state_dir(tmp_path)
    finally:
        os.close(fd)
    assert text_mode.translated == 0
