"""The terminal client: a full-screen prompt_toolkit app sharing the Twisted asyncio loop.

Entry point for commands: :func:`run_client` (returns a Deferred that fires with 0 when
the user leaves). Screens are drawn by :mod:`client.render` from a
:class:`client.model.ClientModel`; this module holds the app: drawing, keys (handed to
the model), the turn's bell and title, and the lifecycle. The connection, reconnects,
discovery and the token store are its link to the host (:mod:`client.link`).
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

from cartagena_net.i18n import gettext
from client.link import RECONNECT_LIMIT, WATCH, HostLink, split_address
from client.model import DEFAULT_PORT, ClientModel
from client.render import render_screen, to_formatted
from client.tokens import TokenStore
from client.uistate import OptionSpec

__all__ = ["ClientApp", "key_name", "rules_catalogue", "run_client", "split_address"]

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


class ClientApp(HostLink):
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
        self.init_link(reactor, model, tokens, password, browse, discovery_targets,
                       broadcast, udp_port, reconnect_limit, host_trouble)
        self.bell = bell
        self.title = title
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
            return [("bold fg:ansired", gettext("cannot draw this screen: {error} (q quits)")
                     .format(error=repr(exc)))]

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
                out.set_title("cartagena: " + gettext("your turn") if mine else "cartagena")
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
            self.model.set_status(gettext("internal error: {error}").format(error=repr(exc)),
                                  error=True)
        self.refresh()

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
    model.option_specs = option_specs()
    model.preset_values = {}
    for name in PRESETS:
        try:
            from cartagena_net.engine import make_game

            model.preset_values[name] = dict(make_game(name).spec())
        except (ValueError, TypeError):
            continue


def option_specs() -> list[OptionSpec]:
    """Every game option but the players (its own row), from the engine's own table: the
    same data as `cartagena rules` and the web form's /play/rules.json."""
    from cartagena_net.engine import OPTIONS

    return [OptionSpec(o.name, o.kind.__name__, o.help, tuple(o.choices),
                       tuple(o.bounds) if o.bounds else None)  # type: ignore[arg-type]
            for o in OPTIONS.values() if o.name != "players"]


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
    screen_reader: bool = False,
    reader_in: Any = None,
    reader_out: Any = None,
    kept: bool = False,
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
    ``screen_reader``: the same client line by line (:mod:`client.reader`), reading
    ``reader_in`` and writing ``reader_out`` (standard input and output by default).
    ``kept``: hosting or solo, a journal keeps the game and the next start offers it back
    (the quit question says so).
    """
    from pathlib import Path

    model = ClientModel(name=name[:32] or "player", ascii_only=ascii_only, spectate=spectate,
                        watch_only=spectate)
    model.auto_table = table
    model.auto_start = auto_start
    model.hosting = hosting
    model.solo = solo
    model.game_kept = kept
    model.web_url = web_url or ""
    model.join_url = join_url or ""
    model.token = token
    rules_catalogue(model)
    tokens = TokenStore(Path(state_dir)) if state_dir is not None else TokenStore()
    client: Any
    if screen_reader:
        from client.reader import ReaderClient

        client = ReaderClient(reactor, model, tokens, password=password, out=reader_out,
                              inp=reader_in, browse=browse or host is None,
                              discovery_targets=discovery_targets, broadcast=broadcast,
                              udp_port=udp_port, reconnect_limit=reconnect_limit,
                              host_trouble=host_trouble)
    else:
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
