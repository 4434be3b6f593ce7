"""The lobby: the host's tables, the handshake, and every request a client may make."""
from __future__ import annotations

from typing import Any

from twisted.logger import Logger

import cartagena_net
from cartagena_net.host.errors import HostError
from cartagena_net.host.table import Table
from protocol import (
    PROTOCOL_VERSIONS,
    LocalProtocolError,
    RemoteProtocolError,
    choose_version,
    messages,
)

log = Logger(namespace="cartagena.host.lobby")


class Lobby:
    """Tables by id and the connections past the handshake."""

    def __init__(self, host: Any) -> None:
        self.host = host
        self.tables: dict[int, Table] = {}
        self.next_id = 1
        self.connections: set[Any] = set()
        self._push_call: Any = None
        self._dirty: set[Table] = set()

    # -- tables ----------------------------------------------------------------

    def add_table(self, table: Table) -> None:
        self.tables[table.id] = table
        self.next_id = max(self.next_id, table.id + 1)
        self.changed(table)

    def remove_table(self, table: Table) -> None:
        """Forget a table (the caller pushes the change)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._dirty.discard(table)

    def table(self, table_id: Any) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, int) else None
        if table is None:
            raise HostError("no-such-table", "no-such-table", table=table_id)
        return table

    def entries(self) -> list[dict[str, Any]]:
        return [t.lobby_entry() for t in self.tables.values()]

    def lobby_frame(self) -> bytes:
        """The ``lobby`` message as one frame, built from cached table entries.

        Every string in it already passed the protocol's checks when it came in
        (names, table names, options) or is the host's own. Tables that would
        overflow the frame are left out (the newest first).
        """
        entries = self.entries()
        while True:
            try:
                return self.host.encode_wire({"type": "lobby", "tables": entries,
                                              "scores": self.host.evening.rows,
                                              "notices": self.host.notices()})
            except LocalProtocolError:
                if not entries:
                    raise
                entries = entries[: len(entries) * 3 // 4]

    # -- lobby pushes ----------------------------------------------------------

    def changed(self, table: Table | None = None) -> None:
        """Something in the lobby changed (at ``table``): push it soon, coalesced.

        Connections in the lobby get every change; a table's members get the
        changes of their own table only.
        """
        if table is not None:
            self._dirty.add(table)
            table.entry_cache = None
        if self._push_call is None and self.host.running:
            self._push_call = self.host.reactor.callLater(self.host.config.lobby_delay, self.push)

    def push(self) -> None:
        self._push_call = None
        dirty, self._dirty = self._dirty, set()
        if not self.connections:
            return
        data = self.lobby_frame()
        for conn in list(self.connections):
            if conn.table is None or conn.table in dirty:
                conn.write_shared(data)

    def cancel(self) -> None:
        if self._push_call is not None and self._push_call.active():
            self._push_call.cancel()
        self._push_call = None

    # -- handshake -------------------------------------------------------------

    def hello(self, conn: Any, msg: Any) -> Any:
        """Welcome ``conn``, or refuse it; a Deferred while a password is being checked."""
        try:
            version = choose_version(msg.versions)
        except RemoteProtocolError as exc:
            raise HostError(exc.code, "no-common-version", fatal=True, versions=", ".join(
                str(v) for v in PROTOCOL_VERSIONS)) from None
        if msg.token:
            if msg.role == "spectator":
                raise HostError("not-allowed", "spectator-no-seat", fatal=True)
            table, seat = self.find_token(msg.token)
            if seat is None:
                raise HostError("bad-token", "bad-token", fatal=True)
            self._welcome(conn, version, table, seat)
            return None
        stored = self.host.password
        if stored is None:
            self._welcome(conn, version, None, None)
            return None
        if msg.password is None:
            raise HostError("bad-password", "host-password-needed", fatal=True)

        def checked(ok: bool) -> None:
            if not ok:
                raise HostError("bad-password", "host-password-wrong", fatal=True)
            self._welcome(conn, version, None, None)

        return self.host.passwords.check(conn.address, msg.password, stored,
                                         "host").addCallback(checked)

    def _welcome(self, conn: Any, version: int, table: Any, seat: Any) -> None:
        resumed = None if seat is None else {"table": table.id, "seat": seat.index}
        conn.welcomed = True
        conn.send_message(
            messages.Welcome(
                host_id=self.host.host_id,
                host_name=self.host.config.name[:64],
                server_version=cartagena_net.__version__,
                version=version,
                session=conn.session,
                resumed=resumed,
            )
        )
        self.connections.add(conn)
        conn.write_shared(self.lobby_frame())
        if table is not None and seat is not None:
            conn.table = table
            table.attach(conn, seat)
        log.info("{addr} joined the lobby as a {role}", addr=conn.address, role=conn.role)

    def find_token(self, token: str) -> tuple[Any, Any]:
        for table in self.tables.values():
            seat = table.find_token(token)
            if seat is not None:
                return table, seat
        return None, None

    def disconnected(self, conn: Any) -> None:
        self.connections.discard(conn)
        if conn.table is not None:
            table, conn.table = conn.table, None
            table.detach(conn)

    # -- requests --------------------------------------------------------------

    def handle(self, conn: Any, msg: Any) -> Any:
        """Answer one request; a Deferred when the answer comes later."""
        handler = getattr(self, "on_" + type(msg).__name__, None)
        if handler is None:
            raise HostError("not-allowed", "client-may-not-send", type=msg.TYPE)
        return handler(conn, msg)

    def _player(self, conn: Any) -> None:
        if conn.role != "player":
            raise HostError("not-allowed", "spectators-cannot")

    def _at(self, conn: Any, table_id: Any) -> Table:
        table = self.table(table_id)
        if conn.table is not table:
            raise HostError("wrong-table", "not-at-table", table=table_id)
        return table

    def on_CreateTable(self, conn: Any, msg: Any) -> Any:
        self._player(conn)
        if conn.table is not None:
            raise HostError("not-allowed", "leave-first", table=conn.table.id)
        if msg.password is None:
            self._create(conn, msg, None)
            return None
        # The protocol refused an unusable password (bad-field); hash it off the reactor.
        return self.host.passwords.make(msg.password).addCallback(
            lambda stored: self._create(conn, msg, stored))

    def _create(self, conn: Any, msg: Any, stored: Any) -> None:
        if conn.table is not None or conn.closed:
            return
        table_id = self.host.create_table(
            msg.name or f"table {self.next_id}",
            msg.rules,
            dict(msg.options or {}),
            stored_password=stored,
            address=conn.address,
            hints=msg.hints,
            player_chances=msg.player_chances,
        )
        table = self.tables[table_id]
        self._sit(conn, table, None, None)

    def on_JoinTable(self, conn: Any, msg: Any) -> Any:
        if conn.table is not None:
            raise HostError("not-allowed", "leave-first", table=conn.table.id)
        if conn.role == "spectator" and not msg.spectate:
            raise HostError("not-allowed", "spectator-only-watches")
        table = self.table(msg.table)
        if table.password is None:
            self._join(conn, table, msg)
            return None
        if msg.password is None:
            raise HostError("bad-password", "table-password-needed", table=table.id)

        def checked(ok: bool) -> None:
            if not ok:
                raise HostError("bad-password", "table-password-wrong", table=table.id)
            if self.tables.get(table.id) is not table:
                raise HostError("no-such-table", "table-gone", table=table.id)
            self._join(conn, table, msg)

        return self.host.passwords.check(conn.address, msg.password, table.password,
                                         f"table {table.id}").addCallback(checked)

    def _join(self, conn: Any, table: Table, msg: Any) -> None:
        if conn.table is not None or conn.closed:
            return
        if msg.spectate:
            table.check_spectators()
            conn.table = table
            conn.send_message(messages.Joined(table=table.id, seat=None, token=None))
            table.spectate(conn)
            return
        if msg.name:
            conn.name = msg.name.strip()[:32] or conn.name
        self._sit(conn, table, msg.seat, msg.color)

    def _sit(self, conn: Any, table: Table, seat: int | None, color: str | None) -> None:
        chosen = table.sit(conn, seat, conn.name, color)
        conn.table = table
        conn.send_message(messages.Joined(table=table.id, seat=chosen.index, token=chosen.token))

    def on_Leave(self, conn: Any, msg: Any) -> None:
        table = self._at(conn, msg.table)
        conn.table = None
        table.leave(conn)

    def on_AddBot(self, conn: Any, msg: Any) -> None:
        self._at(conn, msg.table).add_bot(conn, msg.seat, msg.kind, msg.level)

    def on_RemoveBot(self, conn: Any, msg: Any) -> None:
        self._at(conn, msg.table).remove_bot(conn, msg.seat)

    def on_Start(self, conn: Any, msg: Any) -> None:
        self._at(conn, msg.table).start(conn)

    def on_Action(self, conn: Any, msg: Any) -> None:
        self._at(conn, msg.table).act(conn, msg.seq, msg.action)

    def on_Hint(self, conn: Any, msg: Any) -> Any:
        """A seated player asks for a hint: answered to that connection alone, later."""
        return self._at(conn, msg.table).hint(conn)

    def on_Rename(self, conn: Any, msg: Any) -> None:
        """The player's name from now on: its chat, the next table it makes or joins, and
        the seat it holds while no game runs there (docs/protocol.md 4.19)."""
        name = msg.name.strip()[:32]
        if not name or name == conn.name:
            return
        conn.name = name
        table = conn.table
        if table is None or table.playing:
            return
        seat = table.sitting.seat_of(conn)
        if seat is not None and seat.name != name:
            seat.name = name
            table.play.journal_seats()
            self.changed(table)

    def on_Chat(self, conn: Any, msg: Any) -> None:
        out = messages.Chat(table=msg.table, text=msg.text, sender=conn.name)
        if msg.table is None:
            targets = [c for c in self.connections if c.table is None]
        else:
            targets = self._at(conn, msg.table).members()
        data = self.host.encode(out)
        for c in targets:
            c.write_shared(data)
