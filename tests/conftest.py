"""Every test runs with its own per-user directories, never the real user's.

Hosts journal by default into the per-user state directory
(``cartagena_net.portable.dirs.user_state_dir``) and clients keep seat tokens there, so
``XDG_STATE_HOME`` and ``HOME`` point at fresh temporary folders: for the whole session
(so session and module fixtures are covered too), and again for each test, so that
tests (and the hosts they start in subprocesses, which inherit the environment) never
meet each other's folders.
"""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


def _private_dirs(root: os.PathLike[str]) -> dict[str, str]:
    home = os.path.join(root, "home")
    state = os.path.join(root, "state")
    os.makedirs(home, exist_ok=True)
    return {"HOME": home, "XDG_STATE_HOME": state}


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in ("HOME", "XDG_STATE_HOME")}
    os.environ.update(_private_dirs(tmp_path_factory.mktemp("user")))
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in _private_dirs(tmp_path_factory.mktemp("user")).items():
        monkeypatch.setenv(key, value)
