"""cartagena-net wire protocol, sans-IO (msgpack + standard library only).

See docs/protocol.md for the specification.
"""

from . import discovery, messages
from .connection import Connection, ConnState, Role
from .errors import (
    ERROR_CODES,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from .fields import MAX_SECRET, clean_secret
from .framing import MAX_FRAME, FrameDecoder, encode_frame
from .versions import PROTOCOL_VERSIONS, choose_version

__all__ = [
    "ERROR_CODES",
    "MAX_FRAME",
    "MAX_SECRET",
    "PROTOCOL_VERSIONS",
    "ConnState",
    "Connection",
    "FrameDecoder",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "Role",
    "choose_version",
    "clean_secret",
    "discovery",
    "encode_frame",
    "messages",
]
