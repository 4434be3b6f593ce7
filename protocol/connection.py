"""The per-connection state machine, sans-IO, for either side.

``send(msg)`` checks that our side may send the message now and returns the
bytes to write; ``receive_data`` + ``next_event`` turn the peer's bytes into
messages, checking that the peer was allowed to send them. The rules are in
docs/protocol.md ("Connection states").
"""

from __future__ import annotations

import enum
from typing import NoReturn

from . import messages as m
from .errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from .framing import MAX_FRAME, FrameDecoder, encode_frame
from .versions import PROTOCOL_VERSIONS, choose_version


class Role(enum.Enum):
    """Which side of the connection we are."""

    HOST = "host"
    CLIENT = "client"

    __hash__ = object.__hash__  # (a member is its one instance: hashed as itself, in C)


class ConnState(enum.Enum):
    """Where the connection is; both sides move through the same states."""

    HANDSHAKE = "handshake"
    LOBBY = "lobby"
    TABLE = "table"
    CLOSED = "closed"

    __hash__ = object.__hash__  # (as Role's)


_ANYTIME = frozenset({"chat", "ping", "pong", "error", "bye"})
#: Table-scoped messages a client sends: their ``table`` must be the current one.
TABLE_SCOPED = frozenset({"leave", "add_bot", "remove_bot", "start", "action", "hint"})

#: The message types that move the state machine (:meth:`Connection._apply`).
_MOVING = frozenset({"hello", "welcome", "joined", "leave", "bye", "error"})

#: Message types each role may send, by state.
ALLOWED: dict[Role, dict[ConnState, frozenset[str]]] = {
    Role.CLIENT: {
        ConnState.HANDSHAKE: frozenset({"hello", "error", "bye"}),
        ConnState.LOBBY: _ANYTIME | {"create_table", "join_table", "rename"},
        ConnState.TABLE: _ANYTIME | TABLE_SCOPED | {"rename"},
        ConnState.CLOSED: frozenset(),
    },
    Role.HOST: {
        ConnState.HANDSHAKE: frozenset({"welcome", "error", "bye"}),
        ConnState.LOBBY: _ANYTIME | {"lobby", "joined"},
        ConnState.TABLE: _ANYTIME | {"lobby", "joined", "state", "hint"},
        ConnState.CLOSED: frozenset(),
    },
}


