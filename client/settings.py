"""The player's own settings kept between runs: ``settings.json`` in the user's state
folder (:func:`cartagena_net.portable.dirs.user_state_dir`, next to the saved seats of
:mod:`client.tokens`; the folder 0700, the file 0600), one JSON map of setting to value:
the name they gave (``n`` in the lobby, or ``--name``), used by every later `join`,
`spectate`, `play` and the host's own client, and whether they play line by line
(``--screen-reader``).

Written atomically (a private temp file renamed over the old one). A file that cannot be
read is treated as empty and is replaced by the next save; a disk that refuses the file
loses only the remembering, never the run: :func:`save_name` says why in one sentence,
and the name is used for this run all the same.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cartagena_net.i18n import _
from cartagena_net.portable.dirs import user_state_dir
from cartagena_net.portable.files import replace_private

FILE_NAME = "settings.json"
NAME_MAX = 32
SCREEN_READER = "screen_reader"  # the line-by-line client (`--screen-reader`)


def settings_path(directory: Path | None = None) -> Path:
    return (directory if directory is not None else user_state_dir()) / FILE_NAME


def load(directory: Path | None = None) -> dict[str, Any]:
    """The saved settings (empty when there are none or they cannot be read)."""
    try:
        data = json.loads(settings_path(directory).read_bytes().decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(data: dict[str, Any], path: Path) -> None:
    """Replace the settings file with ``data`` at once (raises OSError)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    replace_private(path, json.dumps(data, ensure_ascii=False, indent=1,
                                     sort_keys=True).encode("utf-8"))


def save(key: str, value: Any, directory: Path | None = None) -> bool:
    """Remember ``key`` = ``value`` (the other settings kept); False if the disk refused."""
    data = load(directory)
    if data.get(key) == value and key in data:
        return True
    data[key] = value
    try:
        _write(data, settings_path(directory))
    except OSError:
        return False
    return True


def saved_name(directory: Path | None = None) -> str | None:
    """The name the player gave last (None if none was saved)."""
    name = load(directory).get("name")
    if not isinstance(name, str):
        return None
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_MAX]
    return name or None


def save_name(name: str, directory: Path | None = None) -> str | None:
    """Keep ``name`` for the next runs; None when saved, else why not (one sentence)."""
    path = settings_path(directory)
    data = load(directory)
    if data.get("name") == name:
        return None
    data["name"] = name
    try:
        _write(data, path)
    except OSError as exc:
        return _("your name is used now but cannot be kept for the next time ({file}: "
                 "{error})").format(file=path, error=exc.strerror or exc)
    return None
