"""The screen-reader mode (``--screen-reader``): the terminal client line by line.

The same client as the full-screen one (the model, :class:`client.model.ClientModel`, that
follows the host, :mod:`client.follow`; the link to the host, :mod:`client.link`), drawn as
sentences on standard output instead of a screen: no drawing, no colours, no cursor
movement, nothing but lines, so it works over plain pipes, in any terminal and with any
screen reader. Every event is one sentence, said once; at the player's turn it says so
and lists the moves as numbered lines in words (:mod:`client.reader_words`). The player
types a number and Enter, or a command (``help`` lists them).

Standard input is read by a thread that hands each line to the reactor, and the lines
are said by a speaker that breaks them between words at a terminal's width
(:mod:`client.reader_io`); the lobby and a table's seats are said by
:mod:`client.reader_lobby`.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from cartagena_net.i18n import N_, _, ngettext
from client.follow import SENT
from client.glyphs import color_name
from client.link import RECONNECT_LIMIT, WATCH, HostLink
from client.model import DEFAULT_PORT, ClientModel
from client.plain import hint_reason, sentence
from client.reader_commands import ReaderCommands, is_number
from client.reader_io import LineReader, Speaker
from client.reader_lobby import ReaderLobby
from client.reader_words import (
    Question,
    event_words,
    move_words,
    outcome_lines,
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
    "again": N_("again"), "scores": N_("scores"), "standings": N_("standings"),
}
# The events said when a game under way is first seen (the earlier ones: ``log``).
NEWEST_SAID = 3
# What a game's first state may tell before anyone has moved (all said, however many).
DEAL_EVENTS = frozenset(("row", "captain", "turn", "reshuffle"))
# The whole line that plays a finished table's game again (as ``again`` and ``start`` do).
PLAY_AGAIN = N_("play again")
# (Speaker, from client.reader_io, is taken from here by the replay's reader too)
__all__ = ["COMMANDS", "ReaderClient", "Speaker", "command_word", "is_number"]


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


class ReaderClient(ReaderLobby, ReaderCommands, HostLink):
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
        self.lobby_settled = False  # the tables have settled: say the newest list now
        self.room_waited = False  # a finished table's game was awaited long enough
        self.turn_said = False  # "Your turn." was said by the turn's own event
        self._lobby_call: Any = None
        self._room_call: Any = None

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
                 # the seat is said by its colour and number below ("Seat 1, red"), a
                 # watcher's table by "You are watching." and what is there
                 _("seated at table {table}, seat {seat}").partition("{")[0],
                 _("watching table {table}").partition("{")[0])
        if status != self.said_status:
            self.said_status = status
            if status and not status.startswith(quiet):
                self.say(sentence(status))
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
        lines = event_words(m, events, list(wire.get("lines") or []), mine=True)
        if fresh and not self.events_said and (wire.get("view") or {}).get("outcome"):
            # A game that was over before this client came (a finished table watched):
            # its last moves are kept for ``log``, not read out in a burst.
            self.events_said.extend(lines)
            del self.events_said[:-500]
            return
        skip = 0
        if fresh and self.events_said:  # a full view repeats the events already said
            said = self.events_said
            for k in range(min(len(lines), len(said)), 0, -1):
                if said[-k:] == lines[:k]:
                    skip = k
                    break
        elif fresh and len(lines) > NEWEST_SAID and len(lines) == len(events) and any(
                e.get("type") not in DEAL_EVENTS for e in events):
            # A game under way when this client came (watched, or a seat taken back after
            # a restart): the newest events are said, the earlier kept for ``log``.
            skip = len(lines) - NEWEST_SAID
            self.events_said.extend(lines[:skip])
            self.say(ngettext("{n} earlier event is kept: type log to hear it.",
                              "{n} earlier events are kept: type log to hear them.",
                              skip).format(n=skip))
        lines = lines[skip:]
        for line in lines:
            self.say(line)
        if len(events) == len(lines) + skip:
            for e in events[skip:]:
                if e.get("type") == "turn":  # "Your turn." said by this player's own
                    self.turn_said = m.seat is not None and e.get("seat") == m.seat
        self.events_said.extend(lines)
        del self.events_said[:-500]

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
            self.turn_said = False
            self.events_said.clear()  # ``log`` tells this game alone
            self.say(_("A new game begins."))
        if self.said_game != (m.table, m.seat):
            if self.said_game is None or self.said_game[0] != m.table:
                self.events_said.clear()  # another table's game: nothing said of it yet
            self.said_game = (m.table, m.seat)
            self.room_waited = False
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
                else:
                    self.say(_("You are watching a finished game; you will hear the next one "
                               "here if the table's owner starts it. Type log for its last "
                               "moves, scores for the ranking, leave to go back to the "
                               "lobby, or quit."))
            return
        self.said_over = None
        if m.my_turn_now():
            key = (m.seq, tuple(m.legal))
            if key == self.said_turn:
                return
            self.said_turn = key
            if not self.in_turn:
                self.in_turn = True
                if not self.turn_said:  # (said already where the turn's event was)
                    self.say(_("Your turn."))
                self.turn_said = False
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

