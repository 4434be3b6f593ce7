"""One table's live chances and hints (the jobs themselves: :mod:`cartagena_net.bots.coach`).

**What it reads.** A :class:`Coach` follows, after every broadcast, the events each viewer
was sent (the engine's view for that viewer, as sent), and keeps the cards each viewer
saw enter hidden hands (``track_known``): the spectator's, for the room's chances; each
seat's, for its hints. A job gets the viewer's view and that knowledge, never the state.

**Live chances.** After each turn the table asks :meth:`Coach.turn`. Where a value model
serves the table's rules (:mod:`cartagena_net.bots.value`: a tenth of a millisecond a
position), the chances are the model's on the spectator's view, made at once on every
position, and moved half way from the last shown (``value.smoothed``: steady, as
calibrated). Otherwise the playout estimate runs at the lowest priority of the host's
bot pool: only on a worker idle now while no bot search waits
(:meth:`cartagena_net.host.thinker.Thinker.run_idle`), so a bot's search is never queued
behind it; a job lasts at most :data:`LIVE_BUDGET` seconds, so a search that comes later
waits at most that long for the worker. A review never holds it back: while the review of
a finished game holds the worker, the estimate runs next, before the review's next
position (a review takes minutes; one of its positions, seconds). One estimate at a time per
table, of the newest position only (turns that pass while it runs are skipped), and a
table's estimates use at most :data:`LIVE_SHARE` of one core over time (after a job of
*c* CPU seconds, the next starts no sooner than *c* (1 / share - 1) seconds later). When
the pool is busy the estimate waits, and is tried again every :data:`RETRY` seconds.
When one arrives the table is told (``on_chances``) to send it.

**Hints.** :meth:`Coach.hint` runs the table's bots' search (their level) from the asking
seat's view, at the priority of a person waiting (it is one). One hint at a time per seat;
a second request for the same position gets the same answer.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from cartagena_net.bots import value
from cartagena_net.bots.coach import LIVE_PLAYOUTS, hint_job, live_chances
from cartagena_net.engine import SPECTATOR, view
from cartagena_net.engine.determinize import track_known
from cartagena_net.host import gamerec
from cartagena_net.host.thinker import HUMAN
from protocol import messages

log = Logger(namespace="cartagena.host.coach")

__all__ = ["LIVE_BUDGET", "LIVE_PLAYOUTS", "LIVE_SHARE", "RETRY", "Coach"]

LIVE_BUDGET = 0.25  # seconds an estimate may take at most (fewer playouts then)
LIVE_SHARE = 0.25  # of one core, a table's estimates at most over time
RETRY = 0.2  # seconds between tries while the pool is busy
CURVE = 400  # estimates kept for the curve (one a turn; a long game is thinned)


class Coach:
    """The live chances and the hints of one table (``table``: its state, seq, seats,
    host). ``live``: estimate the chances; ``hints``: answer hint requests.
    ``on_chances()`` is called when a new estimate is in :attr:`chances`."""

    def __init__(self, table: Any, live: bool = True, hints: bool = False,
                 on_chances: Callable[[], None] | None = None,
                 keep: Callable[[dict[str, Any]], None] | None = None) -> None:
        """``keep(point)``: each new point of the curve (``{"seq", "turn", "chances"}``),
        to be kept beside the game (the table journals it, so that a restored game's
        curve comes back whole: :meth:`restore_curve`)."""
        self.table = table
        self.keep = keep
        # Estimates come back from the pool's threads: a reactor that takes no calls from
        # threads (a simulated clock) gets none.
        reactor = getattr(table.host, "reactor", None)
        self.live = live and callable(getattr(reactor, "callFromThread", None))
        self.hints = hints
        self.on_chances = on_chances
        self._rng = random.Random(random.SystemRandom().getrandbits(64))
        self.new_game()

    # -- following what each viewer was told ---------------------------------------

    def new_game(self) -> None:
        """A new game (or none yet): nothing known, no chances."""
        self.known: dict[Any, dict[int, list[str]]] = {}
        self.told = 0  # events followed so far
        self._stale = False  # events passed unfollowed (nobody to follow them for)
        self.chances: list[float] | None = None
        self.chances_seq: int | None = None  # the position the chances are of
        self.curve: list[dict[str, Any]] = []  # [{"seq", "turn", "chances"}], oldest first
        self.cpu = 0.0  # CPU seconds this table's estimates took (this game)
        self.estimates = 0
        self.skipped = 0  # tries that found the pool busy
        self.hinted: dict[int, int] = {}  # seat -> seq of the position its last hint was for
        self.hinted_moves: list[int] = []  # indices of the game's actions taken after one
        self._hints: dict[int, dict[str, Any]] = {}  # seat -> its last hint request
        self._pending: Any = None  # the estimate under way: (seq, Deferred)
        self._dirty = False
        self._not_before = 0.0
        cancel = getattr(self, "_later", None)
        if cancel is not None and cancel.active():
            cancel.cancel()
        self._later: Any = None

    def _viewers(self) -> list[Any]:
        out: list[Any] = [SPECTATOR] if self.live else []
        if self.hints and self.table.match.state is not None:
            out += list(range(self.table.match.state.game.players))
        return out

    def follow(self, shared: dict[str, Any] | None = None) -> None:
        """Take in the events sent since the last call (call after each broadcast,
        before the state forgets them; ``shared``: that broadcast's view memo). While
        nobody would see chances at a table without hints, nothing is followed: the
        knowledge is made again from the game's start when it is needed
        (:meth:`_rebuild`)."""
        state = self.table.match.state
        if state is None:
            return
        if not (self.hints or (self.live and self.audience())):
            self._stale = True
            return
        if self._stale or state.events_base > self.told:
            self._rebuild()
            return
        since = max(self.told, state.events_base)
        if state.event_count == since:
            return
        memo = shared if shared is not None else {}
        for viewer in self._viewers():
            events = view(state, viewer, since=since, shared=memo, fixed=False,
                          public=False)["events"]
            track_known(self.known.setdefault(viewer, {}), events,
                        -1 if viewer == SPECTATOR else viewer)
        self.told = state.event_count

    def _rebuild(self) -> None:
        """What each viewer learnt over the whole game, from a copy of it replayed from
        its start (its chance outcomes and actions), read through each viewer's view."""
        t = self.table
        state = t.match.state
        self.known = {}
        try:
            replica = gamerec.restore(t.game, gamerec.chance_outcomes(state),
                                      [str(a) for a in state.history])
            for viewer in self._viewers():
                events = view(replica, viewer, since=0)["events"]
                track_known(self.known.setdefault(viewer, {}), events,
                            -1 if viewer == SPECTATOR else viewer)
        except Exception:  # noqa: BLE001 - then less is known: never more than was seen
            log.failure("table {table}: the viewers' knowledge could not be rebuilt",
                        table=t.id)
            self.known = {}
        self.told = state.event_count
        self._stale = False

    def knowledge(self, viewer: Any) -> dict[int, list[str]]:
        if self._stale and self.table.match.state is not None:
            self._rebuild()
        return {s: list(c) for s, c in self.known.get(viewer, {}).items()}

    # -- live chances --------------------------------------------------------------

    def audience(self) -> bool:
        """Someone would see the chances: a spectator, a web watcher, or a connected
        player at a table that shows them to its players. Nobody: nothing is estimated."""
        t = self.table
        if t.spectators:
            return True
        web = t.host.web
        if web is not None and web.watching(t.id):
            return True
        if t.host.config.log_events:  # a headless host logs them on its own screen
            return True
        return bool(t.player_chances) and any(s.conn is not None for s in t.seats)

    def turn(self) -> None:
        """The position changed: estimate the newest one when the pool allows."""
        if not self.live or self.table.match.state is None:
            return
        if self.table.match.state.is_over:
            if self.chances_seq != self.table.match.seq:
                self._finished()
            return
        if self.chances_seq == self.table.match.seq and self._pending is None:
            return  # this position's estimate is in already
        self._dirty = True
        self._try()

    def kinds(self) -> list[str]:
        """Who plays each seat, as the lobby lists it to everyone (each seat's ``bot``
        and ``connected``: :func:`cartagena_net.bots.value.seat_kind`); a person's seat,
        and a stand-in bot's for an absent person, is ``unknown``. Public data: the
        engine's view stays the only filter of what is hidden."""
        return [value.seat_kind(s.public()) for s in self.table.seats]

    def _finished(self) -> None:
        state = self.table.match.state
        n = state.game.players
        self._dirty = False
        self._record([1.0 if s == state.outcome.winner else 0.0 for s in range(n)])

    def _record(self, chances: list[float]) -> None:
        table = self.table
        self.chances, self.chances_seq = chances, table.match.seq
        point = {"seq": table.match.seq, "turn": table.match.state.turn, "chances": chances}
        self._add(point)
        if self.keep is not None:
            self.keep(point)
        if self.on_chances is not None:
            self.on_chances()

    def _add(self, point: dict[str, Any]) -> None:
        if self.curve and self.curve[-1]["seq"] == point["seq"]:
            self.curve[-1] = point
        else:
            self.curve.append(point)
            if len(self.curve) > CURVE:
                del self.curve[1:-1:2]  # thinned: every other point, the ends kept

    def restore_curve(self, points: list[dict[str, Any]]) -> None:
        """The curve of a game restored from its journal (its points as :attr:`keep`
        was given them, oldest first), and its last chances: shown again as they were,
        until the next estimate."""
        for point in points:
            self._add(point)
        if self.curve:
            last = self.curve[-1]
            self.chances, self.chances_seq = list(last["chances"]), last["seq"]

    def _try(self) -> None:
        if not self._dirty or self._pending is not None or self.table.match.state is None:
            return
        if not self.audience():  # tried again at the next turn, or when someone watches
            return
        host = self.table.host
        state = self.table.match.state
        if state.is_over:
            self._finished()
            return
        seen = view(state, SPECTATOR)
        seen.pop("events", None)
        model = value.model_for(seen)
        reactor = host.reactor
        if model is not None:  # a tenth of a millisecond: every position, made now...
            self._dirty = False
            self.estimates += 1
            chances = value.chances(seen, self.knowledge(SPECTATOR), model,
                                    self.kinds()) or []
            seq = self.table.match.seq

            def record() -> None:  # ... and sent once the broadcast (or a new watcher's
                # first frames) is out, never in the middle of it
                if self.table.match.state is state and self.table.match.seq == seq and self.live:
                    shown = value.smoothed(self.chances, chances)  # steady: half way
                    self._record([round(p, 4) for p in shown])

            reactor.callLater(0, record)
            return
        now = reactor.seconds()
        if now < self._not_before:
            self._again(self._not_before - now)
            return
        d = host.thinker.run_idle(live_chances, seen, self.knowledge(SPECTATOR),
                                  LIVE_PLAYOUTS, self._rng.getrandbits(63), LIVE_BUDGET,
                                  True, self.kinds())
        if d is None:  # the pool is busy: never queued behind nor before a search
            self.skipped += 1
            self._again(RETRY)
            return
        self._dirty = False
        seq, game = self.table.match.seq, self.table.match.state
        self._pending = (seq, d)

        def done(result: dict[str, Any]) -> None:
            if self._pending is None or self._pending[1] is not d:
                return  # a new game began meanwhile
            self._pending = None
            cpu = float(result.get("cpu") or 0.0)
            self.cpu += cpu
            self.estimates += 1
            self._not_before = reactor.seconds() + cpu * (1 / LIVE_SHARE - 1)
            if self.table.match.state is game and self.table.match.seq == seq:
                self._record(list(result["chances"]))
            elif self.table.match.state is game and not game.is_over:
                self._dirty = True  # the game moved on meanwhile: the newest next
            self._try()

        def failed(failure: Any) -> None:
            if self._pending is not None and self._pending[1] is d:
                self._pending = None
                log.info("table {table}: a live estimate failed: {why}",
                         table=self.table.id, why=failure.getErrorMessage())
                self._not_before = reactor.seconds() + 1.0
                self._dirty = True
                self._try()

        d.addCallbacks(done, failed)

    def _again(self, delay: float) -> None:
        if self._later is not None and self._later.active():
            return
        self._later = self.table.host.reactor.callLater(delay, self._retry)

    def _retry(self) -> None:
        self._later = None
        self._try()

    def close(self) -> None:
        """The table goes: no more tries (a running job's answer is dropped)."""
        self.live = False
        self._pending = None
        if self._later is not None and self._later.active():
            self._later.cancel()
        self._later = None

    # -- hints ---------------------------------------------------------------------

    def hint(self, seat: int, legal: list[str]) -> defer.Deferred:
        """The bot's move for ``seat`` now, from its own view: a Deferred firing with
        ``{"seq", "action", "why", "reason"}``. Asked again for the same position, the
        same answer (waited for while it runs)."""
        table = self.table
        seq = table.match.seq
        kept = self._hints.get(seat)
        if kept is not None and kept["seq"] == seq:
            if kept["result"] is not None:
                return defer.succeed(kept["result"])
            waiter: defer.Deferred = defer.Deferred()
            kept["waiters"].append(waiter)
            return waiter
        config = table.host.config
        seen = view(table.match.state, seat)
        seen.pop("events", None)
        fn, args = hint_job(seen, legal, self.knowledge(seat), level=config.bot_level,
                            think=config.bot_think, seed=self._rng.getrandbits(63),
                            kinds=self.kinds())
        entry: dict[str, Any] = {"seq": seq, "result": None, "waiters": []}
        self._hints[seat] = entry
        d = table.host.thinker.run(fn, *args, priority=HUMAN)

        def answered(result: dict[str, Any]) -> dict[str, Any]:
            out = {"seq": seq, **result}
            if self._hints.get(seat) is entry:
                entry["result"] = out
                self.hinted[seat] = seq
            for w in entry["waiters"]:
                w.callback(out)
            entry["waiters"] = []
            return out

        def failed(failure: Any) -> Any:
            if self._hints.get(seat) is entry:
                del self._hints[seat]
            for w in entry["waiters"]:
                w.errback(failure)
            entry["waiters"] = []
            return failure

        d.addCallbacks(answered, failed)
        return d

    def ask(self, conn: Any, seat: int, legal: list[str]) -> None:
        """Answer ``conn`` (at ``seat``) with a ``hint`` message when the search is done:
        to that connection alone, if it is still there."""
        table = self.table

        def send(result: dict[str, Any]) -> None:
            if getattr(conn, "closed", False) or getattr(conn, "table", table) is not table:
                return
            conn.send_message(messages.Hint(
                table=table.id, seq=result["seq"], action=result["action"],
                reason=result["reason"], why=result["why"]))

        def failed(failure: Any) -> None:
            log.error("table {table}: a hint for seat {seat} failed: {why}",
                      table=table.id, seat=seat, why=failure.getErrorMessage())
            if not getattr(conn, "closed", False):
                conn.refuse("table-fault", "hint-failed", ref="hint")

        self.hint(seat, legal).addCallbacks(send, failed)

    def was_hinted(self, seat: int, seq: int) -> bool:
        """Whether ``seat`` got a hint for the position ``seq`` (its action there is
        marked in the record)."""
        return self.hinted.get(seat) == seq
