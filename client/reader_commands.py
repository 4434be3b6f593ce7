"""The screen-reader mode's commands: what each word typed does (``board``, ``hand``,
``others``, ``scores``, ``quit``, the lobby's and the waiting room's), a mixin of
:class:`client.reader.ReaderClient` (relies on its ``model``, ``say``, ``ask``,
``question``, ``answer`` and what it has said)."""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import N_, _, pgettext
from cartagena_net.i18n.words import BOT_LEVELS
from client.glyphs import color_name
from client.plain import quit_question, sentence
from client.reader_words import (
    LOG_SAID,
    Choice,
    Question,
    board_lines,
    chances_lines,
    hand_lines,
    my_pirates_lines,
    others_lines,
    standings_lines,
    turn_question,
)
from client.uistate import COLORS, add_bot_message

HELP_GAME = N_("During a game: a number and Enter plays that move; board, hand, pirates, "
               "others, scores (each player's pirates in the goal), log, chances, hint, moves "
               "(say the moves again), back, chat TEXT, leave, quit.")
HELP_LOBBY = N_("In the lobby: a table's number and Enter sits down; watch N, new (a new "
                "table), tables, name NEW-NAME, colour, resume, chat TEXT, quit.")
HELP_OVER = N_("The game is over: again (or play again, or start) starts the next game at "
               "this table; scores says the ranking again; board, hand, pirates, others and "
               "log still tell this one; leave, chat TEXT, quit.")
HELP_OVER_GUEST = N_("The game is over: the table's owner starts the next one; scores says the "
                     "ranking again; board, hand, pirates, others and log still tell this one; "
                     "leave, chat TEXT, quit.")
HELP_ROOM = N_("At a table before its game: seats, bot LEVEL (add a bot: easy, normal, hard "
               "or random; bot alone: an easy one), remove N (a bot's seat), start, leave, "
               "chat TEXT, quit.")


def bot_choice(word: str) -> str | None:
    """The bot a reader's ``bot`` command names (one of client.uistate.BOT_CHOICES), in
    English or the reader's language: ``easy`` (also alone), ``normal``, ``hard``,
    ``random``; None for any other word."""
    low = word.strip().lower()
    if not low:
        return "easy"
    for name in ("easy", "normal", "hard"):
        if low in (name, pgettext("bot level", BOT_LEVELS[name]).lower()):
            return name
    if low in ("random", _("random").lower()):
        return "random"
    return None


def is_number(text: str) -> bool:
    """ASCII digits only are numbers."""
    return text.isascii() and text.isdigit() and len(text) < 6


LOBBY_WAIT = 1.5  # seconds after leaving a table that the host's own list is awaited


