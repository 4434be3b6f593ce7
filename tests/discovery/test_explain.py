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


def test_the_host_warns_once_when_the_system_refuses_its_discovery_sends():
    """A reply the system refuses (as macOS does without the Local Network permission) is
    warned of once on the host's log, naming what friends can do; later ones are quiet."""
    from twisted.logger import globalLogPublisher

    from tests.discovery.test_loopback import make_responder
    from tests.twisted_loop import run, wait

    responder = make_responder()
    lines: list[str] = []

    def observe(event: dict) -> None:
        from twisted.logger import formatEvent

        lines.append(formatEvent(event))

    class Refusing:
        def write(self, data: bytes, addr: tuple) -> None:
            raise OSError(errno.EHOSTUNREACH, "No route to host")

    real, responder._listening = responder._listening, Refusing()
    globalLogPublisher.addObserver(observe)
    try:
        from protocol import discovery as wire

        probe = wire.Probe(nonce=b"\x01" * wire.NONCE_SIZE).encode()
        for _ in range(3):
            responder.datagram_received(probe, ("10.0.0.9", 5000))
    finally:
        globalLogPublisher.removeObserver(observe)
        responder._listening = real
        run(wait(responder.stopService()))
    warned = [x for x in lines if "refused to send discovery" in x]
    assert len(warned) == 1 and "No route to host" in warned[0]
    assert "type its address" in warned[0]


def test_the_join_screen_says_why_when_nobody_answers():
    """`cartagena join` with no address: after a few quiet seconds the host list says
    why nobody may answer, from the searching browser's own send errors."""
    from client.app import ClientApp
    from client.model import ClientModel
    from client.render import render_browser

    class Later:
        def callLater(self, delay, fn, *args):
            return None

    class Browser:
        def __init__(self) -> None:
            self.send_errors = {errno.EPERM: "10.0.0.255:41672"}

    app = ClientApp(Later(), ClientModel(name="ann"), broadcast=True)
    app.refresh = lambda: None
    app.model.screen = "browser"
    app._browser = Browser()
    app._explain_empty()
    shown = "\n".join("".join(t for _, t in line)
                      for line in render_browser(app.model, 100, 40))
    assert "No host answered" in shown and "EPERM" in shown
    assert "You can always type the host's address" in shown


def test_macos_names_the_local_network_permission_whenever_nothing_answers():
    """On macOS the permission's absence often gives no send error at all."""
    text = said(Seen("darwin", (LOOP, WIFI)))
    assert "Privacy & Security > Local Network" in text
    assert text.count("Local Network") == 1
    refused = said(Seen("darwin", (LOOP, WIFI), {errno.EHOSTUNREACH: "192.168.1.255:41672"}))
    assert refused.count("Local Network") == 1  # said once, with the refusal
    assert "EHOSTUNREACH" in refused
    assert "Local Network" not in said(Seen("win32", (LOOP, WIFI)))


def test_an_unreachable_address_is_said_in_one_wording_with_what_to_try():
    from twisted.internet import error

    from cartagena_net.discovery.explain import connect_failure

    unreachable = error.getConnectError((errno.ENETUNREACH, "Network is unreachable"))
    assert "No route to host" in str(unreachable)  # what Twisted says: two wordings
    text = connect_failure(unreachable, "10.9.9.9:41672", "linux")
    assert "No route" not in text and "101" not in text and "unreachable" not in text
    assert "cannot reach the network of 10.9.9.9:41672" in text
    assert "same Wi-Fi or cable" in text and "Local Network" not in text
    mac = connect_failure(unreachable, "10.9.9.9:41672", "darwin")
    assert "Privacy & Security > Local Network" in mac
    no_route = error.getConnectError((errno.EHOSTUNREACH, "No route to host"))
    assert "cannot be reached from here" in connect_failure(no_route, "h:1", "linux")
    refused = error.ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    assert "is the host running" in connect_failure(refused, "h:1", "linux")
    windows = OSError(10051, "A socket operation was attempted to an unreachable network")
    assert "cannot reach the network" in connect_failure(windows, "h:1", "win32")
    timeout = error.TCPTimedOutError(errno.ETIMEDOUT, "Connection timed out")
    assert "firewall on the host" in connect_failure(timeout, "h:1", "linux")
    assert "type the address the host printed" in connect_failure(
        error.DNSLookupError("nowhere"), "nowhere:41672", "linux")


def test_joining_an_address_where_nothing_listens_says_so_plainly():
    """Real TCP to a closed port on this machine: the client's error is one sentence."""
    import socket

    from client.net import Unreachable, connect
    from tests.twisted_loop import reactor, run, wait

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def go():
        try:
            await wait(connect(reactor, "127.0.0.1", port, "ann", timeout=5))
        except Unreachable as exc:
            return str(exc)
        raise AssertionError("connected to a closed port")

    text = run(go())
    assert text == (f"nothing answers on 127.0.0.1:{port}: is the host running, and is "
                    "that the address and port it printed?")
