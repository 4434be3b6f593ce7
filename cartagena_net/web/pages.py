"""The web port's pages and resources: fixed paths, nothing looked up by a request's name.

``/``                  the tables, as in the lobby (``index.html``)
``/tables.json``       the lobby as JSON
``/events``            the lobby as Server-Sent Events (``lobby`` events)
``/table/N``           one table, live (``table.html``; 404 ``no-table.html`` if none)
``/table/N/events``    the table as Server-Sent Events (``table`` and ``state`` events,
                       and ``gone`` when the host removes the table)
``/static/NAME``       the pages' own CSS, JavaScript and SVG, from a fixed list
``/i18n.js``           the pages' words in the browser's language (``static/i18n.js``
                       after its data; the language from the ``cartagena_lang`` cookie,
                       else ``Accept-Language``, each checked against the known ones)
``/games.json``        this host's finished games (see :mod:`cartagena_net.web.games`)
``/game/ID``           one finished game as a replay (``game.html``), ``/game/ID.json``
``/play``              a guest's seat in the browser (``play.html``; see
                       :mod:`cartagena_net.web.seats`): ``/play/events`` (its stream),
                       ``POST /play/send`` and ``POST /play/keep``, ``/play/rules.json``
                       (the New table form's data) and ``/play/qr.svg`` (the join code)

:class:`Pages` holds the files, read once from the package, and the pages' words in
each language (made once); :func:`root` builds the tree of resources.
"""
from __future__ import annotations

import io
import json
import re
from importlib import resources
from typing import Any

from twisted.web import http
from twisted.web.resource import Resource

from cartagena_net import i18n
from cartagena_net.engine.reasons import JOURNAL_DAMAGE, OS_ERRORS, REASONS
from cartagena_net.i18n import pages as page_words
from cartagena_net.web.feeds import Stream, TablesJSON
from cartagena_net.web.games import GamePage, GamesJSON
from cartagena_net.web.guard import (
    HTML,
    Fixed,
    Leaf,
    NotFound,
    header,
    page_language,
    to_json,
)
from cartagena_net.web.seats import PlayEvents, PlayKeep, PlaySend

