"""Client-side network session: a Twisted protocol around ``protocol.Connection``.

Usage::

    session, welcome = yield connect(reactor, "127.0.0.1", 41672, "ann")
    session.on_message = handle          # called with each message dataclass
    session.on_close = closed            # called once with a reason string
    session.send(messages.JoinTable(table=0, seat=None, spectate=False))

The session answers ``ping`` with ``pong`` itself, and closes the connection on a
protocol error from the host. Messages that arrive before ``on_message`` is set are
queued and delivered when it is set. The reactor is always passed in.
"""
from __future__ import annotations

import ipaddress
from collections import deque
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, error
from twisted.internet import protocol as tprotocol
from twisted.internet.endpoints import (
    HostnameEndpoint,
    TCP4ClientEndpoint,
    TCP6ClientEndpoint,
    connectProtocol,
)
from twisted.python.failure import Failure

import protocol
from cartagena_net.i18n import _, decimal
from client.plain import bye_reason, plain_error
from protocol import Connection, LocalProtocolError, RemoteProtocolError, Role, messages

PROTOCOL_VERSIONS: tuple[int, ...] = tuple(getattr(protocol, "PROTOCOL_VERSIONS", (1,)))

MessageHandler = Callable[[Any], None]
CloseHandler = Callable[[str], None]


