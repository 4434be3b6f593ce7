"""Why no host was found, and what to do: from what this machine can see.

A pure function (no sockets, no Twisted): :func:`explain` takes what the search saw
(this machine's interfaces, the errors its sends got, its platform) and returns the
sentences ``cartagena list`` prints and ``cartagena join`` shows when nothing answered.
The likely causes, in the order a person should check them:

- no interface with a broadcast address: not connected to a network at all;
- a send refused (EHOSTUNREACH, EACCES, EPERM): on macOS 15 and later the terminal app
  lacks the Local Network permission; elsewhere a firewall on this machine;
- the host's firewall (Windows asks on the host's first run: Python must be allowed on
  private networks, and a network marked Public blocks discovery);
- a guest Wi-Fi that keeps its devices apart (client isolation): nothing passes;
- and always the way around it: type the host's address.
"""
from __future__ import annotations

import errno
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

REFUSED = {errno.EHOSTUNREACH, errno.EACCES, errno.EPERM}
LOCAL_NETWORK = ("allow your terminal app (Terminal, iTerm...) under System Settings > "
                 "Privacy & Security > Local Network, then quit and reopen the terminal")


@dataclass(frozen=True)
class Seen:
    """What a search for hosts saw. ``send_errors``: errno -> the destination that got it."""

    platform: str
    interfaces: tuple[Any, ...] = ()  # discovery.interfaces.Interface
    send_errors: Mapping[int, str] = field(default_factory=dict)
    broadcast: bool = True
    udp_port: int = 41672


def explain(seen: Seen, example: str = "192.168.1.20") -> list[str]:
    """The sentences that say why no host may have answered, most likely first."""
    lines = ["No host answered. What this machine can see:"]
    lan = [i for i in seen.interfaces if not i.loopback and i.broadcast]
    mac, windows = seen.platform == "darwin", seen.platform.startswith("win")
    if seen.broadcast and not lan:
        lines.append("- This machine has no network with a broadcast address (no Wi-Fi or "
                     "cable connected?). Join the same network as the host.")
    refused = sorted(set(seen.send_errors) & REFUSED)
    if refused:
        name = errno.errorcode.get(refused[0], str(refused[0]))
        if mac:
            lines.append(f"- The system refused to send the search ({name}): on macOS 15 "
                         f"and later, {LOCAL_NETWORK}.")
        else:
            lines.append(f"- The system refused to send the search ({name}): a firewall on "
                         "this machine may block UDP broadcast.")
    elif errno.ENETUNREACH in seen.send_errors:
        lines.append("- The network is unreachable from here (ENETUNREACH): check the "
                     "Wi-Fi or cable.")
    if mac and not refused:
        # macOS may drop the search without a send error: the most common reason there.
        lines.append("- On macOS 15 and later, a terminal app sees no host until it may use "
                     f"the local network: {LOCAL_NETWORK}.")
    if windows:
        lines.append("- On Windows, the host's first run asks whether Python may use the "
                     "network: it must be allowed on private networks (Windows Security > "
                     "Firewall > Allow an app), and a Wi-Fi marked Public blocks the search: "
                     "set it to Private.")
    lines.append(f"- The host's own firewall must let in UDP port {seen.udp_port} (the "
                 "search) and its game port (TCP); on a Windows host, accept the prompt "
                 "for Python on private networks.")
    lines.append("- A guest or office Wi-Fi often keeps devices apart (client isolation): "
                 "then nothing passes between laptops; use a home network or a phone's "
                 "hotspot.")
    lines.append(f"You can always type the host's address: `cartagena join {example}` (the "
                 "host prints the addresses friends type when it starts).")
    return lines


def seen_now(platform: str, send_errors: Mapping[int, str], broadcast: bool,
             udp_port: int, found: Iterable[Any] | None = None) -> Seen:
    """A :class:`Seen` with this machine's interfaces (``found``: given instead)."""
    if found is None:
        from .interfaces import interfaces

        found = interfaces()
    return Seen(platform, tuple(found), dict(send_errors), broadcast, udp_port)


# Windows' socket errors for the same causes (WSAECONNREFUSED, WSAENETUNREACH, ...).
_WSA = {10061: errno.ECONNREFUSED, 10051: errno.ENETUNREACH, 10065: errno.EHOSTUNREACH,
        10060: errno.ETIMEDOUT}


def connect_failure(exc: BaseException, address: str, platform: str) -> str:
    """Why a connection to a host typed by its address failed, in one wording, and what
    to try (``join ADDRESS`` when nothing is there). ``exc``: the error the connection
    failed with (Twisted's ConnectError and kin carry the errno in ``osError``)."""
    name = type(exc).__name__
    number = getattr(exc, "osError", None)
    if not isinstance(number, int):
        number = getattr(exc, "errno", None)
    number = _WSA.get(number, number) if isinstance(number, int) else None
    mac = platform == "darwin"
    local = f"; on macOS 15 and later, {LOCAL_NETWORK}" if mac else ""
    if number == errno.ECONNREFUSED or name == "ConnectionRefusedError":
        return (f"nothing answers on {address}: is the host running, and is that the "
                "address and port it printed?")
    if number == errno.ENETUNREACH:
        return (f"this machine cannot reach the network of {address}: join the host's "
                f"network (the same Wi-Fi or cable), and check the address it printed{local}")
    if number == errno.EHOSTUNREACH or name == "NoRouteError":
        return (f"{address} cannot be reached from here: check the address the host "
                f"printed, and that both machines are on the same network{local}")
    if number == errno.ETIMEDOUT or name in ("TCPTimedOutError", "TimeoutError",
                                             "UserError"):
        return (f"no answer from {address}: a firewall on the host may block its game "
                f"port, or the address is not the host's{local}")
    if name == "DNSLookupError":
        return (f"cannot find the address {address}: type the address the host printed "
                "(four numbers, like 192.168.1.20)")
    text = str(exc).strip().rstrip(".") or name
    return f"cannot reach {address} ({text}){local}"