# The pages' own files: name -> content type. Loaded once from the package.
STATIC_TYPES = {
    "web.css": "text/css; charset=utf-8",
    "common.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "table.js": "text/javascript; charset=utf-8",
    "chances.js": "text/javascript; charset=utf-8",
    "lobby.js": "text/javascript; charset=utf-8",
    "words.js": "text/javascript; charset=utf-8",
    "tableform.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "game.js": "text/javascript; charset=utf-8",
    "i18n.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
PAGES = ("index.html", "table.html", "no-table.html", "play.html", "game.html")
TABLE_ID = re.compile(rb"[1-9][0-9]{0,8}")


def package_file(name: str) -> bytes:
    return (resources.files("cartagena_net.web") / "static" / name).read_bytes()


def engine_words() -> set[str]:
    """The engine's words the New table form shows (option help, preset titles)."""
    from cartagena_net.engine import OPTIONS, PRESETS

    return {o.help for o in OPTIONS.values()} | {p.title for p in PRESETS.values()}


class Pages:
    """The pages' files and their words, in every language (each made once)."""

    def __init__(self) -> None:
        self.files = {name: package_file(name) for name in STATIC_TYPES}
        self.pages = {name: package_file(name) for name in PAGES}
        self.messages = page_words.messages({**self.files, **self.pages})
        # The New table form shows the engine's option help and preset titles (as the
        # command line does, translated where they are shown).
        self.messages |= {(None, text, None) for text in engine_words()}
        self._scripts: dict[str, bytes] = {}

    def i18n_script(self, code: str) -> bytes:
        """``/i18n.js`` for a language of :data:`cartagena_net.i18n.LANGUAGES`."""
        body = self._scripts.get(code)
        if body is None:
            data = page_words.page_catalog(code, self.messages)
            # The host's reasons (errors, bye, hints) as the page words them itself.
            tr = i18n.translation(code)
            data["reasons"] = {why: tr.gettext(text) for why, text in REASONS.items()}
            data["os_errors"] = {name: tr.gettext(text) for name, text in OS_ERRORS.items()}
            data["journal_damage"] = {cause: tr.gettext(text)
                                      for cause, text in JOURNAL_DAMAGE.items()}
            data["languages"] = dict(i18n.LANGUAGES)
            data["cookie"] = i18n.COOKIE
            head = "window.CARTAGENA_I18N = " + json.dumps(data, ensure_ascii=True) + ";\n"
            body = head.encode("ascii") + self.files["i18n.js"]
            self._scripts[code] = body
        return body


class Static(NotFound):
    """``/static/NAME`` for the names in :data:`STATIC_TYPES` only."""

    def __init__(self, files: dict[str, bytes]) -> None:
        super().__init__()
        for name, ctype in STATIC_TYPES.items():
            self.putChild(name.encode("ascii"), Fixed(files[name], ctype))


class I18nScript(Leaf):
    """``/i18n.js``: the page's words in the browser's language, then ``static/i18n.js``."""

    def __init__(self, pages: Pages) -> None:
        super().__init__()
        self.pages = pages

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", STATIC_TYPES["i18n.js"].encode("ascii"))
        request.setHeader(b"Vary", b"Accept-Language, Cookie")
        return self.pages.i18n_script(page_language(request))


class TablePage(Leaf):
    """``/table/N`` (the page) and ``/table/N/events`` (its stream)."""

    def __init__(self, web: Any, table_id: int) -> None:
        super().__init__()
        self.web = web
        self.table_id = table_id

    def getChild(self, path: bytes, request: Any) -> Resource:
        if path == b"events":
            return Stream(self.web, self.table_id)
        return NotFound()

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", HTML.encode())
        if self.table_id not in self.web.host.lobby.tables:
            # No such table (or no longer): a page that says so and links to the list.
            request.setResponseCode(http.NOT_FOUND)
            return self.web.pages.pages["no-table.html"]
        return self.web.pages.pages["table.html"]


class Tables(NotFound):
    """``/table/N``: N is a table number written without leading zeros."""

    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web

    def getChild(self, path: bytes, request: Any) -> Resource:
        if TABLE_ID.fullmatch(path):
            return TablePage(self.web, int(path))
        return NotFound()


def rules_json() -> bytes:
    """What ``cartagena rules`` lists, for the page's New table form, from the engine's
    own data: each preset (name, title, players (min, max), its values, and its values
    with each story it accepts, since a story changes other defaults) and every option
    (name, type, help, choices, bounds)."""
    from cartagena_net.engine import OPTIONS, PRESETS, make_game
    from cartagena_net.engine.options import STORIES

    presets = []
    for name, p in PRESETS.items():
        stories = {}
        for story in STORIES:
            try:
                stories[story] = make_game(name, story=story).spec()
            except ValueError:
                continue
        presets.append({"name": name, "title": str(p.title), "players": list(p.players),
                        "values": make_game(name).spec(),
                        "stories": stories if len(stories) > 1 else {}})
    options = [{"name": o.name, "type": o.kind.__name__, "help": o.help,
                "choices": list(o.choices), "bounds": list(o.bounds) if o.bounds else None}
               for o in OPTIONS.values()]
    return to_json({"presets": presets, "options": options})


def join_url(request: Any, web: Any) -> str:
    """The address a phone opens to play: the one this page was asked by, unless that
    is this machine's own name for itself (``localhost``, a loopback address: a TV
    page opened on the host's laptop), which no phone reaches: then the host's LAN
    address (the one ``cartagena host`` prints)."""
    host = header(request, "host") or ""
    if not host or not host.isprintable():
        return web.url + "play"
    own = web.url.split("//", 1)[-1].split("/", 1)[0]
    if _loopback(host) and not _loopback(own):
        return web.url + "play"
    return f"http://{host}/play"


def _loopback(authority: str) -> bool:
    """Does ``host[:port]`` name this machine to itself only (``localhost``, 127.x,
    ``[::1]``)?"""
    name = authority if authority.endswith("]") else authority.rsplit(":", 1)[0]
    name = name.strip("[]").lower()
    return (name == "localhost" or name.endswith(".localhost") or name == "::1"
            or name.startswith("127."))


class JoinCode(Leaf):
    """``/play/qr.svg``: a QR code of the address a phone opens to play
    (:func:`join_url`), for the TV and the host."""

    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web

    def render_GET(self, request: Any) -> bytes:
        import segno

        url = join_url(request, self.web)
        out = io.BytesIO()
        segno.make(url, error="m", micro=False).save(out, kind="svg", scale=6, border=2,
                                                      xmldecl=False, svgns=True)
        request.setHeader(b"Content-Type", b"image/svg+xml")
        request.setHeader(b"Cache-Control", b"no-store")
        return out.getvalue()


class JoinAddress(Leaf):
    """``/play/address``: the address the join code holds (:func:`join_url`), as text,
    for the TV page to write under it."""

    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", b"text/plain; charset=utf-8")
        request.setHeader(b"Cache-Control", b"no-store")
        return join_url(request, self.web).encode("utf-8")


class Play(NotFound):
    """``/play``: the page a guest plays on, and its stream and requests."""

    def __init__(self, web: Any, page: bytes) -> None:
        super().__init__()
        self.page = page
        self.putChild(b"events", PlayEvents(web))
        self.putChild(b"send", PlaySend(web))
        self.putChild(b"keep", PlayKeep(web))
        self.putChild(b"rules.json", Fixed(rules_json(), "application/json"))
        self.putChild(b"qr.svg", JoinCode(web))
        self.putChild(b"address", JoinAddress(web))

    def getChild(self, path: bytes, request: Any) -> Resource:
        return self if path == b"" else NotFound()

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", HTML.encode())
        return self.page


def root(web: Any) -> Resource:
    """The web port's tree of resources for the server ``web``."""
    pages = web.pages
    top = NotFound()
    top.putChild(b"", Fixed(pages.pages["index.html"], HTML))
    top.putChild(b"tables.json", TablesJSON(web))
    top.putChild(b"events", Stream(web, None))
    top.putChild(b"table", Tables(web))
    top.putChild(b"static", Static(pages.files))
    top.putChild(b"i18n.js", I18nScript(pages))
    top.putChild(b"play", Play(web, pages.pages["play.html"]))
    top.putChild(b"games.json", GamesJSON(web))
    top.putChild(b"game", GamePage(web, pages.pages["game.html"]))
    return top
