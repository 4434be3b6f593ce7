"""Protocol exceptions and the catalogue of error codes."""

from __future__ import annotations


class ProtocolError(Exception):
    """Base class: a protocol violation with a machine-readable ``code``.

    ``fatal`` tells whether the connection can continue after it; ``ref`` is the
    type of the offending message when known.
    """

    def __init__(
        self, code: str, message: str, *, fatal: bool = True, ref: str | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = fatal
        self.ref = ref


class LocalProtocolError(ProtocolError):
    """Misuse on our side: something we were about to send is not valid."""


class RemoteProtocolError(ProtocolError):
    """The peer sent something invalid. ``fatal``: the stream cannot continue."""


#: Every error code of protocol version 1: code -> (fatal, meaning).
#: Codes marked "host" are sent by hosts in ``error`` messages; the others are
#: also raised by this package. A receiver treats an unknown code by its
#: ``fatal`` flag.
ERROR_CODES: dict[str, tuple[bool, str]] = {
    # framing and decoding (raised by protocol/)
    "frame-too-large": (True, "frame header announces more than 65536 bytes"),
    "bad-msgpack": (True, "frame body is not exactly one valid msgpack value"),
    "not-a-map": (True, ("frame body is not a map with string keys, or a map in it has "
                  "a key that is not a string or byte string")),
    "unknown-type": (False, "message type is not known; the frame was skipped"),
    "bad-field": (False, "a field is missing or has a wrong type, range or length"),
    "not-allowed": (
        False,
        "message not allowed in this state or direction (fatal in the handshake)",
    ),
    "wrong-table": (False, "message names a table other than the connection's"),
    "no-common-version": (True, "no protocol version in common"),
    "bad-value": (False, "local only: a value cannot be encoded"),
    "closed": (False, "local only: the connection is closed"),
    # host decisions
    "bad-password": (False, "wrong or missing password (fatal in the handshake)"),
    "bad-token": (True, "resume token unknown or expired"),
    "server-full": (True, "host accepts no more connections"),
    "shutting-down": (True, "host is shutting down"),
    "handshake-timeout": (True, "no hello arrived in time"),
    "idle-timeout": (True, ("no complete message (not even pong) for too long, or a "
                     "frame left incomplete for too long")),
    "resumed-elsewhere": (True, "the seat was resumed by another connection"),
    "too-many-tables": (False, "the host, or the sender's address, has as many tables as allowed"),
    "table-fault": (False, "the host failed on this action; refused, the game is unchanged"),
    "journal-failed": (False, "the host cannot save the game (disk full or failing); refused"),
    "no-spectators": (False, "the table does not admit spectators"),
    "seats-empty": (False, "start refused: seats are empty (wait or add bots)"),
    "no-such-table": (False, "table id unknown"),
    "table-full": (False, "no free seat, or the seat asked for is taken"),
    "bad-seat": (False, "seat number out of range or not a bot/free seat"),
    "bad-rules": (False, "unknown rules preset or invalid options"),
    "not-owner": (False, "only the table's owner may do this"),
    "not-started": (False, "the table's game is not running"),
    "already-started": (False, "the table's game is already running"),
    "not-your-turn": (False, "the sender is not the seat to act"),
    "stale": (False, "action's seq is not the table's current seq"),
    "bad-action": (False, "action text does not parse"),
    "illegal-action": (False, "action is not legal now"),
    "rate-limited": (True, "too many messages; slow down"),
    "internal": (True, "host-side bug; the host closes the connection"),
}
