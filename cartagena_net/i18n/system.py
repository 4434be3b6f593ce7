"""The disk's troubles in the reader's language: the operating system's errors and a
damaged journal's kind of damage.

A host tells its clients about a disk that refuses writes as data:
:func:`cartagena_net.portable.files.error_fields` gives ``error`` (the OS's own words,
English) and ``errno`` (the symbolic name); a damaged journal comes with its ``cause``
(``host/unfinished.CAUSES``) and ``why`` (the reader's English detail). Each reader
words them here: the errors a game night meets by name, any other in the OS's words."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cartagena_net.i18n import N_, gettext

#: What each error a host's disk may give means, by its symbolic name.
OS_ERRORS: dict[str, str] = {
    "ENOSPC": N_("the disk is full"),
    "EDQUOT": N_("the disk quota is used up"),
    "EROFS": N_("the disk is read-only"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("permission denied"),
    "EIO": N_("the disk reports an input/output error"),
    "ENOENT": N_("the folder does not exist"),
    "ENOTDIR": N_("a part of the path is not a folder"),
    "EMFILE": N_("too many files are open"),
    "ENFILE": N_("too many files are open"),
}


#: A damaged journal's kind of damage (``JournalDamage.cause``, a notice's ``cause``).
JOURNAL_DAMAGE: dict[str, str] = {
    "damaged": N_("a record in it is damaged"),
    "inconsistent": N_("its records do not fit the game"),
    "empty": N_("it is empty"),
    "fault": N_("the host could not read it"),
}


def damage_text(fields: Mapping[str, Any], gettext: Callable[[str], str] = gettext) -> str:
    """A damaged journal's ``cause`` in words, else the host's own ``why`` (an older
    host sends no cause)."""
    cause = fields.get("cause")
    if isinstance(cause, str) and cause in JOURNAL_DAMAGE:
        return gettext(JOURNAL_DAMAGE[cause])
    return str(fields.get("why") or "?")


def os_error_text(fields: Mapping[str, Any], gettext: Callable[[str], str] = gettext,
                  default: str = "?") -> str:
    """``fields``' error (``errno``, ``error``) in words, through ``gettext``: its name's
    meaning where known, else the OS's own words, else ``default``."""
    name = fields.get("errno")
    if isinstance(name, str) and name in OS_ERRORS:
        return gettext(OS_ERRORS[name])
    text = fields.get("error")
    return str(text) if isinstance(text, str) and text else default
