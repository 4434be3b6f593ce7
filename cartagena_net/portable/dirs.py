"""Per-user directories, each platform's conventional place (from ``platformdirs``).

Linux and other Unixes: ``$XDG_STATE_HOME/cartagena-net`` (``~/.local/state/...``);
macOS: ``~/Library/Application Support/cartagena-net``; Windows:
``%LOCALAPPDATA%\\cartagena-net``.
"""
from __future__ import annotations

from pathlib import Path

import platformdirs

APP = "cartagena-net"


def user_state_dir(system: str | None = None) -> Path:
    """The directory where this user's games keep their state (not created here).

    ``system`` ("linux", "darwin", "win32") asks for that platform's convention instead
    of this machine's, so that tests can check each one anywhere."""
    if system is None:
        return Path(platformdirs.user_state_dir(APP, appauthor=False))
    if system == "win32":
        from platformdirs.windows import Windows as Dirs
    elif system == "darwin":
        from platformdirs.macos import MacOS as Dirs
    else:
        from platformdirs.unix import Unix as Dirs
    return Path(Dirs(APP, appauthor=False).user_state_dir)
