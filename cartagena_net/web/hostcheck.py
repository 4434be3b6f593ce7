"""Which ``Host`` names the web port answers to: its own, and no other.

A page on another site cannot read this host's answers, but a name it controls can be
made to resolve to this host's address (DNS rebinding): the browser then thinks the
host's pages are that site's own, Origin and all. So every request's ``Host`` must name
this host:

- an IP address of one of this machine's interfaces (IPv4 or IPv6, read with ``ifaddr``
  and read again, at most every few seconds, when an address not known yet is asked),
  or a loopback address (``127.x``, ``::1``);
- ``localhost``;
- this machine's name and its mDNS name (``NAME`` and ``NAME.local``);
- a name the operator gave with ``--web-host NAME`` (repeatable), e.g. a name the LAN's
  DNS gives this machine.

A port after the name is allowed (any: a port mapping may change it), nothing else.
Anything else is answered ``421 Misdirected Request`` with a text that says what to do.
"""
from __future__ import annotations

import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterable

HOSTNAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*")
PORT = re.compile(r"[0-9]{1,5}")
REFRESH = 5.0  # seconds between two readings of the interfaces' addresses


def valid_name(name: str) -> str:
    """An operator's ``--web-host`` NAME, lowercased; ValueError if it is no host name
    or IP address."""
    low = name.strip().lower().rstrip(".")
    if not low or len(low) > 253 or not low.isascii():
        raise ValueError(f"--web-host takes a host name or an IP address, not {name!r}")
    try:
        return str(ipaddress.ip_address(low.strip("[]")))
    except ValueError:
        pass
    if not HOSTNAME.fullmatch(low):
        raise ValueError(f"--web-host takes a host name or an IP address, not {name!r}")
    return low


def split_host(value: bytes | None) -> tuple[str, bool] | None:
    """The name in a ``Host`` header, lowercased, and whether it is an IP address; None
    if the header is missing or not of the form ``NAME[:PORT]`` / ``[IPV6][:PORT]``."""
    if not value or len(value) > 300:
        return None
    try:
        text = value.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return None
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            return None
        name, rest = text[1:end], text[end + 1:]
        if rest and not (rest.startswith(":") and PORT.fullmatch(rest[1:])):
            return None
        try:
            return str(ipaddress.IPv6Address(name)), True
        except ValueError:
            return None
    name, colon, port = text.partition(":")
    if colon and not PORT.fullmatch(port):
        return None
    name = name.rstrip(".")
    try:
        return str(ipaddress.IPv4Address(name)), True
    except ValueError:
        pass
    if not HOSTNAME.fullmatch(name):
        return None
    return name, False


def interface_addresses() -> set[str]:
    """Every IPv4 and IPv6 address of this machine's interfaces (empty if unreadable)."""
    import ifaddr

    try:
        adapters = ifaddr.get_adapters()
    except (OSError, ValueError, AttributeError):
        return set()
    found: set[str] = set()
    for adapter in adapters:
        for ip in adapter.ips:
            raw = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            try:
                found.add(str(ipaddress.ip_address(str(raw).split("%")[0])))
            except ValueError:
                continue
    return found


def machine_names() -> set[str]:
    """This machine's name as it calls itself, and its mDNS name (``NAME.local``)."""
    names: set[str] = set()
    raw = socket.gethostname().strip().lower().rstrip(".")
    for name in (raw, raw.split(".")[0]):
        if name and HOSTNAME.fullmatch(name):
            names.update((name, f"{name}.local"))
    return names


class HostNames:
    """The names this web port answers to (see the module's text)."""

    def __init__(self, given: Iterable[str] = (), bind: str = "",
                 addresses: Callable[[], set[str]] = interface_addresses,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.names = {"localhost", *machine_names(), *(valid_name(n) for n in given)}
        self.bind = bind
        self._addresses = addresses
        self._clock = clock
        self._known: set[str] = set()
        self._read_at: float | None = None
        self._read()

    def _read(self) -> None:
        self._known = set(self._addresses())
        if self.bind not in ("", "0.0.0.0", "::"):
            try:
                self._known.add(str(ipaddress.ip_address(self.bind)))
            except ValueError:
                pass
        self._read_at = self._clock()

    def allows(self, value: bytes | None) -> bool:
        """Whether a request's ``Host`` header names this host."""
        split = split_host(value)
        if split is None:
            return False
        name, is_ip = split
        if not is_ip:
            return name in self.names
        if name in self.names or ipaddress.ip_address(name).is_loopback:
            return True
        if name in self._known:
            return True
        # An address not seen yet: the interfaces may have changed (a new lease).
        if self._read_at is None or self._clock() - self._read_at >= REFRESH:
            self._read()
        return name in self._known

    @staticmethod
    def refusal_text(value: bytes | None) -> str:
        shown = (value or b"").decode("ascii", "replace")[:80]
        return (f"this web port answers only to its own host's addresses and names, not to "
                f"{shown!r}: open it by this machine's address (as its QR code shows), or "
                f"start the host with --web-host NAME to allow another name\n")
