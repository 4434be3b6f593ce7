"""Seat tokens on disk: private files, lookups by host id or address."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from client.tokens import TokenStore, state_dir
from tests.portable import mode_of


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG directories are "
                    "this platform's convention only on Linux and other Unixes (each "
                    "platform's place: test_state_dir_is_each_platforms_own_place)")
def test_state_dir_follows_xdg(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert state_dir() == tmp_path / "cartagena-net"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir() == tmp_path / "home" / ".local" / "state" / "cartagena-net"


def test_save_lookup_forget(tmp_path) -> None:
    store = TokenStore(tmp_path / "d")
    assert store.lookup("h1") is None
    store.save("h1", "tok1", "10.0.0.2:41672", 1, 0)
    store.save("h2", "tok2", "10.0.0.3:41672", 2, 1)
    assert mode_of(store.path) in (0o600, None)
    assert mode_of(store.directory) in (0o700, None)
    assert store.lookup("h1") == "tok1"
    assert store.lookup("", "10.0.0.3:41672") == "tok2"
    assert store.lookup("unknown", "10.9.9.9:1") is None
    store.save("h1", "tok3", "10.0.0.2:41672")
    assert TokenStore(tmp_path / "d").lookup("h1") == "tok3"  # the newest
    # each seat held at a host keeps its own entry (two windows of one user)
    assert [e["token"] for e in TokenStore(tmp_path / "d").entries("h1")] == ["tok3", "tok1"]
    store.save("h1", "tok1", "10.0.0.2:41672", 1, 2)  # a seat renumbered: the same entry
    assert [(e["token"], e["seat"]) for e in store.entries("h1")] == [("tok1", 2), ("tok3", None)]
    store.forget("h1", "tok3")
    assert store.lookup("h1") == "tok1" and store.lookup("h2") == "tok2"
    store.forget("h1")
    assert store.lookup("h1") is None and store.lookup("h2") == "tok2"
    for n in range(10):  # the newest few seats of a host are kept
        store.save("h3", f"many{n}")
    assert [e["token"] for e in store.entries("h3")] == [f"many{n}" for n in (9, 8, 7, 6)]


def test_an_older_file_keyed_by_the_host_alone_reads_the_same(tmp_path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text(json.dumps({"h1": {"token": "old", "address": "a", "table": 1,
                                             "seat": 0, "saved": 1.0}}))
    assert store.lookup("h1") == "old" and store.entry("h1")["seat"] == 0
    store.save("h1", "old", "a", 1, 1)  # its seat renumbered: one entry still
    assert [(e["token"], e["seat"]) for e in store.entries("h1")] == [("old", 1)]
    store.save("h1", "new", "a", 2, 0)
    assert [e["token"] for e in store.entries("h1")] == ["new", "old"]


def test_a_damaged_file_loses_nothing_else(tmp_path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text("{not json")
    assert store.lookup("h1") is None
    store.save("h1", "t")
    assert store.lookup("h1") == "t"


def test_a_damaged_file_is_kept_aside_and_told_once(tmp_path) -> None:
    for damaged in ("{not json", "[1, 2]", '{"h0": "not an entry"}'):
        directory = tmp_path / str(len(damaged))
        store = TokenStore(directory)
        directory.mkdir()
        store.path.write_text(damaged)
        assert store.entry("h0") is None
        kept = list(directory.glob("tokens.json.bad-*"))
        assert len(kept) == 1 and kept[0].read_text() == damaged  # the damaged bytes, whole
        notice = store.take_notice()
        assert notice and "damaged" in notice and str(kept[0]) in notice
        assert store.take_notice() is None
        store.save("h1", "t")
        assert store.lookup("h1") == "t" and store.take_notice() is None
        assert list(directory.glob("tokens.json.bad-*")) == kept
        assert json.loads(store.path.read_text())["h1/t"]["token"] == "t"


def test_an_unreadable_file_is_never_overwritten(tmp_path) -> None:
    store = TokenStore(tmp_path)
    store.path.mkdir()  # not a file: reading it fails
    store.save("h1", "t")
    store.forget("h1")
    assert store.path.is_dir() and store.lookup("h1") is None


WRITER = """
import sys
from pathlib import Path
from client.tokens import TokenStore
store = TokenStore(Path(sys.argv[1]))
me = sys.argv[2]
for round in range(8):
    for i in range(25):
        store.save(f"{me}{i}", f"tok-{me}{i}-{round}", "127.0.0.1:1", 1, 0)
        assert store.lookup(f"{me}{i}") == f"tok-{me}{i}-{round}", "lost my own save"
        assert store.take_notice() is None, "a whole file looked damaged"
