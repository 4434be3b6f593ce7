"""IPv4 interfaces of this machine and their broadcast addresses, on every OS.

The addresses and prefix lengths come from ``ifaddr`` (pure Python: getifaddrs on
Linux, macOS and the BSDs, GetAdaptersAddresses on Windows); each subnet's broadcast
address is computed from them with :mod:`ipaddress`, the same way everywhere.
Used by the discovery responder and browser to address each subnet's broadcast, and
by ``cartagena host`` to show the address friends type.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass

import ifaddr

LIMITED_BROADCAST = "255.255.255.255"


@dataclass(frozen=True)
class Interface:
    """One IPv4 address of an interface: name, address, broadcast address (or None)."""

    name: str
    address: str
    broadcast: str | None
    up: bool
    loopback: bool


def _broadcast(address: str, prefix: int) -> str | None:
    """The subnet's broadcast address; None for point-to-point links (/31, /32)."""
    if prefix >= 31:
        return None
    net = ipaddress.IPv4Network(f"{address}/{prefix}", strict=False)
    return str(net.broadcast_address)


def interfaces() -> list[Interface]:
    """The IPv4 addresses of the current network namespace (empty if none can be read).

    ``ifaddr`` lists configured addresses only, so every one is taken as up; a send to
    a link that is down fails and is skipped by the callers.
    """
    try:
        adapters = ifaddr.get_adapters()
    except (OSError, ValueError, AttributeError):
        return []
    found: list[Interface] = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not ip.is_IPv4 or not isinstance(ip.ip, str):
                continue
            try:
                loopback = ipaddress.IPv4Address(ip.ip).is_loopback
                broadcast = None if loopback else _broadcast(ip.ip, int(ip.network_prefix))
            except ValueError:
                continue
            found.append(Interface(name=str(adapter.nice_name or adapter.name),
                                   address=ip.ip, broadcast=broadcast, up=True,
                                   loopback=loopback))
    return found


def is_loopback(address: str) -> bool:
    """True when ``address`` is an IPv4 loopback address."""
    try:
        return ipaddress.IPv4Address(address).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that others on the LAN can reach (not loopback,
    not link-local), private ones first."""
    out: list[str] = []
    for iface in interfaces():
        addr = ipaddress.IPv4Address(iface.address)
        if iface.loopback or addr.is_link_local or iface.address in out:
            continue
        out.append(iface.address)
    return sorted(out, key=lambda a: not ipaddress.IPv4Address(a).is_private)


def broadcast_targets(interface: str = "") -> list[str]:
    """Where to announce: each up, non-loopback interface's subnet broadcast address
    (only the one holding ``interface`` when given) and 255.255.255.255.

    Empty when ``interface`` is a loopback address: nothing is broadcast then.
    """
    if interface and is_loopback(interface):
        return []
    targets: list[str] = []
    for iface in interfaces():
        if not iface.up or iface.loopback or not iface.broadcast:
            continue
        if interface and iface.address != interface:
            continue
        if iface.broadcast not in targets:
            targets.append(iface.broadcast)
    targets.append(LIMITED_BROADCAST)
    return targets
