"""The host's web port: :class:`WebServer` puts the three parts together and listens.

- the guard (:mod:`cartagena_net.web.guard`, with :mod:`cartagena_net.web.hostcheck`):
  every request's headers, methods, bodies, and the connection limits;
- the pages and resources (:mod:`cartagena_net.web.pages`, with the finished games'
  :mod:`cartagena_net.web.games`): the fixed paths and what each answers;
- the feeds and seats: web watchers' event streams (:mod:`cartagena_net.web.feeds`) and
  browser seats (:mod:`cartagena_net.web.seats`: a host connection per play stream).

The host calls :meth:`WebServer.publish_state`, :meth:`~WebServer.table_changed`,
:meth:`~WebServer.push_now` and :meth:`~WebServer.table_removed`; the resources ask it
for :meth:`~WebServer.refusal` (the host's and a table's passwords, a table closed to
watchers) and :meth:`~WebServer.lobby_data`. Game data on a table stream is the engine's
spectator view (:func:`cartagena_net.engine.view`, through the table), encoded once per
update and shared by every web watcher of that table. The host's and the table's
passwords are checked with the host's own checks; the browser sends them as cookies
(``cartagena_host``, ``cartagena_table_N``) set by the page's password form.
"""
from __future__ import annotations

from typing import Any

from twisted.logger import Logger
from twisted.web import http

from cartagena_net import i18n
from cartagena_net.host.errors import HostError
from cartagena_net.web.feeds import Feeds
from cartagena_net.web.games import Background, Newest, records_folder
from cartagena_net.web.guard import (
    WebChannel,
    WebSite,
    client_address,
    cookie,
    page_language,
)
from cartagena_net.web.hostcheck import HostNames
from cartagena_net.web.pages import Pages, root

log = Logger(namespace="cartagena.web")


class WebServer:
    """The web view of one host: listens, admits connections, feeds watchers."""

    def __init__(self, host: Any, port: int, bind: str) -> None:
        self.host = host
        self.reactor = host.reactor
        self.config = host.config
        self.requested_port = port
        self.bind = bind
        self.hostnames = HostNames(getattr(self.config, "web_hosts", ()), bind)
        self.pages = Pages()
        self.channels: set[WebChannel] = set()
        self.feeds = Feeds(self.reactor, self.config, host.lobby.tables.get,
                           self.lobby_data, self._watchers_changed)
        self.sessions: dict[str, Any] = {}  # browser seats' play streams, by id
        self.background = Background(self.reactor)  # records read and replays built
        self.newest = Newest()  # the newest records' names, for /games.json
        self.site = WebSite(root(self), self, timeout=self.config.web_idle_timeout)
        self._listening: Any = None

    # -- lifecycle -------------------------------------------------------------

    def start(self) -> None:
        from cartagena_net.portable.sockets import listen_tcp  # SO_EXCLUSIVEADDRUSE

        self._listening = listen_tcp(self.reactor, self.requested_port, self.site,
                                     interface=self.bind)
        self.feeds.start()
        log.info("web view at {url}", url=self.url)

    def stop(self) -> Any:
        self.background.stop()
        self.feeds.stop()
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

    # -- limits (the guard's) ------------------------------------------------------

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

    # -- what the pages read ---------------------------------------------------

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

    # -- the feeds, as the host sees them -------------------------------------------

    def _watchers_changed(self, table: Any) -> None:
        """A table's web watchers came or went: counted in the lobby's spectators, and
        a first live estimate if none was made while nobody watched."""
        self.host.lobby_changed(table)
        coach = getattr(table, "coach", None)
        if coach is not None and self.feeds.watchers(table.id):
            coach.turn()

    def watching(self, table_id: int) -> bool:
        return self.feeds.watching(table_id)

    def watchers(self, table_id: int) -> int:
        """How many browsers watch the table (counted with its spectators)."""
        return self.feeds.watchers(table_id)

    def publish_state(self, table: Any, spectator_wire: dict[str, Any], full: bool) -> None:
        self.feeds.publish_state(table, spectator_wire, full)

    def table_changed(self, table: Any) -> None:
        self.feeds.table_changed(table)

    def push_now(self) -> None:
        self.feeds.push_now()

    def table_removed(self, table_id: int) -> None:
        self.feeds.table_removed(table_id)

    def record_written(self, record_id: str) -> None:
        """The host wrote a game's record: the list of games has it without reading
        the folder again."""
        from cartagena_net.records.store import SUFFIX

        self.newest.written(f"{record_id}{SUFFIX}")


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
