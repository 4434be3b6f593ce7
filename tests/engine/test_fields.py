"""A state's fields are declared once (``state.FIELDS``): its slots, blank state, copy,
equality, undo notes and saves follow from the declaration, a field added to it is
handled everywhere with no other change, and the fast paths that save less by hand
(``_plain_advance``, ``_seat_action``) put back every declared field they change."""
from __future__ import annotations

import copy
import random

import pytest

from cartagena_net.engine import SPECTATOR, State, fields, make_game, view
from cartagena_net.engine.board import Board
from cartagena_net.engine.chance import RandomChance, ReplayChance
from cartagena_net.engine.fields import (
    DICT,
    FIXED,
    LIST,
    LIST_OR_NONE,
    LISTS,
    POSITION,
    SHARED,
    Field,
)
from cartagena_net.engine.state import FIELDS

from .helpers import log_failing_at
from .test_fast_paths import IDS, MIXES, PLAIN

NAMES = [f.name for f in FIELDS]


def states_made_every_way() -> list[State]:
    """A state of each way a state comes to be: new (with and without events), played,
    replayed, rebuilt from a view, and copied (with and without events)."""
    game = make_game("studiogiochi-2017", players=3, magic=True, story="whole")
    played = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        played.apply(rng.choice(played.legal_actions(undo=True)))
    return [
        game.new_state(seed=1), game.new_state(seed=1, events=False), played,
        State.replay(game, played.record()["chance"], played.record()["actions"]),
        State.from_view(game, view(played, played.actor), RandomChance(random.Random(1))),
        played.copy(), played.copy(events=True),
    ]


def test_the_slots_are_the_declared_fields_and_every_state_has_each_of_them():
    assert len(set(NAMES)) == len(NAMES)
    assert State.__slots__ == (*NAMES, "__weakref__")
    for state in states_made_every_way():
        assert [n for n in NAMES if not hasattr(state, n)] == []
    # the views' memos are kept beside states and boards, never on them
    assert not [n for n in (*State.__slots__, *Board.__slots__) if "memo" in n]


def test_a_copy_takes_each_field_as_its_declaration_says():
    for state in states_made_every_way():
        for c in (state.copy(), state.copy(events=True)):
            for f in FIELDS:
                mine, its = getattr(state, f.name), getattr(c, f.name)
                if f.copy == SHARED:
                    assert its is mine, f.name
                elif f.copy in (LIST, LISTS, DICT) or f.copy == LIST_OR_NONE and mine is not None:
                    assert its == mine and its is not mine, f.name
                    if f.copy == LISTS:
                        assert not any(a is b for a, b in zip(its, mine, strict=True)), f.name
            assert c == state
        assert state.copy(events=True).events == state.events
        assert state.copy().events is None


def test_the_hand_written_saves_know_every_declared_log():
    """``State._seat_action`` saves the lengths of these logs by hand (``_cut_logs`` takes
    them in the declared order) and ``State._plain_advance`` those of the history and
    the events (an advance uses no chance): a log added to the declaration is saved
    there too, and then named here."""
    assert [f.name for f in FIELDS if f.part == fields.LOG] == ["history", "chance", "events"]


def test_equality_compares_the_declared_keys_and_the_position_is_the_declared_fields():
    state = states_made_every_way()[2]
    keyed = [f for f in FIELDS if f.key]
    assert len(state._key()) == len(keyed)
    positions = [f.name for f in FIELDS if f.part == POSITION]
    assert [getattr(state, n) for n in positions] == list(state._position())
    assert state._copy_position(state._position()) == state._position()
    for f in keyed:  # each keyed field, changed alone, makes the states differ
        if f.part != POSITION:
            continue
        other = state.copy()
        value = getattr(other, f.name)
        setattr(other, f.name, ["x"] if isinstance(value, list) else
                {"x": 1} if isinstance(value, dict) else object())
        assert other != state, f.name
    for f in FIELDS:  # an unkeyed field changed alone leaves them equal
        if not f.key and f.part == POSITION:
            other = state.copy()
            setattr(other, f.name, [])
            assert other == state, f.name


# -- a field added to the declaration: one line, handled everywhere --------------------

MARKED = (*FIELDS, Field("marks", LIST, POSITION, key=True))


class Marked(State):
    """A state with one more field, made only of the declaration (as ``State`` is)."""

    __slots__ = ("marks",)
    _blank = staticmethod(fields.blank(MARKED))
    copy = fields.copier(MARKED, doc="")
    _key = fields.key(MARKED)
    _position, _set_position = fields.position(MARKED)
    _copy_position = staticmethod(fields.copy_position(MARKED))
    _log_lengths, _cut_logs = fields.logs(MARKED)
    _save, _restore = fields.save(MARKED, ReplayChance)


