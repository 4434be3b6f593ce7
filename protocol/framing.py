"""Length-prefixed msgpack frames: a sans-IO decoder and an encoder.

A frame is a 4-byte big-endian unsigned length followed by that many bytes
holding exactly one msgpack map with string keys.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, NoReturn

import msgpack

from .errors import LocalProtocolError, RemoteProtocolError

#: Largest frame body accepted or produced, in bytes.
MAX_FRAME = 65536
HEADER_SIZE = 4

INT_MIN = -(2**63)
INT_MAX = 2**64 - 1
#: Deepest nesting of maps/arrays encode_frame accepts.
MAX_DEPTH = 64


#: msgpack's message when ``strict_map_key`` refuses a key (int, nil, array, ...).
_MAP_KEY_REFUSED = "is not allowed for map key"


def _refuse_ext(code: int, data: bytes) -> NoReturn:
    raise ValueError(f"msgpack ext type {code} is not used by this protocol")


#: What a frame that is not a map holds, in words.
_KINDS = {int: "an integer", float: "a number", str: "a string", bytes: "binary data",
          list: "an array", bool: "a boolean", type(None): "nil"}


def _why(exc: Exception) -> str:
    """What msgpack's error says, or (an error with no words) what kind it is."""
    if str(exc):
        return str(exc)
    if isinstance(exc, msgpack.FormatError):
        return "a byte that starts no msgpack value"
    if isinstance(exc, msgpack.StackError):
        return "nested too deep"
    return type(exc).__name__


def unpack_body(body: bytes) -> dict[str, Any]:
    """Decode one frame body; RemoteProtocolError (fatal) unless a str-keyed map."""
    limit = len(body)
    try:
        obj = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_refuse_ext,
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=limit,
            max_map_len=limit // 2,
            max_ext_len=0,
        )
    except ValueError as exc:
        if _MAP_KEY_REFUSED in str(exc):
            # A map (at any depth) with a key that is neither str nor bin: refused by
            # the decoder itself, so no dict is ever built from such keys.
            raise RemoteProtocolError(
                "not-a-map", f"a map in the frame has a non-string key ({exc})", fatal=True
            ) from None
        raise RemoteProtocolError(
            "bad-msgpack", f"frame is not valid msgpack ({_why(exc)})",
            fatal=True) from None
    except (TypeError, OverflowError, msgpack.UnpackException) as exc:
        raise RemoteProtocolError(
            "bad-msgpack", f"frame is not valid msgpack ({_why(exc)})",
            fatal=True) from None
    if not isinstance(obj, dict):
        raise RemoteProtocolError(
            "not-a-map", f"frame holds {_KINDS.get(type(obj), 'something else')}, not a map",
            fatal=True)
    for key in obj:
        if not isinstance(key, str):
            raise RemoteProtocolError(
                "not-a-map", "frame map has a non-string key", fatal=True
            )
    return obj


