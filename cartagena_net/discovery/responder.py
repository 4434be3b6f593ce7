"""The host side of discovery: answer probes, announce periodically."""
from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
from typing import Any

from twisted.application import service
from twisted.internet import defer, task
from twisted.internet import protocol as tprotocol
from twisted.logger import Logger

from protocol import LocalProtocolError
from protocol import discovery as wire

from .interfaces import broadcast_targets
from .sockets import listen_udp

LOCAL_NETWORK_HINT = ("; on macOS 15 and later, allow this terminal app under System "
                      "Settings > Privacy & Security > Local Network")

DISCOVERY_PORT = wire.DISCOVERY_PORT
REPLY_RATE = 50.0  # replies per second, in total (token bucket)
REPLY_BURST = 100.0
ENCODE_ERRORS = (LocalProtocolError, KeyError, ValueError, TypeError, OverflowError)


def _protocol_version() -> int:
    import protocol

    versions = getattr(protocol, "PROTOCOL_VERSIONS", (1,))
    return int(max(versions))


class _ResponderProtocol(tprotocol.DatagramProtocol):
    def __init__(self, owner: DiscoveryResponder) -> None:
        self.owner = owner

    def datagramReceived(self, datagram: bytes, addr: tuple[str, int]) -> None:
        self.owner.datagram_received(datagram, addr)


class DiscoveryResponder(service.Service):
    """Answers discovery probes with a unicast reply and announces this host.

    ``summary()`` returns a dict with ``host_id``, ``name`` and ``tables`` (the table
    summary put into announcements; ``version`` optional). ``tcp_port`` is the
    host's TCP port. ``interface`` binds to one local address ("" = all); when it
    is a loopback address nothing is broadcast. ``announce_interval`` of 0 or None
    turns the periodic announcements off (probes are still answered).
    ``udp_port`` 0 binds an ephemeral port and never announces (tests); the bound
    port is ``self.port``.
    """

    log = Logger()

    def __init__(
        self,
        reactor: Any,
        summary: Callable[[], dict[str, Any]],
        tcp_port: int,
        interface: str = "",
        udp_port: int = DISCOVERY_PORT,
        announce_interval: float | None = 2.0,
    ) -> None:
        self.reactor = reactor
        self.summary = summary
        self.tcp_port = tcp_port
        self.interface = "" if interface in ("0.0.0.0", "::") else interface
        self.udp_port = udp_port
        self.announce_interval = announce_interval
        self.instance = secrets.token_hex(8)
        self.port: int | None = None
        self.replies = 0
        self._warned: set[int | None] = set()  # kinds of send error already warned of
        self.announcements = 0
        self._listening: Any = None
        self._extra: list[Any] = []
        self._loop: task.LoopingCall | None = None
        self._tokens = REPLY_BURST
        self._tokens_at = 0.0

    # -- service ----------------------------------------------------------

    def startService(self) -> None:
        super().startService()
        self.instance = secrets.token_hex(8)  # changes on every (re)start
        self._listening = listen_udp(
            self.reactor,
            _ResponderProtocol(self),
            self.interface or "0.0.0.0",
            self.udp_port,
        )
        self.port = self._listening.getHost().port
        if self.interface and self.udp_port:
            # A socket bound to one unicast address hears no broadcasts: listen on the
            # broadcast addresses too (replies still leave from the unicast socket).
            for address in broadcast_targets(self.interface):
                try:
                    self._extra.append(listen_udp(
                        self.reactor, _ResponderProtocol(self), address, self.udp_port
                    ))
                except OSError as exc:
                    self.log.info("cannot listen on {a}: {e}", a=address, e=exc)
        self._tokens_at = self.reactor.seconds()
        if self.announce_interval and self.udp_port and broadcast_targets(self.interface):
            self._loop = task.LoopingCall(self.announce)
            self._loop.clock = self.reactor
            self._loop.start(self.announce_interval, now=True).addErrback(
                lambda f: self.log.failure("announce loop failed", f)
            )

    def stopService(self) -> Any:
        super().stopService()
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._loop = None
        ports = [p for p in [self._listening, *self._extra] if p is not None]
        self._listening, self._extra = None, []
        return defer.gatherResults([defer.maybeDeferred(p.stopListening) for p in ports])

    # -- datagrams --------------------------------------------------------

    def announcement(self) -> Any:
        """The ``Announce`` datagram describing this host now."""
        info = self.summary()
        return wire.Announce(
            host_id=str(info["host_id"]),
            instance=self.instance,
            name=str(info.get("name", "")),
            port=int(self.tcp_port),
            version=int(info.get("version", _protocol_version())),
            tables=info.get("tables", []),
        )

    def announce(self) -> None:
        """Send one announcement to every broadcast target."""
        if self._listening is None:
            return
        try:
            data = self.announcement().encode()
        except ENCODE_ERRORS:
            self.log.failure("cannot encode the discovery announcement")
            return
        for target in broadcast_targets(self.interface):
            try:
                self._listening.write(data, (target, self.udp_port))
                self.announcements += 1
            except OSError as exc:
                self._send_failed(f"{target}:{self.udp_port}", exc)

    def datagram_received(self, datagram: bytes, addr: tuple[str, int]) -> None:
        msg = wire.decode_datagram(datagram)
        if not isinstance(msg, wire.Probe) or self._listening is None:
            return
        if not self._take_token():
            return
        try:
            reply = wire.reply_to(datagram, self.announcement())
        except ENCODE_ERRORS:
            self.log.failure("cannot build the discovery reply")
            return
        if reply is None or len(reply) > len(datagram):
            return
        try:
            self._listening.write(reply, addr)
            self.replies += 1
        except OSError as exc:
            self._send_failed(f"{addr[0]}:{addr[1]}", exc)

    def _send_failed(self, where: str, exc: OSError) -> None:
        """A send the system refused: warned once per kind of error (the host's log),
        since friends then may not find this host by searching."""
        seen = self._warned
        if exc.errno in seen:
            self.log.debug("discovery send to {where} failed: {exc}", where=where, exc=exc)
            return
        seen.add(exc.errno)
        self.log.warn(  # noqa: G010 - twisted's Logger has warn()
            "the system refused to send discovery to {where} ({exc}): friends searching "
            "with `cartagena join` may not find this host; they can type its address "
            "(printed above){hint}", where=where, exc=exc.strerror or str(exc),
            hint=LOCAL_NETWORK_HINT if sys.platform == "darwin" else "")

    def _take_token(self) -> bool:
        now = self.reactor.seconds()
        self._tokens = min(REPLY_BURST, self._tokens + (now - self._tokens_at) * REPLY_RATE)
        self._tokens_at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
