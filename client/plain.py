"""Host errors and counts in plain words: no protocol codes on a player's screen.

The host's reasons (an ``error``'s and a ``bye``'s ``why`` and ``args``, a ``hint``'s
``why``) are worded here in the reader's language from their data, with the table of
:mod:`cartagena_net.engine.reasons` and the game's words of :mod:`client.glyphs`; the
host's English line is shown only for a reason this client does not know.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartagena_net.engine.reasons import hint_text, reason_text
from cartagena_net.i18n import N_, _, language, translation
from client.glyphs import color_name, place, symbol_name

# What a player reads for each error code; ``{message}`` is the host's own sentence.
PLAIN: dict[str, str] = {
    "not-owner": N_("only the table's owner can do that"),
    "stale": N_("the game moved on before your move arrived: look again and retry"),
    "not-your-turn": N_("it is not your turn"),
    "not-started": N_("the game has not started"),
    "already-started": N_("the game is already on: {message}"),
    "seats-empty": N_("cannot start yet: {message}"),
    "table-full": N_("no free seat: {message}"),
    "no-spectators": N_("this table does not admit watchers"),
    "no-such-table": N_("that table is gone"),
    "bad-password": N_("wrong or missing password"),
    "bad-token": N_("that seat is no longer kept for you"),
    "server-full": N_("the host is full: try again later"),
    "shutting-down": N_("the host ended the game"),
    "resumed-elsewhere": N_("another client took over your seat"),
    "too-many-tables": N_("the host has no room for another table"),
    "rate-limited": N_("too many keys too fast: the host closed the connection"),
    "idle-timeout": N_("the host heard nothing from this client for too long"),
    "illegal-action": N_("not allowed: {message}"),
    "bad-action": N_("the host could not read that move"),
    "bad-rules": N_("those rules or options are not valid: {message}"),
    "bad-seat": N_("{message}"),
    "not-allowed": N_("not allowed here: {message}"),
    "wrong-table": N_("that is not your table"),
    "no-common-version": N_("this client and the host speak different versions"),
    "internal": N_("the host hit a bug and closed the connection"),
}


def reason(why: Any, args: Any = None) -> str | None:
    """A host's reason (``why`` and its ``args``) in the reader's language; None for one
    this client cannot say (a newer host's key, fields that do not fit)."""
    if not isinstance(why, str) or not (args is None or isinstance(args, Mapping)):
        return None
    return reason_text(why, args, translation(language()), color_name, symbol_name, place)


def hint_reason(why: Any) -> str | None:
    """A ``hint``'s ``why`` map in the reader's language (None if it cannot be said)."""
    if not isinstance(why, Mapping):
        return None
    return hint_text(why, translation(language()), symbol_name, color_name, place)


def bye_reason(msg: Mapping[str, Any]) -> str:
    """Why the host said ``bye``: worded from its data, else the host's line."""
    return reason(msg.get("why"), msg.get("args")) or str(msg.get("reason") or "")


def plain_error(code: str, message: str = "", why: Any = None, args: Any = None) -> str:
    """An ``error`` (code, the host's reason as data and its English message) as a
    sentence for a player."""
    template = _(PLAIN[code]) if code in PLAIN else None
    message = reason(why, args) or (message or "").strip()
    if template is None:
        return message or code.replace("-", " ")
    if "{message}" in template and not message:
        return template.split(":")[0].strip()
    return template.format(message=message)
