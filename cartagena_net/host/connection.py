"""The Twisted protocol of one client connection, around ``protocol.Connection(Role.HOST)``.

It enforces the limits (handshake deadline, idle timeout with ping, frame size via the
decoder, message rate) and hands each decoded message to the host's lobby.
"""
from __future__ import annotations

import secrets
from typing import Any

from twisted.internet import protocol as tprotocol
from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.python.failure import Failure

from cartagena_net.engine.reasons import english
from cartagena_net.host.eager import write_now
from cartagena_net.host.errors import HostError
from cartagena_net.host.limits import TokenBucket
from cartagena_net.host.tokens import new_session_id
from protocol import ConnState, LocalProtocolError, RemoteProtocolError, messages

log = Logger(namespace="cartagena.host.connection")

ABORT_GRACE = 2.0


#: The messages a connection answers itself; the lobby answers the others.
_OWN_KINDS = frozenset(("hello", "ping", "pong", "bye", "error"))


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
        self.held = False  # a frame of this connection waits in the host's outbox
        self._bucket = TokenBucket(self.config.rate, self.config.burst, self.reactor.seconds)
        self._last_rx = self.reactor.seconds()
        self._timers: list[Any] = []
        self._idle_call: Any = None
        self._handshake_call: Any = None
        self._ping_nonce: int | None = None
        self._partial_since: float | None = None
        self._partial_count = 0
        self._partial_call: Any = None
        self._held: Any = None  # a request being answered later (a password check)

    # -- twisted Protocol ------------------------------------------------------

    def connectionMade(self) -> None:
        why = self.host.caps.refusal(self.address)
        refusal = self.host.admit(self)
        if refusal is not None:
            self.fail("server-full", refusal, why=why)
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
        try:
            self.conn.receive_data(data)
        except RemoteProtocolError as exc:
            self.fail(exc.code, exc.message, ref=exc.ref)
            return
        self._drain()
        self._watch_partial()

    def _drain(self) -> None:
        """Handle every complete frame received, unless a request is being answered."""
        while not self.closed and self._held is None:
            try:
                msg = self.conn.next_event()
            except RemoteProtocolError as exc:
                if exc.fatal:
                    self.fail(exc.code, exc.message, ref=exc.ref)
                    return
                self._last_rx = self.reactor.seconds()
                if not self._bucket.take():
                    self.refuse("rate-limited", "rate-limited", fatal=True)
                    return
                self.error(exc.code, exc.message, ref=exc.ref)
                continue
            if msg is None:
                break
            # Only complete messages count as activity (a trickle of bytes does not).
            self._last_rx = self.reactor.seconds()
            if not self._bucket.take():
                self.refuse("rate-limited", "rate-limited", ref=msg.TYPE, fatal=True)
                return
            self._handle(msg)

    def _watch_partial(self) -> None:
        """A frame must arrive whole within the handshake deadline of its first byte."""
        if self.closed or not self.conn.buffered:
            self._partial_since = None
            return
        count = self.conn.frames_received
        if self._partial_since is None or count != self._partial_count:
            self._partial_since = self.reactor.seconds()
            self._partial_count = count
        if self._partial_call is None:
            self._partial_call = self.reactor.callLater(
                self.config.handshake_timeout, self._check_partial)

    def _check_partial(self) -> None:
        self._partial_call = None
        if self.closed or self._partial_since is None:
            return
        limit = self.config.handshake_timeout
        if self._held is not None:  # not read while the host answers: the clock restarts after
            self._partial_call = self.reactor.callLater(limit, self._check_partial)
            return
        age = self.reactor.seconds() - self._partial_since
        if age >= limit:
            self.refuse("idle-timeout", "frame-incomplete", fatal=True,
                        seconds=f"{age:.0f}", limit=f"{limit:g}")
            return
        self._partial_call = self.reactor.callLater(max(limit - age, 0.01), self._check_partial)

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        self.closed = True
        for t in self._timers:
            if t.active():
                t.cancel()
        self._timers.clear()
        for call in (self._idle_call, self._handshake_call, self._partial_call):
            if call is not None and call.active():
                call.cancel()
        self._idle_call = self._handshake_call = self._partial_call = None
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
        self._unhold()
        self.transport.write(data)

    def write_state(self, table_id: int, data: bytes) -> None:
        """Write an encoded ``state`` frame if this connection is at that table (through
        the host's outbox: at once, or at the end of the reactor's round)."""
        wire = self.conn
        if (not self.closed and self.transport is not None
                and wire.state is ConnState.TABLE and wire.table == table_id):
            self.host.outbox.send(self, data)

    def write_shared(self, data: bytes) -> None:
        """Write bytes already encoded once for many connections (spectator fan-out),
        through the host's outbox."""
        if not self.closed and self.transport is not None:
            self.host.outbox.send(self, data)

    def deliver(self, data: bytes) -> None:
        """Write a frame the outbox held (see :class:`~cartagena_net.host.eager.Outbox`),
        unless the connection closed meanwhile."""
        if not self.closed and self.transport is not None:
            self._check_backlog(write_now(self.transport, data))

    def _unhold(self) -> None:
        """Send this connection's frames the outbox holds before anything else is
        written to it or it is closed: nothing overtakes them."""
        if self.held:
            self.host.outbox.flush()

    def _check_backlog(self, pending: int) -> None:
        """A peer that does not read would make the host buffer without end: drop it
        (``pending``: the bytes written to it that the kernel has not taken)."""
        if pending > self.config.max_send_buffer:
            log.info("dropping {addr}: it does not read what it is sent", addr=self.address)
            self.closed = True
            self.transport.abortConnection()

    def error(self, code: str, message: str, ref: str | None = None, fatal: bool = False,
              why: tuple[str, dict[str, Any]] | None = None) -> None:
        """Send an ``error`` message (``fatal``: the host closes after it); ``why``: the
        reason as data (its key and fields, docs/protocol.md 4.3), if it has one."""
        self.send_message(messages.Error(
            code=code[:32], message=message[:500], fatal=fatal, ref=ref,
            why=why[0] if why else None, args=why[1] if why else None))

    def refuse(self, code: str, why: str, ref: str | None = None, fatal: bool = False,
               **fields: Any) -> None:
        """Send an ``error`` with the reason ``why`` (fatal: and drop the connection)."""
        message = english(why, fields)
        if fatal:
            self.fail(code, message, ref=ref, why=(why, fields))
        else:
            self.error(code, message, ref=ref, why=(why, fields))

    def fail(self, code: str, message: str, ref: str | None = None,
             why: tuple[str, dict[str, Any]] | None = None) -> None:
        """Send a fatal error and drop the connection (aborting it if it does not drain)."""
        if self.closed:
            return
        log.info("dropping {addr}: {code}", addr=self.address, code=code)
        self.error(code, message, ref=ref, fatal=True, why=why)
        self.closed = True
        if self.transport is not None:
            self.transport.loseConnection()
            transport = self.transport
            self._timers.append(self.reactor.callLater(ABORT_GRACE, transport.abortConnection))

    def say_bye(self, why: str, **fields: Any) -> None:
        """Say ``bye`` with a reason (the host stops: its key and fields, docs/protocol.md
        4.17) and close, aborting if it does not drain."""
        if self.closed:
            return
        self.send_message(messages.Bye(reason=english(why, fields)[:200], why=why,
                                       args=fields or None))
        self.closed = True
        if self.transport is not None:
            self.transport.loseConnection()
            transport = self.transport
            self._timers.append(self.reactor.callLater(ABORT_GRACE, transport.abortConnection))

    def displaced(self) -> None:
        """Another connection resumed this one's seat with its token."""
        self.table = None
        self.refuse("resumed-elsewhere", "resumed-elsewhere", fatal=True)

    # -- limits ------------------------------------------------------------------

    def _handshake_expired(self) -> None:
        if not self.welcomed and not self.closed:
            self.refuse("handshake-timeout", "handshake-timeout", fatal=True)

    def _check_idle(self) -> None:
        self._idle_call = None
        if self.closed:
            return
        if self._held is not None:  # the host is answering late, not the peer
            self._last_rx = self.reactor.seconds()
        idle = self.reactor.seconds() - self._last_rx
        if idle >= self.config.idle_timeout:
            self.refuse("idle-timeout", "idle", fatal=True, seconds=f"{idle:.0f}")
            return
        if idle >= self.config.ping_interval and self.welcomed:
            self._ping_nonce = secrets.randbelow(2**32)
            self.send_message(messages.Ping(nonce=self._ping_nonce))
        self._idle_call = self.reactor.callLater(self.config.ping_interval, self._check_idle)

    # -- dispatch --------------------------------------------------------------

    def _handle(self, msg: Any) -> None:
        ref = msg.TYPE
        later = None
        try:
            if ref not in _OWN_KINDS:  # (most messages: the lobby's or a table's)
                if not self.welcomed:
                    raise HostError("not-allowed", "hello-first", fatal=True)
                later = self.host.lobby.handle(self, msg)
            elif isinstance(msg, messages.Hello):
                later = self._hello(msg)
            elif isinstance(msg, messages.Ping):
                self.send_message(messages.Pong(nonce=msg.nonce))
            elif isinstance(msg, messages.Pong):
                self._ping_nonce = None
            elif isinstance(msg, messages.Bye):
                self._unhold()
                self.closed = True
                self.transport.loseConnection()
            elif isinstance(msg, messages.Error):
                self._peer_error(msg)
        except Exception as exc:  # noqa: BLE001 - see _refused
            self._refused(exc, ref)
            return
        if later is not None and isinstance(later, Deferred):
            self._hold(later, ref)

    def _refused(self, exc: BaseException, ref: str) -> None:
        """A request failed: a HostError is answered; anything else is a host bug."""
        if isinstance(exc, HostError):
            self.refuse(exc.code, exc.why, ref=ref, fatal=exc.fatal, **exc.fields)
            return
        log.failure("internal error handling {ref} from {addr}", failure=Failure(exc),
                    ref=ref, addr=self.address)
        self.refuse("internal", "internal", ref=ref, fatal=True)

    def _hold(self, later: Deferred, ref: str) -> None:
        """Answer a request later: stop reading and handling until ``later`` fires."""
        self._held = later
        transport = self.transport
        if transport is not None:
            transport.pauseProducing()

        def failed(failure: Failure) -> None:
            if not self.closed:
                self._refused(failure.value, ref)

        def done(_: Any) -> None:
            self._held = None
            if self.closed:
                return
            if transport is not None:
                transport.resumeProducing()
            self._partial_since = None  # a frame cut by the wait gets a full deadline
            self._drain()
            self._watch_partial()

        later.addErrback(failed)
        later.addBoth(done)

    def _peer_error(self, msg: Any) -> None:
        """The client reports an error: logged (at debug level unless fatal, so a chatty
        client cannot flood the log); a fatal one ends the connection."""
        emit = log.info if msg.fatal else log.debug
        emit("{addr} reports {fatal}error {code}: {message}", addr=self.address,
             fatal="fatal " if msg.fatal else "", code=msg.code, message=msg.message)
        if msg.fatal:
            self._unhold()
            self.closed = True
            self.transport.loseConnection()

    def _hello(self, msg: Any) -> Deferred | None:
        if self.welcomed:
            raise HostError("not-allowed", "hello-again")
        self.name = (msg.name or "").strip()[:32] or "player"
        self.role = msg.role
        # The deadline is met: a hello came (the password may take the host a while).
        if self._handshake_call is not None and self._handshake_call.active():
            self._handshake_call.cancel()
        self._handshake_call = None
        return self.host.lobby.hello(self, msg)
