"""The read-only web view: ``twisted.web`` resources on fixed paths, and the SSE feeds.

Paths (nothing else exists; no file is ever looked up by a name from the request):

``/``                  the tables, as in the lobby (``index.html``)
``/tables.json``       the lobby as JSON
``/events``            the lobby as Server-Sent Events (``lobby`` events)
``/table/N``           one table, live (``table.html``; 404 ``no-table.html`` if none)
``/table/N/events``    the table as Server-Sent Events (``table`` and ``state`` events,
                       and ``gone`` when the host removes the table)
``/static/NAME``       the page's own CSS, JavaScript and SVG, from a fixed list
``/i18n.js``           the pages' words in the browser's language (``static/i18n.js``
                       after its data; the language from the ``cartagena_lang`` cookie,
                       else ``Accept-Language``, each checked against the known ones)
``/games.json``        this host's finished games (see :mod:`cartagena_net.web.games`)
``/game/ID``           one finished game as a replay (``game.html``), ``/game/ID.json``
``/play``              a guest's seat in the browser (``play.html``; see
                       :mod:`cartagena_net.web.seats`): ``/play/events`` (its stream),
                       ``POST /play/send`` and ``POST /play/keep``

Only GET and HEAD are allowed (anything else: 405), but for the two POSTs of ``/play``,
whose bodies are capped at :data:`cartagena_net.web.seats.MAX_POST` bytes before
anything is buffered. Game data on a table stream is the
engine's spectator view (:func:`cartagena_net.engine.view`, through the table), encoded
once per update and shared by every web watcher of that table. The host's and the
table's passwords are checked with the host's own checks; the browser sends them as
cookies (``cartagena_host``, ``cartagena_table_N``) set by the page's password form.
"""
from __future__ import annotations

import io
import json
import re
from importlib import resources
from typing import Any
from urllib.parse import unquote

from twisted.internet import task
from twisted.logger import Logger
from twisted.web import http, server
from twisted.web.resource import Resource

from cartagena_net import i18n
from cartagena_net.engine import SPECTATOR
from cartagena_net.engine.reasons import JOURNAL_DAMAGE, OS_ERRORS, REASONS
from cartagena_net.host.errors import HostError
from cartagena_net.i18n import N_
from cartagena_net.i18n import pages as page_words
from cartagena_net.web.feed import Feed, Frame, to_json
from cartagena_net.web.games import Background, GamePage, GamesJSON, records_folder
from cartagena_net.web.hostcheck import HostNames
from cartagena_net.web.seats import MAX_POST, Play

log = Logger(namespace="cartagena.web")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    b"Content-Security-Policy": CSP.encode("ascii"),
    b"X-Content-Type-Options": b"nosniff",
    b"Referrer-Policy": b"no-referrer",
    b"X-Frame-Options": b"DENY",
    b"Cache-Control": b"no-cache",
}
ALLOWED = (b"GET", b"HEAD")
HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
JSON = "application/json"
SSE = "text/event-stream; charset=utf-8"

# The page's own files: name -> content type. Loaded once from the package.
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
POSTS = (b"/play/send", b"/play/keep")  # the only requests with a body
TABLE_ID = re.compile(rb"[1-9][0-9]{0,8}")
MAX_BODY = 1 << 16


def package_file(name: str) -> bytes:
    return (resources.files("cartagena_net.web") / "static" / name).read_bytes()


# -- requests and connections ----------------------------------------------------


