"""Per-user directories, each platform's conventional place (from ``platformdirs``).

Linux and other Unixes: ``$XDG_STATE_HOME/cartagena-net`` (``~/.local/state/...``);
macOS: ``~/Library/Application Support/cartagena-net``; Windows:
``%LOCALAPPDATA%\\cartagena-net``.
"""
from __future__ import annotations

from pathlib import Path

import platformdirs

APP = "cartagena-net"


def user_state_dir() -> Path:
    """The directory where this user's games keep their state (not created here)."""
    return Path(platformdirs.user_state_dir(APP, appauthor=False))
