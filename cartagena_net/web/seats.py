"""Browser seats: a guest plays from any browser through the host's own lobby.

Each play stream a browser opens (``GET /play/events``) is one client connection of the
host: a :class:`cartagena_net.host.connection.HostConnection` whose transport is a
:class:`BrowserTransport`. So the handshake and its deadline, the message rate limit,
the idle timeout (pings), the password throttle, seats, takeover, undo and every
message's validation are exactly the terminal client's. What the host writes to it
(msgpack frames) reaches the browser as ``msg`` events of the stream, as JSON; what the
browser sends (``POST /play/send``: one protocol message as a JSON object) is checked
here and fed to the connection as one frame. The views a browser seat receives are the
ones the host builds for that connection: the engine's view for that seat.

The seat's token never reaches the page. The host's ``joined`` carries it; it is taken
out here and kept in the session, and ``POST /play/keep`` puts it in an HttpOnly,
SameSite=Strict cookie named after the host (``cartagena_seat_<host id prefix>``). A
``hello`` from the page gets the token from that cookie, so opening the page again on the
same device takes the same seat back (the usual ``resumed``).

Every POST must come from the host's own page: its ``Origin`` must be the host's own
(or, without one, ``Sec-Fetch-Site: same-origin``), its body JSON (``Content-Type:
application/json``, at most :data:`MAX_POST` bytes), and it must carry the stream's
anti-forgery value (``X-Cartagena-Csrf``), which only a page that opened the stream has.
"""
from __future__ import annotations

import hmac
import json
import re
import secrets
from typing import Any

import msgpack
from twisted.internet.address import IPv4Address
from twisted.logger import Logger
from twisted.web import http, server
from twisted.web.resource import Resource

from cartagena_net.host.connection import HostConnection
from cartagena_net.host.eager import pending_bytes, write_now
from cartagena_net.web.feed import Frame, to_json

log = Logger(namespace="cartagena.web.seats")

MAX_POST = 8192  # bytes of a POSTed message (a protocol message is far smaller)
MAX_DEPTH = 8  # arrays and objects in a POSTed message (protocol messages nest 3 deep)
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
BRACKETS = re.compile(r"[\[\]{}]")
SESSION = "X-Cartagena-Session"
CSRF = "X-Cartagena-Csrf"


class BrowserTransport:
    """What :class:`HostConnection` writes to: hands each frame to the browser session."""

    disconnecting = False
    connected = True

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self.paused = False

    def write(self, data: bytes) -> None:
        self.session.outgoing(data)

    def writeSequence(self, seq: list[bytes]) -> None:
        self.write(b"".join(seq))

    def loseConnection(self) -> None:
        self.session.close()

    abortConnection = loseConnection

    def getPeer(self) -> IPv4Address:
        return IPv4Address("TCP", self.session.address, 0)

    getHost = getPeer

    def pauseProducing(self) -> None:
        self.paused = True

    def resumeProducing(self) -> None:
        self.paused = False
        self.session.feed_queued()


