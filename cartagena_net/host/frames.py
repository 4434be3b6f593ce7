"""Fast framing of host-built maps (engine views), without per-field revalidation."""
from __future__ import annotations

from typing import Any

import msgpack

from protocol import MAX_FRAME, LocalProtocolError

_packer = msgpack.Packer(use_bin_type=True, autoreset=True)


def fast_frame(wire: dict[str, Any], max_frame: int = MAX_FRAME) -> bytes:
    """Encode a plain str-keyed map as one frame (4-byte length + msgpack body).

    msgpack itself refuses ints outside -2**63..2**64-1 and non-plain types
    (LocalProtocolError ``bad-value``); a body over ``max_frame`` is refused too.
    """
    try:
        body = _packer.pack(wire)
    except (OverflowError, TypeError, ValueError) as exc:
        raise LocalProtocolError("bad-value", f"cannot encode: {exc}") from None
    if len(body) > max_frame:
        raise LocalProtocolError("frame-too-large", f"frame of {len(body)} bytes")
    return len(body).to_bytes(4, "big") + body
