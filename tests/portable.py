"""What tests do differently on each platform: killing and stopping processes, and
whether files have POSIX permission bits.

- :data:`HARD_KILL`: the signal that kills a process at once, with no chance to clean up
  (``SIGKILL`` on POSIX; on Windows ``os.kill`` with any other signal number is
  ``TerminateProcess``, the same hard kill).
- :func:`spawn_options` and :func:`stop_politely`: the usual way to stop a program on each
  platform, which lets it clean up: ``SIGTERM`` on POSIX; Ctrl+Break on Windows (a
  console's Ctrl+C and Ctrl+Break reach only a process in its own process group there,
  so the process is started in one).
- :data:`POSIX_MODES`: whether the file system has the 0600/0700 permission bits (not on
  Windows, where a file is private by living in the user's own profile folder).
"""
from __future__ import annotations

import os
import signal
import subprocess
from typing import Any

WINDOWS = os.name == "nt"
HARD_KILL: int = getattr(signal, "SIGKILL", signal.SIGTERM)
POSIX_MODES = not WINDOWS
NO_POSIX_MODES = ("Windows has no POSIX permission bits (the user's profile folder's ACL "
                  "keeps the files private)")


def spawn_options() -> dict[str, Any]:
    """Popen keyword arguments that let :func:`stop_politely` reach the process."""
    if WINDOWS:
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}  # type: ignore[attr-defined]
    return {}


def stop_politely(proc: subprocess.Popen) -> None:
    """Ask a process to stop as its user would: SIGTERM, or Ctrl+Break on Windows."""
    if WINDOWS:
        proc.send_signal(signal.CTRL_BREAK_EVENT)  # type: ignore[attr-defined]
    else:
        proc.send_signal(signal.SIGTERM)


def kill_hard(pid: int) -> None:
    """Kill a process at once (as a crash would)."""
    os.kill(pid, HARD_KILL)


def is_root() -> bool:
    """Whether this process runs as root (never on Windows, which has no such user id)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def mode_of(path: str | os.PathLike[str]) -> int | None:
    """The permission bits of ``path``; None where there are none (Windows reports 0o666
    or 0o777 whatever protects the file). Tests assert ``mode_of(p) in (0o600, None)``:
    the mode where modes exist, and on Windows nothing the platform cannot show."""
    import stat

    return stat.S_IMODE(os.stat(path).st_mode) if POSIX_MODES else None


def private_state_root() -> str:
    """The root the per-user state folder lies under in this test (tests/conftest.py
    points each platform's variable at a temporary folder)."""
    import sys

    if WINDOWS:
        return os.environ["WIN_PD_OVERRIDE_LOCAL_APPDATA"]
    if sys.platform == "darwin" and "XDG_STATE_HOME" not in os.environ:
        return os.environ["HOME"]
    return os.environ["XDG_STATE_HOME"]