def test_a_field_added_to_the_declaration_is_made_copied_compared_saved_and_undone():
    game = make_game("studiogiochi-2017", players=2, story="whole")  # sail: undoable
    game.rules.plain_advance = False  # every action through the whole save
    game.rules.seat_kinds = frozenset()
    state = Marked.new(game, ReplayChance([], RandomChance(random.Random(5))))
    assert state.marks == []
    original = Marked.log
    calls = {"fail": False}

    def marking_log(self, event):
        self.marks.append(event.kind)  # every event marks the state
        if calls["fail"]:
            raise RuntimeError("logging failed")
        original(self, event)

    Marked.log = marking_log
    try:
        rng = random.Random(5)
        undone = 0
        while not state.is_over:
            legal = state.legal_actions(undo=True)
            action = rng.choice(legal)
            before = state.copy(events=True)
            assert before.marks == state.marks and before.marks is not state.marks
            assert before == state
            before.marks.append("other")
            assert before != state  # compared
            before.marks.pop()
            if rng.random() < 0.2:  # a fault: the marks too are put back
                calls["fail"] = True
                with pytest.raises(RuntimeError):
                    state.apply(action)
                calls["fail"] = False
                assert state.marks == before.marks and state == before
            marks = list(state.marks)
            state.apply(action)
            if action.kind == "undo":  # the undo puts back the marks of what it undid
                undone += 1
                assert state.marks[-1] == "undo" and len(state.marks) <= len(marks)
        assert undone > 3
    finally:
        Marked.log = original


# -- the fast paths against the declaration ---------------------------------------------

def snapshot(state: State) -> dict:
    """Every declared field's value, copied as a copy takes it (its items are never
    changed in place), the chance source by the outcomes it will give, the game, board
    and tables by identity."""
    out = {}
    for f in FIELDS:
        value = getattr(state, f.name)
        if f.part == FIXED and f.copy == SHARED:
            out[f.name] = id(value)
        elif f.name == "_chance":
            out[f.name] = value.rng.getstate()
        elif isinstance(value, list) and f.copy == LISTS:
            out[f.name] = [list(x) for x in value]
        elif isinstance(value, (list, dict)):
            out[f.name] = copy.copy(value)
        else:
            out[f.name] = value
    return out


@pytest.mark.parametrize(("preset", "options"), [m for _, m in PLAIN],
                         ids=[i for i, _ in PLAIN])
def test_the_fast_paths_put_back_every_declared_field_and_agree_on_every_one(
        preset, options, monkeypatch):
    """With a fault at each event an action logs, every declared field (not only what
    equality compares) is as it was; without one, every declared field is as the whole
    save's path leaves it. A field added to the declaration is checked here at once."""
    original = State.log
    checked = {"plain": 0, "seat": 0}
    for seed in range(3):
        game = make_game(preset, players=2 + seed % 3, **options)
        other = make_game(preset, players=2 + seed % 3, **options)
        other.rules.plain_advance = False
        other.rules.seat_kinds = frozenset()
        fast, whole = game.new_state(seed=seed), other.new_state(seed=seed)
        rng = random.Random(seed)
        while not fast.is_over:
            action = rng.choice(fast.legal_actions(undo=True))
            path = ("plain" if action.kind == "advance" else
                    "seat" if action.kind in game.rules.seat_kinds else None)
            if path is not None and rng.random() < 0.5:
                before = snapshot(fast)
                monkeypatch.setattr(State, "log",
                                    log_failing_at(original, rng.randrange(1, 4)))
                try:
                    fast.apply(action)  # (fewer events than the fault waits for: it goes through)
                except RuntimeError:
                    after = snapshot(fast)
                    after["_chance"] = before["_chance"]  # (a failed reshuffle still rolled)
                    fast._chance.rng.setstate(before["_chance"])
                    assert {n for n in NAMES if after[n] != before[n]} == set(), action
                    checked[path] += 1
                    monkeypatch.setattr(State, "log", original)
                    fast.apply(action)  # and then it goes through
                finally:
                    monkeypatch.setattr(State, "log", original)
            else:
                fast.apply(action)
            whole.apply(action)
            a, b = snapshot(fast), snapshot(whole)
            for s in (a, b):  # a plain advance's undo entry is the advance alone: its note
                s["undo_stack"] = [note for _, note in s["undo_stack"]]
            # two games: equal boards, not the same; one object for their action tables,
            # shared by the games on boards of the same kinds of cards and length
            assert {n for n in NAMES if a[n] != b[n]} == {"game", "board"}, action
            assert a["tables"] == b["tables"] == id(game.action_tables(whole.board.length))
    assert checked["plain"] > 10 and (checked["seat"] > 2 or not game.rules.seat_kinds)


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_every_event_logged_is_a_named_event_the_views_read(preset, options):
    from cartagena_net.engine.events import KINDS

    classes = {c for cs in KINDS.values() for c in cs}
    game = make_game(preset, players=3, **options)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions(undo=True)))
    assert state.events and {type(e) for e in state.events} <= classes
    assert all(e.kind == e[0] and type(e) in KINDS[e.kind] for e in state.events)
    assert view(state, SPECTATOR, since=0)["events"]
