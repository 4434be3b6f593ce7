"""The terminal client: a full-screen prompt_toolkit app sharing the Twisted asyncio loop.

Entry point for commands: :func:`run_client` (returns a Deferred that fires with 0 when
the user leaves). Screens are drawn by :mod:`client.render` from a
:class:`client.model.ClientModel`; this module holds the I/O: keys, the connection,
reconnects, discovery and the token store.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

from client.model import DEFAULT_PORT, ClientModel
from client.plain import plain_error
from client.render import render_screen, to_formatted
from client.tokens import TokenStore

RETRY_DELAYS = (0.5, 1.0, 2.0, 3.0, 5.0)
RECONNECT_LIMIT = 90.0  # seconds of failed reconnects before the client gives up
EXPLAIN_AFTER = 5.0  # seconds of an empty host list before it says why that may be
WATCH = 2.0  # seconds between retries of an unsaved seat key and looks at the host's trouble

KEY_NAMES = {
    "c-m": "enter",
    "c-j": "enter",
    "c-i": "tab",
    "c-h": "backspace",
    "s-tab": "s-tab",
}


def key_name(key: Any) -> str:
    """The model's name of a prompt_toolkit key."""
    raw = key.value if isinstance(key, Keys) else str(key)
    if raw == " ":
        return " "
    return KEY_NAMES.get(raw, raw)


