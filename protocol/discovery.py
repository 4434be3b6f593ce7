"""LAN discovery datagrams (UDP): probes, announcements and replies. Sans-IO.

Layout (docs/protocol.md, "Discovery"): every datagram starts with the magic
``b"CTGN"``, a version byte and a kind byte. A probe then holds a 16-byte
random nonce and zero padding up to PROBE_SIZE bytes. An announcement or a
reply holds one msgpack map. A reply is never larger than the probe it
answers. Payloads never carry an address (receivers use the datagram's source
address) and never a password.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, ClassVar

import msgpack

from .errors import LocalProtocolError
from .fields import (
    U16,
    U32,
    Bin,
    Bool,
    Enum,
    FieldError,
    Int,
    Nested,
    Opt,
    Record,
    Seq,
    Str,
)
from .framing import unpack_body
from .messages import TABLE_STATUSES

MAGIC = b"CTGN"
DISCOVERY_VERSION = 1
KIND_PROBE = 1
KIND_ANNOUNCE = 2
KIND_REPLY = 3
NONCE_SIZE = 16
PROBE_SIZE = 512
#: Largest announcement/reply a host sends (and the size of a probe).
MAX_ANNOUNCE = PROBE_SIZE
#: Largest datagram a receiver looks at; anything larger is dropped.
MAX_DATAGRAM = 1400
DISCOVERY_PORT = 41672
DEFAULT_TCP_PORT = 41672
MAX_SUMMARY_TABLES = 16

_HEADER = len(MAGIC) + 2


def _header(kind: int) -> bytes:
    return MAGIC + bytes((DISCOVERY_VERSION, kind))


@dataclass(frozen=True)
class Probe:
    """A discovery probe: "who hosts here?"; ``nonce`` is 16 random bytes."""

    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_SIZE))

    def __post_init__(self) -> None:
        if not isinstance(self.nonce, (bytes, bytearray)) or len(self.nonce) != NONCE_SIZE:
            raise LocalProtocolError("bad-field", f"probe nonce must be {NONCE_SIZE} bytes")
        object.__setattr__(self, "nonce", bytes(self.nonce))

    def encode(self) -> bytes:
        """The probe datagram, exactly PROBE_SIZE bytes."""
        data = _header(KIND_PROBE) + self.nonce
        return data + bytes(PROBE_SIZE - len(data))


@dataclass(frozen=True)
class TableSummary(Record):
    """Schema of one table in an announcement (held as a plain dict)."""

    _LABEL: ClassVar[str] = "table"
    FIELDS: ClassVar = {
        "id": Int(0, U32),
        "name": Str(32),
        "rules": Str(32),
        "seats": Int(0, 255),
        "free": Int(0, 255),
        "status": Enum(*TABLE_STATUSES),
        "password": Bool(),
    }
    id: int
    name: str
    rules: str
    free: int = 0
    seats: int = 0
    status: str = "waiting"
    password: bool = False


@dataclass(frozen=True)
class Announce(Record):
    """A host's announcement; with ``nonce`` set it is the reply to that probe.

    ``instance`` changes on every host restart (bytes are turned into hex).
    ``tables`` holds plain dicts with TableSummary's keys (TableSummary objects
    or dicts with extra keys are accepted and normalized); at most 16.
    """

    _LABEL: ClassVar[str] = "announce"
    FIELDS: ClassVar = {
        "host_id": Str(64),
        "instance": Str(32),
        "name": Str(64),
        "port": Int(1, U16),
        "version": Int(1, U16),
        "tables": Seq(Nested(TableSummary), MAX_SUMMARY_TABLES),
        "nonce": Opt(Bin(NONCE_SIZE)),
    }
    host_id: str
    instance: str
    name: str
    port: int = DEFAULT_TCP_PORT
    version: int = 1
    tables: tuple[dict[str, Any], ...] = ()
    nonce: bytes | None = None

    def __post_init__(self) -> None:
        if isinstance(self.instance, (bytes, bytearray)):
            object.__setattr__(self, "instance", bytes(self.instance).hex())
        if isinstance(self.tables, (list, tuple)) and len(self.tables) > MAX_SUMMARY_TABLES:
            object.__setattr__(self, "tables", tuple(self.tables)[:MAX_SUMMARY_TABLES])
        super().__post_init__()

    @property
    def kind(self) -> int:
        return KIND_ANNOUNCE if self.nonce is None else KIND_REPLY

    def encode(self, limit: int = MAX_ANNOUNCE) -> bytes:
        """The datagram, trimmed to ``limit`` bytes (tables dropped from the end).

        Raises LocalProtocolError ``frame-too-large`` if even without tables
        it does not fit (only possible for limits far below PROBE_SIZE).
        """
        data = fit(self, limit)
        if data is None:
            raise LocalProtocolError("frame-too-large", f"announcement exceeds {limit} bytes")
        return data


def _encode_exact(announce: Announce) -> bytes:
    return _header(announce.kind) + msgpack.packb(announce.to_wire(), use_bin_type=True)


def fit(announce: Announce, limit: int) -> bytes | None:
    """Encode ``announce`` in at most ``limit`` bytes, trimming the table summary.

    Tables are dropped from the end until it fits; None if it does not fit
    even with no tables.
    """
    tables = announce.tables
    lo, hi = 0, len(tables)
    data = _encode_exact(announce)
    if len(data) <= limit:
        return data
    best: bytes | None = None
    while lo <= hi:  # largest prefix of the tables that fits
        mid = (lo + hi) // 2
        data = _encode_exact(_with_tables(announce, tables[:mid]))
        if len(data) <= limit:
            best, lo = data, mid + 1
        else:
            hi = mid - 1
    return best


def _with_tables(announce: Announce, tables: tuple[dict[str, Any], ...]) -> Announce:
    obj = object.__new__(Announce)
    for name in Announce.FIELDS:
        object.__setattr__(obj, name, getattr(announce, name))
    object.__setattr__(obj, "tables", tables)
    return obj


def reply_for(
    probe_size: int | Probe, announce: Announce, nonce: bytes | None = None
) -> bytes | None:
    """The reply to a probe: never larger than the probe (``probe_size`` bytes).

    ``probe_size`` is the size of the probe datagram received (a Probe object
    stands for PROBE_SIZE and also supplies the nonce). The reply echoes
    ``nonce`` (kind 3); without one it is a plain announcement (kind 2).
    Returns None if nothing fits.
    """
    if isinstance(probe_size, Probe):
        nonce = probe_size.nonce if nonce is None else nonce
        probe_size = PROBE_SIZE
    try:
        reply = _with_tables(announce, announce.tables)
        object.__setattr__(reply, "nonce", Opt(Bin(NONCE_SIZE)).clean(nonce, "nonce"))
    except FieldError as exc:
        raise LocalProtocolError("bad-field", str(exc)) from None
    return fit(reply, min(probe_size, MAX_ANNOUNCE))


def reply_to(probe_datagram: bytes, announce: Announce) -> bytes | None:
    """The reply to a received probe datagram (its nonce echoed), or None.

    Never larger than ``probe_datagram``; None if that is not a valid probe
    or nothing fits.
    """
    probe = decode_datagram(probe_datagram)
    if not isinstance(probe, Probe):
        return None
    return reply_for(len(probe_datagram), announce, probe.nonce)


def decode_datagram(data: bytes) -> Probe | Announce | None:
    """Parse a discovery datagram; None for anything foreign or malformed."""
    try:
        return _decode(bytes(data))
    except Exception:  # noqa: BLE001 - hostile input is dropped, never raised
        return None


def _decode(data: bytes) -> Probe | Announce | None:
    if len(data) > MAX_DATAGRAM or len(data) < _HEADER or data[:4] != MAGIC:
        return None
    version, kind = data[4], data[5]
    if version != DISCOVERY_VERSION:
        return None
    if kind == KIND_PROBE:
        if len(data) != PROBE_SIZE:
            return None
        return Probe(data[_HEADER : _HEADER + NONCE_SIZE])
    if kind not in (KIND_ANNOUNCE, KIND_REPLY):
        return None
    body = unpack_body(data[_HEADER:])
    announce = Announce.from_wire(body)
    if (announce.nonce is None) != (kind == KIND_ANNOUNCE):
        return None
    return announce


__all__ = [
    "DEFAULT_TCP_PORT", "DISCOVERY_PORT", "KIND_ANNOUNCE", "KIND_PROBE", "KIND_REPLY",
    "MAGIC", "MAX_ANNOUNCE", "MAX_DATAGRAM", "NONCE_SIZE", "PROBE_SIZE", "Announce",
    "Probe", "TableSummary", "decode_datagram", "fit", "reply_for", "reply_to",
]
