"""The host as a Twisted service: listens on TCP, owns the lobby, its tables and journals."""
from __future__ import annotations

import os
import re
import time
import uuid
import weakref
from pathlib import Path
from typing import Any

from twisted.application.service import Service
from twisted.internet import defer
from twisted.internet import protocol as tprotocol
from twisted.logger import Logger

from cartagena_net.engine import make_game
from cartagena_net.engine.errors import OptionError
from cartagena_net.engine.reasons import os_error_text
from cartagena_net.host import recorder
from cartagena_net.host.config import HostConfig
from cartagena_net.host.connection import HostConnection
from cartagena_net.host.eager import Outbox
from cartagena_net.host.errors import HostError
from cartagena_net.host.journal import (
    Journal,
    Syncer,
    archive_journals,
    ensure_state_dir,
    highest_journal_id,
    journal_path,
    write_atomically,
)
from cartagena_net.host.limits import ConnectionCaps, connection_cap
from cartagena_net.host.lobby import Lobby
from cartagena_net.host.passwords import GuessThrottle, PasswordChecker, StoredPassword
from cartagena_net.host.reviewer import Reviewer
from cartagena_net.host.sweeper import Sweeper
from cartagena_net.host.table import Table
from cartagena_net.host.thinker import Thinker
from cartagena_net.i18n import _, ngettext
from cartagena_net.portable.sockets import listen_tcp
from protocol import Connection, Role, encode_frame

log = Logger(namespace="cartagena.host")

HOST_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a host-id file may hold
HOST_ENDED = "host-ended"  # the reason every client is given on a stop (a reason's key)


class _Factory(tprotocol.Factory):
    noisy = False

    def __init__(self, host: HostService) -> None:
        self.host = host

    def buildProtocol(self, addr: Any) -> HostConnection:
        conn = HostConnection(self.host, getattr(addr, "host", str(addr)))
        conn.factory = self
        return conn


