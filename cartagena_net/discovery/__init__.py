"""LAN discovery over UDP: the host's responder and the clients' browser.

The datagrams themselves are defined in ``protocol.discovery``.
"""
from .browser import (
    DiscoveryBrowser,
    HostInfo,
    find_hosts,
    parse_target,
    table_free_seats,
)
from .interfaces import broadcast_targets, interfaces
from .responder import DISCOVERY_PORT, DiscoveryResponder

__all__ = [
    "DISCOVERY_PORT",
    "DiscoveryBrowser",
    "DiscoveryResponder",
    "HostInfo",
    "broadcast_targets",
    "find_hosts",
    "interfaces",
    "parse_target",
    "table_free_seats",
]
