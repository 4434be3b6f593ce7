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
import secrets
from typing import Any

from twisted.internet.address import IPv4Address
from twisted.logger import Logger
from twisted.web import http, server

from cartagena_net.host.connection import HostConnection
from cartagena_net.host.eager import write_now
from cartagena_net.web.feeds import Frame
from cartagena_net.web.guard import (
    MAX_POST,
    Leaf,
    client_address,
    cookie,
    decode_body,
    event_stream,
    header,
    refuse,
    same_origin,
    to_json,
)
from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.framing import FrameDecoder, encode_frame

log = Logger(namespace="cartagena.web.seats")

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
        self._frames = FrameDecoder()  # what the host writes, split into its frames
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
        try:
            self._frames.receive_data(data)
            while (msg := self._frames.next_frame()) is not None:
                self._send(msg)
                if self.closed:
                    return
        except RemoteProtocolError as exc:  # the host's own frames: a bug if ever
            log.error("web: a play stream's frame from the host is not readable: {exc}",
                      exc=exc)
            self.close()

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
        if write_now(transport, event.chunked if request.chunked
                     else event.raw) > self.web.config.max_send_buffer:
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
        frame = encode_frame(msg)  # LocalProtocolError: not a protocol message's data
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


class _Leaf(Leaf):
    def __init__(self, web: Any) -> None:
        super().__init__()
        self.web = web


class PlayEvents(_Leaf):
    """``GET /play/events``: a new play stream (one host connection)."""

    def render_HEAD(self, request: Any) -> bytes:
        return self.render_GET(request)

    def render_GET(self, request: Any) -> Any:
        event_stream(request)
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
        msg = decode_body(request)
        if isinstance(msg, str):
            return refuse(request, http.BAD_REQUEST, "bad-json", msg)
        if not isinstance(msg.get("type"), str):
            return refuse(request, http.BAD_REQUEST, "bad-json",
                          "the body must be one JSON object with a type")
        try:
            session.incoming(msg, cookie(request, seat_cookie(self.web)))
        except LocalProtocolError as exc:  # not a protocol message's data (msgpack's)
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
