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


# The host's reasons whose table wording speaks of the protocol (message names, fields):
# a person reads what it means for them instead.
PLAIN_REASONS: dict[str, str] = {
    "spectator-only-watches": N_("this client only watches: choose a table and press w to "
                                 "watch it (`cartagena join` takes a seat)"),
    "spectator-no-seat": N_("this client only watches, so it cannot take back a seat: use "
                            "`cartagena join` for that"),
    "client-may-not-send": N_("that cannot be done right now"),
    "hello-first": N_("the host was not ready for that yet: try again"),
    "hello-again": N_("the host was not ready for that yet: try again"),
    "leave-first": N_("you are still at table {table}: leave it first (l)"),
}


def reason(why: Any, args: Any = None) -> str | None:
    """A host's reason (``why`` and its ``args``) in the reader's language; None for one
    this client cannot say (a newer host's key, fields that do not fit)."""
    if not isinstance(why, str) or not (args is None or isinstance(args, Mapping)):
        return None
    if why in PLAIN_REASONS:
        try:
            return _(PLAIN_REASONS[why]).format(**dict(args or {}))
        except (KeyError, IndexError, ValueError):
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


def not_sendable(exc: Any) -> str:
    """Why this client could not send a request (its own protocol check refused it), in
    plain words: the connection is not where the screen thought it was."""
    if getattr(exc, "code", None) == "not-allowed":
        return _("that cannot be done right now: the host has not got you at a table yet")
    if getattr(exc, "code", None) == "bad-field":
        return _("that cannot be sent: a value is too long or holds characters that cannot "
                 "be sent")
    return _("that could not be sent to the host: try again")


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


# The marks that end a sentence already (a reason that ends with one keeps it).
SENTENCE_ENDS = ".!?…:;"


def sentence(text: str) -> str:
    """A reason, a refusal or a status as a sentence: its first letter a capital and a
    full stop at its end (``this table does not allow hints`` → ``This table does not
    allow hints.``), in any language, from the words already translated; a text that ends
    with a sentence's mark keeps it, and one that does not start with a letter in lower
    case (a number, a quote, a name) keeps its start."""
    text = str(text or "").strip()
    if not text:
        return text
    if text[0].islower():
        text = text[0].upper() + text[1:]
    if text[-1] not in SENTENCE_ENDS:
        text += "."
    return text


def quit_question(model: Any) -> str:
    """What quitting now does, asked as a question: the host's game stops for everyone,
    a solo game is kept or ends, a guest's seat is kept (the full-screen client's quit
    bar and the screen reader's question say the same)."""
    if model.hosting and model.game_kept:
        return _("Quit? You are the host: the game stops for everyone; it is kept, and the "
                 "next cartagena host offers it back.")
    if model.hosting:
        return _("Quit? You are the host: this ends the game for everyone (no journal "
                 "keeps it).")
    if model.solo and model.game_kept:
        return _("Quit? The game is kept: the next cartagena play offers it back.")
    if model.solo:
        return _("Quit? This ends the game (no journal keeps it).")
    return _("Leave the running game? Your seat is kept for you.")
