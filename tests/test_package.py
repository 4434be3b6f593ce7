"""The package as users install it: a wheel built from this tree installs into a fresh
environment and runs, with the web view's page files inside."""
from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fresh_env(env_dir: Path) -> tuple[Path, Path]:
    """A fresh virtual environment whose dependencies come from this interpreter's own
    site-packages (so that the test needs no network), be this interpreter the system's
    or a virtual environment's (there ``system_site_packages`` would give the base
    interpreter's, where the dependencies are not). Only the folders are added, not
    their ``.pth`` files: the editable install of this tree stays out. (bin, python)"""
    import site
    import sysconfig

    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(env_dir)
    bindir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    python = bindir / ("python.exe" if sys.platform == "win32" else "python")
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    ours = [*site.getsitepackages(), sysconfig.get_paths()["purelib"],
            sysconfig.get_paths()["platlib"]]
    if site.ENABLE_USER_SITE:
        ours.append(site.getusersitepackages())
    ours += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    kept = list(dict.fromkeys(p for p in ours if Path(p).is_dir()))
    (Path(purelib) / "_deps_of_the_test_interpreter.pth").write_text(
        "".join(f"{p}\n" for p in kept), encoding="utf-8")
    return bindir, python


# The installed copy runs without this tree on its path (PYTHONPATH may name it).
CLEAN = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_the_wheel_installs_and_runs_in_a_fresh_environment(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("cartagena_net-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for part in ("cartagena_net/cli/__init__.py", "cartagena_net/bots/worker.py",
                 "cartagena_net/portable/dirs.py", "cartagena_net/web/static/table.html",
                 "cartagena_net/web/static/board.js", "cartagena_net/web/static/play.js",
                 "cartagena_net/web/static/game.html", "protocol/framing.py", "client/app.py",
                 "client/qr.py", "cartagena_net/i18n/locale/sv/LC_MESSAGES/cartagena.po"):
        assert part in names, part
    assert not any(n.startswith("tests/") for n in names)
    # A fresh environment; the dependencies come from this interpreter's site-packages,
    # so that the test needs no network.
    env_dir = tmp_path / "env"
    bindir, python = fresh_env(env_dir)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--ignore-installed", "-q", str(wheel)],
        capture_output=True, text=True, timeout=300, check=False)
    if install.returncode and "no such option: --python" in install.stderr:
        install = subprocess.run(  # pip < 22.3: install with the environment's own path
            [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--prefix",
             str(env_dir), str(wheel)], capture_output=True, text=True, timeout=300,
            check=False)
    assert install.returncode == 0, install.stderr[-2000:]
    script = bindir / ("cartagena.exe" if sys.platform == "win32" else "cartagena")
    out = subprocess.run([str(script), "rules"], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, check=False, env=CLEAN)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "jamaica" in out.stdout
    # The installed copy speaks Swedish: its catalog is read from the wheel's .po
    swedish = subprocess.run([str(script), "rules", "--lang", "sv"], capture_output=True,
                             text=True, timeout=120, cwd=tmp_path, check=False,
                             encoding="utf-8", env={**os.environ, "PYTHONUTF8": "1"})
    assert swedish.returncode == 0, swedish.stderr[-2000:]
    assert "Regeluppsättningar" in swedish.stdout and "2-5 spelare" in swedish.stdout
    where = subprocess.run(
        [str(python), "-c", "import cartagena_net, sys; print(cartagena_net.__file__)"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False, env=CLEAN)
    assert str(env_dir) in where.stdout  # the installed copy, not this tree


def test_python_m_build_makes_a_wheel_and_an_sdist_that_installs(tmp_path):
    """`python -m build` (as the README's install note says) makes both; the sdist holds
    what a build needs and installs on its own into a fresh environment."""
    import tarfile

    out = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
         "--outdir", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]
    wheel = next((tmp_path / "dist").glob("cartagena_net-*.whl"))
    sdist = next((tmp_path / "dist").glob("cartagena*net-*.tar.gz"))
    assert "cartagena_net/web/static/play.html" in zipfile.ZipFile(wheel).namelist()
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for part in ("setup.cfg", "setup.py", "README.md", "cartagena_net/web/static/play.js",
                 "protocol/messages.py", "client/app.py",
                 "cartagena_net/i18n/locale/sv/LC_MESSAGES/cartagena.po"):
        assert part in names, part
    # docs/, which the README links to, every file of it
    docs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*") if p.is_file()}
    assert docs and docs <= names, sorted(docs - names)
    env_dir = tmp_path / "env"
    bindir, python = fresh_env(env_dir)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--ignore-installed", "--no-build-isolation", "-q", str(sdist)],
        capture_output=True, text=True, timeout=600, check=False)
    assert install.returncode == 0, install.stderr[-2000:]
    script = bindir / ("cartagena.exe" if sys.platform == "win32" else "cartagena")
    ran = subprocess.run([str(script), "rules"], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, check=False, env=CLEAN)
    assert ran.returncode == 0 and "jamaica" in ran.stdout, ran.stderr[-2000:]
