"""Why no host was found: the explanation names the likely cause from what this machine
saw, on each platform's terms, and always says how to type the host's address."""
from __future__ import annotations

import errno

from cartagena_net.discovery.explain import Seen, explain
from cartagena_net.discovery.interfaces import Interface

WIFI = Interface("wlan0", "192.168.1.23", "192.168.1.255", True, False)
LOOP = Interface("lo", "127.0.0.1", None, True, True)


def said(seen: Seen) -> str:
    return "\n".join(explain(seen))


def test_always_the_way_around_it_and_the_common_causes():
    text = said(Seen("linux", (LOOP, WIFI)))
    assert text.startswith("No host answered.")
    assert "cartagena join 192.168.1.20" in text
    assert "UDP port 41672" in text and "client isolation" in text
    assert "no network with a broadcast address" not in text
    assert "Local Network" not in text and "refused" not in text


def test_no_network_at_all():
    assert "no network with a broadcast address" in said(Seen("linux", (LOOP,)))
    assert "no network with a broadcast address" not in said(Seen("linux", (LOOP,),
                                                                  broadcast=False))


def test_a_refused_send_on_macos_names_the_local_network_setting():
    text = said(Seen("darwin", (LOOP, WIFI), {errno.EHOSTUNREACH: "192.168.1.255:41672"}))
    assert "EHOSTUNREACH" in text
    assert "Privacy & Security > Local Network" in text and "terminal app" in text


def test_a_refused_send_elsewhere_names_the_firewall():
    for code in (errno.EACCES, errno.EPERM):
        text = said(Seen("linux", (LOOP, WIFI), {code: "192.168.1.255:41672"}))
        assert "refused to send" in text and "firewall on this machine" in text
        assert "Local Network" not in text


def test_an_unreachable_network():
    text = said(Seen("linux", (LOOP, WIFI), {errno.ENETUNREACH: "192.168.1.255:41672"}))
    assert "unreachable" in text


def test_windows_names_the_firewall_prompt_and_private_networks():
    text = said(Seen("win32", (LOOP, WIFI)))
    assert "Allow an app" in text and "Private" in text
    assert "Windows" not in said(Seen("linux", (LOOP, WIFI))).replace("a Windows host", "")


def test_another_port_is_named():
    assert "UDP port 5000" in said(Seen("linux", (WIFI,), udp_port=5000))