class FrameDecoder:
    """Split a byte stream into decoded frames; feed bytes in any chunking.

    ``receive_data`` checks each header as soon as its 4 bytes are in and
    raises RemoteProtocolError ``frame-too-large`` at once, before any of that
    frame's body is kept. ``next_frame`` returns the next decoded map or None.
    After a fatal error every later call raises the same error. Memory held
    beyond complete, not yet taken frames never exceeds header + max_frame.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        if not 1 <= max_frame <= 2**32 - 1:
            raise ValueError("max_frame must be in 1 .. 2**32-1")
        self.max_frame = max_frame
        self._head = bytearray()
        self._body = bytearray()
        self._need: int | None = None  # body size of the frame being read
        self._frames: deque[bytes] = deque()
        self._error: RemoteProtocolError | None = None
        #: Complete frames split off so far (taken or not).
        self.frames_received = 0

    @property
    def buffered(self) -> int:
        """Bytes received of the frame being read, its 4-byte header included once it is
        whole (always <= 4 + max_frame; 0 only between frames)."""
        return len(self._head) + len(self._body) + (HEADER_SIZE if self._need is not None
                                                    else 0)

    @property
    def pending(self) -> int:
        """Complete frames received and not yet taken."""
        return len(self._frames)

    def _fail(self, error: RemoteProtocolError) -> NoReturn:
        self._error = error
        self._head = bytearray()
        self._body = bytearray()
        self._frames.clear()
        raise error

    def receive_data(self, data: bytes | bytearray | memoryview) -> None:
        """Add bytes from the stream; raises on a header over the limit."""
        if self._error is not None:
            raise self._error
        view = memoryview(data).cast("B")
        i, n = 0, len(view)
        if self._need is None and not self._head and n >= HEADER_SIZE:
            # The common case: a frame's header whole at the start of what came.
            size = int.from_bytes(view[:HEADER_SIZE], "big")
            if 0 < size <= self.max_frame and n - HEADER_SIZE >= size:
                self._frames.append(bytes(view[HEADER_SIZE:HEADER_SIZE + size]))
                self.frames_received += 1
                i = HEADER_SIZE + size
        while i < n:
            if self._need is None:
                take = min(HEADER_SIZE - len(self._head), n - i)
                self._head += view[i : i + take]
                i += take
                if len(self._head) < HEADER_SIZE:
                    break
                size = int.from_bytes(self._head, "big")
                self._head.clear()
                if size > self.max_frame:
                    self._fail(RemoteProtocolError(
                        "frame-too-large",
                        f"frame of {size} bytes exceeds {self.max_frame}",
                        fatal=True,
                    ))
                if size == 0:
                    self._fail(RemoteProtocolError(
                        "bad-msgpack", "empty frame", fatal=True
                    ))
                self._need = size
            need = self._need
            if not self._body and n - i >= need:
                self._frames.append(bytes(view[i : i + need]))
                self.frames_received += 1
                i += need
                self._need = None
                continue
            take = min(need - len(self._body), n - i)
            self._body += view[i : i + take]
            i += take
            if len(self._body) == need:
                self._frames.append(bytes(self._body))
                self.frames_received += 1
                self._body = bytearray()
                self._need = None

    def next_frame(self) -> dict[str, Any] | None:
        """Return the next complete frame as a str-keyed dict, or None."""
        if self._error is not None:
            raise self._error
        if not self._frames:
            return None
        body = self._frames.popleft()
        try:
            return unpack_body(body)
        except RemoteProtocolError as exc:
            self._fail(exc)


def _check_value(obj: Any) -> None:
    """Raise LocalProtocolError unless obj is plain, encodable data."""
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        value, depth = stack.pop()
        if value is None or isinstance(value, (bool, float, bytes, bytearray)):
            continue
        if isinstance(value, int):
            if not INT_MIN <= value <= INT_MAX:
                raise LocalProtocolError(
                    "bad-value", f"integer {value} is outside msgpack's range"
                )
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise LocalProtocolError(
                    "bad-value", "string is not encodable as UTF-8"
                ) from None
        elif isinstance(value, (list, tuple)):
            if depth >= MAX_DEPTH:
                raise LocalProtocolError("bad-value", "data nested too deeply")
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, dict):
            if depth >= MAX_DEPTH:
                raise LocalProtocolError("bad-value", "data nested too deeply")
            for key, item in value.items():
                if not isinstance(key, str):
                    raise LocalProtocolError(
                        "bad-value", f"map key {key!r} is not a string"
                    )
                stack.append((item, depth + 1))
        else:
            raise LocalProtocolError(
                "bad-value", f"cannot encode a {type(value).__name__}"
            )


_FIXMAPS = tuple(bytes((0x80 | n,)) for n in range(16))  # maps of 0 to 15 entries
_FIXARRAYS = tuple(bytes((0x90 | n,)) for n in range(16))  # arrays of 0 to 15 items


def _map_header(n: int) -> bytes:
    """msgpack's header of a map of ``n`` entries."""
    if n < 16:
        return _FIXMAPS[n]
    if n < 1 << 16:
        return b"\xde" + n.to_bytes(2, "big")
    return b"\xdf" + n.to_bytes(4, "big")


_PACKERS = threading.local()  # a Packer per thread, made once: packb makes one a call


def _packb(d: Any) -> bytes:
    """msgpack's encoding of ``d``; LocalProtocolError ``bad-value`` if it cannot be."""
    try:
        pack = _PACKERS.pack
    except AttributeError:
        pack = _PACKERS.pack = msgpack.Packer(use_bin_type=True).pack
    try:
        return pack(d)
    except (ValueError, TypeError, OverflowError) as exc:
        raise LocalProtocolError("bad-value", f"cannot encode: {exc}") from None


