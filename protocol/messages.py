"""Typed messages of protocol version 1: one frozen dataclass per wire type.

Construct with keywords, e.g. ``Action(table=1, seq=5, action="advance 0 skull")``.
Construction validates and normalizes (strings stripped of control characters
and capped, sequence fields become tuples); a wrong type or range raises
LocalProtocolError ``bad-field``. Nested structures (``lobby`` tables and
their seats, ``welcome.resumed``) are plain dicts checked against the schema
records TableInfo, SeatInfo and Resumed: always exactly the schema's keys,
inner arrays as lists; a record instance is accepted in their place.
``from_wire`` raises RemoteProtocolError ``bad-field`` instead. Unknown extra
fields are ignored. See docs/protocol.md for the full specification.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import ProtocolError, RemoteProtocolError
from .fields import (
    U8,
    U16,
    U32,
    Args,
    Bool,
    Data,
    Enum,
    Float,
    Int,
    Nested,
    Opt,
    Options,
    Record,
    Secret,
    Seq,
    Str,
    clean_text,
)
from .versions import PROTOCOL_VERSIONS

ROLES = ("player", "spectator")
#: A searching bot's levels (``add_bot.level``, a lobby seat's ``level``).
BOT_LEVELS = ("easy", "normal", "hard")
TABLE_STATUSES = ("waiting", "playing", "finished")

#: Largest counts accepted in sequence fields.
MAX_TABLES = 256
MAX_SEATS = 16
MAX_SCORES = 32  # rows of lobby.scores
MAX_NOTICES = 8  # lobby.notices, and a table's notices
MAX_LEGAL = 4096
MAX_EVENTS = 1024

_TABLE = Int(0, U32)
_SEAT = Int(0, U8)


class Message(Record):
    """Base class of all messages; ``TYPE`` is the wire ``type`` string."""

    TYPE: ClassVar[str] = ""

    def to_wire(self) -> dict[str, Any]:
        """The message as a plain map, ``"type"`` first."""
        return {"type": self.TYPE, **super().to_wire()}


# ---------------------------------------------------------------- nested records


@dataclass(frozen=True)
class Resumed(Record):
    """Schema of ``welcome.resumed``: where the resumed session sits."""

    _LABEL: ClassVar[str] = "resumed"
    FIELDS: ClassVar = {"table": _TABLE, "seat": _SEAT}
    table: int
    seat: int


@dataclass(frozen=True)
class SeatInfo(Record):
    """Schema of one seat of a ``lobby`` table."""

    _LABEL: ClassVar[str] = "seat"
    FIELDS: ClassVar = {
        "seat": _SEAT,
        "name": Opt(Str(32)),
        "color": Str(16),
        "bot": Opt(Str(16)),
        "connected": Bool(),
        "level": Opt(Enum(*BOT_LEVELS)),
    }
    seat: int
    color: str
    name: str | None = None
    bot: str | None = None
    connected: bool = False
    level: str | None = None


@dataclass(frozen=True)
class ScoreInfo(Record):
    """Schema of one row of ``lobby.scores``: a player's games on this host tonight."""

    _LABEL: ClassVar[str] = "score"
    FIELDS: ClassVar = {
        "player": Str(32),
        "bot": Bool(),
        "games": Int(0, U32),
        "wins": Int(0, U32),
        "places": Seq(Int(0, U32), MAX_SEATS),
    }
    player: str
    bot: bool = False
    games: int = 0
    wins: int = 0
    places: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableInfo(Record):
    """Schema of one table in ``lobby.tables``."""

    _LABEL: ClassVar[str] = "table"
    FIELDS: ClassVar = {
        "id": _TABLE,
        "name": Str(64),
        "rules": Str(32),
        "options": Data(),
        "status": Enum(*TABLE_STATUSES),
        "spectators": Int(0, U32),
        "password": Bool(),
        "owner": Opt(_SEAT),
        "seats": Seq(Nested(SeatInfo), MAX_SEATS),
        "hints": Bool(),
        "player_chances": Bool(),
        "notices": Seq(Data(), MAX_NOTICES),
    }
    id: int
    name: str
    rules: str
    options: dict[str, Any] = field(default_factory=dict)
    status: str = "waiting"
    spectators: int = 0
    password: bool = False
    owner: int | None = None
    seats: tuple[dict[str, Any], ...] = ()
    hints: bool = False
    player_chances: bool = False
    notices: tuple[dict[str, Any], ...] = ()  # what went wrong at this table (docs 4.4)


# ---------------------------------------------------------------- messages