class WebRequest(server.Request):
    """Every answer carries the security headers; methods other than GET/HEAD get 405
    (but a POST to one of :data:`POSTS`); a body is kept only for those, and only up to
    ``MAX_POST`` bytes (more marks the request ``too_large``, refused)."""

    too_large = False

    def gotLength(self, length: int | None) -> None:
        self.content = io.BytesIO()
        if length is not None and length > MAX_POST:
            self.too_large = True

    def handleContentChunk(self, data: bytes) -> None:
        # A body arrives before the request line is handed over (its method is not known
        # yet): up to MAX_POST bytes are kept, and only the two POSTs ever read them.
        if self.too_large:
            return
        if self.content.tell() + len(data) > MAX_POST:
            self.too_large = True
            self.content = io.BytesIO()
            return
        self.content.write(data)

    def process(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.setHeader(name, value)
        web: WebServer = self.channel.site.web
        hosts = self.requestHeaders.getRawHeaders(b"host") or []
        host = hosts[0] if len(hosts) == 1 else None
        # HTTP/1.0 may name no host (no browser does so): nothing to rebind, answered.
        bare = not hosts and self.clientproto == b"HTTP/1.0"
        if not bare and not web.hostnames.allows(host):
            # DNS rebinding: a name that is not this host's reaches nothing, not even a page.
            self._refuse(421, web.hostnames.refusal_text(host), "wrong-host")
            return
        origins = self.requestHeaders.getRawHeaders(b"origin")
        if origins is not None and (len(origins) != 1 or origins[0] not in (
                b"http://" + (host or b"?"), b"https://" + (host or b"?"))):
            # Another site's script (a fetch, an EventSource): nothing for it on any route.
            self._refuse(403, "cross-site request refused: this page answers its own "
                              "origin only\n", "cross-site")
            return
        site = self.getHeader(b"sec-fetch-site")
        if site == b"cross-site" and self.getHeader(b"sec-fetch-mode") != b"navigate":
            # Another site embedding a stream, an image or data (no Origin is sent for an
            # <img> or a <script>): only a link followed to a page is let through.
            self._refuse(403, "cross-site request refused: follow a link to the page "
                              "instead\n", "cross-site")
            return
        if self.method == b"POST" and self.path in POSTS:
            super().process()
            return
        if self.method not in ALLOWED:
            self.setResponseCode(http.NOT_ALLOWED)
            self.setHeader(b"Allow", b"GET, HEAD")
            body = b"only GET and HEAD are allowed: this view is read-only\n"
            self.setHeader(b"Content-Type", TEXT.encode())
            self.setHeader(b"Content-Length", b"%d" % len(body))
            self.write(body)
            self.finish()
            return
        super().process()

    def _refuse(self, code: int, text: str, reason: str) -> None:
        """Answer at once, whatever the path: plain text (JSON to the page's POSTs)."""
        if self.method == b"POST" and self.path in POSTS:
            ctype, body = JSON, to_json({"ok": False, "reason": reason,
                                         "message": text.strip()})
        else:
            ctype, body = TEXT, text.encode("utf-8")
        self.setResponseCode(code)
        self.setHeader(b"Content-Type", ctype.encode())
        self.setHeader(b"X-Cartagena-Refused", reason.encode("ascii"))
        self.setHeader(b"Content-Length", b"%d" % len(body))
        self.setHeader(b"Connection", b"close")
        if self.method != b"HEAD":
            self.write(body)
        self.finish()


class WebChannel(http.HTTPChannel):
    """An HTTP connection that counts toward the host's connection limits."""

    address = "?"
    admitted = False

    def connectionMade(self) -> None:
        super().connectionMade()
        self.address = getattr(self.transport.getPeer(), "host", "?")
        web: WebServer = self.site.web
        refusal = web.admit(self)
        if refusal is None:
            self.admitted = True
            return
        body = f"{refusal}\n".encode()
        self.transport.write(
            b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%b" % (len(body), body))
        self.transport.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        if self.admitted:
            super().dataReceived(data)

    def connectionLost(self, reason: Any) -> None:
        if self.admitted:
            self.admitted = False
            self.site.web.release(self)
        super().connectionLost(reason)


class WebSite(server.Site):
    protocol = WebChannel
    requestFactory = WebRequest
    displayTracebacks = False
    noisy = False

    def __init__(self, root: Resource, web: WebServer, timeout: float) -> None:
        super().__init__(root, timeout=timeout, reactor=web.reactor)
        self.web = web

    def log(self, request: Any) -> None:
        pass  # no access log: watchers come and go all evening


# -- resources -------------------------------------------------------------------


NO_SUCH_PAGE = N_("no such page")


def plain(request: Any, code: int, message: str, reason: str | None = None) -> bytes:
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", TEXT.encode())
    if reason is not None:
        request.setHeader(b"X-Cartagena-Refused", reason.encode("ascii"))
    return (message + "\n").encode("utf-8")


class Leaf(Resource):
    """A resource with no children (any longer path is 404) and an honest HEAD."""

    def getChild(self, path: bytes, request: Any) -> Resource:
        return NotFound()

    def render_HEAD(self, request: Any) -> bytes:
        body = self.render_GET(request)
        request.setHeader(b"Content-Length", b"%d" % len(body))
        return b""


class NotFound(Leaf):
    def render_GET(self, request: Any) -> bytes:
        tr = i18n.translation(page_language(request))  # in the browser's language
        request.setHeader(b"Content-Language", page_language(request).encode("ascii"))
        request.setHeader(b"Vary", b"Accept-Language, Cookie")
        return plain(request, http.NOT_FOUND, tr.gettext(NO_SUCH_PAGE))


class Fixed(Leaf):
    """Bytes known at start-up, with their content type."""

    def __init__(self, body: bytes, content_type: str) -> None:
        super().__init__()
        self.body = body
        self.content_type = content_type.encode("ascii")

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", self.content_type)
        return self.body


class Static(NotFound):
    """``/static/NAME`` for the names in :data:`STATIC_TYPES` only."""

    def __init__(self, files: dict[str, bytes]) -> None:
        super().__init__()
        for name, ctype in STATIC_TYPES.items():
            self.putChild(name.encode("ascii"), Fixed(files[name], ctype))


def engine_words() -> set[str]:
    from cartagena_net.engine import OPTIONS, PRESETS

    return {o.help for o in OPTIONS.values()} | {p.title for p in PRESETS.values()}


def page_language(request: Any) -> str:
    """The language of a browser's pages: its switch's cookie if we speak that language,
    else its ``Accept-Language`` (:func:`cartagena_net.i18n.negotiate`); always a code of
    :data:`cartagena_net.i18n.LANGUAGES`, never the request's own text."""
    accept = request.getHeader(b"accept-language")
    try:
        text = accept.decode("ascii") if accept is not None else None
    except UnicodeDecodeError:
        text = None
    return i18n.negotiate(text, cookie(request, i18n.COOKIE))


class I18nScript(Leaf):
    """``/i18n.js``: the page's words in the browser's language, then ``static/i18n.js``."""

    def __init__(self, web: WebServer) -> None:
        super().__init__()
        self.web = web

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", STATIC_TYPES["i18n.js"].encode("ascii"))
        request.setHeader(b"Vary", b"Accept-Language, Cookie")
        return self.web.i18n_script(page_language(request))


class TablesJSON(Leaf):
    def __init__(self, web: WebServer) -> None:
        super().__init__()
        self.web = web

    def render_GET(self, request: Any) -> bytes:
        refused = self.web.refusal(request, None)
        if refused is not None:
            return plain(request, *refused)
        request.setHeader(b"Content-Type", JSON.encode())
        return to_json(self.web.lobby_data())


class Stream(Leaf):
    """A ``text/event-stream``: the lobby's (``table_id`` None) or one table's."""

    def __init__(self, web: WebServer, table_id: int | None) -> None:
        super().__init__()
        self.web = web
        self.table_id = table_id

    def _open(self, request: Any) -> bytes | None:
        refused = self.web.refusal(request, self.table_id)
        if refused is not None:
            return plain(request, *refused)
        request.setHeader(b"Content-Type", SSE.encode())
        request.setHeader(b"Cache-Control", b"no-store")
        request.setHeader(b"X-Accel-Buffering", b"no")
        return None

    def render_HEAD(self, request: Any) -> bytes:
        body = self._open(request)
        request.setHeader(b"Content-Length", b"%d" % len(body or b""))
        return b""

    def render_GET(self, request: Any) -> Any:
        refused = self._open(request)
        if refused is not None:
            return refused
        self.web.watch(request, self.table_id)
        return server.NOT_DONE_YET


class TablePage(Leaf):
    """``/table/N`` (the page) and ``/table/N/events`` (its stream)."""

    def __init__(self, web: WebServer, table_id: int) -> None:
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
            return self.web.pages["no-table.html"]
        return self.web.pages["table.html"]


class Tables(NotFound):
    """``/table/N``: N is a table number written without leading zeros."""

    def __init__(self, web: WebServer) -> None:
        super().__init__()
        self.web = web

    def getChild(self, path: bytes, request: Any) -> Resource:
        if TABLE_ID.fullmatch(path):
            return TablePage(self.web, int(path))
        return NotFound()


class Root(NotFound):
    def __init__(self, web: WebServer) -> None:
        super().__init__()
        self.putChild(b"", Fixed(web.pages["index.html"], HTML))
        self.putChild(b"tables.json", TablesJSON(web))
        self.putChild(b"events", Stream(web, None))
        self.putChild(b"table", Tables(web))
        self.putChild(b"static", Static(web.files))
        self.putChild(b"i18n.js", I18nScript(web))
        self.putChild(b"play", Play(web, web.pages["play.html"]))
        self.putChild(b"games.json", GamesJSON(web))
        self.putChild(b"game", GamePage(web, web.pages["game.html"]))


# -- the server ------------------------------------------------------------------


class WebServer:
    """The web view of one host: listens, admits connections, feeds watchers."""

    def __init__(self, host: Any, port: int, bind: str) -> None:
        self.host = host
        self.reactor = host.reactor
        self.config = host.config
        self.requested_port = port
        self.bind = bind
        self.hostnames = HostNames(getattr(self.config, "web_hosts", ()), bind)
        self.files = {name: package_file(name) for name in STATIC_TYPES}
        self.pages = {name: package_file(name) for name in PAGES}
        self.page_messages = page_words.messages({**self.files, **self.pages})
        # The New table form shows the engine's option help and preset titles (as the
        # command line does, translated where they are shown).
        self.page_messages |= {(None, text, None) for text in engine_words()}
        self._i18n_scripts: dict[str, bytes] = {}
        self.site = WebSite(Root(self), self, timeout=self.config.web_idle_timeout)
        self.channels: set[WebChannel] = set()
        self.lobby_feed = Feed("lobby", self.config.web_max_buffer)
        self.feeds: dict[int, Feed] = {}
        self._full: dict[int, tuple[Any, Frame]] = {}
        self.sessions: dict[str, Any] = {}  # browser seats' play streams, by id
        self.background = Background(self.reactor)  # records read and replays built
        self._dirty: set[int] = set()
        self._push_call: Any = None
        self._listening: Any = None
        self._keepalive: Any = None

    def i18n_script(self, code: str) -> bytes:
        """``/i18n.js`` for a language of :data:`cartagena_net.i18n.LANGUAGES` (made once)."""
        body = self._i18n_scripts.get(code)
        if body is None:
            data = page_words.page_catalog(code, self.page_messages)
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
            self._i18n_scripts[code] = body
        return body

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        from cartagena_net.portable.sockets import listen_tcp  # SO_EXCLUSIVEADDRUSE

        self._listening = listen_tcp(self.reactor, self.requested_port, self.site,
                                     interface=self.bind)
        self._keepalive = task.LoopingCall(self._ping)
        self._keepalive.clock = self.reactor
        self._keepalive.start(self.config.web_keepalive, now=False)
        log.info("web view at {url}", url=self.url)

    def stop(self) -> Any:
        self.background.stop()
        if self._keepalive is not None and self._keepalive.running:
            self._keepalive.stop()
        if self._push_call is not None and self._push_call.active():
            self._push_call.cancel()
        self._push_call = None
        for feed in [self.lobby_feed, *self.feeds.values()]:
            feed.close()
        self.feeds.clear()
        for channel in list(self.channels):
            channel.transport.loseConnection()
        listening, self._listening = self._listening, None
        if listening is None:
            return None
        return listening.stopListening()

    @property
    def port(self) -> int:
        if self._listening is None:
            raise RuntimeError("the web view is not listening")
        return self._listening.getHost().port

    @property
    def url(self) -> str:
        return f"http://{url_host(self.bind)}:{self.port}/"

    # -- limits ----------------------------------------------------------------

    def admit(self, channel: WebChannel) -> str | None:
        refusal = self.host.caps.admit(channel.address)
        if refusal is None:
            self.channels.add(channel)
        return refusal

    def release(self, channel: WebChannel) -> None:
        self.channels.discard(channel)
        self.host.caps.release(channel.address)

    def refusal(self, request: Any, table_id: int | None) -> tuple[int, str, str] | None:
        """Why ``request`` may not see the lobby or the table (code, message, reason)."""
        table = None
        if table_id is not None:
            table = self.host.lobby.tables.get(table_id)
            if table is None:
                return http.NOT_FOUND, f"there is no table {table_id}", "no-such-table"
            try:
                table.check_spectators()
            except HostError as exc:
                return http.FORBIDDEN, exc.message, "no-spectators"
        try:
            self.host.check_password(cookie(request, "cartagena_host"), client_address(request))
        except HostError as exc:
            return http.FORBIDDEN, exc.message, "host-password"
        if table is not None:
            try:
                table.check_password(cookie(request, f"cartagena_table_{table_id}"),
                                     client_address(request))
            except HostError as exc:
                return http.FORBIDDEN, exc.message, "table-password"
        return None

    # -- feeds -----------------------------------------------------------------

    def lobby_data(self) -> dict[str, Any]:
        tables = [{**t.lobby_entry(), "spectators_allowed": t.allow_spectators,
                   "bot_fallbacks": t.bot_fallbacks}
                  for t in self.host.lobby.tables.values()]
        return {"host": self.config.name, "port": self.host.port, "tables": tables,
                "bot_fallbacks": self.host.bot_fallbacks,
                "scores": list(self.host.evening.rows)}

    def records_folder(self) -> str | None:
        """Where this host keeps its games' records (None: it keeps none)."""
        return records_folder(self.host)

    def translation(self, request: Any) -> Any:
        """The words of ``request``'s browser (:func:`page_language`): a gettext
        translation, for what an answer says in words."""
        return i18n.translation(page_language(request))

    def watch(self, request: Any, table_id: int | None) -> None:
        if table_id is None:
            self.lobby_feed.add(request, lambda: [Frame.event("lobby", self.lobby_data())])
            return
        table = self.host.lobby.tables[table_id]
        feed = self.feeds.get(table_id)
        if feed is None:
            feed = self.feeds[table_id] = Feed(
                f"table {table_id}", self.config.web_max_buffer,
                lambda f: self._feed_changed(table_id, f))

        def first() -> list[Frame]:
            frames = [Frame.event("table", table.lobby_entry())]
            if table.state is not None:
                frames.append(self._full_frame(table))
            return frames
        feed.add(request, first)

    def _feed_changed(self, table_id: int, feed: Feed) -> None:
        """A web watcher came or went: the table's watcher count changed."""
        if not len(feed) and self.feeds.get(table_id) is feed:
            del self.feeds[table_id]
            self._full.pop(table_id, None)
        table = self.host.lobby.tables.get(table_id)
        if table is not None and self._listening is not None:
            self.host.lobby_changed(table)  # counted in the lobby's spectators
            coach = getattr(table, "coach", None)
            if coach is not None and len(feed):
                coach.turn()  # a first estimate, if none was made while nobody watched

    def watching(self, table_id: int) -> bool:
        return table_id in self.feeds

    def watchers(self, table_id: int) -> int:
        """How many browsers watch the table (counted with its spectators)."""
        feed = self.feeds.get(table_id)
        return len(feed) if feed is not None else 0

    def table_removed(self, table_id: int) -> None:
        """The host removed the table: its watchers are told (a ``gone`` event) and
        their streams end; the page says so and links to the list of tables."""
        self._full.pop(table_id, None)
        self._dirty.discard(table_id)
        feed = self.feeds.pop(table_id, None)
        if feed is not None:
            feed.close(Frame.event("gone", {"id": table_id,
                                            "text": f"table {table_id} is gone"}))

    def _full_frame(self, table: Any) -> Frame:
        """A watcher's first view of a game: encoded once per table change."""
        coach = getattr(table, "coach", None)  # a new live estimate: a new first view
        key = (table.seq, None if coach is None else len(coach.curve),
               None if coach is None else coach.chances)
        cached = self._full.get(table.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        frame = state_frame(table.full_state(SPECTATOR), reset=True)
        self._full[table.id] = (key, frame)
        return frame

    # -- hooks called by the host ------------------------------------------------

    def publish_state(self, table: Any, spectator_wire: dict[str, Any], full: bool) -> None:
        """The table's new state (the spectators' wire map, built from the engine's
        spectator view): one frame for every web watcher of the table."""
        feed = self.feeds.get(table.id)
        if feed is not None:
            feed.publish(state_frame(spectator_wire, reset=full))

    def table_changed(self, table: Any) -> None:
        """Seats, names, status or spectators changed: push it soon, coalesced."""
        if table is not None:
            if not table.allow_spectators and table.id in self.feeds:
                self.feeds.pop(table.id).close()
            self._dirty.add(table.id)
        if self._push_call is None:
            self._push_call = self.reactor.callLater(self.config.lobby_delay, self._push)

    def push_now(self) -> None:
        """What :meth:`table_changed` would push soon, now."""
        if self._push_call is not None and self._push_call.active():
            self._push_call.cancel()
        self._push()

    def _push(self) -> None:
        self._push_call = None
        dirty, self._dirty = self._dirty, set()
        for tid in dirty:
            table = self.host.lobby.tables.get(tid)
            feed = self.feeds.get(tid)
            if table is not None and feed is not None:
                feed.publish(Frame.event("table", table.lobby_entry()))
        if len(self.lobby_feed):
            self.lobby_feed.publish(Frame.event("lobby", self.lobby_data()))

    def _ping(self) -> None:
        """A comment now and then: finds dead peers and keeps proxies from timing out."""
        frame = Frame.comment()
        for feed in [self.lobby_feed, *self.feeds.values()]:
            feed.publish(frame)


def state_frame(wire: dict[str, Any], reset: bool) -> Frame:
    """A ``state`` event from a table's spectator ``state`` map (engine view + events)."""
    data = {"seq": wire["seq"], "view": wire["view"], "events": wire["events"],
            "reset": reset, "chances": wire.get("chances"), "game": wire.get("game")}
    if "chances_seq" in wire:  # live chances: the state number they are of, and on a
        data["chances_seq"] = wire["chances_seq"]  # first view the curve so far
    if reset and "curve" in wire:
        data["curve"] = wire["curve"]
    return Frame.event("state", data, wire["seq"])


def cookie(request: Any, name: str) -> str | None:
    raw = request.getCookie(name.encode("ascii"))
    if raw is None:
        return None
    try:
        return unquote(raw.decode("ascii"), errors="strict")
    except (UnicodeDecodeError, ValueError):
        return None


def client_address(request: Any) -> str:
    """The browser's address (password guesses are throttled per address)."""
    return getattr(request.getClientAddress(), "host", "?")


def url_host(bind: str) -> str:
    """The address to show in the URL: the bound one, or this machine's LAN address."""
    if bind not in ("", "0.0.0.0", "::"):
        return f"[{bind}]" if ":" in bind else bind
    try:
        from cartagena_net.discovery.interfaces import interfaces

        for iface in interfaces():
            if iface.up and not iface.loopback:
                return iface.address
    except OSError:
        pass
    return "127.0.0.1"
