"""Throwaway network namespaces joined by veth, for discovery tests ("laptops").

    with Namespaces(2) as net:            # 10.231.0.1 and 10.231.0.2 on one link
        proc = net.popen(0, ["python", "-m", "cartagena_net", "host", ...])
        out = net.run(1, ["python", "-m", "cartagena_net", "list", "--json"])

Two namespaces get one veth pair; more get a bridge living in the first one.
Names are unique per process (pid-based). Everything is removed on exit, also
on failure, and stale namespaces of dead test processes are removed on entry.
Broadcasts sent inside never leave these namespaces. Needs root and iproute2.
"""
from __future__ import annotations

import contextlib
import itertools
import os
import re
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

PREFIX = "ctgn"
SUBNET = "10.231.0"  # addresses SUBNET.1, SUBNET.2, ... /24
_counter = itertools.count()


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``ip ARGS`` and return the completed process."""
    return subprocess.run(["ip", *args], check=check, capture_output=True, text=True, timeout=30)


def remove_stale() -> None:
    """Delete namespaces left by test processes that no longer exist."""
    listing = ip("netns", "list", check=False).stdout
    for line in listing.splitlines():
        name = line.split()[0] if line.split() else ""
        match = re.fullmatch(rf"{PREFIX}(\d+)x\d+n\d+", name)
        if not match:
            continue
        pid = int(match.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            ip("netns", "del", name, check=False)
        except PermissionError:
            pass


class Namespaces:
    """N network namespaces on one private /24, created on enter, removed on exit."""

    def __init__(self, count: int = 2, subnet: str = SUBNET) -> None:
        if not 2 <= count <= 200:
            raise ValueError("need between 2 and 200 namespaces")
        self.count = count
        self.subnet = subnet
        tag = f"{PREFIX}{os.getpid()}x{next(_counter)}"
        self.names = [f"{tag}n{i}" for i in range(count)]
        self.addresses = [f"{subnet}.{i + 1}" for i in range(count)]
        self.broadcast = f"{subnet}.255"
        self.created: list[str] = []
        self.procs: list[subprocess.Popen] = []

    # -- setup and teardown -----------------------------------------------

    def __enter__(self) -> Namespaces:  # noqa: PYI034 (3.10 has no typing.Self)
        remove_stale()
        try:
            self._create()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _create(self) -> None:
        for name in self.names:
            ip("netns", "add", name)
            self.created.append(name)
            ip("-n", name, "link", "set", "lo", "up")
        if self.count == 2:
            a, b = self.names
            ip("link", "add", "veth0", "netns", a, "type", "veth", "peer", "name", "veth0",
               "netns", b)
            links = ["veth0", "veth0"]
        else:
            hub = self.names[0]
            ip("-n", hub, "link", "add", "br0", "type", "bridge")
            ip("-n", hub, "link", "set", "br0", "up")
            links = ["br0"]
            for i, name in enumerate(self.names[1:], start=1):
                ip("link", "add", f"port{i}", "netns", hub, "type", "veth", "peer", "name",
                   "veth0", "netns", name)
                ip("-n", hub, "link", "set", f"port{i}", "master", "br0")
                ip("-n", hub, "link", "set", f"port{i}", "up")
                links.append("veth0")
        for name, link, address in zip(self.names, links, self.addresses):
            ip("-n", name, "addr", "add", f"{address}/24", "brd", self.broadcast, "dev", link)
            ip("-n", name, "link", "set", link, "up")

    def close(self) -> None:
        """Stop every process started here, then delete every namespace created."""
        for proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        self.procs.clear()
        for name in reversed(self.created):
            # Any process still inside (started by others' code) would keep it alive.
            pids = ip("netns", "pids", name, check=False).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
            ip("netns", "del", name, check=False)
        self.created.clear()

    # -- running things inside --------------------------------------------

    def command(self, index: int, argv: Sequence[str]) -> list[str]:
        """``argv`` prefixed to run inside namespace ``index``."""
        return ["ip", "netns", "exec", self.names[index], *argv]

    def run(self, index: int, argv: Sequence[str], timeout: float = 120, **kw: Any
            ) -> subprocess.CompletedProcess:
        """Run ``argv`` inside namespace ``index`` to completion (output captured)."""
        return subprocess.run(self.command(index, argv), check=False, capture_output=True,
                              text=True, timeout=timeout, env=child_env(), **kw)

    def popen(self, index: int, argv: Sequence[str], env: Mapping[str, str] | None = None,
              **kw: Any) -> subprocess.Popen:
        """Start ``argv`` inside namespace ``index`` (``env``: its environment, else this
        process's); it is killed by ``close()``."""
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
        kw.setdefault("text", True)
        proc = subprocess.Popen(self.command(index, argv), env=child_env(env),
                                start_new_session=True, **kw)
        self.procs.append(proc)
        return proc


def child_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for child Python processes (``base``, else this process's): this
    checkout first on the path."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


PYTHON = sys.executable
