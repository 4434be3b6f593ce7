"""Seat tokens and password checks: random secrets compared in constant time."""
from __future__ import annotations

import hmac
import secrets

TOKEN_BYTES = 24


def new_token() -> str:
    """A fresh seat token (32 URL-safe characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_session_id() -> str:
    """An opaque per-connection session id (not a secret)."""
    return secrets.token_hex(8)


def same_secret(given: str | None, expected: str | None) -> bool:
    """True when ``given`` equals ``expected``, compared in constant time.

    An ``expected`` of None means no secret is required.
    """
    if expected is None:
        return True
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
