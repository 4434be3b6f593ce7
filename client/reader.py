"""The screen-reader mode (``--screen-reader``): the terminal client line by line.

The same client as the full-screen one (the model, :class:`client.model.ClientModel`, that
follows the host, :mod:`client.follow`; the link to the host, :mod:`client.link`), drawn as
sentences on standard output instead of a screen: no drawing, no colours, no cursor
movement, nothing but lines, so it works over plain pipes, in any terminal and with any
screen reader. Every event is one sentence, said once; at the player's turn it says so
and lists the moves as numbered lines in words (:mod:`client.reader_words`). The player
types a number and Enter, or a command (``help`` lists them).

Standard input is read by a thread that hands each line to the reactor
(``callFromThread``): the same on Linux, macOS and Windows (where a console or a pipe
cannot be watched by the selector loop), and the reactor never waits for a line.
"""
from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from cartagena_net.i18n import N_, _
from client.follow import SENT
from client.glyphs import color_name
from client.link import RECONNECT_LIMIT, WATCH, HostLink
from client.model import DEFAULT_PORT, ClientModel
from client.plain import hint_reason
from client.reader_commands import ReaderCommands, is_number
from client.reader_words import (
    Choice,
    Question,
    event_words,
    host_line,
    move_words,
    outcome_lines,
    seats_lines,
    table_line,
    turn_question,
)
from client.tokens import TokenStore

# The commands, as typed in English (and as the reader's language names them).
COMMANDS: dict[str, str] = {
    "board": N_("board"), "hand": N_("hand"), "pirates": N_("pirates"),
    "others": N_("others"), "log": N_("log"), "chances": N_("chances"), "hint": N_("hint"),
    "help": N_("help"), "quit": N_("quit"), "moves": N_("moves"), "back": N_("back"),
    "chat": N_("chat"), "name": N_("name"), "colour": N_("colour"), "new": N_("new"),
    "watch": N_("watch"), "resume": N_("resume"), "bot": N_("bot"), "remove": N_("remove"),
    "start": N_("start"), "leave": N_("leave"), "address": N_("address"),
    "reconnect": N_("reconnect"), "tables": N_("tables"), "seats": N_("seats"),
    "again": N_("again"),
}
# The whole line that plays a finished table's game again (as ``again`` and ``start`` do).
PLAY_AGAIN = N_("play again")


def command_word(text: str) -> str | None:
    """The command typed (its English name), in either language; None if none."""
    low = text.strip().lower()
    if " ".join(low.split()) in ("play again", _(PLAY_AGAIN).lower()):
        return "again"
    for name, msgid in COMMANDS.items():
        if low in (name, _(msgid).lower()):
            return name
    if low in ("color", "?", "q", "exit"):
        return {"color": "colour", "?": "help", "q": "quit", "exit": "quit"}[low]
    return None


def notation_free(line: str) -> str:
    """A line as it is said: the arrows of a move read as a word."""
    return line.replace(" → ", " " + _("to") + " ").replace("→", " " + _("to") + " ")


class LineReader:
    """Standard input read by a thread; each line handed to the reactor."""

    def __init__(self, reactor: Any, stream: TextIO, on_line: Callable[[str], None],
                 on_end: Callable[[], None]) -> None:
        self.reactor = reactor
        self.stream = stream
        self.on_line = on_line
        self.on_end = on_end
        self.thread = threading.Thread(target=self._run, name="stdin lines", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError, UnicodeDecodeError):
                line = ""
            if not line:
                with contextlib.suppress(Exception):  # the reactor may be gone
                    self.reactor.callFromThread(self.on_end)
                return
            with contextlib.suppress(Exception):
                self.reactor.callFromThread(self.on_line, line[:2000])


