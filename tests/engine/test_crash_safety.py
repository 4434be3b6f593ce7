"""The engine under crashes and restores: replays play on, apply is atomic, copies are
independent, Tortuga's row is refilled in full, and only ASCII digits are numbers."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cartagena_net.engine import (
    PRESETS,
    InvalidActionError,
    RandomChance,
    State,
    make_game,
    parse_action,
    view,
)

from .helpers import cards_total


def _snapshot(state: State) -> tuple:
    """Everything observable about a state, events and records included."""
    return copy.deepcopy((state._key(), state.record(), state.event_count,
                          [view(state, s, since=0) for s in range(state.game.players)]))


def _play_until(state: State, rng: random.Random, stop) -> None:
    while not state.is_over and not stop(state):
        state.apply(rng.choice(state.legal_actions()))


def _play_to_end(state: State, rng: random.Random, limit: int = 20000) -> int:
    """Play random legal actions to the end; the number of shuffles it took."""
    shuffles = len(state.chance)
    for _ in range(limit):
        if state.is_over:
            return len(state.chance) - shuffles
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the game did not end")


# -- 1. a replayed game goes on past its recorded chance outcomes ---------------------
@pytest.mark.parametrize("seed", range(6))
def test_a_game_restored_with_a_short_stock_plays_past_its_next_reshuffle_to_the_end(seed):
    # The reported crash: a 2-player game journaled while the stock holds 2 cards or fewer,
    # restored, then a draw needs the discard pile reshuffled.
    game = make_game("jamaica", players=2)
    rng = random.Random(seed)
    live = game.new_state(seed=seed)
    _play_until(live, rng, lambda s: len(s.stock) <= 2 and s.discard and s.turn == s.actor)
    assert not live.is_over and len(live.stock) <= 2
    rec = live.record()
    restored = State.replay(make_game(**rec["spec"]), rec["chance"], rec["actions"])
    assert restored == live
    assert _play_to_end(restored, random.Random(seed + 100)) >= 1
    assert restored.is_over
    assert cards_total(restored) == len(game.deck)
    # The new outcomes are recorded too: the played-on game replays exactly once more.
    rec2 = restored.record()
    assert len(rec2["chance"]) > len(rec["chance"])
    again = State.replay(game, rec2["chance"], rec2["actions"])
    assert again == restored


def test_replay_fallback_chance_is_the_given_one_and_reproducible():
    game = make_game("tortuga", players=2, segments=1, pirates=2)
    live = game.new_state(seed=3)
    _play_until(live, random.Random(3), lambda s: len(s.history) >= 30)
    rec = live.record()
    a = State.replay(game, rec["chance"], rec["actions"], fallback=RandomChance(random.Random(9)))
    b = State.replay(game, rec["chance"], rec["actions"], fallback=RandomChance(random.Random(9)))
    for rng in (random.Random(1),):
        while not a.is_over:
            act = rng.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
            assert a == b
    assert a.is_over


@pytest.mark.parametrize("seed", range(4))
def test_a_tortuga_game_restored_lays_out_new_rows_to_the_end(seed):
    # Restored while the stock cannot fill the next row: the next row needs a reshuffle
    # that the journal never recorded.
    game = make_game("tortuga", players=2)
    rng = random.Random(seed)
    live = game.new_state(seed=seed)
    _play_until(live, rng, lambda s: len(s.stock) < game.row_size and len(s.row) <= 2)
    assert not live.is_over
    rec = live.record()
    restored = State.replay(game, rec["chance"], rec["actions"])
    assert restored == live
    rows_before = sum(1 for e in restored.events if e.kind == "row")
    assert _play_to_end(restored, rng) >= 1
    assert restored.is_over
    assert sum(1 for e in restored.events if e.kind == "row") > rows_before


# -- 2. apply is atomic, whatever it raises ----------------------------------------
class Boom(RuntimeError):
    pass


class FailingChance:
    """A chance source that fails on its next shuffle."""

    def shuffle(self, items):
        raise Boom("the chance source failed")

    def fork(self):
        return self


@pytest.mark.parametrize("preset", ["jamaica", "tortuga"])
def test_an_unexpected_fault_mid_action_leaves_the_state_exactly_as_before(preset):
    # Four segments: a game of a few hundred actions that still reshuffles (every seed
    # tried did); each action snapshots every seat's whole event log, so the full board's
    # 600 actions cost far more and check nothing more.
    game = make_game(preset, players=2, segments=4)
    rng = random.Random(11)
    state = game.new_state(seed=11)
    faults = 0
    while not state.is_over:
        saved_chance = state._chance
        state._chance = FailingChance()
        before = _snapshot(state)
        act = rng.choice(state.legal_actions())
        try:
            state.apply(act)
        except Boom:
            faults += 1
            assert _snapshot(state) == before, f"{act} was half-applied"
            state._chance = saved_chance
            state.apply(act)  # the same action succeeds once the fault is gone
        else:
            state._chance = saved_chance
    assert faults >= 1, "no action needed a shuffle: the test proved nothing"
    assert cards_total(state) == len(game.deck)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), fail_at=st.integers(0, 60), nth=st.integers(1, 3),
       story=st.sampled_from(["escape", "whole"]))
def test_a_fault_at_any_event_of_any_action_changes_nothing(seed, fail_at, nth, story):
    game = make_game("studiogiochi-2017", players=3, segments=4, pirates=2,
                     morgan="also", filibusters=True, hand_limit=3, story=story)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(fail_at):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    calls = {"n": 0}
    original = State.log

    def failing_log(self, event):
        calls["n"] += 1
        original(self, event)
        if calls["n"] >= nth:
            raise Boom("logging failed")

    before = _snapshot(state)
    act = rng.choice(state.legal_actions())
    State.log = failing_log
    try:
        state.apply(act)
    except Boom:
        assert _snapshot(state) == before, f"{act} was half-applied"
    else:
        assert calls["n"] < nth  # the action logged fewer events than the fault needed
        State.log = original
        return
    finally:
        State.log = original
    state.apply(act)
    _play_to_end(state, rng)
    assert state.is_over


# -- 3. copies are independent, chance included -------------------------------------
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_playing_on_a_copy_never_changes_the_originals_future(preset):
    game = make_game(preset, players=2)
    a = game.new_state(seed=21)
    b = game.new_state(seed=21)
    rng = random.Random(21)
    for _ in range(10):
        act = rng.choice(a.legal_actions())
        a.apply(act)
        b.apply(act)
    side = a.copy()
    assert side == a
    assert _play_to_end(side, random.Random(99)) >= 1  # the copy reshuffles
    assert a == b
    while not a.is_over:
        act = rng.choice(a.legal_actions())
        a.apply(act)
        b.apply(act)
        assert a == b
    assert b.is_over


def test_a_copy_has_the_same_future_as_its_original():
    game = make_game("jamaica", players=2, segments=1, pirates=2)
    a = game.new_state(seed=4)
    c = a.copy()
    rng1, rng2 = random.Random(8), random.Random(8)
    while not a.is_over:
        a.apply(rng1.choice(a.legal_actions()))
        c.apply(rng2.choice(c.legal_actions()))
        assert a == c


def test_a_copy_of_a_replayed_state_does_not_advance_the_replay():
    game = make_game("jamaica", players=2, segments=1, pirates=2)
    live = game.new_state(seed=6)
    rng = random.Random(6)
    _play_to_end(live, rng)
    rec = live.record()
    half = len(rec["actions"]) // 2
    restored = State.replay(game, rec["chance"], rec["actions"][:half])
    side = restored.copy()
    _play_to_end(side, random.Random(1))
    for text in rec["actions"][half:]:
        restored.apply(text)
    assert restored == live


# -- 4. Tortuga's new row ----------------------------------------------------------
def test_a_new_row_takes_the_discard_pile_when_the_stock_cannot_fill_it():
    # The reported case: the row runs out with 5 cards in the stock and 6 discarded.
    game = make_game("tortuga", players=2, board="SDKBPH" * 6, pirates=2)
    state = game.new_state(seed=2)
    state.setup([[0, 2], [0, 1]], turn=0)
    pool = state.stock + state.row + [k for h in state.hands for k in range(game.kinds)
                                      for _ in range(h[k])]
    total = len(pool)
    state.hands = [[0] * game.kinds for _ in range(2)]
    last = pool.pop()
    state.row = [last]
    state.stock = pool[:5]
    state.discard = pool[5:11]
    top_of_stock = list(reversed(state.stock))
    rest = pool[11:]
    state.hands[1] = [rest.count(k) for k in range(game.kinds)]
    assert cards_total(state) == total
    state.apply("retreat 2")  # lands on space 1 (1 pirate): draws the row's last card
    assert len(state.row) == 11
    assert state.stock == [] and state.discard == []
    assert state.row[:5] == top_of_stock  # the stock's own cards are dealt first
    assert cards_total(state) == total


# -- 5. only ASCII digits are numbers ----------------------------------------------
@pytest.mark.parametrize("text", [
    "advance ² key", "retreat ①", "morgan ⁵ 1", "retreat ٣", "advance ３ skull",
    "retreat +3", "retreat -1", "retreat 3.0", "retreat 0x3", "morgan 1 ²",
    "retreat 1_0", "retreat  ", "advance 1 skull\x00",
])
def test_non_ascii_digits_and_signs_are_invalid_notation(text):
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize("text", ["advance ² key", "retreat ①", "morgan ⁵ 1"])
def test_unicode_digits_sent_on_your_turn_change_nothing(text):
    game = make_game("studiogiochi-2017", players=2, morgan="also")
    state = game.new_state(seed=1)
    before = _snapshot(state)
    with pytest.raises(InvalidActionError):
        state.apply(text, seat=0)
    assert _snapshot(state) == before


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60) | st.lists(
    st.sampled_from(["advance", "retreat", "morgan", "draw", "end", "discard", "skull",
                     "key*", "0", "12", "²", "①", "٣", " ", "\t", "\n", "ADVANCE", "*"]),
    max_size=6).map(" ".join))
def test_parse_action_raises_only_invalid_action_error(text):
    try:
        action = parse_action(text)
    except InvalidActionError:
        return
    assert parse_action(str(action)) == action
    for word in str(action).split():
        assert word.isascii()


@pytest.mark.parametrize("options", [
    {"players": "٣"}, {"players": "３"}, {"players": "+3"}, {"players": " 3"},
    {"segments": "3_0"}, {"pirates": "²"}, {"board": 1}, {"board": True},
    {"hands_public": 1}, {"morgan": 3}, {"colors": 5}, {"colors": [1, 2]},
])
def test_options_from_the_wire_or_the_command_line_are_refused_cleanly(options):
    with pytest.raises(ValueError):
        make_game("studiogiochi-2017", **options)