@dataclass(frozen=True)
class Hello(Message):
    """C->H, first message: versions offered, name, role, resume token."""

    TYPE: ClassVar[str] = "hello"
    FIELDS: ClassVar = {
        "versions": Seq(Int(1, U16), 16, min=1),
        "name": Str(32),
        "role": Enum(*ROLES),
        "token": Opt(Str(64)),
        "password": Opt(Secret()),
    }
    versions: tuple[int, ...] = PROTOCOL_VERSIONS
    name: str = ""
    role: str = "player"
    token: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class Welcome(Message):
    """H->C, accepts the hello: chosen version, host identity, session."""

    TYPE: ClassVar[str] = "welcome"
    FIELDS: ClassVar = {
        "host_id": Str(64),
        "host_name": Str(64),
        "server_version": Str(32),
        "version": Int(1, U16),
        "session": Str(64),
        "resumed": Opt(Nested(Resumed)),
    }
    host_id: str
    host_name: str
    server_version: str
    version: int
    session: str
    resumed: dict[str, Any] | None = None


@dataclass(frozen=True)
class Error(Message):
    """Either way: something went wrong; ``fatal`` means the sender closes."""

    TYPE: ClassVar[str] = "error"
    FIELDS: ClassVar = {
        "code": Str(32),
        "message": Str(500),
        "fatal": Bool(),
        "ref": Opt(Str(32)),
        "why": Opt(Str(32)),
        "args": Opt(Args()),
    }
    code: str
    message: str = ""
    fatal: bool = False
    ref: str | None = None
    why: str | None = None  # the reason as data, for a client to word (docs 4.3)
    args: dict[str, Any] | None = None

    @classmethod
    def from_exception(cls, exc: ProtocolError, ref: str | None = None) -> Error:
        """The ``error`` message reporting a ProtocolError to the peer."""
        return cls(code=exc.code, message=exc.message, fatal=exc.fatal,
                   ref=ref if ref is not None else exc.ref)


@dataclass(frozen=True)
class Lobby(Message):
    """H->C: the full list of tables (sent on entering the lobby and on change)."""

    TYPE: ClassVar[str] = "lobby"
    FIELDS: ClassVar = {"tables": Seq(Nested(TableInfo), MAX_TABLES),
                        "scores": Seq(Nested(ScoreInfo), MAX_SCORES),
                        "notices": Seq(Data(), MAX_NOTICES)}
    tables: tuple[dict[str, Any], ...] = ()
    scores: tuple[dict[str, Any], ...] = ()
    notices: tuple[dict[str, Any], ...] = ()  # what went wrong on the host (docs 4.4)


@dataclass(frozen=True)
class CreateTable(Message):
    """C->H: open a new table; the host answers ``joined`` or ``error``."""

    TYPE: ClassVar[str] = "create_table"
    FIELDS: ClassVar = {
        "name": Str(64),
        "rules": Str(32),
        "options": Options(),
        "password": Opt(Secret()),
        "hints": Bool(),
        "player_chances": Bool(),
    }
    name: str
    rules: str = "jamaica"
    options: dict[str, Any] = field(default_factory=dict)
    password: str | None = None
    hints: bool = False
    player_chances: bool = False


@dataclass(frozen=True)
class JoinTable(Message):
    """C->H: take a seat (nil = any free seat) or spectate a table."""

    TYPE: ClassVar[str] = "join_table"
    FIELDS: ClassVar = {
        "table": _TABLE,
        "seat": Opt(_SEAT),
        "spectate": Bool(),
        "name": Opt(Str(32)),
        "color": Opt(Str(16)),
        "password": Opt(Secret()),
    }
    table: int
    seat: int | None = None
    spectate: bool = False
    name: str | None = None
    color: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class Joined(Message):
    """H->C: the client is now at ``table`` (seat nil = spectating)."""

    TYPE: ClassVar[str] = "joined"
    FIELDS: ClassVar = {"table": _TABLE, "seat": Opt(_SEAT), "token": Opt(Str(64))}
    table: int
    seat: int | None = None
    token: str | None = None


@dataclass(frozen=True)
class Leave(Message):
    """C->H: leave the table, back to the lobby."""

    TYPE: ClassVar[str] = "leave"
    FIELDS: ClassVar = {"table": _TABLE}
    table: int


@dataclass(frozen=True)
class AddBot(Message):
    """C->H: seat a bot (seat nil = first free seat; level nil = the host's level)."""

    TYPE: ClassVar[str] = "add_bot"
    FIELDS: ClassVar = {"table": _TABLE, "seat": Opt(_SEAT), "kind": Str(16),
                        "level": Opt(Enum(*BOT_LEVELS))}
    table: int
    seat: int | None = None
    kind: str = "random"
    level: str | None = None


@dataclass(frozen=True)
class RemoveBot(Message):
    """C->H: remove the bot from a seat."""

    TYPE: ClassVar[str] = "remove_bot"
    FIELDS: ClassVar = {"table": _TABLE, "seat": _SEAT}
    table: int
    seat: int


