"""Pirate numbers: each seat's pirates are numbered 1..N at the start, and a pirate keeps
its number all game, for every viewer, across reconnects, restores, replays and reviews.

The rules cannot tell two pirates of one seat on one space apart, so the engine keeps
them as sorted positions. The numbers are a function of the game's events alone:

- at the start (or a set-up position) the numbers go to the positions in order;
- a pirate that moves from a place is the lowest-numbered of its seat's pirates there
  (an advance, a retreat, another seat's Morgan move, a chest's snake, a parrot, each
  of a hook's two pirates);
- an ``undo`` moves back exactly the pirate the taken-back advance moved.

So a host that restarts from its journal, a record replayed, and a host that has sent
the same events all agree, and the view carries the result (``numbered``: each seat's
pirates' positions by number, pirate 1 first). Pure and cheap: a state keeps the
numbers as of its oldest kept event (``State.numbering``), and the numbers given last
are kept beside it (``memos.py``), so that each answer folds only the events logged
since the last one. A fold gives a new tuple to the seat whose pirate moved only, so
the views tell an unchanged seat by identity and keep its face (``view._seat``).
"""
from __future__ import annotations

from typing import Any

from .memos import Beside

#: (the event number it is as of, positions by number for each seat, the advances of
#: this turn that an undo may take back: (seat, number index) last last)
Numbering = tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]


def start(pirates: list[list[int]], at: int) -> Numbering:
    """The numbers of a position: in order of place, as of event number ``at``."""
    return at, tuple(tuple(sorted(p)) for p in pirates), ()


def _move(nums: list[tuple[int, ...]], seat: int, frm: int, to: int) -> int | None:
    """Move ``seat``'s lowest-numbered pirate at ``frm`` to ``to``; its index (None if
    none is there). Only the moved seat gets a new tuple: the others' stay the same
    objects, so that a caller may tell an unchanged seat by identity (the views do)."""
    mine = nums[seat]
    if frm not in mine:
        return None
    i = mine.index(frm)
    nums[seat] = (*mine[:i], to, *mine[i + 1:])
    return i


def fold(numbering: Numbering, events: Any, upto: int) -> Numbering:
    """The numbering after the events numbered from ``numbering[0]`` up to ``upto``
    (``events[j]`` is event number ``numbering[0] + j``)."""
    at, base, last = numbering
    if upto <= at:
        return numbering
    nums = list(base)
    stack = list(last)
    for j in range(upto - at):
        e = events[j]
        kind = e.kind
        if kind == "advance" or kind == "retreat" or kind == "parrot":
            i = _move(nums, e.seat, e.frm, e.to)
            if kind == "advance" and i is not None:
                stack.append((e.seat, i))
        elif kind == "morgan":
            _move(nums, e.owner, e.frm, e.to)
        elif kind == "hook":  # two pirates
            _move(nums, e.seat, e.frm, e.to)
            _move(nums, e.seat, e.frm, e.to)
        elif kind == "chest":
            if e.to != e.pos:  # the snake
                _move(nums, e.seat, e.pos, e.to)
        elif kind == "undo" and e.action == "advance":
            seat, frm, to = e.seat, e.frm, e.to
            if stack and stack[-1][0] == seat and nums[seat][stack[-1][1]] == to:
                i = stack.pop()[1]
                mine = nums[seat]
                nums[seat] = (*mine[:i], frm, *mine[i + 1:])
            else:
                _move(nums, seat, to, frm)
        elif kind == "turn":
            stack = []
    return upto, tuple(nums), tuple(stack)


#: Beside each state, the numbers it gave last: [the state's numbering they were folded
#: from, the numbering they are, the last event they counted (None: none since it)].
_GIVEN = Beside()


def _given(memo: list | None, state: Any, base: int, count: int) -> Numbering | None:
    """The numbers the state gave last (``memo``: kept beside it), if they still hold:
    folded from its numbering as it is now, and none of the events they counted cut back
    since (a refused action's: the last one they counted is still the same event)."""
    if memo is None:
        return None
    origin, done, last = memo
    if origin is not state.numbering or not base <= done[0] <= count:
        return None
    if done is not origin and state.events[done[0] - 1 - base] is not last:
        return None
    return done


def counted(state: Any, upto: int) -> Numbering:
    """The state's numbering as of event ``upto`` or later, for ``State.forget_events``
    before it drops the events below ``upto``: the numbers given last where they count
    that far, else its numbering folded on."""
    base = state.events_base
    memo = _GIVEN.get(state)
    start = _given(memo, state, base, base + len(state.events)) or state.numbering
    done = start if start[0] >= upto else fold(start, state.events[start[0] - base:], upto)
    if memo is not None:  # the numbers given last become the state's
        memo[:] = done, done, None
    return done


def numbered(state: Any) -> list[list[int]] | None:
    """Each seat's pirates' positions by number (pirate 1 first), or None where the
    state keeps no events (a search's copy) and was not rebuilt from a numbered view."""
    nums = folded(state)
    if nums is None:
        return None
    return [seat_numbers(nums[seat], mine) for seat, mine in enumerate(state.pirates)]


def folded(state: Any) -> tuple[tuple[int, ...], ...] | None:
    """:func:`numbered` as tuples, before they are checked against the pirates' places
    (:func:`seat_numbers`): a seat's tuple is the same object from one call to the next
    while none of its pirates moved."""
    numbering = state.numbering
    if numbering is None:
        return None
    events = state.events
    if events is None:  # a state rebuilt from a view: the view's numbers
        return numbering[1]
    base = state.events_base
    count = base + len(events)
    # Fold on from the last answer where it still holds, so a host's broadcasts fold
    # each event once rather than every kept event each time.
    memo = _GIVEN.get(state)
    start = _given(memo, state, base, count) or numbering
    at = start[0]
    if at == count:  # nothing logged since: the same answer
        return start[1]
    if at < base:  # events forgotten without being counted: never (forget_events)
        return None
    done = fold(start, events[at - base:], count)
    if memo is None:
        memo = _GIVEN.put(state, [None, None, None])
    memo[:] = numbering, done, None if done is numbering else events[-1]
    return done[1]


def seat_numbers(numbers: tuple[int, ...], places: list[int]) -> list[int]:
    """A seat's numbers (from :func:`folded`) as the view gives them, checked against
    where its pirates are (``places``, sorted)."""
    got = list(numbers)
    if sorted(got) != places:  # never, if every move is an event: keep what matches
        got = reconcile(got, places)
    return got


def reconcile(numbered: list[int], places: list[int]) -> list[int]:
    """Numbers out of step with where a seat's pirates are: every number whose place is
    still one of ``places`` keeps it, the others take the remaining places in order."""
    left = list(places)
    kept: list[int | None] = []
    for p in numbered:
        if p in left:
            left.remove(p)
            kept.append(p)
        else:
            kept.append(None)
    rest = iter(left)
    return [p if p is not None else next(rest) for p in kept]
