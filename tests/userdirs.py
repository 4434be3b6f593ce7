"""Per-user folders of its own for a test or a benchmark, never the real user's.

A host keeps its journals, records and host id in the per-user state folder
(``cartagena_net.portable.dirs.user_state_dir``), and clients their seat keys there:
Linux reads ``XDG_STATE_HOME``, macOS ``HOME`` (~/Library/Application Support), and
Windows its LOCALAPPDATA folder, which platformdirs lets
``WIN_PD_OVERRIDE_LOCAL_APPDATA`` redirect.
"""
from __future__ import annotations

import os

USER_VARS = ("HOME", "XDG_STATE_HOME", "WIN_PD_OVERRIDE_LOCAL_APPDATA")


def private_dirs(root: str | os.PathLike[str]) -> dict[str, str]:
    """The variables that point every per-user folder into ``root``."""
    home = os.path.join(root, "home")
    state = os.path.join(root, "state")
    os.makedirs(home, exist_ok=True)
    return {"HOME": home, "XDG_STATE_HOME": state,
            "WIN_PD_OVERRIDE_LOCAL_APPDATA": os.path.join(root, "appdata")}


def private_env(root: str | os.PathLike[str], **more: str) -> dict[str, str]:
    """This process's environment with every per-user folder in ``root`` (and ``more``),
    for a host or client started as a child process: its records, journals and keys stay
    out of the user's own (a benchmark's thousands of games out of their evening's)."""
    return {**os.environ, **private_dirs(root), **more}