class Connection:
    """One end of a host<->client connection.

    Attributes kept for the application: ``state``, ``version`` (negotiated,
    None before ``welcome``), ``hello`` (the Hello sent or received),
    ``table`` and ``seat`` (where the client sits; seat None = spectating).
    """

    def __init__(self, role: Role, max_frame: int = MAX_FRAME) -> None:
        self.role = role
        self.peer_role = Role.HOST if role is Role.CLIENT else Role.CLIENT
        self.state = ConnState.HANDSHAKE
        self.version: int | None = None
        self.hello: m.Hello | None = None
        self.table: int | None = None
        self.seat: int | None = None
        self.max_frame = max_frame
        self._decoder = FrameDecoder(max_frame)
        # Table the client left; the host may still have ``state`` for it in flight.
        self._left: int | None = None
        self._fatal: RemoteProtocolError | None = None

    def __repr__(self) -> str:
        return (f"<Connection {self.role.value} {self.state.value} "
                f"table={self.table} seat={self.seat}>")

    @property
    def buffered(self) -> int:
        """Bytes received of a frame that is not complete yet (0 between frames)."""
        return self._decoder.buffered

    @property
    def frames_received(self) -> int:
        """Complete frames received so far (a partial frame after them is newer)."""
        return self._decoder.frames_received

    @property
    def spectating(self) -> bool:
        """At a table without a seat."""
        return self.state is ConnState.TABLE and self.seat is None

    # ------------------------------------------------------------ checks

    def _check(self, msg: m.Message, sender: Role, err: type[ProtocolError]) -> None:
        """Raise ``err`` unless ``sender`` may send ``msg`` now."""
        kind = msg.TYPE
        state = self.state
        if state is ConnState.CLOSED:
            self._refuse(err, kind, "closed", "the connection is closed")
        if kind not in ALLOWED[sender][state]:
            self._refuse(err, kind, "not-allowed",
                         f"{sender.value} may not send {kind!r} in state {state.value}")
        if kind == "hello" and self.hello is not None:
            self._refuse(err, kind, "not-allowed", "hello was already sent")
        if kind == "welcome" and isinstance(msg, m.Welcome):
            if self.hello is None:
                self._refuse(err, kind, "not-allowed", "welcome before hello")
            elif (msg.version not in self.hello.versions
                  or msg.version not in PROTOCOL_VERSIONS):
                raise err("no-common-version",
                          f"version {msg.version} was not offered by both sides",
                          fatal=True, ref=kind)
        if sender is Role.CLIENT and kind in TABLE_SCOPED:
            table = getattr(msg, "table", None)
            if table != self.table:
                self._refuse(err, kind, "wrong-table",
                             f"{kind} names table {table}, connection is at {self.table}")
            if kind == "action" and self.seat is None:
                self._refuse(err, kind, "not-allowed", "a spectator may not send actions")
        if kind == "state":
            table = getattr(msg, "table", None)
            if table != self.table:
                self._refuse(err, kind, "wrong-table",
                             f"state for table {table}, connection is at {self.table}")

    def _refuse(self, err: type[ProtocolError], kind: str, code: str, why: str) -> NoReturn:
        """Raise ``err`` for a message of type ``kind`` (fatal during the handshake)."""
        raise err(code, why, fatal=self.state is ConnState.HANDSHAKE, ref=kind)

    def _apply(self, msg: m.Message) -> None:
        """Move the state machine after ``msg`` went through (either way)."""
        if msg.TYPE not in _MOVING:
            return
        if isinstance(msg, m.Hello):
            self.hello = msg
        elif isinstance(msg, m.Welcome):
            self.version = msg.version
            if msg.resumed is not None:
                self._enter_table(msg.resumed["table"], msg.resumed["seat"])
            else:
                self.state = ConnState.LOBBY
        elif isinstance(msg, m.Joined):
            self._enter_table(msg.table, msg.seat)
        elif isinstance(msg, m.Leave):
            self._left = msg.table
            self.table = self.seat = None
            self.state = ConnState.LOBBY
        elif isinstance(msg, m.Bye) or (isinstance(msg, m.Error) and msg.fatal):
            self.state = ConnState.CLOSED

    def _enter_table(self, table: int, seat: int | None) -> None:
        self.table, self.seat, self._left = table, seat, None
        self.state = ConnState.TABLE

    # ------------------------------------------------------------ API

    def send(self, msg: m.Message) -> bytes:
        """Check and encode one message; returns the bytes to write.

        Raises LocalProtocolError if it is not allowed now or not encodable.
        """
        if not isinstance(msg, m.Message):
            raise LocalProtocolError("bad-value", f"not a message: {msg!r}")
        self._check(msg, self.role, LocalProtocolError)
        data = encode_frame(msg.to_wire(), self.max_frame, check=False)
        self._apply(msg)
        return data

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the peer. Raises RemoteProtocolError on a bad header.

        Bytes arriving after the connection is CLOSED are discarded.
        """
        if self.state is ConnState.CLOSED:
            return
        self._decoder.receive_data(data)

    def next_event(self) -> m.Message | None:
        """The next message from the peer, or None until more bytes arrive.

        Raises RemoteProtocolError for a bad frame or message. If the error
        is not ``fatal`` that frame is skipped and later calls go on with the
        next one; a fatal one is raised again by every later call: close the
        connection (send ``messages.Error.from_exception(exc)``, then drop the
        transport).
        """
        if self._fatal is not None:
            raise self._fatal
        try:
            return self._next_message()
        except RemoteProtocolError as exc:
            if exc.fatal:
                self._fatal = exc
            raise

    def _next_message(self) -> m.Message | None:
        while self.state is not ConnState.CLOSED:
            frame = self._decoder.next_frame()
            if frame is None:
                return None
            try:
                msg = m.decode(frame)
            except RemoteProtocolError as exc:
                if self.state is ConnState.HANDSHAKE:
                    exc.fatal = True
                raise
            if (isinstance(msg, m.State) and self.role is Role.CLIENT
                    and self.state is ConnState.LOBBY and self._left is not None):
                continue  # sent before the host saw our ``leave``
            self._check(msg, self.peer_role, RemoteProtocolError)
            self._apply(msg)
            return msg
        return None

    def connection_lost(self) -> None:
        """The transport is gone: the connection is CLOSED."""
        self.state = ConnState.CLOSED


__all__ = [
    "ALLOWED", "TABLE_SCOPED", "ConnState", "Connection", "Role", "choose_version",
]