"""


def test_two_clients_sharing_one_home_never_damage_the_file(tmp_path) -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path / "d"), me],
                              env=env, stderr=subprocess.PIPE, text=True) for me in "ab"]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    data = json.loads((tmp_path / "d" / "tokens.json").read_text())
    store = TokenStore(tmp_path / "d")
    assert {f"{me}{i}": store.lookup(f"{me}{i}") for me in "ab" for i in range(25)} == {
        f"{me}{i}": f"tok-{me}{i}-7" for me in "ab" for i in range(25)}
    assert all(len(store.entries(f"{me}{i}")) == 4 for me in "ab" for i in range(25))
    assert len(data) == 200
    assert not list((tmp_path / "d").glob("tokens.json.bad-*"))
    assert not list((tmp_path / "d").glob("*.tmp"))
    assert mode_of(tmp_path / "d" / "tokens.json") in (0o600, None)


def test_state_dir_is_each_platforms_own_place(monkeypatch, tmp_path) -> None:
    from cartagena_net.portable.dirs import user_state_dir

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.delenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", raising=False)  # (tests/conftest.py)
    assert state_dir() == user_state_dir()  # the tokens live where the journals do
    assert user_state_dir("linux") == tmp_path / "xdg" / "cartagena-net"
    import platformdirs.windows

    # Off Windows the shell folder cannot be asked for: read it from the environment, as
    # platformdirs does on a Windows without ctypes.
    monkeypatch.setattr(platformdirs.windows, "_RESOLVE_WIN_FOLDER",
                        platformdirs.windows.get_win_folder_from_env_vars)
    assert user_state_dir("win32") == tmp_path / "Local" / "cartagena-net"
    monkeypatch.delenv("XDG_STATE_HOME")  # (platformdirs honours it on macOS too)
    assert user_state_dir("darwin") == (
        tmp_path / "home" / "Library" / "Application Support" / "cartagena-net")
    assert user_state_dir("linux") == tmp_path / "home" / ".local" / "state" / "cartagena-net"


def test_a_full_or_read_only_disk_keeps_the_seat_key_in_memory_until_it_takes_writes():
    """The tokens file on a real tmpfs: filled up, then remounted read-only. A seat's key
    the disk refuses is kept (lookups find it), said once, and written by a retry once
    the disk takes writes; the keys saved before are never lost or damaged."""
    from tests.disks import fill, read_only, tmpfs

    with tmpfs("256k") as where:
        store = TokenStore(where / "state")
        store.save("h1", "tok1", "10.0.0.2:41672", 1, 0)
        assert store.take_notice() is None
        filler = fill(where)
        store.save("h2", "tok2", "10.0.0.3:41672", 2, 1)
        notice = store.take_notice()
        assert notice and "cannot save this seat's key" in notice and "space" in notice
        assert store.lookup("h2") == "tok2" and store.entry("h2")["seat"] == 1
        assert TokenStore(where / "state").lookup("h1") == "tok1"  # the file is whole
        assert TokenStore(where / "state").lookup("h2") is None
        store.save("h3", "tok3")
        assert store.take_notice() is None  # said once while the disk refuses
        assert not store.retry()
        filler.unlink()
        read_only(where)
        try:
            assert not store.retry() and store.lookup("h3") == "tok3"
        finally:
            read_only(where, on=False)
        assert store.retry()
        assert store.take_notice() == "this seat's key is saved now"
        again = TokenStore(where / "state")
        assert [again.lookup(h) for h in ("h1", "h2", "h3")] == ["tok1", "tok2", "tok3"]
        assert not list((where / "state").glob("*.tmp")) and not store.unsaved


def test_the_client_retries_an_unsaved_key_and_shows_the_hosts_trouble(tmp_path) -> None:
    """The client's watch (every WATCH seconds): an unsaved seat key is written once the
    store takes it, and the host's own client shows what the host says is wrong."""
    from client.app import ClientApp
    from client.model import ClientModel

    class Later:
        def __init__(self) -> None:
            self.calls: list = []

        def callLater(self, delay, fn, *args):
            self.calls.append((delay, fn))
            return self

        def active(self) -> bool:
            return True

        def cancel(self) -> None:
            pass

    reactor = Later()
    trouble = ["cannot save the game of table 1 (the disk is full)"]
    store = TokenStore(tmp_path / "state")
    store.unsaved["h9"] = {"token": "tok9", "address": "", "table": 1, "seat": 0,
                           "saved": 0}
    app = ClientApp(reactor, ClientModel(name="ann"), store,
                    host_trouble=lambda: trouble[0])
    app.refresh = lambda: None
    app._watch()
    assert app.model.trouble.startswith("cannot save the game of table 1")
    from client.render import bottom_lines

    shown = ["".join(text for _, text in line) for line in bottom_lines(app.model, 100)]
    assert any(line.startswith(" host  cannot save the game of table 1") for line in shown)
    assert TokenStore(tmp_path / "state").lookup("h9") == "tok9" and not store.unsaved
    trouble[0] = None
    app._watch()
    assert app.model.trouble == "" and "takes writes again" in app.model.status
    assert reactor.calls and reactor.calls[-1][1] == app._watch  # it keeps watching
