"""The player's settings kept between runs: ``settings.json`` in the user's state folder
(:func:`cartagena_net.portable.dirs.user_state_dir`), one JSON map of setting to value.

A file that cannot be read is taken as no settings (and left as it is); a disk that
refuses the write loses only the remembering, never the run.
"""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from cartagena_net.portable.dirs import user_state_dir

FILE_NAME = "settings.json"
SCREEN_READER = "screen_reader"  # the line-by-line client (`--screen-reader`)


def settings_path(directory: Path | None = None) -> Path:
    return (directory if directory is not None else user_state_dir()) / FILE_NAME


def load(directory: Path | None = None) -> dict[str, Any]:
    """The settings saved (an empty map when none, or the file cannot be read)."""
    try:
        data = json.loads(settings_path(directory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save(key: str, value: Any, directory: Path | None = None) -> bool:
    """Remember ``key`` = ``value`` (the other settings kept); False if the disk refused."""
    path = settings_path(directory)
    data = load(directory)
    data[key] = value
    tmp = path.with_name(f"{FILE_NAME}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False
    return True
