"""Nothing Linux-only on the client's path: the loop, the interfaces, the address shown."""
from __future__ import annotations

import asyncio
import ipaddress
import sys

from cartagena_net.cli import loop as loop_mod
from cartagena_net.cli.host import friends_address, takeover_seconds
from cartagena_net.discovery.interfaces import (
    broadcast_targets,
    interfaces,
    lan_addresses,
)


def test_a_selector_loop_is_chosen_explicitly_on_windows(monkeypatch) -> None:
    made = loop_mod.new_selector_loop()
    try:
        assert isinstance(made, asyncio.selector_events.BaseSelectorEventLoop)
    finally:
        made.close()
    monkeypatch.setattr(sys, "platform", "win32")
    made = loop_mod.new_selector_loop()
    try:
        # on Windows asyncio.SelectorEventLoop is the selector loop (the default is not)
        assert type(made) is asyncio.SelectorEventLoop
    finally:
        made.close()


def test_interfaces_come_with_computed_broadcast_addresses() -> None:
    found = interfaces()
    assert any(i.loopback and i.address.startswith("127.") for i in found)
    for i in found:
        if i.broadcast is not None:  # the top address of the interface's own subnet
            assert ipaddress.IPv4Address(i.broadcast) > ipaddress.IPv4Address(i.address)
            assert not i.loopback
    assert broadcast_targets("127.0.0.1") == []
    assert broadcast_targets()[-1] == "255.255.255.255"
    assert all(not ipaddress.IPv4Address(a).is_loopback for a in lan_addresses())


def test_the_hosts_header_shows_the_address_friends_type() -> None:
    assert friends_address("127.0.0.1", 41672) == "127.0.0.1:41672 (this machine only)"
    assert friends_address("10.1.2.3", 5) == "10.1.2.3:5"
    lan = lan_addresses()
    shown = friends_address("", 41672)
    if lan:
        assert shown == f"{lan[0]}:41672" and not shown.startswith("127.")
    else:
        assert shown.endswith("(no network found)")


def test_takeover_has_a_default_and_can_be_turned_off() -> None:
    import argparse

    from cartagena_net.cli.host import DEFAULT_TAKEOVER, add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert parser.parse_args([]).takeover == DEFAULT_TAKEOVER > 0
    assert parser.parse_args(["--takeover", "off"]).takeover is None
    assert parser.parse_args(["--takeover", "30"]).takeover == 30.0
    assert takeover_seconds("OFF") is None
