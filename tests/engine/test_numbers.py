"""Pirate numbers (``engine/numbers.py``, the view's ``numbered``): a pirate keeps its
number all game, and every way of coming to a game agrees on it: the host that played
it (forgetting old events as it goes), a host restored from its journal (a replay of
the actions), a record's replay, a state rebuilt from a view.

Before, the numbers were a client's own guess from the events it saw: after a restore
or a reconnect, ``4,5,6@start 1@2 3@6 2@10`` became ``1,2,3@start 4@2 5@6 6@10``."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import SPECTATOR, State, make_game, numbers, view
from cartagena_net.engine.chance import RandomChance
from cartagena_net.engine.numbers import numbered

MIXES = [("jamaica", {}), ("tortuga", {}), ("studiogiochi-2017", {"magic": True}),
         ("studiogiochi-2017", {"story": "whole", "magic": True, "morgan": "also",
                                "filibusters": True})]


def played(preset: str, options: dict, seed: int, players: int = 3) -> State:
    state = make_game(preset, players=players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions(undo=True)))  # undos included
    return state


@pytest.mark.parametrize("preset,options", MIXES)
def test_every_way_back_to_a_game_numbers_its_pirates_alike(preset, options):
    for seed in range(6):
        state = played(preset, options, seed)
        rec = state.record()
        game = state.game
        # the host: forgets all but the last few events after every action
        host = State.replay(game, rec["chance"], [])
        rng = random.Random(seed)
        history = []
        for action in rec["actions"]:
            host.apply(action)
            host.forget_events(host.event_count - rng.randint(0, 20))
            history.append(numbered(host))
            for seat, mine in enumerate(host.pirates):
                assert sorted(history[-1][seat]) == mine
        # a restore from the journal, and a record's replay, at every point of the game
        for n in (len(rec["actions"]) // 3, len(rec["actions"]) // 2, len(rec["actions"])):
            back = State.replay(game, rec["chance"], rec["actions"][:n])
            assert numbered(back) == history[n - 1], (seed, n)
            assert view(back, SPECTATOR)["seats"][0]["numbered"] == history[n - 1][0]
            for seat in range(game.players):  # every viewer, the same numbers
                assert [s["numbered"] for s in view(back, seat)["seats"]] == history[n - 1]
        # a state rebuilt from a seat's view keeps the view's numbers
        mine = view(back, 0)
        assert numbered(State.from_view(game, mine, RandomChance(random.Random(1)))) == history[-1]


def test_a_pirate_keeps_its_number_as_it_moves_and_the_others_keep_theirs():
    """The lowest-numbered pirate at a place moves; the others stay where they are,
    numbered as before; an undo moves back the very pirate that advanced."""
    game = make_game("jamaica", players=2)
    state = game.new_state(seed=3)
    assert numbered(state) == [[0] * 6, [0] * 6]
    first = next(a for a in state.legal_actions() if str(a).startswith("advance 0 "))
    state.apply(first)
    to = state.pirates[0][-1]
    assert numbered(state)[0] == [to, 0, 0, 0, 0, 0]
    second = next(a for a in state.legal_actions() if str(a).startswith("advance 0 "))
    state.apply(second)
    nums = numbered(state)[0]
    assert nums[0] == to and nums[1] != 0 and nums[2:] == [0, 0, 0, 0]
    state.apply("undo")
    assert numbered(state)[0] == [to, 0, 0, 0, 0, 0]
    # a pirate further back advancing past others keeps its own number
    third = next(a for a in state.legal_actions() if str(a).startswith(f"advance {to} "))
    state.apply(third)
    assert numbered(state)[0][0] != to and numbered(state)[0][1:] == [0, 0, 0, 0, 0]


def test_a_search_copy_keeps_no_numbers_and_costs_nothing():
    state = played("jamaica", {}, 1)
    assert numbered(state.copy()) is None  # a search's copy: no events, no numbers
    assert "numbered" not in view(state.copy(), SPECTATOR)["seats"][0]
    assert numbered(state.copy(events=True)) == numbered(state)


@pytest.mark.parametrize("preset,options", MIXES)
def test_the_numbers_folded_on_from_the_last_answer_are_the_numbers_folded_afresh(
        preset, options):
    """A state folds its numbers on from the last ones it gave (kept beside it): with
    refused actions (whose events are cut back), undos and forgotten events between two
    answers, they are the numbers a state folding from its start would give."""
    from cartagena_net.engine.errors import ActionError

    for seed in range(4):
        state = make_game(preset, players=3, **options).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if rng.random() < 0.3:  # a refused action cuts back what it logged
                try:
                    state.apply(rng.choice(["retreat 99", "end", "undo", "draw"]))
                except ActionError:
                    pass
            else:
                state.apply(rng.choice(state.legal_actions(undo=True)))
            if rng.random() < 0.5:
                state.forget_events(state.event_count - rng.randint(0, 12))
            if rng.random() < 0.7:
                got = numbered(state)
                numbers._GIVEN.put(state, [None, None, None])  # nothing given before
                assert got == numbered(state), (seed, state.event_count)