class ReaderCommands:
    """The commands of the screen-reader mode."""

    model: Any
    question: Question | None
    events_said: list[str]
    said_hint: Any
    said_tables: tuple[Any, ...]
    said_seats: tuple[Any, ...]
    said_game: Any
    said_over: Any
    speaker: Any
    answer: Any
    reactor: Any
    lobby_heard: bool
    lobby_settled: bool
    room_waited: bool

    def _lobby_awaited(self) -> None:
        raise NotImplementedError

    def say(self, line: str) -> None:
        raise NotImplementedError

    turn_open: bool

    def ask(self, q: Question | None, turn: bool = False) -> None:
        raise NotImplementedError

    def _say_lobby(self) -> None:
        raise NotImplementedError

    def _say_room(self) -> None:
        raise NotImplementedError

    def choose(self, n: int) -> None:
        q = self.question
        if q is None:
            self.say(_("There is nothing to choose now. Type help for the commands."))
            return
        if n == 0 and q.back is not None:
            self.ask(q.back, turn=self.turn_open)
            return
        if not 1 <= n <= len(q.choices):
            self.say(_("There is no choice {n}: choose 1 to {k}.").format(n=n, k=len(q.choices)))
            return
        c = q.choices[n - 1]
        if c.then is not None:
            self.ask(c.then, turn=self.turn_open)
        elif c.action is not None:
            m = self.model
            if c.action not in m.legal:
                self.say(_("That move is no longer possible."))
                return
            m.send_action(c.action)
            self.question = None
        elif c.do is not None:
            self.question = None
            c.do()

    def text_question(self, prompt: str, then: Any) -> None:
        self.answer = (prompt, then)
        self.say(prompt + " " + _("(type it and press Enter; an empty line gives up)"))

    def _say_all(self, lines: list[str]) -> None:
        for line in lines:
            self.say(line)

    def cmd_board(self, rest: str) -> None:
        self._say_all(board_lines(self.model))

    def cmd_hand(self, rest: str) -> None:
        self._say_all(hand_lines(self.model))

    def cmd_pirates(self, rest: str) -> None:
        self._say_all(my_pirates_lines(self.model))

    def cmd_others(self, rest: str) -> None:
        self._say_all(others_lines(self.model))

    def cmd_scores(self, rest: str) -> None:
        """``scores`` or ``standings``: each player's pirates in the goal, or once the game
        is over its final ranking."""
        self._say_all(standings_lines(self.model))

    cmd_standings = cmd_scores

    def cmd_log(self, rest: str) -> None:
        last = self.events_said[-LOG_SAID:]
        if not last:
            self.say(_("Nothing has happened yet."))
        for line in last:
            self.say(line)

    def cmd_chances(self, rest: str) -> None:
        self._say_all(chances_lines(self.model))

    def cmd_hint(self, rest: str) -> None:
        self.said_hint = None
        self.model.ask_hint()

    def cmd_moves(self, rest: str) -> None:
        m = self.model
        if m.my_turn_now():
            self.ask(turn_question(m), turn=True)
        elif self.question is not None:
            self.speaker.ask(self.question)
        else:
            self.say(_("It is not your turn."))

    def cmd_back(self, rest: str) -> None:
        if self.question is not None and self.question.back is not None:
            self.ask(self.question.back, turn=self.turn_open)
        else:
            self.cmd_moves(rest)

    def cmd_help(self, rest: str) -> None:
        m = self.model
        if m.screen == "game" and m.game_over:
            self.say(_(HELP_OVER) if m.seat is not None and m.may_manage() else
                     _(HELP_OVER_GUEST))
        elif m.screen == "game":
            self.say(_(HELP_GAME))
        elif m.screen == "lobby" and m.table is not None:
            self.say(_(HELP_ROOM))
        else:
            self.say(_(HELP_LOBBY))
        self.say(_("An empty line says the question again. Commands work in English too."))

    def cmd_quit(self, rest: str) -> None:
        m = self.model
        if m.gone is None and (m.hosting or m.solo or (
                m.screen == "game" and m.game_running and m.seat is not None)):
            q = Question(quit_question(m))
            q.choices = [Choice(_("Yes, quit"), do=self._quit_now),
                         Choice(_("No, go on"), do=lambda: self.cmd_moves(""))]
            self.ask(q)
        else:
            self._quit_now()

    def _quit_now(self) -> None:
        self.model.exit_requested = True

    def cmd_chat(self, rest: str) -> None:
        m = self.model
        if not rest:
            self.text_question(_("Say what?"), self.cmd_chat)
            return
        msg: dict[str, Any] = {"type": "chat", "text": rest[:500]}
        if m.table is not None:
            msg["table"] = m.table
        m.send(msg)

    def cmd_name(self, rest: str) -> None:
        if not rest:
            self.text_question(_("Your name?"), self.cmd_name)
            return
        self.model.name = rest[:32]
        self.say(_("Your name is {name} (used when you next sit down).").format(name=rest[:32]))

    def cmd_colour(self, rest: str) -> None:
        q = Question(_("Which colour would you like?"))
        for c in COLORS:
            q.choices.append(Choice(_("any") if c == "any" else color_name(c),
                                    do=lambda c=c: self._colour(c)))
        self.ask(q)

    def _colour(self, color: str) -> None:
        self.model.color = color
        self.say(_("colour: {color}").format(color=_("any") if color == "any" else
                                             color_name(color)))

    def cmd_tables(self, rest: str) -> None:
        self.said_tables = ()
        self.lobby_settled = True  # asked for: said now
        self._say_lobby()

    def cmd_seats(self, rest: str) -> None:
        self.said_seats = ("again",)
        self._say_room()

    def cmd_watch(self, rest: str) -> None:
        m = self.model
        if not is_number(rest) or not 1 <= int(rest) <= len(m.tables):
            self.say(_("Watch which table? Type watch and its number, 1 to {k}.").format(
                k=len(m.tables)))
            return
        m.join(int(m.tables[int(rest) - 1]["id"]), spectate=True)

    def cmd_resume(self, rest: str) -> None:
        if self.model.saved_seat_free():
            self.model.send({"type": "_resume"})
        else:
            self.say(_("No seat of yours is kept here."))

    def cmd_new(self, rest: str) -> None:
        m = self.model
        if m.spectate or m.table is not None:
            self.say(_("Only a player in the lobby can make a table."))
            return
        presets = m.presets or ["jamaica"]
        q = Question(_("New table: which rules?"))
        for p in presets:
            title = m.preset_titles.get(p, "")
            q.choices.append(Choice(f"{p}: {title}" if title else p,
                                    do=lambda p=p: self._new_players(p)))
        self.ask(q)

    def _new_players(self, preset: str) -> None:
        lo, hi = self.model.preset_players.get(preset, (2, 6))
        q = Question(_("How many seats?"))
        q.choices = [Choice(str(n), do=lambda n=n: self._new_bots(preset, n))
                     for n in range(lo, hi + 1)]
        self.ask(q)

    def _new_bots(self, preset: str, players: int) -> None:
        q = Question(_("How many of them bots?"))
        q.choices = [Choice(str(n), do=lambda n=n: self._new_options(preset, players, n))
                     for n in range(players)]
        self.ask(q)

    def _new_options(self, preset: str, players: int, bots: int) -> None:
        def create(text: str) -> None:
            from client.uistate import CreateForm

            form = CreateForm(presets=[preset], players=players, bots=bots,
                              options="" if text.strip() in ("", "-") else text)
            try:
                options = form.options_dict()
            except ValueError as exc:
                self.say(str(exc))
                return
            m = self.model
            name = _("{name}'s table").format(name=m.name)[:64]
            m.auto_bots = bots
            m.pending_create = name
            m.send({"type": "create_table", "name": name, "rules": preset, "options": options})

        self.answer = ("options", create)
        self.say(_("Rules options as KEY=VALUE words (for example magic=true), or - for "
                   "none:"))

    def cmd_bot(self, rest: str) -> None:
        m = self.model
        if m.table is None or not m.may_manage() or m.game_running:
            self.say(_("Only the table's owner adds bots, before the game."))
            return
        choice = bot_choice(rest)
        if choice is None:
            self.say(_("Which bot? Type bot and easy, normal, hard or random."))
            return
        m.send(add_bot_message(m.table, choice))

    def cmd_remove(self, rest: str) -> None:
        m = self.model
        seats = (m.table_info or {}).get("seats") or []
        if m.table is None or not m.may_manage():
            self.say(_("Only the table's owner removes bots, before the game."))
            return
        if not is_number(rest) or not 1 <= int(rest) <= len(seats):
            self.say(_("Remove which seat? Type remove and its number."))
            return
        seat = seats[int(rest) - 1]
        if seat.get("name") and not seat.get("bot"):
            self.say(sentence(_("a player sits there: only bots and empty seats can be "
                                "removed")))
            return
        m.send({"type": "remove_bot", "table": m.table, "seat": seat.get("seat")})

    def cmd_start(self, rest: str) -> None:
        m = self.model
        if m.table is None or not m.may_manage():
            self.say(_("Only the table's owner starts the game."))
            return
        m.send({"type": "start", "table": m.table})

    def cmd_again(self, rest: str) -> None:
        """``again`` or ``play again``: the finished table's next game (as ``start``)."""
        m = self.model
        if m.table is not None and m.game_running:
            self.say(_("This game is still being played."))
            return
        self.cmd_start(rest)

    def cmd_leave(self, rest: str) -> None:
        m = self.model
        if m.table is None:
            self.say(_("You are not at a table."))
            return
        m.leave()
        self.question = None
        self.said_tables = self.said_seats = ()
        self.said_game = self.said_over = None
        self.events_said.clear()  # the next table's log starts empty
        self.room_waited = False
        # The tables are said once, as the host lists them after the leave (the list
        # known now still shows this player's seat), or as known if no list comes.
        self.lobby_heard = False
        if self.reactor is not None:
            self.reactor.callLater(LOBBY_WAIT, self._lobby_awaited)
        else:
            self.lobby_heard = True

    def cmd_address(self, rest: str) -> None:
        if rest:
            self.model.send({"type": "_connect", "address": rest})
        else:
            self.text_question(_("Address (host, or host:port)?"), self.cmd_address)

    def cmd_reconnect(self, rest: str) -> None:
        self.model.send({"type": "_reconnect"})
