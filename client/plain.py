"""Host errors and counts in plain words: no protocol codes on a player's screen."""
from __future__ import annotations

# What a player reads for each error code; ``{message}`` is the host's own sentence.
PLAIN: dict[str, str] = {
    "not-owner": "only the table's owner can do that",
    "stale": "the game moved on before your move arrived: look again and retry",
    "not-your-turn": "it is not your turn",
    "not-started": "the game has not started",
    "already-started": "the game is already on: {message}",
    "seats-empty": "cannot start yet: {message}",
    "table-full": "no free seat: {message}",
    "no-spectators": "this table does not admit watchers",
    "no-such-table": "that table is gone",
    "bad-password": "wrong or missing password",
    "bad-token": "that seat is no longer kept for you",
    "server-full": "the host is full: try again later",
    "shutting-down": "the host ended the game",
    "resumed-elsewhere": "another client took over your seat",
    "too-many-tables": "the host has no room for another table",
    "rate-limited": "too many keys too fast: the host closed the connection",
    "idle-timeout": "the host heard nothing from this client for too long",
    "illegal-action": "not allowed: {message}",
    "bad-action": "the host could not read that move",
    "bad-rules": "those rules or options are not valid: {message}",
    "bad-seat": "{message}",
    "not-allowed": "not allowed here: {message}",
    "wrong-table": "that is not your table",
    "no-common-version": "this client and the host speak different versions",
    "internal": "the host hit a bug and closed the connection",
}


def plain_error(code: str, message: str = "") -> str:
    """An ``error`` (code and host message) as a sentence for a player."""
    template = PLAIN.get(code)
    message = (message or "").strip()
    if template is None:
        return message or code.replace("-", " ")
    if "{message}" in template and not message:
        return template.split(":")[0]
    return template.format(message=message)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
