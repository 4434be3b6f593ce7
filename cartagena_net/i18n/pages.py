"""The web pages' messages: found in their JavaScript and HTML, and handed to a browser
from the same catalogs the terminal reads.

In JavaScript a message is a double-quoted literal in a call of ``tr("...")``,
``nt("one", "many", n)`` or ``pt("context", "...")`` (``static/i18n.js``). In HTML an
element marked ``data-t`` has its text translated (the text is the message, its white
space folded), and one marked ``data-ta`` its ``title``, ``aria-label``, ``alt`` and
``placeholder`` attributes. :func:`page_catalog` makes what ``/i18n.js`` sends: each page
message's translation, and the plural form's index for the numbers 0 to 199 (a number
from 200 up takes the index of ``100 + n % 100``), so the page needs no ``eval`` of the
catalog's ``Plural-Forms`` rule (the pages' CSP forbids it).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

_STR = r'"((?:[^"\\\n]|\\.)*)"'
_CALL = re.compile(r"(?<![\w.$])(tr|nt|pt)\(\s*" + _STR + r"(?:\s*,\s*" + _STR + r")?")
ATTRS = ("title", "aria-label", "alt", "placeholder")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                  text)


def js_messages(source: str) -> list[tuple[str | None, str, str | None, int]]:
    """(context, msgid, msgid_plural, line) of each marked message of a script."""
    out = []
    for m in _CALL.finditer(source):
        line = source.count("\n", 0, m.start()) + 1
        fn, first, second = m.group(1), _unescape(m.group(2)), m.group(3)
        if fn == "tr":
            out.append((None, first, None, line))
        elif fn == "nt" and second is not None:
            out.append((None, first, _unescape(second), line))
        elif fn == "pt" and second is not None:
            out.append((first, _unescape(second), None, line))
    return [o for o in out if o[1]]


def fold(text: str) -> str:
    return " ".join(text.split())


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, int]] = []
        self.stack: list[tuple[str, list[str], int] | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        if "data-ta" in a:
            self.found += [(v, line) for k, v in attrs if k in ATTRS and v]
        if tag in ("meta", "link", "input", "img", "br", "hr"):
            return
        self.stack.append((tag, [], line) if "data-t" in a else None)

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            top = self.stack.pop()
            if top is not None and fold("".join(top[1])):
                self.found.append((fold("".join(top[1])), top[2]))

    def handle_data(self, data: str) -> None:
        for entry in self.stack:
            if entry is not None:
                entry[1].append(data)


def html_messages(source: str) -> list[tuple[str, int]]:
    """(msgid, line) of each marked text and attribute of a page."""
    parser = _Marked()
    parser.feed(source)
    parser.close()
    return parser.found


def messages(files: dict[str, bytes]) -> set[tuple[str | None, str, str | None]]:
    """Every page message of the static files (name -> bytes)."""
    out: set[tuple[str | None, str, str | None]] = set()
    for name, body in files.items():
        text = body.decode("utf-8")
        if name.endswith(".js"):
            out |= {(c, i, p) for c, i, p, _ in js_messages(text)}
        elif name.endswith(".html"):
            out |= {(None, i, None) for i, _ in html_messages(text)}
    return out


def page_catalog(code: str, wanted: set[tuple[str | None, str, str | None]]) -> dict[str, Any]:
    """What a page in ``code`` needs: ``{"lang", "plural": [index for 0..199],
    "messages": {key: text or [forms]}}``, a key being the msgid (``context\\x04msgid``
    with a context). Only translated messages are sent; the page falls back to English."""
    from cartagena_net.i18n import translation

    tr = translation(code)
    plural = getattr(tr, "plural", lambda n: int(n != 1))
    out: dict[str, Any] = {}
    for ctx, msgid, many in sorted(wanted, key=lambda w: (w[0] or "", w[1])):
        key = msgid if ctx is None else f"{ctx}\x04{msgid}"
        if many is not None:
            text = _forms(tr, msgid, many, plural)
            if text is not None:
                out[key] = text
        else:
            got = tr.pgettext(ctx, msgid) if ctx is not None else tr.gettext(msgid)
            if got != msgid:
                out[key] = got
    return {"lang": code, "plural": [int(plural(n)) for n in range(200)], "messages": out}


def _forms(tr: Any, msgid: str, many: str, plural: Any) -> list[str] | None:
    by_index: dict[int, str] = {}
    for n in range(200):
        by_index.setdefault(int(plural(n)), tr.ngettext(msgid, many, n))
    forms = [by_index[i] for i in sorted(by_index)]
    return None if forms == [msgid, many] else forms
