"""Where a host journals when no ``--state-dir`` is given: a folder per host id.

The per-user state directory (:func:`cartagena_net.portable.dirs.user_state_dir`)
holds ``hosts/<host id>/``, one folder per host: its ``host-id`` (the same id, which
discovery announces and clients key their seat tokens by), its journals, archives
and ``lock``, and a ``slot`` file naming what kind of host it serves:
``host port 41672`` for `cartagena host` on that port (``host any port`` for port 0),
``play`` for `cartagena play`.

A host started again with no ``--state-dir`` takes the folder of its slot that no
running host holds, preferring one that holds an unfinished game, then the one used
last; if every folder of its slot is held (two hosts at once), it makes a new folder
with a new host id. So a host restarted after a crash finds its journals (and keeps
its host id, so its players' clients find their seats), while hosts running side by
side never share a folder. Nothing here deletes anything.
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path

from cartagena_net.host.journal import (
    ensure_state_dir,
    lock_state_dir,
    write_atomically,
)
from cartagena_net.portable.dirs import user_state_dir

SLOT_FILE = "slot"


def host_slot(port: int) -> str:
    """The slot of `cartagena host` listening on ``port`` (0: any free port)."""
    return f"host port {port}" if port else "host any port"


PLAY_SLOT = "play"


def hosts_dir() -> Path:
    """The folder that holds one folder per host id."""
    return user_state_dir() / "hosts"


def _read_slot(folder: Path) -> str | None:
    try:
        return (folder / SLOT_FILE).read_text("utf-8", "replace").strip()
    except OSError:
        return None


def _last_used(folder: Path) -> float:
    for name in ("lock", SLOT_FILE):
        try:
            return (folder / name).stat().st_mtime
        except OSError:
            continue
    return 0.0


def candidate_folders(slot: str, base: Path | None = None) -> list[Path]:
    """The folders of ``slot`` under ``base`` (default :func:`hosts_dir`), the one used
    last first."""
    base = hosts_dir() if base is None else base
    try:
        entries = [e for e in base.iterdir() if e.is_dir() and _read_slot(e) == slot]
    except FileNotFoundError:
        return []
    return sorted(entries, key=_last_used, reverse=True)


def open_default_state_dir(slot: str, prefer: Callable[[Path], bool] | None = None,
                           base: Path | None = None) -> tuple[Path, int]:
    """The folder of ``slot`` this host journals in, locked: (folder, the lock's fd).

    ``prefer(folder) -> bool`` picks, among the free folders of the slot, one to take
    first (one holding an unfinished game). OSError if the per-user directory cannot be
    made or used.
    """
    base = ensure_state_dir(hosts_dir() if base is None else base)
    folders = candidate_folders(slot, base)
    if prefer is not None:
        folders.sort(key=lambda f: not prefer(f))  # stable: the last used stays first
    for folder in folders:
        try:
            fd = lock_state_dir(ensure_state_dir(folder))
        except OSError:  # a running host holds it (or it is unusable): another one
            continue
        return folder, fd
    return new_folder(slot, base)


def new_folder(slot: str, base: Path) -> tuple[Path, int]:
    """A new folder for a new host id, with its ``host-id`` and ``slot``, locked."""
    while True:
        host_id = uuid.uuid4().hex
        folder = base / host_id
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:  # pragma: no cover - a uuid4 collision
            continue
        break
    os.chmod(folder, 0o700)
    fd = lock_state_dir(folder)
    write_atomically(folder / "host-id", host_id.encode())
    write_atomically(folder / SLOT_FILE, (slot + "\n").encode())
    return folder, fd
