"""A table's game: its one owner, with its lifecycle as data.

:class:`TableGame` holds everything a table knows of its game (the engine's ``state``,
``seq``, the ``status``, the events already sent, the chance outcomes and actions of
the last good state, whether the engine faulted, when the game started) and changes it
only through its methods, one for each step of the game's course. The lifecycle is a
small state machine kept as data, as h11 keeps its connection states: :class:`Status`
(what the lobby shows), :class:`Step` (what happens to a game) and
:data:`TRANSITIONS`, ``(status, step) -> next status``; a step the table does not
allow in its status raises :class:`LifecycleError` (a bug of the host, never a
player's mistake: those are refused before, with a :class:`HostError`).

It imports nothing of a table and nothing of the engine: who deals, applies and journals
is :class:`~cartagena_net.host.play.Play`; who reads the state for each viewer is
:class:`~cartagena_net.host.viewers.Viewers`; a restored journal comes back through
:meth:`TableGame.restore` (:mod:`cartagena_net.host.restore`).
"""
from __future__ import annotations

import enum
from array import array
from typing import Any

__all__ = ["TRANSITIONS", "LifecycleError", "Status", "Step", "TableGame"]


#: An action in a game's kept course: its seat plus the chance outcomes drawn by then
#: times this (a seat is under it).
_MOVE = 16


class Status(enum.Enum):
    """A table's game as the lobby lists it (``value``: the word on the wire)."""

    WAITING = "waiting"  # no game yet: players sit, the owner adds bots
    PLAYING = "playing"  # a game is on (seats are kept for their tokens)
    FINISHED = "finished"  # the game ended; the owner may start another

    __hash__ = object.__hash__  # (a member is its one instance: hashed as itself, in C)


class Step(enum.Enum):
    """What happens to a table's game."""

    START = "start"  # a new game is dealt (or another, after one finished)
    ACT = "act"  # an action was applied and journaled; the game goes on
    END = "end"  # an action was applied and journaled; it ended the game
    FAULT = "fault"  # the engine failed and the last good state cannot be rebuilt
    RESTORE = "restore"  # a game on, read back from its journal
    RESTORE_ENDED = "restore-ended"  # a game that had ended, read back from its journal

    __hash__ = object.__hash__  # (as Status's)


TRANSITIONS: dict[tuple[Status, Step], Status] = {
    (Status.WAITING, Step.START): Status.PLAYING,
    (Status.FINISHED, Step.START): Status.PLAYING,
    (Status.PLAYING, Step.ACT): Status.PLAYING,
    (Status.PLAYING, Step.END): Status.FINISHED,
    (Status.PLAYING, Step.FAULT): Status.PLAYING,  # it stays on, refusing every action
    (Status.WAITING, Step.RESTORE): Status.PLAYING,
    (Status.WAITING, Step.RESTORE_ENDED): Status.FINISHED,
}


class LifecycleError(RuntimeError):
    """A step the game's status does not allow (a bug of the host)."""

    def __init__(self, status: Status, step: Step) -> None:
        super().__init__(f"a table's game cannot {step.value} while {status.value}")
        self.status = status
        self.step = step


class TableGame:
    """The game at one table: its state and its course (see the module)."""

    __slots__ = ("actions_seen", "chance_seen", "dealt", "faulted", "game_seq", "moves",
                 "sent_events", "seq", "started_at", "state", "status")

    def __init__(self) -> None:
        self.state: Any = None  # the engine's state, None before the first game
        self.status = Status.WAITING
        self.seq = 0  # moves on with every accepted action and every new game
        self.sent_events = 0  # the state's events every viewer was sent
        self.chance_seen = 0  # chance outcomes and actions of the last good state
        self.actions_seen = 0
        self.faulted = False  # the engine failed and the state could not be rebuilt
        self.started_at: float | None = None  # when the game started (Unix time)
        # The seq of this game's first state (0: no game yet): the web pages key what
        # they keep of a game (its events, marks, chances) by it.
        self.game_seq = 0
        # For the game's record (records.format's ``kept``): the chance outcomes its
        # deal drew, and each accepted action's seat and the chance outcomes drawn by
        # then, one number an action (_MOVE), 4 bytes (None for a game read back from
        # its journal: its record replays it).
        self.dealt = 0
        self.moves: array | None = None

    @property
    def kept(self) -> tuple[int, list[tuple[int, int]]] | None:
        """What the game's record reads of its course (``records.format``'s ``kept``),
        or None where it must replay the game."""
        if self.moves is None:
            return None
        return self.dealt, [(n % _MOVE, n // _MOVE) for n in self.moves]

    def _step(self, step: Step) -> None:
        nxt = TRANSITIONS.get((self.status, step))
        if nxt is None:
            raise LifecycleError(self.status, step)
        self.status = nxt

    def allows(self, step: Step) -> bool:
        """Whether ``step`` may happen now."""
        return (self.status, step) in TRANSITIONS

    @property
    def playing(self) -> bool:
        return self.status is Status.PLAYING

    @property
    def over(self) -> bool:
        return self.status is Status.FINISHED

    # -- the steps -------------------------------------------------------------------

    def start(self, state: Any, chances: int, started_at: float | None) -> None:
        """A new game (``chances``: the chance outcomes its deal drew): seq moves on,
        nothing is sent of it yet."""
        self._step(Step.START)
        self.seq += 1
        self.game_seq = self.seq
        self.state = state
        self.started_at = started_at
        self.chance_seen = chances
        self.actions_seen = 0
        self.sent_events = 0
        self.faulted = False
        self.dealt = chances
        self.moves = array("I")

    def acted(self, seat: int, chances: int) -> bool:
        """``seat``'s action was applied to :attr:`state` and journaled (``chances``:
        the chance outcomes drawn so far): this is now the last good state. True when
        it ended the game."""
        ended = bool(self.state.is_over)
        self._step(Step.END if ended else Step.ACT)
        self.seq += 1
        self.chance_seen = chances
        self.actions_seen += 1
        if self.moves is not None:
            self.moves.append(chances * _MOVE + seat)
        return ended

    def sent(self, events: int) -> None:
        """Every viewer was sent the state's first ``events`` events."""
        self.sent_events = events

    def put_back(self, state: Any) -> None:
        """The last good state again, rebuilt after an engine fault or a refused write
        (the same seq, the same events sent)."""
        if self.status is not Status.PLAYING:
            raise LifecycleError(self.status, Step.ACT)
        self.state = state

    def fault(self) -> None:
        """The last good state could not be rebuilt: every further action is refused."""
        self._step(Step.FAULT)
        self.faulted = True

    def restore(self, seq: int, state: Any = None, actions: int = 0,
                chances: int = 0, started_at: float | None = None,
                game_seq: int = 0) -> None:
        """What a journal said (:mod:`cartagena_net.host.restore`): its ``seq``, and the
        game replayed into ``state`` (``actions`` accepted, ``chances`` chance outcomes),
        if one had started; every event of it counts as sent."""
        if self.status is not Status.WAITING or self.state is not None:
            raise LifecycleError(self.status, Step.RESTORE)
        self.seq = seq
        if state is None:
            return
        self._step(Step.RESTORE_ENDED if state.is_over else Step.RESTORE)
        self.state = state
        self.started_at = started_at
        self.game_seq = game_seq
        self.chance_seen = chances
        self.actions_seen = actions
        self.sent_events = state.event_count
        self.moves = None

    def skip(self, count: int) -> None:
        """Move seq on past ``count`` positions a player may have seen and the journal
        lost: no action aimed at one of them can be taken for the state now."""
        self.seq += count