class HostService(Service):
    """The authority of every table on this host. The reactor is passed in."""

    def __init__(self, config: HostConfig, reactor: Any) -> None:
        self.config = config
        self.reactor = reactor
        # the frames of one round of the reactor's ready events, sent together at its end
        self.outbox = Outbox(reactor)
        self.lobby = Lobby(self)
        self.caps = ConnectionCaps(connection_cap(config.max_connections),
                                   config.max_per_address)
        if self.caps.max_total < config.max_connections:
            log.warn(  # noqa: G010 - twisted's Logger has warn()
                "at most {cap} connections on this platform (asked for {wanted}): its "
                "event loop or file limit holds no more", cap=self.caps.max_total,
                wanted=config.max_connections)
        self.connections: set[HostConnection] = set()
        self.host_id = uuid.uuid4().hex
        self.passwords = PasswordChecker(reactor, GuessThrottle(
            reactor.seconds, free=config.guess_free, base=config.guess_delay,
            cap=config.guess_max_delay))
        # Only the hash is kept; an unusable password is refused here (ValueError).
        self.password = StoredPassword.make(config.password) if config.password else None
        self._listening: Any = None
        # The engine's Game of each set of rules and options (the seats' colours among
        # them) that a table holds now, shared by those tables; it goes with the last of
        # them (its action tables stay with the engine for the games to come on boards of
        # the same kinds and length, a bounded few: ``engine.actions.action_tables``).
        self._games: weakref.WeakValueDictionary[Any, Any] = weakref.WeakValueDictionary()
        self.thinker = Thinker(reactor, config.bot_workers, seeded=config.seed is not None)
        self.records_waiting = recorder.Waiting(reactor)  # records the disk refused so far
        self.reviewer = Reviewer(self)  # the bot's review of each game that ends
        self.evening = recorder.Evening(self)  # the scoreboard of tonight's games
        self.sweeper = Sweeper(reactor)  # what a table leaves is freed once it goes
        self.records_waiting.on_written = self.record_written
        self.bot_fallbacks = 0  # bot searches that failed on any table (their fallback played)
        self.web: Any = None  # the web view (cartagena_net.web.WebServer), when on
        self.state_dir: Path | None = None
        self.syncer = Syncer(reactor, config.journal_sync)  # journals' fsyncs, off the action path
        self.archived: tuple[Path, int] | None = None  # where old journals were moved
        self.journal_damage: list[Any] = []  # games whose journal could not come back
        if config.state_dir is not None:
            self.state_dir = ensure_state_dir(config.state_dir)
            self.host_id = self._load_host_id()

    # -- service ---------------------------------------------------------------

    def startService(self) -> None:
        super().startService()
        self.evening.load()
        self.reviewer.resume_due()  # reviews due when this host last stopped
        if self.state_dir is not None and self.config.resume:
            from cartagena_net.host.restore import restore_tables

            for table in restore_tables(self, self.state_dir):
                self.lobby.add_table(table)
                log.info("restored table {id} ({status})", id=table.id, status=table.status)
                table.resumed()
        elif self.state_dir is not None:
            # Journals are never deleted: those of an earlier run are archived.
            folder, count = archive_journals(self.state_dir)
            if folder is not None:
                self.archived = (folder, count)
                log.warn(  # noqa: G010 - twisted's Logger has warn()
                    "started without --resume: {n} journal file(s) of an earlier run "
                    "moved to {folder} (move them back and start with --resume to "
                    "restore those tables)", n=count, folder=str(folder))
        if self.state_dir is not None:
            # New tables never take the id of a journal file present (kept aside ones too).
            self.lobby.next_id = max(self.lobby.next_id, highest_journal_id(self.state_dir) + 1)
        self._listening = listen_tcp(self.reactor, self.config.port, _Factory(self),
                                     interface=self.config.bind)
        log.info("host {name!r} listening on TCP port {port}", name=self.config.name,
                 port=self.port)
        if self.config.web_port is not None:
            from cartagena_net.web import WebServer

            bind = self.config.bind if self.config.web_bind is None else self.config.web_bind
            self.web = WebServer(self, self.config.web_port, bind)
            try:
                self.web.start()
            except Exception:
                self.web = None
                self._listening.stopListening()
                self._listening = None
                raise

    def stopService(self) -> defer.Deferred:
        """Say goodbye to every client, close the journals, stop listening.

        Tables are not touched by the connections closing now: after a restart
        with ``resume`` every seat is where it was.
        """
        super().stopService()
        self.outbox.flush()
        self.lobby.cancel()
        self.passwords.stop()
        for conn in list(self.connections):
            conn.say_bye(HOST_ENDED)
        for table in self.lobby.tables.values():
            if table.status == "playing":  # a spectator's record, until the game ends
                recorder.keep(table, "stopped")
            table.close()
        self.syncer.flush_now()
        self.reviewer.stop()
        self.records_waiting.stop()
        self.evening.stop()
        self.sweeper.stop()
        self.thinker.shutdown()
        stopping = []
        if self.web is not None:
            stopping.append(defer.maybeDeferred(self.web.stop))
            self.web = None
        listening, self._listening = self._listening, None
        if listening is not None:
            stopping.append(defer.maybeDeferred(listening.stopListening))
        return defer.gatherResults(stopping).addCallback(lambda _: None)

    def record_written(self, folder: str, record: dict[str, Any],
                       data: bytes | None = None) -> None:
        """A game's record is on disk (``data``: the file's bytes, where the caller has
        them): it counts on tonight's scoreboard, and the bot reviews it (unless reviews
        are off)."""
        self.evening.add(record)
        if self.web is not None:
            self.web.record_written(record["id"])
        if self.config.reviews:
            self.reviewer.add(folder, record, data=data)

    @property
    def port(self) -> int:
        """The TCP port actually bound (useful with port 0)."""
        if self._listening is None:
            raise RuntimeError("the host is not listening")
        return self._listening.getHost().port

    # -- tables ----------------------------------------------------------------

    def create_table(
        self,
        name: str,
        rules: str,
        options: dict[str, Any],
        bots: int = 0,
        bot_kind: str = "greedy",
        password: str | None = None,
        stored_password: StoredPassword | None = None,
        address: str | None = None,
        hints: bool = False,
        player_chances: bool = False,
    ) -> int:
        """Create a table (bots take the last seats); return its id. HostError if refused.

        ``password`` is hashed here (about 40 ms); the lobby passes ``stored_password``,
        made off the reactor thread, instead.

        ``address``: the client address asking (None: the host itself); one address
        holds at most ``config.max_tables_per_address`` tables.

        ``hints``: the seated players may ask for hints; ``player_chances``: their own
        states carry each seat's chance of winning too (the owner's choices).
        """
        if password:
            try:
                stored_password = StoredPassword.make(password)
            except ValueError as exc:
                raise HostError("bad-field", "password-unusable", detail=str(exc)) from None
        cap = self.config.max_tables_per_address
        if address is not None and sum(
            1 for t in self.lobby.tables.values() if t.creator == address
        ) >= cap:
            raise HostError("too-many-tables", "address-tables", address=address, tables=cap)
        if len(self.lobby.tables) >= self.config.max_tables:
            # Tables nobody plays or watches never hold the last slots: the one paused
            # longest goes now (as after its grace period) to make room.
            paused = [t for t in self.lobby.tables.values() if t.paused and t.unattended()]
            if not paused:
                raise HostError("too-many-tables", "host-tables",
                                tables=self.config.max_tables)
            min(paused, key=lambda t: (t.paused_since, t.id)).abandon("room")
        while True:
            table_id = self.lobby.next_id
            try:
                table = Table(
                    self, table_id, name[:64], rules, options,
                    password=stored_password, spectators=self.config.spectators,
                    creator=address, hints=hints, player_chances=player_chances,
                )
            except FileExistsError:  # a journal nobody listed: never overwrite it
                log.warn(  # noqa: G010 - twisted's Logger has warn()
                    "table id {id} skipped: {path} exists", id=table_id,
                    path=str(journal_path(self.state_dir or ".", table_id)))
                self.lobby.next_id = table_id + 1
                continue
            break
        self.lobby.next_id = max(self.lobby.next_id, table_id + 1)
        if bots < 0 or bots > len(table.seats):
            table.close()
            if table.journal is not None:
                table.journal.remove()
            raise HostError("bad-field", "bots-count", seats=len(table.seats),
                            most=len(table.seats))
        if table.journal is not None:
            table.journal.append(table.meta_record())
        for i in range(bots):
            table.add_bot(None, len(table.seats) - 1 - i, bot_kind)
        self.lobby.add_table(table)
        return table_id

    def remove_table(self, table: Table) -> None:
        """Remove a table that holds no game and nobody (its journal goes with it)."""
        if self.lobby.tables.get(table.id) is not table:
            return
        journal = table.journal
        table.close()
        if journal is not None:
            try:
                journal.remove()
            except OSError as exc:
                log.error("table {id}: cannot remove its journal: {err}", id=table.id,
                          err=str(exc))
        self.lobby.remove_table(table)
        if self.web is not None:  # its web watchers are told the table is gone
            self.web.table_removed(table.id)
        self.lobby_changed()
        self.sweeper.soon()  # the table and its parts hold each other: collected
        log.info("table {id} removed: nobody is left at it", id=table.id)

    def notices(self) -> list[dict[str, Any]]:
        """What went wrong on this host that everyone connected should know, as data
        (``lobby.notices``, docs/protocol.md 4.4): the games whose journal was too damaged
        to come back at start, and that this host keeps no journal (its state folder
        cannot be written)."""
        out: list[dict[str, Any]] = []
        off = getattr(self.config, "journal_off", None)
        if off:
            out.append({"kind": "no-journal", **{k: str(v)[:300] for k, v in off.items()}})
        for damage in getattr(self, "journal_damage", ())[:7]:
            data = damage.to_data()
            out.append({k: (v[:300] if isinstance(v, str) else v) for k, v in data.items()})
        return out[:8]

    def trouble(self) -> str | None:
        """What is wrong with this host's disk, in one sentence for its own client (its
        log says it in detail), in this process's language; None when nothing is."""
        parts = []
        failing = [t for t in self.lobby.tables.values() if t.journal_failing]
        if failing:
            ids = ", ".join(str(t.id) for t in failing)
            parts.append(ngettext(
                "cannot save the game of table {ids} ({error}) in {folder}: its actions are "
                "refused until it has room",
                "cannot save the games of tables {ids} ({error}) in {folder}: their actions "
                "are refused until it has room", len(failing)).format(
                ids=ids, error=os_error_text(failing[0].journal_error, _), folder=self.state_dir))
        waiting = self.records_waiting.records
        if waiting:
            folder = next(iter(waiting.values()))[0]
            parts.append(ngettext("{n} game record waits for room in {folder}",
                                  "{n} game records wait for room in {folder}",
                                  len(waiting)).format(n=len(waiting), folder=folder))
        return "; ".join(parts) or None

    def summary(self) -> dict[str, Any]:
        """What discovery announces: host name and tables (never passwords or tokens)."""
        return {
            "host_id": self.host_id,
            "name": self.config.name,
            "tables": [t.summary() for t in self.lobby.tables.values()],
        }

    # -- hooks used by the lobby, tables and connections -------------------------

    def game_for(self, rules: str, options: dict[str, Any]) -> Any:
        """The engine's Game for these rules; shared by the tables that hold the same
        options now (none is kept for a table to come: see ``_games``)."""
        try:
            key = (rules, tuple(sorted(options.items())))
            hash(key)
        except TypeError:
            raise HostError("bad-rules", "options-not-plain") from None
        game = self._games.get(key)
        if game is None:
            try:
                game = make_game(rules, **options)
            except OptionError as exc:  # the engine's reason as data: every client words it
                raise HostError.of("bad-rules", exc) from None
            except Exception as exc:  # noqa: BLE001 - whatever the engine refuses is bad-rules
                raise HostError("bad-rules", "rules-unusable", rules=repr(rules),
                                detail=str(exc)) from None
            self._games[key] = game
        return game

    def check_password(self, password: str | None, address: str = "web") -> None:
        """HostError ``bad-password`` unless ``password`` is the host's (or none is set).

        For checks that cannot wait (the web view): see PasswordChecker.check_now.
        """
        if self.password is None:
            return
        refused = self.passwords.check_now(address, password, self.password, "host")
        if refused is not None:
            raise HostError("bad-password", refused)

    def lobby_changed(self, table: Any = None) -> None:
        if table is not None:  # someone came or went: a bots-only table may pause or resume
            table.check_attendance()
        self.lobby.changed(table)
        if self.web is not None:
            self.web.table_changed(table)

    def lobby_now(self) -> None:
        """Push the lobby's changes now, not after ``lobby_delay`` (the seats moved
        just before a state that names them)."""
        self.lobby.cancel()
        self.lobby.push()
        if self.web is not None:
            self.web.push_now()

    def make_wire(self) -> Connection:
        if self.config.max_frame is not None:
            return Connection(Role.HOST, max_frame=self.config.max_frame)
        return Connection(Role.HOST)

    def encode(self, msg: Any) -> bytes:
        """One message as a frame, encoded once for any number of connections."""
        return encode_frame(msg.to_wire())

    def encode_wire(self, wire: dict[str, Any]) -> bytes:
        """A host-built map (engine views) as a frame: the fast path for ``state``.

        The map is built by the host from the engine's plain-data views, so the field walk
        is skipped; msgpack still refuses ints outside -2**63..2**64-1 and non-plain
        types, and the frame size is checked.
        """
        return encode_frame(wire, check=False)

    def open_journal(self, table_id: int, fresh: bool = True) -> Journal | None:
        """The journal of a table (None without a state dir); ``fresh``: a new file."""
        if self.state_dir is None:
            return None
        return Journal(journal_path(self.state_dir, table_id), fresh=fresh, syncer=self.syncer)

    def admit(self, conn: HostConnection) -> str | None:
        refusal = self.caps.admit(conn.address)
        if refusal is None:
            self.connections.add(conn)
        return refusal

    def release(self, conn: HostConnection) -> None:
        self.caps.release(conn.address)
        self.connections.discard(conn)
        if self.running:
            self.lobby.disconnected(conn)

    def _load_host_id(self) -> str:
        assert self.state_dir is not None
        path = self.state_dir / "host-id"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = None
        if data is not None:
            text = data.decode("ascii", "replace").strip()
            if HOST_ID.fullmatch(text):
                return text
            # Not ours to destroy: kept aside, and a fresh id is written.
            aside = path.with_name(f"host-id.bad-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
            os.replace(path, aside)
            log.warn(  # noqa: G010 - twisted's Logger has warn()
                "state dir {dir}: host-id is unreadable (not 1 to 64 letters, digits, - or _); "
                "kept as {aside}, and this host has a new id", dir=str(self.state_dir),
                aside=str(aside))
        write_atomically(path, self.host_id.encode())
        return self.host_id
