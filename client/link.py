"""The terminal client's link to a host: connecting, sending, reconnecting with
backoff, the seat keys kept on disk, and the host browser (LAN discovery).

Mixed into :class:`client.app.ClientApp`; relies on its attributes (``reactor``,
``model``, ``tokens``, ``session``, ``address``, ...) and on its ``refresh`` (send the
model's outbox, redraw). What the host says goes to the model as wire dicts.
"""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import _, decimal
from client.model import DEFAULT_PORT
from client.plain import not_sendable, plain_error

RETRY_DELAYS = (0.5, 1.0, 2.0, 3.0, 5.0)
RECONNECT_LIMIT = 90.0  # seconds of failed reconnects before the client gives up
EXPLAIN_AFTER = 5.0  # seconds of an empty host list before it says why that may be
WATCH = 2.0  # seconds between retries of an unsaved seat key and looks at the host's trouble


def split_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` → (host, port); ValueError if bad."""
    text = text.strip()
    if not text:
        raise ValueError(_("empty address"))
    if text.startswith("["):
        host, closed, rest = text[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):
            raise ValueError(_("bad address {text}: write an IPv6 address as [ADDRESS] or "
                               "[ADDRESS]:PORT").format(text=repr(text)))
        port = rest[1:]
        if rest and not port:
            raise ValueError(_("bad port in {text}").format(text=repr(text)))
    elif text.count(":") == 1:
        host, _sep, port = text.partition(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError(_("no host in {text}").format(text=repr(text)))
    if not port:
        return host, default_port
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError(_("bad port in {text}").format(text=repr(text)))
    return host, int(port)


class HostLink:
    """The connection to one host at a time, and the discovery of hosts."""


    def init_link(self, reactor: Any, model: Any, tokens: Any, password: str | None,
                  browse: bool, discovery_targets: Any, broadcast: bool, udp_port: int,
                  reconnect_limit: float, host_trouble: Any) -> None:
        """The link's own state (each client calls it as it is made). ``host_trouble``:
        the host's own client is given a callable saying what is wrong with the host (its
        disk), polled every WATCH seconds with the tokens file's retry."""
        from client.tokens import TokenStore

        self.reactor = reactor
        self._host_trouble = host_trouble
        self._watch_call: Any = None
        self.reconnect_limit = reconnect_limit
        self.reached = False  # this address answered once since it was chosen
        self.lost_at: float | None = None  # when the connection dropped (None: connected)
        self.model = model
        self.tokens = tokens if tokens is not None else TokenStore()
        self.password = password
        self.session: Any = None
        self.address: tuple[str, int] | None = None
        self.closing = False
        self.attempt = 0
        self._retry_call: Any = None
        self.sent_token: str | None = None
        self._browser: Any = None
        self._browse = browse
        self._targets = tuple(discovery_targets)
        self._broadcast = broadcast
        self._udp_port = udp_port
    def _send(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "_connect":
            self.connect_to(str(msg["address"]))
            return
        if kind == "_resume":
            self.resume_saved_seat()
            return
        if kind == "_reconnect":
            self.reconnect()
            return
        if kind == "_name":
            self.rename(str(msg["name"]))
            return
        if kind == "_password":
            self.password = str(msg["text"])
            self._connect()
            return
        from protocol import LocalProtocolError, messages

        fields = {k: v for k, v in msg.items() if k != "type"}
        if kind == "join_table" and not fields.get("password") and self.password:
            fields["password"] = self.password  # --password: the host's or the table's
        try:
            obj = messages.MESSAGE_TYPES[str(kind)](**fields)
        except (LocalProtocolError, TypeError, ValueError) as exc:
            self.model.set_status(not_sendable(exc), error=True)
            return
        if self.session is None or getattr(self.session, "closed", False):
            self.model.set_status(_("not connected: try again in a moment"), error=True)
            return
        try:
            self.session.send(obj)
        except Exception as exc:  # noqa: BLE001 - shown, never a traceback
            self.model.set_status(not_sendable(exc), error=True)

    def rename(self, name: str) -> None:
        """The player gave a new name: kept for the next runs, and told to the host now
        (its chat, the next table, the seat while no game runs: docs/protocol.md 4.19)."""
        from client.settings import save_name

        trouble = save_name(name, self.tokens.directory)
        if trouble:
            self.model.set_status(trouble, error=True)
        session = self.session
        if session is None or getattr(session, "closed", False) or session.welcome is None:
            return  # the next hello carries it
        from protocol import messages

        try:
            session.send(messages.Rename(name=name))
        except Exception:  # noqa: BLE001 - the next hello carries the name anyway
            return

    def connect_to(self, text: str) -> None:
        """Connect to a typed or discovered address (leaving any current host)."""
        try:
            host, port = split_address(text)
        except ValueError as exc:
            self.model.set_status(str(exc), error=True)
            return
        self.stop_browser()
        if self.session is not None:
            old, self.session = self.session, None
            old.on_close = None
            old.close("switching host")
        self.address = (host, port)
        self.model.host_label = f"{host}:{port}"
        self.model.screen = "connecting"
        self.model.table = self.model.seat = None
        self.model.token = None
        self.model.view = None
        self.model.joining = None
        self.reached = False
        self.reconnect()

    def reconnect(self) -> None:
        """Connect (again) to the chosen address, from a clean slate of retries."""
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self.model.gone = None
        self.lost_at = None
        self.attempt = 0
        if self.session is None:
            self._connect()
        self.refresh()

    def resume_saved_seat(self) -> None:
        """The user asked for the seat saved by an earlier run: come back with its token."""
        saved = self.model.saved_seat
        if not saved or self.address is None:
            return
        self.model.saved_seat, self.model.saved_seats = None, []
        if self.session is not None:
            old, self.session = self.session, None
            old.on_close = None
            old.close("resuming a seat")
        self.model.token = str(saved["token"])
        self.model.set_status(_("taking back your seat at table {table}…").format(
            table=saved.get("table")))
        self.reconnect()

    def _address_text(self) -> str:
        assert self.address is not None
        return f"{self.address[0]}:{self.address[1]}"

    def _connect(self) -> None:
        from client.net import connect

        self._retry_call = None
        if self.closing or self.address is None:
            return
        host, port = self.address
        m = self.model
        # Only a seat this process itself held (or one the user asked for) is resumed:
        # another client of the same user must never be pushed out of its seat.
        token = None if m.watch_only else m.token
        role = "spectator" if m.watch_only else "player"
        self.sent_token = token
        d = connect(self.reactor, host, port, m.name, role=role, token=token,
                    password=self.password, timeout=10.0)
        d.addCallbacks(self._connected, self._connect_failed, errbackArgs=(token,))

    def _connected(self, result: Any) -> None:
        session, welcome = result
        if self.closing:
            session.close("bye")
            return
        self.session = session
        self.attempt = 0
        self.reached = True
        self.lost_at = None
        session.on_close = self._closed
        self.model.on_message(welcome.to_wire())
        self.model.token = self.sent_token if welcome.resumed else None
        saved = [] if welcome.resumed else [e for e in self.tokens.entries(welcome.host_id)
                                            if e.get("token")]
        self.model.saved_seats = saved
        self.model.saved_seat = saved[0] if saved else None
        self._token_notice()
        session.on_message = self._message
        self.refresh()

    def _connect_failed(self, failure: Any, token: str | None) -> None:
        if self.closing:
            return
        code = getattr(failure.value, "code", "")
        if code == "bad-token" and token:
            self.tokens.forget(self.model.host_id, token)
            self.model.token = None
            self.model.table = self.model.seat = None
            self.model.view = None
            self.model.set_status(_("the old seat is gone; joining the lobby"), error=True)
            self._connect()
            self.refresh()
            return
        if code:
            self.model.reconnecting = False
            self.model.set_status(plain_error(code, getattr(failure.value, "message", ""),
                                              getattr(failure.value, "why", None),
                                              getattr(failure.value, "fields", None)),
                                  error=True)
            if code == "bad-password":  # ask for it (Enter tries again, Esc gives up)
                self.model.start_input("password", _("password for {host}: ").format(
                    host=self._address_text()))
            self.refresh()
            return
        if not self.reached:
            # Never reached: a wrong address, not a dropped connection.
            self.model.stop(_("no host at {host} ({error})").format(
                host=self._address_text(),
                error=failure.getErrorMessage().strip().rstrip(".")))
            self.refresh()
            return
        self._schedule_retry(failure.getErrorMessage())

    def _schedule_retry(self, reason: str) -> None:
        now = self.reactor.seconds()
        if self.lost_at is None:
            self.lost_at = now
        if now - self.lost_at >= self.reconnect_limit:
            self.model.stop(_("the host at {host} is gone: gave up reconnecting after {n} s "
                              "({reason})").format(host=self._address_text(),
                                                   n=decimal(f"{self.reconnect_limit:g}"), reason=reason))
            self.refresh()
            return
        delay = RETRY_DELAYS[min(self.attempt, len(RETRY_DELAYS) - 1)]
        self.attempt += 1
        self.model.on_disconnect(reason, will_retry=True)
        self._retry_call = self.reactor.callLater(delay, self._connect)
        self.refresh()

    def _message(self, msg: Any) -> None:
        wire = msg.to_wire()
        try:
            self.model.on_message(wire)
        except Exception as exc:  # noqa: BLE001 - shown, never a traceback
            self.model.set_status(_("cannot show a {kind} message: {error}").format(
                kind=wire.get("type"), error=repr(exc)), True)
        if wire.get("type") == "joined" and wire.get("token") and self.model.host_id:
            self.tokens.save(self.model.host_id, str(wire["token"]), self._address_text(),
                             wire.get("table"), wire.get("seat"))
            self._token_notice()
        self.refresh()

    def _token_notice(self) -> None:
        """Say once what went wrong (or right again) with the seats file."""
        notice = self.tokens.take_notice()
        if notice:
            damaged, self.tokens.damaged = self.tokens.damaged, False
            self.model.set_status(notice, error=self.tokens.failing or damaged)

    def _watch(self) -> None:
        """Every WATCH seconds: write a seat's key the disk refused before, and show what
        the host says is wrong with it (the host's own client)."""
        self._watch_call = self.reactor.callLater(WATCH, self._watch)
        changed = False
        if self.tokens.unsaved:
            self.tokens.retry()
            changed = self.tokens.notice is not None
            self._token_notice()
        if self._host_trouble is not None:
            try:
                trouble = self._host_trouble()
            except Exception as exc:  # noqa: BLE001 - shown, never a traceback
                trouble = _("cannot ask the host what is wrong: {error}").format(
                    error=repr(exc))
            if (trouble or "") != self.model.trouble:
                if not trouble:
                    self.model.set_status(_("the host's disk takes writes again"))
                self.model.trouble = trouble or ""
                changed = True
        if changed:
            self.refresh()

    def _closed(self, reason: str) -> None:
        self.session = None
        if self.closing:
            return
        if self.model.gone is not None:  # the host said bye, or the seat went elsewhere
            self.refresh()
            return
        self._schedule_retry(reason)

    # ------------------------------------------------------------------ discovery

    def start_browser(self) -> None:
        from cartagena_net.discovery import DiscoveryBrowser

        self.model.screen = "browser"
        self._browser = DiscoveryBrowser(self.reactor, self._hosts_changed,
                                         udp_port=self._udp_port, targets=self._targets,
                                         broadcast=self._broadcast)
        d = self._browser.start()
        d.addErrback(lambda f: self.model.set_status(
            _("discovery failed: {error} (press a to type an address)").format(
                error=f.getErrorMessage()), True))
        self.reactor.callLater(EXPLAIN_AFTER, self._explain_empty)

    def _explain_empty(self) -> None:
        """Nobody answered yet: say why that may be, from what this machine sees."""
        browser = self._browser
        if browser is None or self.model.hosts or self.model.screen != "browser":
            return
        import sys

        from cartagena_net.discovery.explain import explain, seen_now

        self.model.discovery_help = explain(seen_now(
            sys.platform, browser.send_errors, self._broadcast, self._udp_port))
        self.refresh()

    def stop_browser(self) -> None:
        if self._browser is not None:
            browser, self._browser = self._browser, None
            browser.stop()

    def _hosts_changed(self, hosts: list[Any]) -> None:
        self.model.hosts = list(hosts)
        self.model.browser_index = min(self.model.browser_index, max(0, len(hosts) - 1))
        self.app.invalidate()
