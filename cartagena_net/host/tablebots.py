"""The bots at a table: when they move, their searches on the pool, fallback and answers.

:class:`TableBots` owns the table's bot timers and the search under way: it asks the
seat to act next if a bot (or a stand-in bot) holds it, plays a quick bot on the
reactor thread and sends a searching bot's job to the host's ``thinker`` (the worker
pool), plays the bot's fallback when a search fails, and backs off when nothing a bot
tries is applied. A bot's answer goes through the game's ``apply`` like a player's: the
``apply`` callback the table gives it (:meth:`cartagena_net.host.play.Play.apply`). It
reads the game from the table's ``match`` and may call the engine's view, the host's
``thinker``, ``reactor`` and ``config``, the sitting's ``seat_of`` and the coach's
``ask``; it imports only :func:`cartagena_net.host.play.legal` of another part of a
table.

Whatever else a bot is asked at a table goes here: hints (the bot's move for a seat
that asks, :meth:`TableBots.hint`) are searches on the same pool, through the table's
``coach`` (:mod:`cartagena_net.host.coach`), at a person's priority.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from twisted.logger import Logger

from cartagena_net.engine import view
from cartagena_net.host.errors import HostError
from cartagena_net.host.game import Status, TableGame
from cartagena_net.host.play import legal
from cartagena_net.host.seats import Seat
from cartagena_net.host.thinker import BOTS, HUMAN

log = Logger(namespace="cartagena.host.table")
DISK_RETRY = 2.0  # seconds between a bot's tries while the disk refuses its journal


def check_bot_kind(kind: str, level: str | None = None) -> None:
    """HostError ``bad-field`` unless ``kind`` is one of the bots' kinds and ``level``
    (if any) one of the levels of a searching bot (only ``ismcts`` takes one)."""
    from cartagena_net.bots.kinds import BOT_KINDS, LEVELS

    if kind not in BOT_KINDS:
        raise HostError("bad-field", "unknown-bot", kind=repr(kind), kinds=", ".join(BOT_KINDS))
    if level is None:
        return
    if level not in LEVELS:
        raise HostError("bad-field", "unknown-level", level=repr(level),
                        levels=", ".join(LEVELS))
    if kind != "ismcts":
        raise HostError("bad-field", "bot-level-kind")


def level_kind(level: str) -> str:
    """The kind of bot a level's bot is (easy: ``greedy``; normal, hard: ``ismcts``)."""
    from cartagena_net.bots.kinds import LEVELS

    return LEVELS[level][0]


def seat_bot(kind: str, level: str | None, config: Any) -> tuple[str, str | None]:
    """The (kind, own level) a bot seat gets for ``add_bot``'s ``kind`` and ``level``: the
    easy level is the greedy bot, asked for by name or as the host's own level (its
    ``--level easy`` without ``--think``); normal and hard stay the seat's own level."""
    if level is not None and level_kind(level) != kind:
        return level_kind(level), None
    if (kind == "ismcts" and level is None and config is not None
            and config.bot_think is None and level_kind(config.bot_level) != kind):
        return level_kind(config.bot_level), None
    return kind, level


def load_bot(kind: str, rng: random.Random, config: Any = None,
             level: str | None = None) -> Any:
    """A bot of ``kind`` from :mod:`cartagena_net.bots.kinds` (HostError if unknown); a
    searching bot at ``level`` if given (its own budget, whatever ``bot_think`` says),
    else at the host ``config``'s ``bot_level`` (or ``bot_think`` seconds)."""
    from cartagena_net.bots.kinds import make_bot

    check_bot_kind(kind, level)
    if level is not None:
        return make_bot(level_kind(level), rng, level=level)
    if config is None:
        return make_bot(kind, rng)
    return make_bot(kind, rng, think=config.bot_think, level=config.bot_level)


class _Sitting(Protocol):
    def seat_of(self, conn: Any) -> Seat | None: ...


class _Coach(Protocol):
    hints: bool

    def ask(self, conn: Any, seat: int, legal: list[str]) -> None: ...


class _BotsHost(Protocol):
    """What :class:`TableBots` uses of the host: its reactor (timed calls), its bot pool
    (``thinker``), its ``config`` (bot_delay) and its count of ``bot_fallbacks``."""

    reactor: Any
    thinker: Any
    config: Any


