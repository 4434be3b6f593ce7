"""The host's ports and connections on each platform: a connection cap the platform's
event loop can hold, ports no second host can share, and a second host on a port in use
told so plainly."""
from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

from twisted.internet.task import Clock

from cartagena_net.host import limits
from cartagena_net.portable import sockets
from tests.portable import spawn_options, stop_politely

from .test_connection_limits import connect, make, received

ROOT = Path(__file__).resolve().parents[2]


def test_each_platforms_default_and_cap():
    assert sockets.connection_limits("win32") == (480, 480)  # select(): 512 sockets
    assert sockets.WINDOWS_MAX_CONNECTIONS + sockets.OWN_SOCKETS == 512
    default, cap = sockets.connection_limits()
    assert 1 <= default <= 1024 and default <= cap


def test_a_host_asked_for_more_than_the_loop_holds_refuses_past_the_cap(monkeypatch):
    """As on Windows, where the loop holds 480 connections however many were asked for
    (3 here): the next one gets the usual server-full."""
    monkeypatch.setattr(limits, "connection_limits", lambda: (3, 3))
    host = make(Clock(), max_connections=1024, max_per_address=64)
    assert host.caps.max_total == 3
    transports = [connect(host, f"10.0.0.{n}")[1] for n in range(1, 5)]
    assert [t.disconnecting for t in transports] == [False, False, False, True]
    assert received(transports[-1])[-1]["code"] == "server-full"


def test_the_open_file_limit_is_raised_for_the_connections(monkeypatch):
    limit = sockets.raise_file_limit(256)
    assert limit is None or limit >= 256
    assert limits.connection_cap(100) == 100


def test_the_listening_ports_are_exclusive_where_the_platform_can(monkeypatch):
    """Where socket has SO_EXCLUSIVEADDRUSE (Windows) the listening socket sets it before
    it binds. Simulated with a harmless option standing for it."""
    from tests.twisted_loop import reactor

    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", socket.SO_KEEPALIVE, raising=False)
    from twisted.internet.protocol import Factory

    port = sockets.listen_tcp(reactor, 0, Factory(), interface="127.0.0.1")
    try:
        assert port.socket.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    finally:
        port.stopListening()
    monkeypatch.delattr(socket, "SO_EXCLUSIVEADDRUSE", raising=False)
    port = sockets.listen_tcp(reactor, 0, Factory(), interface="127.0.0.1")
    try:
        assert port.socket.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 0
    finally:
        port.stopListening()


def _host(*extra: str, state: Path) -> list[str]:
    return [sys.executable, "-m", "cartagena_net", "host", "--headless", "--bind",
            "127.0.0.1", "--discovery", "off", "--state-dir", str(state), *extra]


def test_a_second_host_on_the_same_port_is_told_what_holds_it(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first = subprocess.Popen(_host("--port", str(port), "--web", "off", state=tmp_path / "a"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             **spawn_options())
    try:
        assert "listening on port" in first.stdout.readline()
        done = subprocess.run(_host("--port", str(port), "--web", "off", state=tmp_path / "b"),
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        assert (f"the game port {port} is in use: another cartagena host (or another "
                "program) is listening on it") in done.stderr, done.stderr
        assert "--port PORT" in done.stderr
    finally:
        stop_politely(first)
        first.communicate(timeout=30)


def test_max_connections_past_the_platforms_cap_is_refused(tmp_path):
    _, cap = sockets.connection_limits()
    done = subprocess.run(_host("--port", "0", "--max-connections", str(cap + 1),
                                state=tmp_path / "s"),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert f"--max-connections takes 1 to {cap} on this platform" in done.stderr
