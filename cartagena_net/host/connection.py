"""The Twisted protocol of one client connection, around ``protocol.Connection(Role.HOST)``.

It enforces the limits (handshake deadline, idle timeout with ping, frame size via the
decoder, message rate) and hands each decoded message to the host's lobby.
"""
from __future__ import annotations

import secrets
from typing import Any

from twisted.internet import protocol as tprotocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from cartagena_net.host.eager import pending_bytes, write_now
from cartagena_net.host.errors import HostError
from cartagena_net.host.limits import TokenBucket
from cartagena_net.host.tokens import new_session_id
from protocol import ConnState, LocalProtocolError, RemoteProtocolError, messages

log = Logger(namespace="cartagena.host.connection")

ABORT_GRACE = 2.0


class HostConnection(tprotocol.Protocol):
    """One client as the host sees it. ``host`` is the :class:`HostService`."""

    def __init__(self, host: Any, address: str) -> None:
        self.host = host
        self.reactor = host.reactor
        self.config = host.config
        self.address = address
        self.conn = host.make_wire()
        self.session = new_session_id()
        self.name = "?"
        self.role = "player"
        self.welcomed = False
        self.table: Any = None
        self.closed = False
        self.admitted = False
        self._bucket = TokenBucket(self.config.rate, self.config.burst, self.reactor.seconds)
        self._last_rx = self.reactor.seconds()
        self._timers: list[Any] = []
        self._idle_call: Any = None
        self._handshake_call: Any = None
        self._ping_nonce: int | None = None

    # -- twisted Protocol ------------------------------------------------------

    def connectionMade(self) -> None:
        refusal = self.host.admit(self)
        if refusal is not None:
            self.fail("server-full", refusal)
            return
        self.admitted = True
        if hasattr(self.transport, "setTcpNoDelay"):
            self.transport.setTcpNoDelay(True)  # small interactive frames: no Nagle delay
        self._handshake_call = self.reactor.callLater(
            self.config.handshake_timeout, self._handshake_expired
        )
        self._idle_call = self.reactor.callLater(self.config.ping_interval, self._check_idle)

    def dataReceived(self, data: bytes) -> None:
        if self.closed:
            return
        self._last_rx = self.reactor.seconds()
        try:
            self.conn.receive_data(data)
        except RemoteProtocolError as exc:
            self.fail(exc.code, exc.message, ref=exc.ref)
            return
        while not self.closed:
            try:
                msg = self.conn.next_event()
            except RemoteProtocolError as exc:
                if exc.fatal:
                    self.fail(exc.code, exc.message, ref=exc.ref)
                    return
                if not self._bucket.take():
                    self.fail("rate-limited", "too many messages: slow down")
                    return
                self.error(exc.code, exc.message, ref=exc.ref)
                continue
            if msg is None:
                break
            if not self._bucket.take():
                self.fail("rate-limited", "too many messages: slow down", ref=msg.TYPE)
                return
            self._handle(msg)

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        self.closed = True
        for t in self._timers:
            if t.active():
                t.cancel()
        self._timers.clear()
        for call in (self._idle_call, self._handshake_call):
            if call is not None and call.active():
                call.cancel()
        self._idle_call = self._handshake_call = None
        if self.admitted:
            self.host.release(self)

    # -- sending ---------------------------------------------------------------

    def send_message(self, msg: Any) -> None:
        """Encode one message through the state machine and write it."""
        if self.closed and not isinstance(msg, messages.Error):
            return
        if self.transport is None or self.conn.state is ConnState.CLOSED:
            return
        try:
            data = self.conn.send(msg)
        except LocalProtocolError as exc:
            log.error("cannot send {type}: {err}", type=type(msg).__name__, err=str(exc))
            return
        self.transport.write(data)

    def write_state(self, table_id: int, data: bytes) -> None:
        """Write an encoded ``state`` frame if this connection is at that table."""
        wire = self.conn
        if (not self.closed and self.transport is not None
                and wire.state is ConnState.TABLE and wire.table == table_id):
            write_now(self.transport, data)
            self._check_backlog()

    def write_shared(self, data: bytes) -> None:
        """Write bytes already encoded once for many connections (spectator fan-out)."""
        if not self.closed and self.transport is not None:
            write_now(self.transport, data)
            self._check_backlog()

    def _check_backlog(self) -> None:
        """A peer that does not read would make the host buffer without end: drop it."""
        if pending_bytes(self.transport) > self.config.max_send_buffer:
            log.info("dropping {addr}: it does not read what it is sent", addr=self.address)
            self.closed = True
            self.transport.abortConnection()

    def error(self, code: str, message: str, ref: str | None = None, fatal: bool = False) -> None:
        """Send an ``error`` message (``fatal``: the host closes after it)."""
        self.send_message(
            messages.Error(code=code[:32], message=message[:500], fatal=fatal, ref=ref)
        )

    def fail(self, code: str, message: str, ref: str | None = None) -> None:
        """Send a fatal error and drop the connection (aborting it if it does not drain)."""
        if self.closed:
            return
        log.info("dropping {addr}: {code}", addr=self.address, code=code)
        self.error(code, message, ref=ref, fatal=True)
        self.closed = True
        if self.transport is not None:
            self.transport.loseConnection()
            transport = self.transport
            self._timers.append(self.reactor.callLater(ABORT_GRACE, transport.abortConnection))

    def say_bye(self, reason: str) -> None:
        """Say ``bye`` with a reason (the host stops) and close, aborting if it does not drain."""
        if self.closed:
            return
        self.send_message(messages.Bye(reason=reason[:200]))
        self.closed = True
        if self.transport is not None:
            self.transport.loseConnection()
            transport = self.transport
            self._timers.append(self.reactor.callLater(ABORT_GRACE, transport.abortConnection))

    def displaced(self) -> None:
        """Another connection resumed this one's seat with its token."""
        self.table = None
        self.fail("resumed-elsewhere", "your seat was resumed by another connection")

    # -- limits ------------------------------------------------------------------

    def _handshake_expired(self) -> None:
        if not self.welcomed and not self.closed:
            self.fail("handshake-timeout", "no hello within the handshake deadline")

    def _check_idle(self) -> None:
        self._idle_call = None
        if self.closed:
            return
        idle = self.reactor.seconds() - self._last_rx
        if idle >= self.config.idle_timeout:
            self.fail("idle-timeout", f"nothing heard for {idle:.0f} s")
            return
        if idle >= self.config.ping_interval and self.welcomed:
            self._ping_nonce = secrets.randbelow(2**32)
            self.send_message(messages.Ping(nonce=self._ping_nonce))
        self._idle_call = self.reactor.callLater(self.config.ping_interval, self._check_idle)

    # -- dispatch --------------------------------------------------------------

    def _handle(self, msg: Any) -> None:
        ref = msg.TYPE
        try:
            if isinstance(msg, messages.Hello):
                self._hello(msg)
            elif isinstance(msg, messages.Ping):
                self.send_message(messages.Pong(nonce=msg.nonce))
            elif isinstance(msg, messages.Pong):
                self._ping_nonce = None
            elif isinstance(msg, messages.Bye):
                self.closed = True
                self.transport.loseConnection()
            elif not self.welcomed:
                raise HostError("not-allowed", "say hello first", fatal=True)
            else:
                self.host.lobby.handle(self, msg)
        except HostError as exc:
            if exc.fatal:
                self.fail(exc.code, exc.message, ref=ref)
            else:
                self.error(exc.code, exc.message, ref=ref)
        except Exception:  # noqa: BLE001 - a host bug drops this connection, not the host
            log.failure("internal error handling {ref} from {addr}", ref=ref, addr=self.address)
            self.fail("internal", "internal error in the host", ref=ref)

    def _hello(self, msg: Any) -> None:
        if self.welcomed:
            raise HostError("not-allowed", "hello was already said")
        self.name = (msg.name or "").strip()[:32] or "player"
        self.role = msg.role
        self.host.lobby.hello(self, msg)
        if self.welcomed and self._handshake_call is not None:
            if self._handshake_call.active():
                self._handshake_call.cancel()
            self._handshake_call = None