class BrowserSession:
    """One play stream: its host connection, its anti-forgery value, its seat token."""

    def __init__(self, web: Any, request: Any, address: str) -> None:
        self.web = web
        self.request = request
        self.address = address
        self.id = secrets.token_urlsafe(12)
        self.csrf = secrets.token_urlsafe(24)
        self.token: str | None = None  # the seat's token (the cookie's value)
        self.closed = False
        self._out = b""  # host frames not yet whole
        self._queued: list[bytes] = []  # frames from the page while the host is busy
        self.transport = BrowserTransport(self)
        self.conn = HostConnection(web.host, address)
        self.conn.transport = self.transport

    def open(self) -> bool:
        """Start the stream: the ``session`` event, then the host connection."""
        self.request.write(Frame.event("session", {"id": self.id, "csrf": self.csrf}).raw)
        self.conn.connectionMade()
        return not self.closed

    # -- host -> browser ----------------------------------------------------------

    def outgoing(self, data: bytes) -> None:
        """Frames the host wrote: each one as a ``msg`` event of the stream."""
        if self.closed:
            return
        self._out += data
        while len(self._out) >= 4:
            size = int.from_bytes(self._out[:4], "big")
            if len(self._out) < 4 + size:
                return
            frame, self._out = self._out[4:4 + size], self._out[4 + size:]
            self._send(msgpack.unpackb(frame, raw=False))

    def _send(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "joined":
            token = msg.pop("token", None)
            if token:
                self.token = token
        elif kind == "state":
            # The page keys what it keeps of a game (events, marks, chances) by the
            # game: the seq of its first state (a new one: Play again, another table).
            table = getattr(self.conn, "table", None)
            if table is not None and table.id == msg.get("table"):
                msg["game"] = table.game_seq
            if msg.get("legal"):
                msg["previews"] = previews(msg["view"], msg["legal"])
        event = Frame.event("msg", msg)
        request = self.request
        if request.finished or request._disconnected:
            self.close()
            return
        transport = request.channel.transport if request.channel else None
        if transport is None:
            self.close()
            return
        write_now(transport, event.chunked if request.chunked else event.raw)
        if pending_bytes(transport) > self.web.config.max_send_buffer:
            log.info("web: dropping a play stream that does not read ({addr})",
                     addr=self.address)
            self.close()
            transport.abortConnection()

    # -- browser -> host ----------------------------------------------------------

    def incoming(self, msg: dict[str, Any], cookie_token: str | None) -> None:
        """One message from the page, fed to the host connection as one frame."""
        # A token never comes from a body (whatever the message, whatever its role):
        # only this device's cookie, and only for a player's hello, takes a seat back.
        msg = {k: v for k, v in msg.items() if k != "token"}
        if msg.get("type") == "hello" and msg.get("role", "player") == "player":
            if cookie_token and self.web.host.lobby.find_token(cookie_token)[1] is not None:
                msg["token"] = cookie_token  # this device's seat: taken back
        elif msg.get("type") == "leave" and self.token is not None:
            self.token = None  # the seat is given up: /play/keep forgets the cookie
        data = msgpack.packb(msg, use_bin_type=True)
        frame = len(data).to_bytes(4, "big") + data
        if self.transport.paused:
            self._queued.append(frame)
        else:
            self.conn.dataReceived(frame)

    def feed_queued(self) -> None:
        while self._queued and not self.transport.paused and not self.closed:
            self.conn.dataReceived(self._queued.pop(0))

    def close(self) -> None:
        """The stream ends (the page closed, the network went, the host dropped it): the
        connection is lost as a TCP client's would be; the seat waits for its token."""
        if self.closed:
            return
        self.closed = True
        self.web.sessions.pop(self.id, None)
        if not self.request.finished and not self.request._disconnected:
            self.request.finish()
        from twisted.internet import protocol as tprotocol

        self.conn.connectionLost(tprotocol.connectionDone)


def _digits(word: str) -> bool:
    return word.isascii() and word.isdigit()


def previews(view: dict[str, Any], legal: list[str]) -> dict[str, int]:
    """Where each move the seat may make would land (``advance``, ``retreat``, a Morgan
    push of another seat's pirate, the parrot's and the hook's powers), from its own view
    only, by the engine's preview rules (the terminal client's too)."""
    from cartagena_net.engine.preview import Preview

    seat = view.get("viewer")
    if not isinstance(seat, int):
        return {}
    try:
        board = Preview(view)
        out: dict[str, int] = {}
        for action in legal:
            words = action.split()
            if words[0] == "advance" and len(words) == 3 and words[1].isdigit():
                to = board.advance(seat, int(words[1]), words[2])
            elif words[0] == "retreat" and len(words) == 2 and words[1].isdigit():
                got = board.retreat(seat, int(words[1]))
                to = got[0] if got else None
            elif (words[0] == "morgan" and len(words) == 3 and _digits(words[1])
                  and _digits(words[2])):
                got = board.push(int(words[1]), int(words[2]))
                to = got[0] if got else None
            elif (words[0] == "power" and len(words) == 5 and words[1].rstrip("*") == "parrot"
                  and _digits(words[3])):
                to = board.advance(seat, int(words[3]), words[4])
            elif (words[0] == "power" and len(words) == 4 and words[1].rstrip("*") == "hook"
                  and _digits(words[3])):
                to = board.advance(seat, int(words[3]), words[2])
            else:
                continue
            if to is not None:
                out[action] = to
        return out
    except (KeyError, ValueError, IndexError, TypeError):  # a view this cannot read
        return {}


def seat_cookie(web: Any) -> str:
    """The seat cookie's name: one per host (cookies do not tell ports apart)."""
    return f"cartagena_seat_{web.host.host_id[:12]}"


def header(request: Any, name: str) -> str | None:
    raw = request.getHeader(name.encode("ascii"))
    return None if raw is None else raw.decode("latin-1")


def same_origin(request: Any) -> str | None:
    """Why ``request`` may not change anything (None: it comes from the host's page)."""
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


def refuse(request: Any, code: int, reason: str, message: str) -> bytes:
    request.setResponseCode(code)
    request.setHeader(b"Content-Type", b"application/json")
    return to_json({"ok": False, "reason": reason, "message": message})


def post_session(web: Any, request: Any) -> tuple[BrowserSession | None, bytes | None]:
    """The session a POST acts for, or the refusal to answer with."""
    if getattr(request, "too_large", False):
        return None, refuse(request, http.REQUEST_ENTITY_TOO_LARGE, "too-large",
                            f"at most {MAX_POST} bytes")
    why = same_origin(request)
    if why is not None:
        return None, refuse(request, http.FORBIDDEN, "cross-site", why)
    session = web.sessions.get(header(request, SESSION) or "")
    if session is None or session.closed:
        return None, refuse(request, http.GONE, "no-session",
                            "no such play stream: open the page again")
    given = (header(request, CSRF) or "").encode("latin-1")
    if not hmac.compare_digest(given, session.csrf.encode("ascii")):
        return None, refuse(request, http.FORBIDDEN, "csrf",
                            "the anti-forgery value is missing or wrong")
    if session.address != client_address(request):
        return None, refuse(request, http.FORBIDDEN, "csrf", "another address's stream")
    return session, None


def client_address(request: Any) -> str:
    return getattr(request.getClientAddress(), "host", "?")


def decode_body(request: Any) -> dict[str, Any] | None:
    """The POSTed JSON object, strictly (UTF-8, one object, no NaN, at most
    :data:`MAX_DEPTH` arrays and objects deep), or None."""
    try:
        text = request.content.getvalue().decode("utf-8")
        if json_depth(text) > MAX_DEPTH:
            return None  # counted before decoding: the decoder recurses
        value = json.loads(text, parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


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


class _Leaf(Resource):
    isLeaf = True

    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web


class PlayEvents(_Leaf):
    """``GET /play/events``: a new play stream (one host connection)."""

    def render_HEAD(self, request: Any) -> bytes:
        return self.render_GET(request)

    def render_GET(self, request: Any) -> Any:
        request.setHeader(b"Content-Type", b"text/event-stream; charset=utf-8")
        request.setHeader(b"Cache-Control", b"no-store")
        request.setHeader(b"X-Accel-Buffering", b"no")
        if request.method == b"HEAD":
            return b""
        session = BrowserSession(self.web, request, client_address(request))
        self.web.sessions[session.id] = session
        request.notifyFinish().addBoth(lambda _: session.close())
        session.open()
        return server.NOT_DONE_YET


class PlaySend(_Leaf):
    """``POST /play/send``: one protocol message from the page."""

    def render_POST(self, request: Any) -> bytes:
        session, refused = post_session(self.web, request)
        if session is None:
            return refused or b""
        if json_depth(request.content.getvalue().decode("utf-8", "replace")) > MAX_DEPTH:
            return refuse(request, http.BAD_REQUEST, "bad-json",
                          f"the body nests more than {MAX_DEPTH} arrays and objects deep")
        msg = decode_body(request)
        if msg is None or not isinstance(msg.get("type"), str):
            return refuse(request, http.BAD_REQUEST, "bad-json",
                          "the body must be one JSON object with a type")
        try:
            session.incoming(msg, cookie_value(request, seat_cookie(self.web)))
        except (ValueError, TypeError, OverflowError) as exc:  # not packable as msgpack
            return refuse(request, http.BAD_REQUEST, "bad-json", str(exc)[:200])
        request.setHeader(b"Content-Type", b"application/json")
        return to_json({"ok": True})


class PlayKeep(_Leaf):
    """``POST /play/keep``: the seat's token into (or out of) its HttpOnly cookie."""

    def render_POST(self, request: Any) -> bytes:
        session, refused = post_session(self.web, request)
        if session is None:
            return refused or b""
        name = seat_cookie(self.web).encode("ascii")
        if session.token:
            request.addCookie(name, session.token.encode("ascii"), path=b"/",
                              httpOnly=True, sameSite=b"strict", max_age=b"86400")
        else:
            request.addCookie(name, b"", path=b"/", httpOnly=True, sameSite=b"strict",
                              max_age=b"0")
        request.setHeader(b"Content-Type", b"application/json")
        return to_json({"ok": True, "kept": bool(session.token)})


def cookie_value(request: Any, name: str) -> str | None:
    raw = request.getCookie(name.encode("ascii"))
    if not raw:
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return None
    return text if text.isascii() and text.isprintable() else None


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


class Fixed(_Leaf):
    def __init__(self, body: bytes, content_type: str) -> None:
        Resource.__init__(self)
        self.body, self.content_type = body, content_type.encode("ascii")

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", self.content_type)
        return self.body


class JoinCode(_Leaf):
    """``/play/qr.svg``: a QR code of this page's address, for the TV and the host."""

    def render_GET(self, request: Any) -> bytes:
        import io

        import segno

        host = header(request, "host") or ""
        url = f"http://{host}/play" if host and host.isprintable() else self.web.url + "play"
        out = io.BytesIO()
        segno.make(url, error="m", micro=False).save(out, kind="svg", scale=6, border=2,
                                                      xmldecl=False, svgns=True)
        request.setHeader(b"Content-Type", b"image/svg+xml")
        request.setHeader(b"Cache-Control", b"no-store")
        return out.getvalue()


class Play(Resource):
    """``/play``: the page a guest plays on, and its stream and requests."""

    def __init__(self, web: Any, page: bytes) -> None:
        super().__init__()
        self.page = page
        self.putChild(b"events", PlayEvents(web))
        self.putChild(b"send", PlaySend(web))
        self.putChild(b"keep", PlayKeep(web))
        self.putChild(b"rules.json", Fixed(rules_json(), "application/json"))
        self.putChild(b"qr.svg", JoinCode(web))

    def getChild(self, path: bytes, request: Any) -> Resource:
        if path == b"":
            return self
        from twisted.web.resource import NoResource

        return NoResource()

    def render_GET(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
        return self.page

    def render_HEAD(self, request: Any) -> bytes:
        request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
        request.setHeader(b"Content-Length", b"%d" % len(self.page))
        return b""
