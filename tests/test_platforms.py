"""What every platform needs from the code as a whole: files opened in binary mode, and a
suite that collects where the POSIX-only modules do not exist (as on Windows)."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("cartagena_net", "protocol", "client")


def _os_open_calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "open" and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("os", "_os")]


def _names(node: ast.AST) -> set[str]:
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            out.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            out.add(sub.attr)
    return out


def os_open_without_binary(folders: tuple[str, ...] = PRODUCT) -> list[str]:
    """``file:line`` of each ``os.open`` call whose flags do not name ``O_BINARY``."""
    bad = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for call in _os_open_calls(tree):
                flags = call.args[1] if len(call.args) > 1 else next(
                    (k.value for k in call.keywords if k.arg == "flags"), None)
                if flags is None or "O_BINARY" not in _names(flags):
                    bad.append(f"{path.relative_to(ROOT)}:{call.lineno}")
    return bad


def test_every_os_open_in_the_product_is_binary():
    """Windows opens a descriptor in text mode unless told O_BINARY, and a journal
    written so loses its checksums (tests/host/test_text_mode.py)."""
    assert os_open_without_binary() == []


def test_the_binary_check_finds_a_text_mode_open(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(textwrap.dedent("""
        import os
        a = os.open("x", os.O_RDONLY | O_BINARY)
        b = os.open("x", os.O_RDONLY)
        c = os.open("x", flags=os.O_WRONLY | files.O_BINARY)
    """))
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert os_open_without_binary(("pkg",)) == ["pkg/m.py:4"]


# -- the suite where the POSIX-only modules are missing ---------------------------------

# What Windows' Python lacks of what this project (or its tests) might import. A module
# imported from the project's own files fails as it would there; the standard library
# and the dependencies keep theirs (on Windows they take their own Windows paths).
POSIX_ONLY = ("pty", "tty", "termios", "resource", "fcntl", "grp", "pwd", "posix",
              "syslog", "crypt", "curses", "readline")

BLOCKER = textwrap.dedent('''
    """Installed by tests/test_platforms.py: the POSIX-only modules are missing for the
    project's own files, as on Windows."""
    import builtins
    import os
    import sys

    _ROOT = os.environ["CARTAGENA_NO_POSIX_ROOT"]
    _HIDDEN = frozenset(os.environ["CARTAGENA_NO_POSIX"].split(","))
    _real_import = builtins.__import__

    def _import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.split(".")[0] in _HIDDEN:
            where = (globals or {}).get("__file__") or ""
            if where.startswith(_ROOT) and "site-packages" not in where:
                raise ModuleNotFoundError(f"No module named {name!r} (hidden: as on "
                                          "Windows)", name=name)
        return _real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = _import

    # ... and what Windows' os and signal lack (for collecting only: nothing runs).
    import signal
    for _name in os.environ.get("CARTAGENA_NO_POSIX_ATTRS", "").split(","):
        _module, _, _attr = _name.partition(".")
        if _attr and hasattr(sys.modules[_module], _attr):
            delattr(sys.modules[_module], _attr)
''')


def _hidden_env(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT),
                                         *filter(None, [os.environ.get("PYTHONPATH")])])
    env["CARTAGENA_NO_POSIX_ROOT"] = str(ROOT)
    env["CARTAGENA_NO_POSIX"] = ",".join(POSIX_ONLY)
    return env


# What os and signal lack on Windows, taken away while the suite is collected.
POSIX_ATTRS = ("signal.SIGKILL", "signal.SIGHUP", "signal.SIGQUIT", "signal.SIGUSR1",
               "signal.SIGUSR2", "signal.SIGALRM", "signal.SIGPIPE", "signal.SIGSTOP",
               "signal.SIGCONT", "os.geteuid", "os.killpg", "os.setsid",
               "os.getpgid", "os.fork", "os.getloadavg")


def test_the_blocker_hides_the_modules_from_the_project_only(tmp_path):
    probe = tmp_path / "probe"
    probe.mkdir()
    env = _hidden_env(tmp_path)
    env["CARTAGENA_NO_POSIX_ROOT"] = str(probe)
    (probe / "p.py").write_text(textwrap.dedent("""
        import getpass, pathlib   # the standard library still imports pwd itself
        try:
            import pty
        except ImportError as exc:
            print("hidden:", exc)
        else:
            print("found pty")
    """))
    out = subprocess.run([sys.executable, str(probe / "p.py")], env=env, cwd=probe,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("hidden: No module named 'pty'"), out.stdout


def test_the_suite_collects_without_the_posix_only_modules(tmp_path):
    """Collecting every test (as the Windows CI job does first) meets no import error."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests"],
        env={**_hidden_env(tmp_path), "CARTAGENA_NO_POSIX_ATTRS": ",".join(POSIX_ATTRS)},
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        check=False)
    tail = (out.stdout + out.stderr)[-4000:]
    assert out.returncode == 0, tail
    assert "error" not in out.stdout.splitlines()[-1].lower(), tail
    assert " tests collected" in out.stdout or "tests collected" in out.stdout, tail
