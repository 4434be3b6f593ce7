"""The web port's guard: every HTTP request passes here before any page or feed sees it.

- :class:`WebRequest` puts the security headers on every answer; refuses a ``Host`` that
  is not this host's (DNS rebinding, 421), another site's ``Origin`` or embedding (403),
  and every method but GET and HEAD (405), but the two POSTs of :data:`POSTS`, whose
  bodies are capped at :data:`MAX_POST` bytes before anything is buffered.
- :class:`WebChannel` counts each connection in the host's connection limits (503 over).
- The request readers the resources share, each written once: :func:`header`,
  :func:`cookie` (strict: ASCII, percent-decoded, printable), :func:`client_address`,
  :func:`page_language`, :func:`same_origin` (a POST's origin and type),
  :func:`decode_body` (a POST's JSON, strictly); and the answers: :func:`plain` (text,
  with the refusal's reason in ``X-Cartagena-Refused``), :func:`refuse` (a POST's JSON
  refusal), :func:`finish` (an answer made later), :func:`event_stream` (an event
  stream's headers), :class:`Leaf`, :class:`NotFound` and :class:`Fixed`.

It knows nothing of tables, games or pages: the server it guards gives it ``hostnames``
(:class:`cartagena_net.web.hostcheck.HostNames`), ``admit`` and ``release``.
"""
from __future__ import annotations

import io
import json
import re
from typing import Any, Protocol
from urllib.parse import unquote

from twisted.web import http, server
from twisted.web.resource import Resource

from cartagena_net import i18n
from cartagena_net.i18n import N_
from cartagena_net.records.format import compact_text

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
POSTS = (b"/play/send", b"/play/keep")  # the only requests with a body
#: Status lines Twisted does not know the words of.
PHRASES = {421: b"Misdirected Request", 431: b"Request Header Fields Too Large"}
MAX_POST = 8192  # bytes of a POSTed message (a protocol message is far smaller)
MAX_DEPTH = 8  # arrays and objects in a POSTed message (protocol messages nest 3 deep)
HTML = "text/html; charset=utf-8"
TEXT = "text/plain; charset=utf-8"
JSON = "application/json"
SSE = "text/event-stream; charset=utf-8"
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
BRACKETS = re.compile(r"[\[\]{}]")
NO_SUCH_PAGE = N_("no such page")


class Guarded(Protocol):
    """What the guard asks of the server it guards."""

    hostnames: Any  # .allows(raw Host) and .refusal_text(raw Host)
    reactor: Any

    def admit(self, channel: WebChannel) -> str | None: ...

    def release(self, channel: WebChannel) -> None: ...


def to_json(data: Any) -> bytes:
    """Compact UTF-8 JSON on one line (JSON escapes every newline inside strings)."""
    return compact_text(data).encode("utf-8")


# -- requests and connections ------------------------------------------------------


def refusal_body(method: bytes | None, path: bytes | None, reason: str,
                 text: str) -> tuple[str, bytes]:
    """A refusal's content type and body: JSON to the page's POSTs (``{ok: false,
    reason, message}``, as the page reads it), plain text to anything else."""
    if method == b"POST" and path in POSTS:
        return JSON, to_json({"ok": False, "reason": reason, "message": text.strip()})
    return TEXT, text.encode("utf-8")


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
        guarded: Guarded = self.channel.site.web
        hosts = self.requestHeaders.getRawHeaders(b"host") or []
        host = hosts[0] if len(hosts) == 1 else None
        # HTTP/1.0 may name no host (no browser does so): nothing to rebind, answered.
        bare = not hosts and self.clientproto == b"HTTP/1.0"
        if not bare and not guarded.hostnames.allows(host):
            # DNS rebinding: a name that is not this host's reaches nothing, not even a page.
            self._refuse(421, guarded.hostnames.refusal_text(host), "wrong-host")
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
        ctype, body = refusal_body(self.method, self.path, reason, text)
        self.setResponseCode(code, PHRASES.get(code))
        self.setHeader(b"Content-Type", ctype.encode())
        self.setHeader(b"X-Cartagena-Refused", reason.encode("ascii"))
        self.setHeader(b"Content-Length", b"%d" % len(body))
        self.setHeader(b"Connection", b"close")
        if self.method != b"HEAD":
            self.write(body)
        self.finish()


class WebChannel(http.HTTPChannel):
    """An HTTP connection that counts toward the host's connection limits, and says why
    when it drops a request before it is whole (too long a line, too large a body)."""

    address = "?"
    admitted = False

    def connectionMade(self) -> None:
        super().connectionMade()
        self.address = getattr(self.transport.getPeer(), "host", "?")
        refusal = self.site.web.admit(self)
        if refusal is None:
            self.admitted = True
            return
        self._answer_and_close(503, "server-full", f"{refusal}\n")

    def lineLengthExceeded(self, line: bytes) -> None:
        """A request line or header over 16 KiB: answered (414, 431), not just dropped."""
        if self._receivedHeaderSize == 0:  # nothing whole received yet: the request line
            self._answer_and_close(414, "too-long", "the address is too long\n")
        else:
            self._answer_and_close(431, "too-long", "a header is too long\n")

    def allHeadersReceived(self) -> None:
        super().allHeadersReceived()
        if self.requests and self.requests[-1].too_large:
            # A body over MAX_POST announced: refused now, not once all of it has come.
            self._answer_and_close(413, "too-large", f"at most {MAX_POST} bytes\n")

    def _answer_and_close(self, code: int, reason: str, text: str) -> None:
        """Answer ``code`` and close, whatever request is being read (plain text; JSON
        to the page's POSTs, as :meth:`WebRequest._refuse`)."""
        ctype, body = refusal_body(getattr(self, "_command", None),
                                   getattr(self, "_path", None), reason, text)
        phrase = PHRASES.get(code) or http.RESPONSES.get(code, b"Refused")
        head = [b"HTTP/1.1 %d %b" % (code, phrase), b"Content-Type: " + ctype.encode(),
                b"Content-Length: %d" % len(body), b"Connection: close",
                b"X-Cartagena-Refused: " + reason.encode("ascii")]
        head += [name + b": " + value for name, value in SECURITY_HEADERS.items()]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.dataReceived = lambda data: None  # nothing more of this connection is read
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

    def __init__(self, root: Resource, web: Guarded, timeout: float) -> None:
        super().__init__(root, timeout=timeout, reactor=web.reactor)
        self.web = web

    def log(self, request: Any) -> None:
        pass  # no access log: watchers come and go all evening


