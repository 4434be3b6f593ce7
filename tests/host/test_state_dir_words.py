"""`--state-dir` said as a person needs it: a folder the host cannot write is one sentence
with the way on (another folder, or --no-journal), never "[Errno 1] ..." with the path
twice; a folder the user already had is never changed to 0700 behind their back."""
from __future__ import annotations

import os
import subprocess

import pytest

from tests.portable import NO_POSIX_MODES, POSIX_MODES

from .test_resume import _host_command


def _host(*extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*_host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
         "--discovery", "off", "--web", "off", *extra],
        check=False, capture_output=True, text=True, timeout=60, input="")


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs sysfs (Linux)")
def test_a_folder_the_host_cannot_write_is_one_sentence_with_the_remedy() -> None:
    folder = "/sys/kernel/cartagena-state"  # sysfs: nobody, root included, may make it
    done = _host("--state-dir", folder)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, done.stderr
    assert "[Errno" not in lines[0] and lines[0].count(folder) == 1, lines[0]
    assert "--state-dir DIR" in lines[0] and "--no-journal" in lines[0]


@pytest.mark.skipif(not POSIX_MODES, reason=NO_POSIX_MODES)
def test_a_folder_the_user_had_is_not_changed_to_0700_but_refused_with_the_way_on(
        tmp_path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    os.chmod(mine, 0o755)
    (mine / "notes.txt").write_text("keep me\n")
    done = _host("--state-dir", str(mine))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert os.stat(mine).st_mode & 0o777 == 0o755  # untouched
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    text = done.stderr.strip()
    assert "0755" in text and f"chmod 700 {mine}" in text and "--no-journal" in text
