"""The screen-reader mode's lobby and waiting room: the hosts found, the host's tables
and a table's seats, each said once (a mixin of :class:`client.reader.ReaderClient`,
relying on its ``model``, ``reactor``, ``say``, ``ask``, ``refresh`` and what it has said).

The tables are said when the host's list has come and settled (:data:`SETTLE`): lists that
follow one another closely, as after leaving a table (the seat freed, then the table's
state), are said once, the newest. A finished table watched is said as its game (over, who
won), not as a table waiting for its start.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartagena_net.i18n import _
from cartagena_net.i18n.words import bot_words
from client.glyphs import color_name, seat_number
from client.reader_words import Choice, Question

SETTLE = 0.3  # seconds the lobby's tables settle before they are said (one list, the newest)
ROOM_WAIT = 1.5  # seconds a finished table's game is awaited before its seats are said


def host_line(h: Any) -> str:
    return _("{name} at {address}").format(name=getattr(h, "name", "") or _("a host"),
                                           address=f"{h.address}:{h.port}")


def table_line(t: Mapping[str, Any]) -> str:
    seats = t.get("seats") or []
    taken = sum(1 for s in seats if s.get("name"))
    status = {"waiting": _("waiting for players"), "playing": _("playing"),
              "finished": _("finished")}.get(str(t.get("status")), str(t.get("status")))
    return _("{name}: {status}, {taken} of {seats} seats taken").format(
        name=t.get("name") or _("table {n}").format(n=t.get("id")), status=status,
        taken=taken, seats=len(seats)) + (" " + _("(password)") if t.get("password") else "")


def seats_lines(m: Any) -> list[str]:
    info = m.table_info or {}
    out = []
    for s in info.get("seats") or []:
        name = s.get("name")
        color = color_name(str(s.get("color") or "")) if s.get("color") else ""
        if not name and s.get("seat") == m.seat and m.seat is not None:
            name = m.name  # the lobby has not heard of this player's seat yet
        who = (_("empty") if not name else _("{name} ({kind})").format(
            name=name, kind=bot_words(s["bot"], s.get("level"))) if s.get("bot") else name)
        mine = " " + _("(you)") if s.get("seat") == m.seat else ""
        out.append(_("Seat {n}, {color}: {who}").format(n=seat_number(int(s.get("seat", 0))),
                                                        color=color or _("any colour"),
                                                        who=who) + mine)
    return out


class ReaderLobby:
    """The hosts, the tables and the seats, said as they change."""

    model: Any
    reactor: Any
    question: Question | None
    said_hosts: tuple[str, ...]
    said_tables: tuple[Any, ...]
    said_seats: tuple[Any, ...]
    said_over: Any
    on_the_way: bool
    lobby_heard: bool
    lobby_settled: bool
    room_waited: bool
    _lobby_call: Any
    _room_call: Any

    def say(self, line: str) -> None:
        raise NotImplementedError

    def ask(self, q: Question | None, turn: bool = False) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        raise NotImplementedError

    def _say_hosts(self) -> None:
        m = self.model
        said = tuple(host_line(h) for h in m.hosts)
        if said == self.said_hosts:
            return
        self.said_hosts = said
        if not said:
            self.say(_("Looking for hosts on the network. Type address to type one."))
            return
        q = Question(_("Hosts found:"))
        for h, text in zip(m.hosts, said, strict=True):
            q.choices.append(Choice(text, do=lambda h=h: m.send(
                {"type": "_connect", "address": f"{h.address}:{h.port}"})))
        self.ask(q)
        self.say(_("Type a host's number, or address to type one."))

    def _lobby_question(self) -> Question:
        m = self.model
        q = Question(_("Tables on this host:"))
        for t in m.tables:
            q.choices.append(Choice(table_line(t), do=lambda t=t: m.join(int(t["id"]))))
        return q

    def _say_lobby(self) -> None:
        m = self.model
        said = (tuple(table_line(t) for t in m.tables), m.saved_seat_free())
        if (said == self.said_tables or self.on_the_way or m.auto_table is not None
                or not self.lobby_heard):
            return
        if not self.lobby_settled and self.reactor is not None:
            # One list, the newest: the host's lists that follow one another closely (a
            # seat freed, then the table's state) are said once, when they settle.
            if self._lobby_call is None or not self._lobby_call.active():
                self._lobby_call = self.reactor.callLater(SETTLE, self._lobby_settle)
            return
        self.lobby_settled = False
        self.said_tables = said
        self.said_seats = ()
        self.said_over = None
        if not m.tables:
            self.say(_("There are no tables on this host yet. Type new to make one."))
            self.question = None
        else:
            self.ask(self._lobby_question())
            self.say(_("Type a table's number to sit down, or watch and its number to "
                       "watch.") if not m.spectate else
                     _("Type a table's number to watch it."))
        if m.saved_seat_free():
            self.say(_("Your seat from an earlier run at table {table} is kept: type resume "
                       "to take it back.").format(table=(m.saved_seat or {}).get("table")))

    def _lobby_settle(self) -> None:
        self.lobby_settled = True
        self.refresh()

    def _lobby_awaited(self) -> None:
        """Left a table and no list of tables came from the host: say the one known."""
        self.lobby_heard = True
        self.refresh()

    def _room_awaited(self) -> None:
        self.room_waited = True
        self.refresh()

    def _say_room(self) -> None:
        m = self.model
        info = m.table_info or {}
        if (m.seat is None and m.view is None and info.get("status") == "finished"
                and not self.room_waited and self.reactor is not None):
            # A finished table watched: its game comes next, to be said as over (not as
            # a table waiting for its start); its seats only if it does not come.
            if self._room_call is None or not self._room_call.active():
                self._room_call = self.reactor.callLater(ROOM_WAIT, self._room_awaited)
            return
        said = tuple(seats_lines(m))
        if said == self.said_seats:
            return
        first = not self.said_seats
        self.said_seats = said
        self.said_tables = ()
        if first:
            self.say(_("At table {name}, waiting for the game to start.").format(
                name=info.get("name") or m.table))
        self.say(_("Seats:"))
        for line in seats_lines(m):
            self.say(line)
        if first:
            self.say(_("Type bot to add a bot (an easy one; bot normal or bot hard for a "
                       "thinking one, bot random for one that plays at random), remove and a "
                       "seat's number to remove one, start to start, leave to leave.")
                     if m.may_manage() else
                     _("The table's owner starts the game; type leave to leave."))