@dataclass(frozen=True)
class Start(Message):
    """C->H: start the game (or play again on a finished table)."""

    TYPE: ClassVar[str] = "start"
    FIELDS: ClassVar = {"table": _TABLE}
    table: int


@dataclass(frozen=True)
class Action(Message):
    """C->H: play ``action`` (engine notation) answering state number ``seq``."""

    TYPE: ClassVar[str] = "action"
    FIELDS: ClassVar = {"table": _TABLE, "seq": Int(0, U32), "action": Str(200)}
    table: int
    seq: int
    action: str


@dataclass(frozen=True)
class State(Message):
    """H->C: the receiver's view of the game after state number ``seq``."""

    TYPE: ClassVar[str] = "state"
    FIELDS: ClassVar = {
        "table": _TABLE,
        "seq": Int(0, U32),
        "view": Data(),
        "legal": Seq(Str(200), MAX_LEGAL),
        "events": Seq(Data(), MAX_EVENTS),
        "lines": Seq(Str(500), MAX_EVENTS),
        "chances": Opt(Seq(Float(0.0, 1.0), MAX_SEATS)),
    }
    table: int
    seq: int
    view: dict[str, Any]
    legal: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    lines: tuple[str, ...] = ()
    chances: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Hint(Message):
    """C->H: a seated player asks for the bot's move (only ``table``). H->C, to that
    seat alone: the move for state number ``seq`` (not played), why as data
    (``why``: ``kind`` and its fields) and as an English line (``reason``)."""

    TYPE: ClassVar[str] = "hint"
    FIELDS: ClassVar = {
        "table": _TABLE,
        "seq": Opt(Int(0, U32)),
        "action": Opt(Str(200)),
        "reason": Opt(Str(500)),
        "why": Opt(Data()),
    }
    table: int
    seq: int | None = None
    action: str | None = None
    reason: str | None = None
    why: dict[str, Any] | None = None


@dataclass(frozen=True)
class Chat(Message):
    """Either way: a chat line; ``sender`` is set by the host when relaying."""

    TYPE: ClassVar[str] = "chat"
    FIELDS: ClassVar = {"table": Opt(_TABLE), "text": Str(500), "sender": Opt(Str(32))}
    text: str
    table: int | None = None
    sender: str | None = None


@dataclass(frozen=True)
class Rename(Message):
    """C->H: the player's name from now on (chat, tables made or joined next, and the seat
    held while no game runs there)."""

    TYPE: ClassVar[str] = "rename"
    FIELDS: ClassVar = {"name": Str(32)}
    name: str


@dataclass(frozen=True)
class Ping(Message):
    """Either way: the peer answers ``pong`` with the same nonce."""

    TYPE: ClassVar[str] = "ping"
    FIELDS: ClassVar = {"nonce": Int(0, U32)}
    nonce: int = 0


@dataclass(frozen=True)
class Pong(Message):
    """Either way: answer to ``ping``."""

    TYPE: ClassVar[str] = "pong"
    FIELDS: ClassVar = {"nonce": Int(0, U32)}
    nonce: int = 0


@dataclass(frozen=True)
class Bye(Message):
    """Either way: the sender closes the connection after this message."""

    TYPE: ClassVar[str] = "bye"
    FIELDS: ClassVar = {"reason": Str(200), "why": Opt(Str(32)), "args": Opt(Args())}
    reason: str = ""
    why: str | None = None  # the reason as data, for a client to word (docs 4.17)
    args: dict[str, Any] | None = None


#: Every message class by wire type.
MESSAGE_TYPES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello, Welcome, Error, Lobby, CreateTable, JoinTable, Joined, Leave,
        AddBot, RemoveBot, Start, Action, State, Hint, Chat, Rename, Ping, Pong, Bye,
    )
}


def decode(d: dict[str, Any]) -> Message:
    """Turn a decoded frame into its message; RemoteProtocolError if invalid."""
    if not isinstance(d, dict):
        raise RemoteProtocolError("not-a-map", "message is not a map", fatal=True)
    kind = d.get("type")
    if not isinstance(kind, str):
        raise RemoteProtocolError(
            "bad-field", "message has no \"type\" string", fatal=False
        )
    cls = MESSAGE_TYPES.get(kind)
    if cls is None:
        shown = clean_text(kind, 32)
        raise RemoteProtocolError(
            "unknown-type", f"unknown message type {shown!r}", fatal=False, ref=shown
        )
    return cls.from_wire(d)


__all__ = [
    "BOT_LEVELS", "MESSAGE_TYPES", "Action", "AddBot", "Bye", "Chat", "CreateTable", "Error",
    "Hello", "Hint", "JoinTable", "Joined", "Leave", "Lobby", "Message", "Ping", "Pong",
    "RemoveBot", "Resumed", "SeatInfo", "Start", "State", "TableInfo", "Welcome",
    "decode",
]
