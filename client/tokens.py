"""Seat tokens kept between runs, so a player can get back into a seat after a crash.

Stored in ``$XDG_STATE_HOME/cartagena-net/tokens.json`` (or
``~/.local/state/cartagena-net/``), directory 0700, file 0600, keyed by host id.
A running client resumes only the seat it holds itself (kept in memory); a seat saved
here by an earlier run is offered in the lobby and taken back only when the user asks,
so two clients of one user never fight over one seat.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

FILE_NAME = "tokens.json"
WINDOWS = os.name == "nt"
KEEP = 50


def state_dir() -> Path:
    """The user's state directory for cartagena-net."""
    base = os.environ.get("XDG_STATE_HOME")
    if not base and WINDOWS:
        base = os.environ.get("LOCALAPPDATA")  # Windows: the user's local app data
    if not base:
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "cartagena-net"


class TokenStore:
    """A small JSON file of ``host_id -> {token, address, table, seat, saved}``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else state_dir()
        self.path = self.directory / FILE_NAME

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, dict[str, Any]]) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    def save(self, host_id: str, token: str, address: str = "", table: Any = None,
             seat: Any = None) -> None:
        """Remember the token of our seat at ``host_id``."""
        if not host_id or not token:
            return
        data = self._load()
        data[host_id] = {"token": token, "address": address, "table": table, "seat": seat,
                         "saved": time.time()}
        if len(data) > KEEP:
            for key in sorted(data, key=lambda k: data[k].get("saved", 0))[: len(data) - KEEP]:
                del data[key]
        self._write(data)

    def entry(self, host_id: str) -> dict[str, Any] | None:
        """The saved ``{token, address, table, seat, saved}`` for a host id, if any."""
        data = self._load().get(host_id) if host_id else None
        return dict(data) if isinstance(data, dict) else None

    def lookup(self, host_id: str = "", address: str = "") -> str | None:
        """The stored token for a host id, else for the address it was last seen at."""
        data = self._load()
        if host_id and host_id in data:
            return str(data[host_id].get("token") or "") or None
        if address:
            best = [v for v in data.values() if v.get("address") == address]
            if best:
                best.sort(key=lambda v: v.get("saved", 0))
                return str(best[-1].get("token") or "") or None
        return None

    def forget(self, host_id: str = "", token: str = "") -> None:
        """Drop a token that the host no longer accepts."""
        data = self._load()
        keep = {k: v for k, v in data.items()
                if not (k == host_id or (token and v.get("token") == token))}
        if keep != data:
            self._write(keep)
