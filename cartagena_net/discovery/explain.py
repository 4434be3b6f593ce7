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
                         "and later, allow your terminal app (Terminal, iTerm...) under "
                         "System Settings > Privacy & Security > Local Network, then quit "
                         "and reopen the terminal.")
        else:
            lines.append(f"- The system refused to send the search ({name}): a firewall on "
                         "this machine may block UDP broadcast.")
    elif errno.ENETUNREACH in seen.send_errors:
        lines.append("- The network is unreachable from here (ENETUNREACH): check the "
                     "Wi-Fi or cable.")
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