def split_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6]:port`` → (host, port); ValueError if bad."""
    text = text.strip()
    if not text:
        raise ValueError("empty address")
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError(f"no host in {text!r}")
    if not port:
        return host, default_port
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}")
    return host, int(port)


class ClientApp:
    """One client: the app, its model and its connection to one host at a time."""

    def __init__(
        self,
        reactor: Any,
        model: ClientModel,
        tokens: TokenStore | None = None,
        password: str | None = None,
        app_input: Any = None,
        app_output: Any = None,
        browse: bool = False,
        discovery_targets: Iterable[str] = (),
        broadcast: bool = True,
        udp_port: int = DEFAULT_PORT,
        reconnect_limit: float = RECONNECT_LIMIT,
        bell: bool = True,
        title: bool = True,
        host_trouble: Any = None,
    ) -> None:
        self.reactor = reactor
        # The host's own client: a callable saying what is wrong with the host (its
        # disk), polled every WATCH seconds with the tokens file's retry.
        self._host_trouble = host_trouble
        self._watch_call: Any = None
        self.bell = bell
        self.title = title
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
        self.app: Application = Application(
            layout=Layout(Window(FormattedTextControl(self._text, show_cursor=False))),
            key_bindings=self._bindings(),
            full_screen=True,
            style=Style([]),
            input=app_input,
            output=app_output,
            mouse_support=False,
        )

    # ------------------------------------------------------------------ drawing

    def _text(self) -> Any:
        size = self.app.output.get_size()
        try:
            return to_formatted(render_screen(self.model, size.columns, size.rows))
        except Exception as exc:  # noqa: BLE001 - a drawing bug must not kill the game
            return [("bold fg:ansired", f"cannot draw this screen: {exc!r} (q quits)")]

    def refresh(self) -> None:
        """Send what the model queued, then redraw (or leave)."""
        for msg in self.model.take_outbox():
            self._send(msg)
        if self.model.exit_requested and not self.closing:
            self.quit()
            return
        self._notify()
        self.app.invalidate()

    def _notify(self) -> None:
        """A bell and the terminal title when it becomes this player's turn."""
        m = self.model
        mine = m.my_turn_now()
        if mine == m.my_turn_seen:
            return
        m.my_turn_seen = mine
        out = self.app.output
        # A terminal without a title or a bell still plays.
        with contextlib.suppress(Exception):
            if mine and self.bell:
                out.bell()
            if self.title:
                out.set_title("cartagena: your turn" if mine else "cartagena")
            out.flush()

    # ------------------------------------------------------------------ keys

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add(Keys.Any)
        @kb.add("c-c")
        @kb.add("escape", eager=True)
        @kb.add("enter")
        @kb.add("c-j")
        @kb.add("tab")
        @kb.add("s-tab")
        @kb.add("backspace")
        @kb.add("left")
        @kb.add("right")
        @kb.add("up")
        @kb.add("down")
        @kb.add("pageup")
        @kb.add("pagedown")
        @kb.add("home")
        @kb.add("end")
        def _(event: Any) -> None:
            self.on_key(key_name(event.key_sequence[-1].key))

        @kb.add(Keys.BracketedPaste)
        def _paste(event: Any) -> None:
            if self.model.input is not None:
                for ch in event.data.replace("\r", " ").replace("\n", " ")[:400]:
                    self.model.on_key(ch)
                self.refresh()

        return kb

    def on_key(self, name: str) -> None:
        try:
            self.model.on_key(name)
        except Exception as exc:  # noqa: BLE001 - a client bug must not end the game
            self.model.set_status(f"internal error: {exc!r}", error=True)
        self.refresh()

    # ------------------------------------------------------------------ network

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
            self.model.set_status(f"cannot send {kind}: {getattr(exc, 'message', exc)}",
                                  error=True)
            return
        if self.session is None or getattr(self.session, "closed", False):
            self.model.set_status("not connected: try again in a moment", error=True)
            return
        try:
            self.session.send(obj)
        except Exception as exc:  # noqa: BLE001 - shown, never a traceback
            self.model.set_status(f"cannot send {kind}: {exc}", error=True)

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
        self.model.saved_seat = None
        if self.session is not None:
            old, self.session = self.session, None
            old.on_close = None
            old.close("resuming a seat")
        self.model.token = str(saved["token"])
        self.model.set_status(f"taking back your seat at table {saved.get('table')}…")
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
        token = None if m.spectate else m.token
        role = "spectator" if m.spectate else "player"
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
        saved = None if welcome.resumed else self.tokens.entry(welcome.host_id)
        self.model.saved_seat = saved if saved and saved.get("token") else None
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
            self.model.set_status("the old seat is gone; joining the lobby", error=True)
            self._connect()
            self.refresh()
            return
        if code:
            self.model.reconnecting = False
            self.model.set_status(plain_error(code, getattr(failure.value, "message", "")),
                                  error=True)
            if code == "bad-password":  # ask for it (Enter tries again, Esc gives up)
                self.model.start_input("password", f"password for {self._address_text()}: ")
            self.refresh()
            return
        if not self.reached:
            # Never reached: a wrong address, not a dropped connection.
            self.model.stop(f"no host at {self._address_text()} "
                            f"({failure.getErrorMessage().strip().rstrip('.')})")
            self.refresh()
            return
        self._schedule_retry(failure.getErrorMessage())

    def _schedule_retry(self, reason: str) -> None:
        now = self.reactor.seconds()
        if self.lost_at is None:
            self.lost_at = now
        if now - self.lost_at >= self.reconnect_limit:
            self.model.stop(f"the host at {self._address_text()} is gone: gave up "
                            f"reconnecting after {self.reconnect_limit:g} s ({reason})")
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
            self.model.set_status(f"cannot show a {wire.get('type')} message: {exc!r}", True)
        if wire.get("type") == "joined" and wire.get("token") and self.model.host_id:
            self.tokens.save(self.model.host_id, str(wire["token"]), self._address_text(),
                             wire.get("table"), wire.get("seat"))
            self._token_notice()
        self.refresh()

    def _token_notice(self) -> None:
        """Say once what went wrong (or right again) with the seats file."""
        notice = self.tokens.take_notice()
        if notice:
            self.model.set_status(notice, error=self.tokens.failing or "damaged" in notice)

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
                trouble = f"cannot ask the host what is wrong: {exc!r}"
            if (trouble or "") != self.model.trouble:
                if not trouble:
                    self.model.set_status("the host's disk takes writes again")
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
            f"discovery failed: {f.getErrorMessage()} (press a to type an address)", True))
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

    # ------------------------------------------------------------------ lifecycle

    def quit(self) -> None:
        """Leave: say bye, stop timers, end the app."""
        self.closing = True
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self.stop_browser()
        if self.session is not None:
            self.session.on_close = None
            self.session.close("bye")
            self.session = None
        if self.app.is_running and not self.app.future.done():
            self.app.exit(result=0)

    async def _main(self) -> int:
        def begin() -> None:
            if self._browse:
                self.start_browser()
            elif self.address is not None:
                self._connect()
            self.app.invalidate()

        asyncio.get_running_loop().call_soon(begin)
        self._watch_call = self.reactor.callLater(WATCH, self._watch)
        try:
            result = await self.app.run_async(handle_sigint=False)
        finally:
            if self._watch_call is not None and self._watch_call.active():
                self._watch_call.cancel()
        return int(result or 0)

    def run(self) -> Any:
        """Run the app on the shared loop; a Deferred firing with the exit code."""
        from twisted.internet.defer import Deferred

        return Deferred.fromFuture(asyncio.ensure_future(self._main()))