# -- what a request says -----------------------------------------------------------


def header(request: Any, name: str) -> str | None:
    raw = request.getHeader(name.encode("ascii"))
    return None if raw is None else raw.decode("latin-1")


def cookie(request: Any, name: str) -> str | None:
    """A cookie's value, percent-decoded; None if missing, empty or not plain printable
    text (ASCII as sent, UTF-8 once decoded, no control character)."""
    raw = request.getCookie(name.encode("ascii"))
    if not raw:
        return None
    try:
        text = unquote(raw.decode("ascii"), errors="strict")
    except (UnicodeDecodeError, ValueError):
        return None
    return text if text.isprintable() else None


def client_address(request: Any) -> str:
    """The browser's address (password guesses are throttled per address)."""
    return getattr(request.getClientAddress(), "host", "?")


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


def same_origin(request: Any) -> str | None:
    """Why the POST ``request`` may not change anything (None: it comes from the host's
    own page, as JSON)."""
    host = header(request, "host")
    origin = header(request, "origin")
    if origin is not None:
        if host is None or origin not in (f"http://{host}", f"https://{host}"):
            return "cross-site request refused"
    elif header(request, "sec-fetch-site") != "same-origin":
        return "a request without Origin must be same-origin"
    ctype = (header(request, "content-type") or "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return "the body must be application/json"
    return None


def decode_body(request: Any) -> dict[str, Any] | str:
    """The POSTed JSON object, strictly (UTF-8, one object, no NaN, at most
    :data:`MAX_DEPTH` arrays and objects deep), or why not, in words."""
    try:
        text = request.content.getvalue().decode("utf-8")
    except UnicodeDecodeError:
        return "the body must be UTF-8"
    if json_depth(text) > MAX_DEPTH:  # counted before decoding: the decoder recurses
        return f"the body nests more than {MAX_DEPTH} arrays and objects deep"
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return "the body must be one JSON object"
    return value if isinstance(value, dict) else "the body must be one JSON object"


def json_depth(text: str) -> int:
    """How deep arrays and objects nest in ``text``, strings left out (an unclosed
    string's brackets count: such a text is refused either way)."""
    depth = deepest = 0
    for ch in BRACKETS.findall(JSON_STRING.sub("", text)):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# -- answers -----------------------------------------------------------------------


def event_stream(request: Any) -> None:
    """The headers of a ``text/event-stream`` answer (a watcher's feed, a play stream):
    never stored, never buffered by a proxy."""
    request.setHeader(b"Content-Type", SSE.encode())
    request.setHeader(b"Cache-Control", b"no-store")
    request.setHeader(b"X-Accel-Buffering", b"no")


def plain(request: Any, code: int, message: str, reason: str | None = None) -> bytes:
    """A plain-text answer; a refusal names its ``reason`` in ``X-Cartagena-Refused``."""
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", TEXT.encode())
    if reason is not None:
        request.setHeader(b"X-Cartagena-Refused", reason.encode("ascii"))
    return (message + "\n").encode("utf-8")


def refuse(request: Any, code: int, reason: str, message: str) -> bytes:
    """A POST's refusal, as the page reads it: JSON ``{ok: false, reason, message}``."""
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", JSON.encode())
    return to_json({"ok": False, "reason": reason, "message": message})


def finish(request: Any, code: int, content_type: str, body: bytes) -> None:
    """Answer a request whose answer was made later (if it is still there)."""
    if request.finished or request._disconnected:
        return
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", content_type.encode("ascii"))
    request.setHeader(b"Content-Length", b"%d" % len(body))
    request.write(body)
    request.finish()


class Leaf(Resource):
    """A resource with no children (any longer path is 404) and an honest HEAD."""

    def getChild(self, path: bytes, request: Any) -> Resource:
        return NotFound()

    def render_HEAD(self, request: Any) -> bytes:
        body = self.render_GET(request)
        request.setHeader(b"Content-Length", b"%d" % len(body))
        return b""


class NotFound(Leaf):
    """404, in the browser's language."""

    def render_GET(self, request: Any) -> bytes:
        code = page_language(request)
        request.setHeader(b"Content-Language", code.encode("ascii"))
        request.setHeader(b"Vary", b"Accept-Language, Cookie")
        return plain(request, http.NOT_FOUND, i18n.translation(code).gettext(NO_SUCH_PAGE))


class Fixed(Leaf):
    """Bytes known at start-up, with their content type."""

    def __init__(self, body: bytes, content_type: str) -> None:
        super().__init__()
        self.body = body
        self.content_type = content_type.encode("ascii")

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", self.content_type)
        return self.body
