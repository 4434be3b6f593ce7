"""IPv4 interfaces of this machine and their broadcast addresses (Linux ioctls).

Used by the discovery responder and browser to address each subnet's broadcast.
On systems without these ioctls the list is empty and only the limited broadcast
address 255.255.255.255 is used.
"""
from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from dataclasses import dataclass

SIOCGIFFLAGS = 0x8913
SIOCGIFADDR = 0x8915
SIOCGIFBRDADDR = 0x8919
SIOCGIFNETMASK = 0x891B
IFF_UP = 0x1
IFF_BROADCAST = 0x2
IFF_LOOPBACK = 0x8

LIMITED_BROADCAST = "255.255.255.255"


@dataclass(frozen=True)
class Interface:
    """One IPv4 interface: name, address, broadcast address (or None), flags."""

    name: str
    address: str
    broadcast: str | None
    up: bool
    loopback: bool


def _ioctl_addr(sock: socket.socket, request: int, name: bytes) -> str | None:
    try:
        raw = fcntl.ioctl(sock.fileno(), request, struct.pack("256s", name[:15]))
    except OSError:
        return None
    return socket.inet_ntoa(raw[20:24])


def interfaces() -> list[Interface]:
    """The IPv4 interfaces of the current network namespace."""
    found: list[Interface] = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in names:
            raw_name = name.encode()
            address = _ioctl_addr(sock, SIOCGIFADDR, raw_name)
            if address is None:
                continue
            try:
                flags_raw = fcntl.ioctl(
                    sock.fileno(), SIOCGIFFLAGS, struct.pack("256s", raw_name[:15])
                )
                flags = struct.unpack("H", flags_raw[16:18])[0]
            except OSError:
                continue
            broadcast = None
            if flags & IFF_BROADCAST:
                broadcast = _ioctl_addr(sock, SIOCGIFBRDADDR, raw_name)
                if broadcast in (None, "0.0.0.0"):
                    netmask = _ioctl_addr(sock, SIOCGIFNETMASK, raw_name)
                    if netmask:
                        net = ipaddress.IPv4Network(f"{address}/{netmask}", strict=False)
                        broadcast = str(net.broadcast_address)
            found.append(
                Interface(
                    name=name,
                    address=address,
                    broadcast=broadcast,
                    up=bool(flags & IFF_UP),
                    loopback=bool(flags & IFF_LOOPBACK),
                )
            )
    return found


def is_loopback(address: str) -> bool:
    """True when ``address`` is an IPv4 loopback address."""
    try:
        return ipaddress.IPv4Address(address).is_loopback
    except ValueError:
        return False


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