def _check_size(size: int, max_frame: int) -> None:
    """LocalProtocolError ``frame-too-large`` if a body of ``size`` is over ``max_frame``."""
    if size > max_frame:
        raise LocalProtocolError(
            "frame-too-large", f"frame of {size} bytes exceeds {max_frame}"
        )


def _framed(body: bytes, max_frame: int) -> bytes:
    """``body`` behind its length header; LocalProtocolError if it is over ``max_frame``."""
    _check_size(len(body), max_frame)
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def pack_entries(d: dict[str, Any]) -> bytes:
    """The msgpack encoding of a map's entries without the map's header: a part that
    :func:`encode_frame_entries` puts into frames as it is (encoded once, sent often).
    The values are not walked (plain data the caller built, as ``check=False``)."""
    if not isinstance(d, dict):
        raise LocalProtocolError("bad-value", "entries must come from a map")
    body = _packb(d)
    return body[1 if body[0] < 0xDE else 3 if body[0] == 0xDE else 5 :]


def pack_value(value: Any) -> bytes:
    """The msgpack encoding of one value, an item after :func:`pack_array_head` (plain
    data the caller built: not walked, as ``check=False``)."""
    return _packb(value)


def _array_header(n: int) -> bytes:
    """msgpack's header of an array of ``n`` items."""
    if n < 16:
        return _FIXARRAYS[n]
    if n < 1 << 16:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


#: The heads made so far (a frame's few keys and sizes, again and again), at most
#: _HEADS_KEPT: (key, count, the header's kind) -> bytes.
_HEADS: dict[tuple[str, int, Any], bytes] = {}
_HEADS_KEPT = 256


def _entry_head(key: str, count: int, header: Any) -> bytes:
    """``key`` and ``header(count)`` (:func:`_map_header` or :func:`_array_header`)."""
    which = (key, count, header)
    head = _HEADS.get(which)
    if head is None:
        head = _packb(key) + header(count)
        if len(_HEADS) < _HEADS_KEPT:
            _HEADS[which] = head
    return head


def pack_array_head(key: str, count: int) -> bytes:
    """The start of one map entry whose value is an array of ``count`` items: ``key``
    and the array's header. The items follow it, each encoded already
    (:func:`pack_value`): an item the same in many frames is encoded once and put into
    each as it is."""
    return _entry_head(key, count, _array_header)


def pack_map_head(key: str, count: int) -> bytes:
    """The start of one map entry whose value is a map of ``count`` entries: ``key`` and
    the map's header. The entries follow it, encoded already (:func:`pack_entries`, or
    the heads here and what follows them)."""
    return _entry_head(key, count, _map_header)


def encode_frame_entries(count: int, *parts: bytes, max_frame: int = MAX_FRAME) -> bytes:
    """One frame of a map of ``count`` entries encoded already, ``parts`` one after
    another (:func:`pack_entries`, :func:`pack_map_head` or :func:`pack_array_head` and
    what follows them; no key twice). It decodes exactly as the same map encoded whole
    (:func:`encode_frame`); LocalProtocolError ``frame-too-large`` if it is over
    ``max_frame``. The frame is joined once, its header first."""
    head = _map_header(count)
    size = len(head) + sum(map(len, parts))
    _check_size(size, max_frame)
    return b"".join((size.to_bytes(HEADER_SIZE, "big"), head, *parts))


def encode_frame(
    d: dict[str, Any], max_frame: int = MAX_FRAME, *, check: bool = True
) -> bytes:
    """Encode a str-keyed map as one frame (header + body).

    Raises LocalProtocolError ``bad-value`` for data msgpack cannot carry
    (ints outside -2**63 .. 2**64-1, non-str keys, other types) and
    ``frame-too-large`` if the body exceeds ``max_frame``. ``check=False``
    skips the value walk for data already validated (a message's to_wire()).
    """
    if not isinstance(d, dict):
        raise LocalProtocolError("bad-value", "a frame must hold a map")
    if check:
        _check_value(d)
    return _framed(_packb(d), max_frame)
