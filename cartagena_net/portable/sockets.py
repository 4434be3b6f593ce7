"""Listening sockets and connection counts, each platform's way.

- :func:`listen_tcp`: a listening TCP port (Twisted's) that no second process can share.
  POSIX: Twisted's ``SO_REUSEADDR`` only lets a restarted host bind at once while old
  connections linger; two listeners on one port are refused all the same. Windows: a
  socket there may bind a port another one listens on if it asks for ``SO_REUSEADDR``,
  so ours set ``SO_EXCLUSIVEADDRUSE`` (and a second host gets "address in use").
- :func:`address_in_use`: whether a listen failure means the port is taken.
- :func:`connection_limits`: how many connections the host's event loop can hold here
  (its default and its cap). The asyncio loop Twisted runs on is a selector loop:
  ``epoll`` on Linux and ``kqueue`` on macOS hold any number of sockets (within the
  process's file limit, which :func:`raise_file_limit` lifts where it can), while
  Windows' ``select()`` takes at most 512 sockets, some of them the host's own.
"""
from __future__ import annotations

import errno
import socket
import sys
from typing import Any

DEFAULT_MAX_CONNECTIONS = 1024
WINDOWS_SELECT_LIMIT = 512  # FD_SETSIZE of CPython's select module on Windows
# The host's own sockets on its loop: the game and web ports, discovery (one UDP socket
# an interface, and the broadcast one), the loop's self-pipe pair, and some room for
# connections being accepted while others close.
OWN_SOCKETS = 32
WINDOWS_MAX_CONNECTIONS = WINDOWS_SELECT_LIMIT - OWN_SOCKETS  # 480
OWN_FILES = 64  # files and sockets a POSIX host holds besides its connections
MACOS_OPEN_MAX = 10240  # the most a macOS process may ask for, whatever its hard limit

# "Address in use": POSIX's EADDRINUSE; Windows' WSAEADDRINUSE, and WSAEACCES where the
# port is held with SO_EXCLUSIVEADDRUSE.
_IN_USE = {errno.EADDRINUSE, 10048, 10013}


def exclusive(sock: socket.socket) -> bool:
    """Keep other sockets off this one's address (Windows); False where the platform
    has no such option (POSIX refuses a second listener anyway)."""
    option = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)
    if option is None:
        return False
    sock.setsockopt(socket.SOL_SOCKET, option, 1)
    return True


def listen_tcp(reactor: Any, port: int, factory: Any, interface: str = "",
               backlog: int = 50) -> Any:
    """``reactor.listenTCP``, with the port held exclusively (:func:`exclusive`)."""
    from twisted.internet import tcp

    class ExclusivePort(tcp.Port):
        def createInternetSocket(self) -> socket.socket:
            sock = super().createInternetSocket()
            exclusive(sock)
            return sock

    listening = ExclusivePort(port, factory, backlog, interface, reactor)
    listening.startListening()
    return listening


def address_in_use(exc: BaseException) -> bool:
    """Whether a listen failure (Twisted's CannotListenError, or an OSError) means that
    another program holds the address."""
    err = getattr(exc, "socketError", exc)
    return isinstance(err, OSError) and (
        err.errno in _IN_USE or getattr(err, "winerror", None) in _IN_USE)


def connection_limits(platform: str | None = None) -> tuple[int, int]:
    """(default, cap) of ``--max-connections`` on ``platform`` (default: this one)."""
    platform = sys.platform if platform is None else platform
    if platform == "win32":
        return WINDOWS_MAX_CONNECTIONS, WINDOWS_MAX_CONNECTIONS
    cap = _file_limit()
    if cap is None:
        return DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS * 64
    room = max(1, cap - OWN_FILES)
    return min(DEFAULT_MAX_CONNECTIONS, room), room


def _file_limit() -> int | None:
    """The most files this process may open, once raised as far as it may be."""
    try:
        import resource
    except ImportError:
        return None
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return hard if hard != resource.RLIM_INFINITY else None


def raise_file_limit(want: int) -> int | None:
    """Lift this process's open-file limit to ``want`` files (at most its hard limit;
    macOS starts programs with 256). The limit now, None where there is none to lift."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        for tried in (target, min(target, MACOS_OPEN_MAX)):
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (tried, hard))
            except (ValueError, OSError):  # macOS refuses more than OPEN_MAX files
                continue
            soft = tried
            break
    return None if soft == resource.RLIM_INFINITY else soft
