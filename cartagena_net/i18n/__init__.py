"""The program's words in the reader's language: gettext catalogs, one per language.

Each language is one folder, ``locale/<code>/LC_MESSAGES/cartagena.po`` beside this file,
and one line in :data:`LANGUAGES`. The catalogs are read as they are (no compiled ``.mo``
file and no build step: :mod:`cartagena_net.i18n.po` turns a ``.po`` into the bytes of a
``.mo`` in memory, which the standard library's :class:`gettext.GNUTranslations` reads), so
a plain ``pip install .``, an editable install and a source checkout all speak every
language. English is the source language: its words are the code's own, and a message a
catalog lacks (or leaves empty) reads in English, never as a blank or a key.

In the code, words a person reads are wrapped where they are made::

    from cartagena_net.i18n import _, ngettext, N_
    print(_("no games kept in {folder} yet").format(folder=folder))
    print(ngettext("{n} card", "{n} cards", n).format(n=n))
    HELP = N_("list the games kept on this machine")  # marked here, translated at use

The terminal and the command line follow one process-wide language
(:func:`set_language`, from :func:`from_environment` or ``--lang``); the host's web pages
pick one per request (:func:`negotiate`) and translate with :func:`translation`.
``tests/test_i18n.py`` checks that every marked message is in every catalog and that no
catalog keeps a message the code no longer uses (:mod:`cartagena_net.i18n.extract`).
"""
from __future__ import annotations

import gettext as _gettext
import io
import os
import re
import warnings
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from cartagena_net.i18n.po import compile_mo, read_po

DOMAIN = "cartagena"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DEFAULT = "en"

# One line per language: its code (the folder's name under locale/) and its own name, as
# a language switch shows it. English, the source, has no catalog.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "sv": "Svenska",
}

_current = DEFAULT


def catalog_path(code: str) -> Path:
    """Where the catalog of ``code`` lives."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translation(code: str) -> _gettext.NullTranslations:
    """The translations of a language (English's, which change nothing, for an unknown
    code or a language without its catalog)."""
    if code == DEFAULT or code not in LANGUAGES:
        return _gettext.NullTranslations()
    path = catalog_path(code)
    try:
        text = path.read_text(encoding="utf-8")
        return _gettext.GNUTranslations(io.BytesIO(compile_mo(read_po(text, str(path)))))
    except (OSError, UnicodeError, ValueError) as exc:  # PoError, a bad Plural-Forms
        warnings.warn(f"the {LANGUAGES[code]} catalog cannot be read, so English is "
                      f"spoken: {exc}", RuntimeWarning, stacklevel=2)
        return _gettext.NullTranslations()


def set_language(code: str | None) -> str:
    """Speak ``code`` from now on in this process (the terminal, the command line); an
    unknown language means English. Returns the language now spoken."""
    global _current
    _current = match(code or "") or DEFAULT
    return _current


def language() -> str:
    """The language this process speaks now."""
    return _current


def gettext(message: str) -> str:
    """``message`` in the current language (as it is where there is no translation)."""
    if not isinstance(message, str) or not message:
        return message  # argparse passes None for an absent description
    return translation(_current).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number ``n``, by the language's own plural rule."""
    return translation(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` (one English word, two meanings)."""
    return translation(_current).pgettext(context, message)


def NP_(context: str, message: str) -> str:
    """:func:`N_` for a message with a context: translated at use with
    ``pgettext(context, CONSTANT)``."""
    return message


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is defined (a module's constant),
    leaving it English; the code translates it where it is shown, ``_(CONSTANT)``."""
    return message


def decimal(number: float | str, digits: int | None = None) -> str:
    """A decimal number as the language writes it (``1.5``; in Swedish ``1,5``)."""
    text = number if isinstance(number, str) else (
        str(number) if digits is None else f"{number:.{digits}f}")
    return text.replace(".", pgettext("decimal separator", "."))


def whole(number: int) -> str:
    """A whole number with its thousands grouped as the language does (``12,000``; in
    Swedish ``12 000``, with a no-break space)."""
    sep = pgettext("thousands separator", ",")
    text = f"{abs(int(number)):,}".replace(",", sep)
    return ("-" if number < 0 else "") + text


def percent(number: float | str, digits: int | None = None) -> str:
    """``45%``, ``12.5%`` (in Swedish ``45 %``, ``12,5 %``, with a no-break space): a
    number (``digits`` after the point: rounded) or a number already written."""
    if not isinstance(number, str):
        number = decimal(number, digits)
    return pgettext("percent", "{n}%").format(n=number)


_CODE = re.compile(r"[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*")


def match(tag: str) -> str | None:
    """The language we speak for a locale name or language tag (``sv_SE.UTF-8``,
    ``sv-SE``, ``sv``), or None. ``C`` and ``POSIX`` are English."""
    tag = tag.strip().split(".")[0].split("@")[0]
    if tag in ("C", "POSIX"):
        return DEFAULT
    if not _CODE.fullmatch(tag):
        return None
    parts = tag.replace("_", "-").lower().split("-")
    for n in range(len(parts), 0, -1):
        code = "_".join(parts[:n])
        if code in LANGUAGES:
            return code
    return None


ENV_ORDER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for, as GNU gettext reads them: the locale is
    the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; ``LANGUAGE`` (a list,
    ``sv:en``), when set, comes before it, unless the locale is ``C`` or ``POSIX`` (or none
    is set), which is English whatever ``LANGUAGE`` says, so that ``LC_ALL=C`` always gives
    the program's own words. The first language of the list that we speak; else English."""
    env = os.environ if environ is None else environ
    locale = next((env[v] for v in ENV_ORDER[1:] if env.get(v)), "C")
    if match(locale) == DEFAULT and locale.split(".")[0].split("@")[0] in ("C", "POSIX"):
        return DEFAULT
    for part in (env.get("LANGUAGE") or locale).split(":"):
        code = match(part)
        if code:
            return code
    return DEFAULT


# The cookie in which a browser remembers the language its page's switch chose (read
# with negotiate's ``remembered``): a language code, nothing more.
COOKIE = "cartagena_lang"
MAX_ACCEPT = 1024  # an Accept-Language header read no further than this
_QUALITY = re.compile(r"q=(0(\.[0-9]{0,3})?|1(\.0{0,3})?)")


def negotiate(accept_language: str | None, remembered: str | None = None) -> str:
    """The language for a browser: the one it remembers choosing (the page's switch), if
    we speak it, else the best of its ``Accept-Language`` (quality values honoured, ``q=0``
    refused), else English. Malformed parts of the header are ignored."""
    if remembered:
        code = match(remembered)
        if code:
            return code
    wanted: list[tuple[float, int, str]] = []
    for i, item in enumerate((accept_language or "")[:MAX_ACCEPT].split(",")[:32]):
        tag, _sep, params = item.strip().partition(";")
        quality = 1.0
        q = _QUALITY.fullmatch(params.strip().replace(" ", "")) if params else None
        if params and q is None:
            continue
        if q is not None:
            quality = float(q.group(1))
        tag = tag.strip()
        if quality <= 0 or not tag:
            continue
        code = DEFAULT if tag == "*" else match(tag)
        if code and tag not in ("C", "POSIX"):
            wanted.append((-quality, i, code))
    return min(wanted)[2] if wanted else DEFAULT