class HostError(Exception):
    """The host refused the handshake with an ``error`` message (``why``, ``args``: its
    reason as data, when the host sent one)."""

    def __init__(self, code: str, message: str, why: str | None = None,
                 args: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.why = why
        self.fields = args


class SessionClosed(Exception):
    """The connection closed before the handshake completed."""


class ClientSession(tprotocol.Protocol):
    """One connection to a host, speaking the wire protocol as a client."""

    def __init__(self, hello: Any) -> None:
        self._hello = hello
        self.conn = Connection(Role.CLIENT)
        self.welcome: Any = None
        self.handshake: defer.Deferred = defer.Deferred()
        self.closed = False
        self.close_reason = ""
        self._on_message: MessageHandler | None = None
        self.on_close: CloseHandler | None = None
        self._queue: deque[Any] = deque()

    # -- public API -------------------------------------------------------

    @property
    def on_message(self) -> MessageHandler | None:
        return self._on_message

    @on_message.setter
    def on_message(self, handler: MessageHandler | None) -> None:
        self._on_message = handler
        while handler is not None and self._queue and self._on_message is handler:
            handler(self._queue.popleft())

    def send(self, msg: Any) -> None:
        """Encode and send one message (raises ``LocalProtocolError`` if invalid)."""
        if self.closed or self.transport is None:
            raise SessionClosed(_("the connection is closed"))
        self.transport.write(self.conn.send(msg))

    def close(self, reason: str = "bye") -> None:
        """Say ``bye`` (when still possible) and close the connection."""
        if self.closed:
            return
        self._note_reason(reason)
        if self.transport is not None:
            try:
                self.transport.write(self.conn.send(messages.Bye(reason=reason[:200])))
            except (LocalProtocolError, ValueError, TypeError):
                pass
            self.transport.loseConnection()

    # -- twisted Protocol -------------------------------------------------

    def connectionMade(self) -> None:
        try:
            self.transport.write(self.conn.send(self._hello))
        except LocalProtocolError as exc:
            self._fail_handshake(exc)
            self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.conn.receive_data(data)
            while not self.closed:
                msg = self.conn.next_event()
                if msg is None:
                    break
                self._dispatch(msg)
        except RemoteProtocolError as exc:
            self._protocol_error(exc)

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        if not self.close_reason:
            if reason.check(error.ConnectionDone):
                self.close_reason = _("connection closed by the host")
            else:
                self.close_reason = _("connection lost: {error}").format(
                    error=reason.getErrorMessage())
        self.closed = True
        self._fail_handshake(SessionClosed(self.close_reason))
        handler, self.on_close = self.on_close, None
        if handler is not None:
            handler(self.close_reason)

    # -- internals --------------------------------------------------------

    def _note_reason(self, reason: str) -> None:
        if not self.close_reason:
            self.close_reason = reason

    def _dispatch(self, msg: Any) -> None:
        if isinstance(msg, messages.Ping):
            try:
                self.send(messages.Pong(nonce=msg.nonce))
            except (LocalProtocolError, SessionClosed):
                pass  # closing anyway: a pong is no longer allowed
            return
        if isinstance(msg, messages.Bye):
            self._note_reason(_("host said bye: {reason}").format(
                reason=bye_reason(msg.to_wire())))
            self.transport.loseConnection()
        if self.welcome is None:
            if isinstance(msg, messages.Welcome):
                self.welcome = msg
                d, self.handshake = self.handshake, None
                d.callback((self, msg))
                return
            if isinstance(msg, messages.Error):
                self._note_reason(plain_error(msg.code, msg.message, msg.why, msg.args))
                self._fail_handshake(HostError(msg.code, msg.message, msg.why, msg.args))
                self.transport.loseConnection()
                return
        if isinstance(msg, messages.Error) and msg.fatal:
            self._note_reason(plain_error(msg.code, msg.message, msg.why, msg.args))
        self._deliver(msg)

    def _deliver(self, msg: Any) -> None:
        if self._on_message is None or self._queue:
            self._queue.append(msg)
        else:
            self._on_message(msg)

    def _protocol_error(self, exc: RemoteProtocolError) -> None:
        code = getattr(exc, "code", "protocol")
        text = getattr(exc, "message", str(exc))
        self._note_reason(_("protocol error from the host: {code}: {message}").format(
            code=code, message=text))
        self._fail_handshake(exc)
        self.closed = True
        if self.transport is not None:
            self.transport.loseConnection()

    def _fail_handshake(self, exc: BaseException) -> None:
        d, self.handshake = self.handshake, None
        if d is not None and not d.called:
            d.errback(Failure(exc))


def make_hello(
    name: str, role: str = "player", token: str | None = None, password: str | None = None
) -> Any:
    """The ``hello`` message this client sends."""
    return messages.Hello(
        versions=PROTOCOL_VERSIONS, name=name, role=role, token=token, password=password
    )


def _endpoint(reactor: Any, host: str, port: int, timeout: float) -> Any:
    """A TCP endpoint; IP literals skip name resolution (which needs a thread pool)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return HostnameEndpoint(reactor, host, port, timeout=timeout)
    if address.version == 6:
        return TCP6ClientEndpoint(reactor, str(address), port, timeout=timeout)
    return TCP4ClientEndpoint(reactor, str(address), port, timeout=timeout)


class Unreachable(OSError):
    """A host that cannot be reached: its text says why in one wording, and what to try
    (cartagena_net.discovery.explain.connect_failure); ``cause`` is the error itself."""

    def __init__(self, cause: BaseException, host: str, port: int) -> None:
        import sys

        from cartagena_net.discovery.explain import connect_failure

        self.cause = cause
        super().__init__(connect_failure(cause, f"{host}:{port}", sys.platform))


def connect(
    reactor: Any,
    host: str,
    port: int,
    name: str,
    role: str = "player",
    token: str | None = None,
    password: str | None = None,
    timeout: float = 10.0,
) -> defer.Deferred:
    """Connect over TCP and complete the handshake.

    Fires with ``(ClientSession, messages.Welcome)``; fails with ``HostError`` when the
    host refuses, ``SessionClosed`` when the connection drops first, a Twisted
    connection error when the host cannot be reached, or ``defer.TimeoutError``.
    """
    session = ClientSession(make_hello(name, role, token, password))
    endpoint = _endpoint(reactor, host, port, timeout)
    result: defer.Deferred = defer.Deferred()
    handshake = session.handshake

    def on_timeout() -> None:
        if not result.called:
            result.errback(defer.TimeoutError(_("no welcome from {address} in {n}s").format(
                address=f"{host}:{port}", n=decimal(f"{timeout:g}"))))
            if session.transport is not None:
                session.closed = True
                session.transport.abortConnection()
            else:
                connecting.cancel()

    timer = reactor.callLater(timeout, on_timeout)

    def done(value: Any) -> Any:
        if timer.active():
            timer.cancel()
        if result.called:
            return None
        if isinstance(value, Failure):
            result.errback(value)
        else:
            result.callback(value)
        return None

    def connect_failed(failure: Failure) -> None:
        if not failure.check(defer.CancelledError):
            done(Failure(Unreachable(failure.value, host, port))
                 if failure.check(error.ConnectError, OSError) else failure)

    connecting = connectProtocol(endpoint, session)
    connecting.addErrback(connect_failed)
    handshake.addBoth(done)
    return result
