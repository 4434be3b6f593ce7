"""Real small disks for tests: a tmpfs mounted in the test and removed after it, filled
up, or remounted read-only and back. Needs root and mount(8): the test skips, saying
why, where they are missing (never in CI here, which runs as root)."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def tmpfs(size: str = "512k") -> Iterator[Path]:
    """A fresh tmpfs of ``size``, unmounted and removed afterwards."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0) or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    where = Path(tempfile.mkdtemp(prefix="cartagena-tmpfs-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                   check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def fill(where: Path) -> Path:
    """Write until the file system is full; the filler file (unlink it to free room)."""
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    return filler


def read_only(where: Path, on: bool = True) -> None:
    """Remount the tmpfs at ``where`` read-only (``on``) or read-write again."""
    mode = "ro" if on else "rw"
    subprocess.run(["mount", "-o", f"remount,{mode}", str(where)], check=True)