class Speaker:
    """Where the lines go: one sentence a line, flushed at once."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.said: list[str] = []

    def say(self, line: str) -> None:
        text = notation_free(str(line)).strip()
        if not text:
            return
        self.said.append(text)
        del self.said[:-200]
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (OSError, ValueError):
            pass

    def ask(self, q: Question) -> None:
        self.say(q.head)
        for i, c in enumerate(q.choices, 1):
            self.say(f"{i}. {c.text}")
        if q.back is not None:
            self.say(_("0. Back"))


class ReaderClient(ReaderCommands, HostLink):
    """The line-by-line client: the model and the link of the full-screen one."""

    def __init__(self, reactor: Any, model: ClientModel, tokens: TokenStore | None = None,
                 password: str | None = None, out: TextIO | None = None,
                 inp: TextIO | None = None, browse: bool = False,
                 discovery_targets: Iterable[str] = (), broadcast: bool = True,
                 udp_port: int = DEFAULT_PORT, reconnect_limit: float = RECONNECT_LIMIT,
                 host_trouble: Any = None) -> None:
        from twisted.internet.defer import Deferred

        self.init_link(reactor, model, tokens, password, browse, discovery_targets,
                       broadcast, udp_port, reconnect_limit, host_trouble)
        self.speaker = Speaker(out if out is not None else sys.stdout)
        self.inp = inp if inp is not None else sys.stdin
        self.done: Deferred = Deferred()
        # what has been said, so that each thing is said once
        self.question: Question | None = None
        self.answer: tuple[str, Callable[[str], None]] | None = None  # a typed answer owed
        self.said_status = ""
        self.said_input: Any = None
        self.said_gone: str | None = None
        self.said_hosts: tuple[str, ...] = ()
        self.said_tables: tuple[Any, ...] = ()
        self.said_seats: tuple[Any, ...] = ()
        self.said_turn: tuple[Any, ...] = ()
        self.said_over: Any = None
        self.said_game: Any = None
        self.said_hint: Any = None
        self.in_turn = False
        self.events_said: list[str] = []
        self.pending: list[tuple[dict[str, Any], bool]] = []
        self.on_the_way = False  # a join or a new table was asked: no lobby meanwhile
        self.turn_open = False  # the question is the turn's (dropped when the turn passes)
        self.lobby_heard = False  # the host's list of tables has come (said only then)

    def say(self, line: str) -> None:
        self.speaker.say(line)

    def ask(self, q: Question | None, turn: bool = False) -> None:
        """Put question ``q`` (``turn``: one of the turn's moves, dropped when the turn
        passes; any other stays until answered)."""
        self.question = q
        self.turn_open = turn
        if q is not None:
            self.speaker.ask(q)

    # ------------------------------------------------------------------ the host

    def _message(self, msg: Any) -> None:
        wire = msg.to_wire()
        kind = wire.get("type")
        if kind == "state":
            self.pending.append((wire, bool(self.model.fresh_log)))
        elif kind == "chat":
            self.say(_("{sender} says: {text}").format(sender=wire.get("sender") or _("host"),
                                                       text=str(wire.get("text") or "")))
        elif kind == "error":
            self.said_status = ""  # the same refusal twice is said twice
            self.on_the_way = False
        elif kind in ("joined", "welcome"):
            self.on_the_way = False
        elif kind == "lobby":
            self.lobby_heard = True
        super()._message(msg)

    def _hosts_changed(self, hosts: list[Any]) -> None:
        self.model.hosts = list(hosts)
        self.refresh()

    def refresh(self) -> None:
        """Send what the model queued, then say what changed (or leave)."""
        for msg in self.model.take_outbox():
            if msg.get("type") in ("join_table", "create_table", "_resume"):
                self.on_the_way = True  # the lobby is said again once this is answered
            self._send(msg)
        if self.model.exit_requested and not self.closing:
            self.quit()
            return
        try:
            self.narrate()
        except Exception as exc:  # noqa: BLE001 - a wording bug must not end the game
            self.say(_("internal error: {error}").format(error=repr(exc)))

    # ------------------------------------------------------------------ saying

    def narrate(self) -> None:
        m = self.model
        if self.pending and m.screen == "game" and m.view is not None:
            self._say_intro()
        for wire, fresh in self.pending:
            self._say_events(wire, fresh)
        self.pending.clear()
        status = m.status
        quiet = (_(SENT).partition("{action}")[0], _("hint: {action}").partition("{action}")[0],
                 # the seat is said by its colour and number below ("Seat 1, red")
                 _("seated at table {table}, seat {seat}").partition("{")[0])
        if status != self.said_status:
            self.said_status = status
            if status and not status.startswith(quiet):
                self.say(status)
        if m.input is not None and m.input is not self.said_input:
            self.said_input = m.input
            self.say(m.input.prompt.strip() + " " + _("(type it and press Enter; an empty "
                                                      "line gives up)"))
        if m.gone is not None and m.gone != self.said_gone:
            self.said_gone = m.gone
            self.say(_("Type reconnect to try again, address to type another host's address, "
                       "or quit."))
            return
        if m.screen == "browser":
            self._say_hosts()
        elif m.screen == "lobby" and m.table is None:
            self._say_lobby()
        elif m.screen == "lobby":
            self._say_room()
        elif m.screen == "game" and m.view is not None:
            self._say_game()

    def _say_events(self, wire: dict[str, Any], fresh: bool) -> None:
        m = self.model
        events = [e for e in wire.get("events") or [] if isinstance(e, dict)]
        lines = event_words(m, events, list(wire.get("lines") or []))
        if fresh and self.events_said:  # a full view repeats the events already said
            said = self.events_said
            for k in range(min(len(lines), len(said)), 0, -1):
                if said[-k:] == lines[:k]:
                    lines = lines[k:]
                    break
        for line in lines:
            self.say(line)
        self.events_said.extend(lines)
        del self.events_said[:-500]

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

    def _say_room(self) -> None:
        m = self.model
        info = m.table_info or {}
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

    def _say_intro(self) -> None:
        """Who this player is in the game, said once when a game's screen opens, and again
        when the table's next game begins (the seats move round: a new seat number, the
        same colour)."""
        m = self.model
        if m.game_over and self.said_over is not None:
            return  # the game said over: its view names the seats of the game before
        if not m.game_over and self.said_over is not None:  # the next game has begun
            self.said_over = None
            self.said_game = None
            self.said_turn = ()
            self.say(_("A new game begins."))
        if self.said_game != (m.table, m.seat):
            self.said_game = (m.table, m.seat)
            self.said_seats = self.said_tables = ()
            me = m.my_seat_view()
            self.say(_("You play {color}. Type help for the commands.").format(
                color=color_name(m.seat_color(m.seat))) if me is not None else
                _("You are watching. Type help for the commands."))

    def _say_game(self) -> None:
        m = self.model
        self._say_intro()
        if m.hint is not None and m.hint is not self.said_hint:
            self.said_hint = m.hint
            self._say_hint(m.hint)
        if m.game_over:
            mark = (m.table, m.seq)
            if mark != self.said_over:
                self.said_over = mark
                self.in_turn = False
                self.question = None
                for line in outcome_lines(m):
                    self.say(line)
                if m.seat is not None and m.may_manage():
                    self.say(_("You stay at this table for the next game: type again to "
                               "play again, leave to go back to the lobby, or quit."))
                elif m.seat is not None:
                    self.say(_("You stay at this table for the next game, which its owner "
                               "starts; type leave to go back to the lobby, or quit."))
            return
        self.said_over = None
        if m.my_turn_now():
            key = (m.seq, tuple(m.legal))
            if key == self.said_turn:
                return
            self.said_turn = key
            if not self.in_turn:
                self.in_turn = True
                self.say(_("Your turn."))
            self.ask(turn_question(m), turn=True)
        else:
            self.in_turn = False
            if self.turn_open:  # the turn's question is gone with the turn
                self.question = None
                self.turn_open = False

    def _say_hint(self, hint: dict[str, Any]) -> None:
        action = str(hint.get("action") or "")
        line = _("The bot suggests: {move}.").format(move=move_words(self.model, action))
        reason = hint_reason(hint.get("why")) or ""
        self.say(line + (" " + reason if reason else ""))
        q = self.question
        while q is not None:
            for i, c in enumerate(q.choices, 1):
                if c.action == action:
                    self.say(_("That is choice {n}.").format(n=i))
                    return
            q = None

    # ------------------------------------------------------------------ the player's lines

    def on_line(self, line: str) -> None:
        try:
            self._line(line.rstrip("\r\n"))
        except Exception as exc:  # noqa: BLE001 - a client bug must not end the game
            self.say(_("internal error: {error}").format(error=repr(exc)))
        self.refresh()

    def on_end(self) -> None:
        """Standard input ended: leave as ``quit`` does, without asking."""
        self.model.exit_requested = True
        self.refresh()

    def _line(self, text: str) -> None:
        m = self.model
        text = text.strip()
        if m.input is not None:
            if not text:
                m.input = None
                self.say(_("Given up."))
                return
            m.input.text = text[:400]
            m.on_key("enter")
            return
        if self.answer is not None:
            _prompt, then = self.answer
            self.answer = None
            if text:
                then(text)
            else:
                self.say(_("Given up."))
            return
        if not text:
            if self.question is not None:
                self.speaker.ask(self.question)
            return
        if is_number(text):
            self.choose(int(text))
            return
        word, _sep, rest = text.partition(" ")
        name = "again" if command_word(text) == "again" else command_word(word)  # play again
        if name == "again":
            rest = ""
        if name is None:
            self.say(_("I do not know {text}: type a number, or help.").format(
                text=repr(text[:40])))
            return
        getattr(self, f"cmd_{name}")(rest.strip())

    # ------------------------------------------------------------------ lifecycle

    def quit(self) -> None:
        self.closing = True
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        if self._watch_call is not None and self._watch_call.active():
            self._watch_call.cancel()
        self.stop_browser()
        if self.session is not None:
            self.session.on_close = None
            self.session.close("bye")
            self.session = None
        self.say(_("Goodbye."))
        if not self.done.called:
            self.done.callback(0)

    def run(self) -> Any:
        """Start reading lines and connecting; a Deferred firing with the exit code."""
        def begin() -> None:
            if self._browse:
                self.start_browser()
                self.refresh()
            elif self.address is not None:
                self.say(_("Connecting to {host}.").format(host=self.model.host_label))
                self._connect()

        self.reactor.callLater(0, begin)
        self._watch_call = self.reactor.callLater(WATCH, self._watch)
        LineReader(self.reactor, self.inp, self.on_line, self.on_end).start()
        return self.done