def rules_catalogue(model: ClientModel) -> None:
    """Preset names, their titles and the option names, from the engine (new-table form)."""
    try:
        from cartagena_net.engine import OPTIONS, PRESETS
    except ImportError:
        model.presets = ["jamaica"]
        return
    model.presets = list(PRESETS)
    model.preset_titles = {name: str(getattr(p, "title", "")) for name, p in PRESETS.items()}
    model.option_names = [name for name in OPTIONS if name != "players"]
    model.preset_players = {name: tuple(getattr(p, "players", (2, 5)))  # type: ignore[misc]
                            for name, p in PRESETS.items()}


def run_client(
    reactor: Any,
    host: str | None,
    port: int | None,
    name: str,
    spectate: bool = False,
    *,
    ascii_only: bool = False,
    table: int | None = None,
    auto_start: bool = False,
    password: str | None = None,
    state_dir: Any = None,
    browse: bool = False,
    discovery_targets: Iterable[str] = (),
    broadcast: bool = True,
    udp_port: int = DEFAULT_PORT,
    hosting: bool = False,
    solo: bool = False,
    host_label: str | None = None,
    reconnect_limit: float = RECONNECT_LIMIT,
    bell: bool = True,
    title: bool = True,
    app_input: Any = None,
    app_output: Any = None,
    on_app: Any = None,
    web_url: str | None = None,
    token: str | None = None,
    host_trouble: Any = None,
    join_url: str | None = None,
) -> Any:
    """Open the terminal client on ``host:port`` (or the host browser when ``browse``).

    ``table``: sit down at (or watch) this table as soon as the lobby lists it;
    ``auto_start``: then start the game. ``hosting``: this client runs inside the host
    (quitting stops the host for everyone, and it says so); ``solo``: the client of
    `cartagena play` (quitting ends its game); ``host_label``: the address
    shown in the header (the host's LAN address friends type). ``reconnect_limit``: seconds
    of failed reconnects before giving up. ``bell``/``title``: ring the terminal bell and
    set the terminal title when it becomes your turn. Returns a Deferred firing with 0 on exit.
    ``on_app`` is called with the :class:`ClientApp` (tests use it to look inside).
    ``web_url``: the host's web view, shown in the header (the host's own client).
    ``token``: take back this seat on connecting (the host resumed a game of ours).
    ``host_trouble``: the host's own client: a callable saying what is wrong with the
    host (None when nothing is), shown on the status line. ``join_url``: the address
    guests open in a browser to play (the host's own client shows it, with its QR code).
    """
    from pathlib import Path

    model = ClientModel(name=name[:32] or "player", ascii_only=ascii_only, spectate=spectate)
    model.auto_table = table
    model.auto_start = auto_start
    model.hosting = hosting
    model.solo = solo
    model.web_url = web_url or ""
    model.join_url = join_url or ""
    model.token = token
    rules_catalogue(model)
    tokens = TokenStore(Path(state_dir)) if state_dir is not None else TokenStore()
    client = ClientApp(reactor, model, tokens, password=password, app_input=app_input,
                       app_output=app_output, browse=browse or host is None,
                       discovery_targets=discovery_targets, broadcast=broadcast,
                       udp_port=udp_port, reconnect_limit=reconnect_limit, bell=bell,
                       title=title, host_trouble=host_trouble)
    if host is not None and not browse:
        client.address = (host, int(port or DEFAULT_PORT))
        model.host_label = host_label or f"{host}:{client.address[1]}"
    if on_app is not None:
        on_app(client)
    done = client.run()

    def on_shutdown() -> Any:
        # The reactor stops (a signal, say): leave the app first so the terminal is restored.
        if done.called:
            return None
        from twisted.internet.defer import Deferred

        client.quit()
        waiter: Deferred = Deferred()

        def release(result: Any) -> Any:
            waiter.callback(None)
            return result

        done.addBoth(release)
        return waiter

    trigger = reactor.addSystemEventTrigger("before", "shutdown", on_shutdown)

    def untrigger(result: Any) -> Any:
        try:
            reactor.removeSystemEventTrigger(trigger)
        except (ValueError, KeyError):
            pass
        return result

    done.addBoth(untrigger)
    return done