class BotsTable(Protocol):
    """What :class:`TableBots` reads of its table."""

    host: _BotsHost
    id: int
    seats: list[Seat]
    match: TableGame
    paused: bool
    bot_fallbacks: int
    rng: random.Random
    spectators: set[Any]
    sitting: _Sitting
    coach: _Coach


class TableBots:
    """The bots playing at ``table``; ``apply(seat, action)`` plays a bot's action (the
    game's, as for a player: HostError if it is refused)."""

    def __init__(self, table: BotsTable, apply: Callable[[int, str], None]) -> None:
        self.table = table
        self.apply = apply
        self._bot_call: Any = None
        self.thinking: Any = None  # the Deferred of a bot search under way
        self._bot_failures = 0

    def to_move(self) -> Seat | None:
        """The seat to act now if a bot plays it (none when the game is not on)."""
        game = self.table.match
        if (game.status is not Status.PLAYING or game.state is None or game.state.is_over
                or game.faulted):
            return None
        actor = game.state.actor
        if actor is None:
            return None
        seat = self.table.seats[actor]
        return seat if seat.controller is not None else None

    def schedule(self) -> None:
        """Let the bot to act (if any) move: a search starts now, a quick bot is called
        after ``bot_delay`` (nothing while a move is on its way or the table is paused)."""
        if (self._bot_call is not None or self.thinking is not None or self.table.paused
                or self.to_move() is None):
            return
        seat = self.to_move()
        if hasattr(seat.controller, "job"):
            self.think(seat)  # a search: think now, answer no sooner than bot_delay
            return
        host = self.table.host
        self._bot_call = host.reactor.callLater(host.config.bot_delay, self._bot_move)

    def _bot_move(self) -> None:
        """A timed call: whatever fails, the bot's seat is tried again (never stalls)."""
        self._bot_call = None
        try:
            self._bot_play()
        except Exception:  # noqa: BLE001 - a timed call must not die silently
            log.failure("table {table}: bot move failed", table=self.table.id)
            self._bot_failed()

    def _bot_play(self) -> None:
        seat = self.to_move()
        if seat is None:
            return
        if hasattr(seat.controller, "job"):  # a search never runs on the reactor thread
            if self.thinking is None:
                self.think(seat)
            return
        state = self.table.match.state
        acts = [a for a in legal(state, seat.index) if a != "undo"]  # bots never undo
        try:
            choice = seat.controller.choose(view(state, seat.index), acts)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: bot failed; playing a random action",
                        table=self.table.id)
            choice = None
        self._bot_apply(seat, acts, choice)

    def _bot_apply(self, seat: Seat, acts: list[str], choice: Any) -> None:
        t = self.table
        if choice not in acts:
            choice = t.rng.choice(acts)
        # If the engine refuses the bot's choice, a few other legal actions are tried.
        others = [a for a in acts if a != choice]
        t.rng.shuffle(others)
        for text in [choice, *others][:4]:
            try:
                self.apply(seat.index, text)
            except HostError as exc:
                if exc.code == "journal-failed":  # the disk, not the action: try again soon
                    self._bot_failures = 0
                    self._bot_failed(DISK_RETRY)
                    return
                log.error("table {table}: bot action {action!r} refused: {msg}",
                          table=t.id, action=text, msg=exc.message)
                if t.match.faulted:
                    return
                continue
            self._bot_failures = 0
            return
        self._bot_failed()

    def _bot_failed(self, delay: float | None = None) -> None:
        """Nothing the bot tried was applied: try again later, backing off to a minute
        (``delay``: the disk refused to journal it; tried again every ``DISK_RETRY`` s,
        so that the game goes on soon after the disk has room)."""
        self._bot_failures += 1
        if self._bot_call is None and self.to_move() is not None:
            host = self.table.host
            if delay is None:
                delay = min(60.0, host.config.bot_delay + 2.0 ** min(self._bot_failures, 6))
            self._bot_call = host.reactor.callLater(delay, self._bot_move)

    def hint(self, conn: Any) -> None:
        """A hint for ``conn``'s seat: the bot's move from that seat's own view, sent
        to ``conn`` alone when the search is done (see the coach). HostError
        ``not-allowed`` from a spectator, at a table without hints or not playing;
        ``not-your-turn`` when the seat has nothing to decide."""
        t = self.table
        seat = None if conn in t.spectators else t.sitting.seat_of(conn)
        if seat is None:
            raise HostError("not-allowed", "hint-seated-only")
        if not t.coach.hints:
            raise HostError("not-allowed", "no-hints", table=t.id)
        game = t.match
        if (game.status is not Status.PLAYING or game.state is None or game.state.is_over
                or game.faulted):
            raise HostError("not-allowed", "not-playing", table=t.id)
        actions = [a for a in legal(game.state, seat.index) if a != "undo"]
        if not actions:
            raise HostError("not-your-turn", "hint-not-now")
        t.coach.ask(conn, seat.index, actions)

    def think(self, seat: Seat) -> None:
        """Run the seat's search in the host's thinker (off the reactor thread)."""
        t = self.table
        host = t.host
        reactor = host.reactor
        game = t.match
        acts = [a for a in legal(game.state, seat.index) if a != "undo"]  # bots never undo
        seq, bot, began = game.seq, seat.controller, reactor.seconds()
        try:
            fn, args = bot.job(view(game.state, seat.index), acts)
            d = host.thinker.run(fn, *args, priority=self._think_priority())
        except Exception as exc:  # noqa: BLE001 - a bot bug must not stop the table
            choice = self._fallback(seat, acts, f"{type(exc).__name__}: {exc}")
            self._bot_call = reactor.callLater(host.config.bot_delay, self._bot_answer,
                                               seat, seq, acts, choice)
            return
        self.thinking = d

        def answered(result: Any) -> None:
            if self.thinking is not d:
                return  # the table moved on (new game, closed)
            self.thinking = None
            if game.seq != seq or seat.controller is not bot:
                self.schedule()
                return
            handed = getattr(bot, "answered", None)
            if handed is not None:  # its tree below the answer, for its next decision
                handed(result if hasattr(result, "kept") else None)
            wait = max(0.0, host.config.bot_delay - (reactor.seconds() - began))
            self._bot_call = reactor.callLater(wait, self._bot_answer, seat, seq, acts,
                                               getattr(result, "action", result))

        def failed(failure: Any) -> None:
            choice = None
            if self.thinking is d and game.seq == seq and seat.controller is bot:
                reason = f"{failure.type.__name__}: {failure.getErrorMessage()}"
                where = getattr(failure.value, "worker_traceback", None)
                if where:  # the search's own traceback, from its worker, on lines of its own
                    log.error("table {table}: the traceback from {color}'s bot worker:\n"
                              "{where}", table=self.table.id, color=seat.color, where=where)
                choice = self._fallback(seat, acts, reason)
            answered(choice)

        d.addCallbacks(answered, failed)

    def _think_priority(self) -> int:
        """A person connected at this table waits for its bots: they think first."""
        if any(s.human and s.conn is not None for s in self.table.seats):
            return HUMAN
        return BOTS

    def _fallback(self, seat: Seat, acts: list[str], reason: str) -> str | None:
        """A bot's search failed (a bug): its level's fallback (greedy, a one-move look,
        quick enough for the reactor thread) decides instead. One log line, and the
        count in the table's and the host's ``bot_fallbacks`` (the web's /tables.json)."""
        t = self.table
        t.bot_fallbacks += 1
        t.host.bot_fallbacks = getattr(t.host, "bot_fallbacks", 0) + 1
        fallback = getattr(seat.controller, "fallback", None)
        log.error("table {table}: {color}'s bot search failed ({reason}); its fallback "
                  "{kind} plays instead ({n} fallbacks at this table)", table=t.id,
                  color=seat.color, reason=reason, n=t.bot_fallbacks,
                  kind=getattr(fallback, "kind", "random"))
        if fallback is None:
            return None  # _bot_apply plays a random legal action
        try:
            return fallback.choose(view(t.match.state, seat.index), acts)
        except Exception:  # noqa: BLE001 - a bot bug must not stop the table
            log.failure("table {table}: the fallback bot failed; playing a random action",
                        table=t.id)
            return None

    def _bot_answer(self, seat: Seat, seq: int, acts: list[str], choice: Any) -> None:
        """A timed call: play a search's answer if the position is still the same."""
        self._bot_call = None
        try:
            if self.table.match.seq != seq or self.to_move() is not seat:
                self.schedule()
                return
            self._bot_apply(seat, acts, choice)
        except Exception:  # noqa: BLE001 - a timed call must not die silently
            log.failure("table {table}: bot move failed", table=self.table.id)
            self._bot_failed()

    def stop_thinking(self) -> None:
        """Forget the search under way and cancel a bot's timed move (a new game, close)."""
        self.thinking = None
        if self._bot_call is not None and self._bot_call.active():
            self._bot_call.cancel()
        self._bot_call = None
