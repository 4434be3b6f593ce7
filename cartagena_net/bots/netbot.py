"""A bot playing over the network, as any other client: ``protocol`` + ``client.net``.

    result = yield play_bot(reactor, "10.0.0.5", 41672, kind="greedy", table=None, games=1)

It joins a free seat (of ``table``, or of the first table that has one), starts the
game when it owns the table and every seat is taken, answers each ``state`` that
offers it legal actions with its bot's choice, and leaves after ``games`` games.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from twisted.internet import defer, threads
from twisted.logger import Logger

from cartagena_net.bots.kinds import BOT_KINDS, make_bot
from client.net import SessionClosed, connect
from protocol import LocalProtocolError, messages


class NetBotError(Exception):
    """The bot could not sit or play (no free seat, refused by the host, dropped)."""


@dataclass
class NetBotResult:
    """What a network bot did: its table and seat, games finished, actions sent."""

    table: int | None = None
    seat: int | None = None
    games: int = 0
    actions: int = 0
    outcomes: list[dict[str, Any]] = field(default_factory=list)


def free_seats(table: dict[str, Any]) -> list[int]:
    """Seat numbers with neither a player nor a bot, in a lobby ``table`` entry."""
    return [
        int(s["seat"])
        for s in table.get("seats", ())
        if isinstance(s, dict) and not s.get("name") and not s.get("bot")
    ]


def pick_table(tables: list[dict[str, Any]], wanted: int | None) -> int | None:
    """The table to join: ``wanted`` if it has a free seat, else the first waiting one."""
    for table in tables:
        if wanted is not None and table.get("id") != wanted:
            continue
        if table.get("status") == "waiting" and free_seats(table):
            return int(table["id"])
    return None


class NetBot:
    """Drives one ``ClientSession``: sit, start when owner, act, count games."""

    log = Logger()

    def __init__(
        self,
        session: Any,
        kind: str = "greedy",
        table: int | None = None,
        games: int = 1,
        name: str = "bot",
        rng: random.Random | None = None,
        password: str | None = None,
        think: float | None = None,
        level: str | None = None,
        workers: int = 1,
        deterministic: bool = False,
    ) -> None:
        self.session = session
        self.password = password
        self.bot = make_bot(kind, rng, think=think, level=level, workers=workers,
                            deterministic=deterministic)
        self.wanted = table
        self.games = games
        self.name = name
        self.result = NetBotResult()
        self.done: defer.Deferred = defer.Deferred()
        self.joining = False
        self.acted_seq = -1
        self.latest: Any = None
        self.lobby: list[dict[str, Any]] = []
        self.start_sent_for: Any = None
        self.counted_seq = -1
        session.on_close = self._closed
        session.on_message = self._message

    # -- messages ---------------------------------------------------------

    def _message(self, msg: Any) -> None:
        if self.done.called:
            return
        if isinstance(msg, messages.Lobby):
            self.lobby = [dict(t) for t in msg.tables]
            self._maybe_join()
            self._maybe_start()
        elif isinstance(msg, messages.Joined):
            self.result.table, self.result.seat = msg.table, msg.seat
            self._maybe_start()
        elif isinstance(msg, messages.State):
            self._state(msg)
        elif isinstance(msg, messages.Error):
            self._error(msg)

    def _maybe_join(self) -> None:
        if self.joining or self.result.table is not None:
            return
        table = pick_table(self.lobby, self.wanted)
        if table is None:
            if self.wanted is not None and not any(t.get("id") == self.wanted for t in self.lobby):
                self._fail(f"there is no table {self.wanted}")
            elif self.wanted is not None:
                self._fail(f"table {self.wanted} has no free seat")
            else:
                self._fail("no table has a free seat")
            return
        self.joining = True
        self._send(messages.JoinTable(table=table, seat=None, spectate=False, name=self.name,
                                       password=self.password))

    def _my_table(self) -> dict[str, Any] | None:
        for table in self.lobby:
            if table.get("id") == self.result.table:
                return table
        return None

    def _maybe_start(self) -> None:
        table = self._my_table()
        if table is None or self.result.seat is None:
            return
        if table.get("owner") != self.result.seat or free_seats(table):
            return
        if table.get("status") == "playing" or self.result.games >= self.games:
            return
        marker = (table.get("status"), self.result.games)
        if self.start_sent_for == marker:
            return
        self.start_sent_for = marker
        self._send(messages.Start(table=self.result.table))

    def _state(self, msg: Any) -> None:
        self.latest = msg
        view = msg.view
        observe = getattr(self.bot, "observe", None)
        if observe is not None and isinstance(view.get("viewer"), int):
            observe([dict(e) for e in msg.events], view["viewer"])
        outcome = view.get("outcome")
        if outcome is not None:
            if hasattr(self.bot, "reset"):
                self.bot.reset()
            if msg.seq != self.counted_seq and self.counted_seq < msg.seq:
                self.counted_seq = msg.seq
                self.result.games += 1
                self.result.outcomes.append(dict(outcome))
                self.log.info("game over: {outcome}", outcome=outcome)
                if self.result.games >= self.games:
                    self._finish()
                    return
                self._maybe_start()
            return
        if msg.legal and msg.seq > self.acted_seq:
            # Bots never take back (as at the host's tables): a search's view knows no
            # "undo", and would refuse a legal list with it.
            self._act(msg, [a for a in msg.legal if a != "undo"] or list(msg.legal))

    def _act(self, msg: Any, legal: list[str]) -> None:
        if hasattr(self.bot, "job"):
            # A search runs in a thread: pings are answered meanwhile.
            self.acted_seq = msg.seq
            try:
                fn, args = self.bot.job(msg.view, legal)
            except (ValueError, KeyError, TypeError):
                self._send_action(msg, legal, None)
                return
            d = threads.deferToThread(self.bot.run_job, fn, args)  # on its workers
            d.addCallbacks(lambda result: self._answered(msg, legal, result),
                           lambda failure: self._search_failed(msg, legal, failure))
            return
        try:
            choice = self.bot.choose(msg.view, legal)
        except (ValueError, KeyError, TypeError):
            choice = None
        self._send_action(msg, legal, choice)

    def _answered(self, msg: Any, legal: list[str], result: Any) -> None:
        """A search's answer: the bot keeps its tree below it, and it is sent."""
        answered = getattr(self.bot, "answered", None)
        if answered is not None:
            answered(result if self.latest is msg else None)
        self._send_action(msg, legal, result.action)

    def _search_failed(self, msg: Any, legal: list[str], failure: Any) -> None:
        """A search that failed (it must not): counted, one log line, and the bot's
        fallback (greedy) decides, as a bot choosing in-process does."""
        choice = None
        failed = getattr(self.bot, "failed", None)
        if failed is not None:
            failed(failure.value)
        answered = getattr(self.bot, "answered", None)
        if answered is not None:
            answered(None)
        self.log.error("the bot's search failed ({reason}); its fallback plays instead",
                       reason=f"{failure.type.__name__}: {failure.getErrorMessage()}")
        fallback = getattr(self.bot, "fallback", None)
        if fallback is not None:
            try:
                choice = fallback.choose(msg.view, legal)
            except (ValueError, KeyError, TypeError):
                choice = None
        self._send_action(msg, legal, choice)

    def _send_action(self, msg: Any, legal: list[str], choice: str | None) -> None:
        if self.done.called:
            return
        if self.latest is not msg:
            return  # the game moved on while thinking
        if choice not in legal:
            choice = random.choice(legal)
        self.acted_seq = msg.seq
        self.result.actions += 1
        self._send(messages.Action(table=msg.table, seq=msg.seq, action=choice))

    def _error(self, msg: Any) -> None:
        if msg.fatal:
            self._fail(f"host error {msg.code}: {msg.message}")
            return
        if msg.ref == "join_table":
            self.joining = False
            if self.wanted is not None:
                self._fail(f"cannot join table {self.wanted}: {msg.message}")
            return
        if msg.ref == "start":
            return  # someone else starts, or a seat is still empty: wait
        self.log.info("host refused: {code}: {message}", code=msg.code, message=msg.message)
        latest = self.latest
        if msg.ref == "action" and latest is not None and latest.legal and msg.code != "stale":
            # Refused although offered: try another legal action once more.
            self._act(latest, list(latest.legal))

    # -- ending -----------------------------------------------------------

    def _send(self, msg: Any) -> None:
        try:
            self.session.send(msg)
        except LocalProtocolError as exc:
            self._fail(f"cannot send {type(msg).__name__}: {exc}")
        except SessionClosed as exc:
            self._fail(f"connection closed: {exc}")

    def _finish(self) -> None:
        if not self.done.called:
            self.done.callback(self.result)
        self.session.close("done playing")

    def _fail(self, reason: str) -> None:
        if not self.done.called:
            self.done.errback(NetBotError(reason))
        self.session.close(reason)

    def _closed(self, reason: str) -> None:
        if not self.done.called:
            self.done.errback(NetBotError(f"connection closed: {reason}"))


def play_bot(
    reactor: Any,
    host: str,
    port: int,
    kind: str = "greedy",
    table: int | None = None,
    games: int = 1,
    name: str = "bot",
    password: str | None = None,
    rng: random.Random | None = None,
    timeout: float = 10.0,
    think: float | None = None,
    level: str | None = None,
    workers: int = 1,
    deterministic: bool = False,
) -> defer.Deferred:
    """Connect, sit and play; fires with a ``NetBotResult`` (or fails with NetBotError,
    ``client.net.HostError`` or a connection error)."""
    if kind not in BOT_KINDS:
        return defer.fail(ValueError(f"unknown bot kind {kind!r}"))

    def connected(pair: tuple[Any, Any]) -> defer.Deferred:
        session, _welcome = pair
        bot = NetBot(session, kind=kind, table=table, games=games, name=name, rng=rng,
                     password=password, think=think,
                     level=level, workers=workers, deterministic=deterministic)
        return bot.done

    d = connect(reactor, host, port, name, role="player", password=password, timeout=timeout)
    return d.addCallback(connected)
