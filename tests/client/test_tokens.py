"""Seat tokens on disk: private files, lookups by host id or address."""
from __future__ import annotations

import os
import stat

from client.tokens import TokenStore, state_dir


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
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(store.directory).st_mode) == 0o700
    assert store.lookup("h1") == "tok1"
    assert store.lookup("", "10.0.0.3:41672") == "tok2"
    assert store.lookup("unknown", "10.9.9.9:1") is None
    store.save("h1", "tok3", "10.0.0.2:41672")
    assert TokenStore(tmp_path / "d").lookup("h1") == "tok3"
    store.forget("h1", "tok3")
    assert store.lookup("h1") is None and store.lookup("h2") == "tok2"


def test_a_damaged_file_loses_nothing_else(tmp_path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text("{not json")
    assert store.lookup("h1") is None
    store.save("h1", "t")
    assert store.lookup("h1") == "t"


def test_state_dir_on_windows_is_local_app_data(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setattr("client.tokens.WINDOWS", True)
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert state_dir() == tmp_path / "Local" / "cartagena-net"
