"""Taking back the last action of a turn (docs/rules.md, D23)."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import (
    IllegalActionError,
    State,
    legal_actions,
    make_game,
    view,
)

from .helpers import position, two


def test_undo_puts_the_state_back_exactly_and_logs_it():
    s = two([[0, 0], [0, 0]], [["skull", "key", "key"], ["hat"]])
    before = s.copy(events=True)
    assert not s.can_undo() and "undo" not in map(str, s.legal_actions(undo=True))
    seen = s.event_count
    s.apply("advance 0 key")
    assert s.can_undo()
    assert "undo" not in map(str, s.legal_actions())  # bots never see it
    assert str(s.legal_actions(undo=True)[-1]) == "undo"
    assert "undo" in map(str, legal_actions(s, undo=True))
    s.apply("undo")
    assert s == before and s.taken == 0 and s.hands == before.hands
    events = view(s, 1, since=seen)["events"]
    assert events[-1]["type"] == "undo" and events[-1]["text"] == "red takes back: start → 3 (key)"
    assert events[-1]["from"] == 0 and events[-1]["to"] == 3 and events[-1]["card"] == "key"
    assert [str(a) for a in s.history] == ["advance 0 key", "undo"]


def test_undo_then_a_different_action_and_the_replay_reproduces_both():
    s = make_game("jamaica", players=3).new_state(seed=4)
    rng = random.Random(4)
    undone = 0
    while not s.is_over and len(s.history) < 400:
        if s.can_undo() and rng.random() < 0.5:
            before_last = s.history[-1]
            s.apply("undo")
            undone += 1
            options = [a for a in s.legal_actions() if a != before_last] or s.legal_actions()
            s.apply(rng.choice(options))
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert undone > 10
    rec = s.record()
    again = State.replay(make_game(**rec["spec"]), rec["chance"], rec["actions"])
    assert again == s and again.events == s.events


def test_two_advances_are_taken_back_one_at_a_time():
    s = two([[0, 0], [0, 0]], [["skull", "key", "key"], ["hat"]])
    start = s.copy()
    s.apply("advance 0 key")
    middle = s.copy()
    s.apply("advance 0 skull")
    s.apply("undo")
    assert s == middle and s.can_undo()
    s.apply("undo")
    assert s == start and not s.can_undo()
    with pytest.raises(IllegalActionError) as err:
        s.apply("undo")
    assert err.value.rule == "undo-not-allowed" and s == start


@pytest.mark.parametrize("case", ["retreat", "turn-end", "last-action", "win", "debt", "draw"])
def test_undo_is_refused_after_anything_that_revealed_or_ended_something(case):
    if case == "retreat":  # a retreat draws cards
        s = two([[0, 5], [0, 3]], [["skull"], ["hat"]])
        s.apply("advance 0 skull")
        s.apply("retreat 5")
    elif case == "turn-end":
        s = two([[0, 0], [0, 0]], [["skull"], ["hat"]])
        s.apply("advance 0 skull")
        s.apply("end")
    elif case == "last-action":  # the turn passed by itself (D4)
        s = two([[0, 0, 0], [0, 0, 0]], [["skull", "key", "bottle"], ["hat"]])
        for c in ("skull", "key", "bottle"):
            s.apply(f"advance 0 {c}")
    elif case == "win":
        s = two([[13, 12], [0, 0]], [["skull"], ["hat"]])
        s.apply("advance 12 skull")
        assert s.is_over
    elif case == "debt":  # a dark card made someone owe a discard (Filibusters)
        s = position("studiogiochi-2017", "GRLPHC" * 2, "red,blue", [[0], [0]],
                     [["gun*"], ["rum"] * 9], 0, filibusters=True)
        s.apply("advance 0 gun*")
        assert s.pending
    else:  # a whole-turn draw takes a hidden card
        s = two([[0, 0], [0, 0]], [[], ["rum"]], preset="studiogiochi-2017",
                board="GRLPHC" * 2)
        s.apply("draw")
    before = s.copy()
    assert not s.can_undo()
    assert "undo" not in map(str, s.legal_actions(undo=True))
    with pytest.raises(IllegalActionError) as err:
        s.apply("undo")
    assert err.value.rule in ("undo-not-allowed", "game-over")
    assert s == before


def test_a_dark_card_that_left_nobody_owing_may_be_taken_back():
    s = position("studiogiochi-2017", "GRLPHC" * 2, "red,blue", [[0], [0]],
                 [["gun*", "rum"], ["rum"] * 3], 0, filibusters=True)
    before = s.copy()
    s.apply("advance 0 gun*")
    assert s.can_undo()
    s.apply("undo")
    assert s == before


def test_undo_by_another_seat_is_refused():
    s = two([[0, 0], [0, 0]], [["skull"], ["hat"]])
    s.apply("advance 0 skull")
    with pytest.raises(IllegalActionError) as err:
        s.apply("undo", seat=1)
    assert err.value.rule == "not-your-turn" and s.can_undo()


def test_undo_on_a_copy_leaves_the_original_alone():
    s = two([[0, 0], [0, 0]], [["skull", "key"], ["hat"]])
    s.apply("advance 0 skull")
    c = s.copy()
    c.apply("undo")
    c.apply("advance 0 key")
    assert s.pirates[0] == [0, 1] and s.can_undo()
    s.apply("undo")
    assert s.pirates[0] == [0, 0] and c.pirates[0] == [0, 3]
