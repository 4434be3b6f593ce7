"""A ``Game`` holds no reference cycle: played and dropped, it goes at once.

A game's rules (``Game.rules``) keep its variants, and the variants reach the game; were
that a strong reference, every game (with the action tables it grew while played:
thousands of tuples and ``Action`` objects) would wait for the garbage collector's
oldest generation, a few tables' worth at a time on a host that plays game after game
(docs/architecture.md, "Nothing left for the collector").
"""
from __future__ import annotations

import gc
import random
import weakref

import pytest

from cartagena_net.engine import SPECTATOR, legal_actions, make_game, view

MIXES = [
    ("jamaica", {}),
    ("jamaica", {"morgan": "also", "players": 2}),
    ("tortuga", {}),
    ("ravensburger-advanced", {"players": 3}),
    ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"filibusters": True, "morgan": "instead"}),
    ("web-2008", {}),
]


def _play(rules: str, options: dict, seed: int) -> weakref.ref:
    game = make_game(rules, **options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    moves = 0
    while state.outcome is None and moves < 400:
        state.apply(rng.choice(legal_actions(state)))
        moves += 1
        if moves % 9 == 0:  # the views' memos live beside the state and board
            view(state, 0, since=0)
            view(state, SPECTATOR)
    assert moves > 20
    return weakref.ref(game)


@pytest.mark.parametrize(("rules", "options"), MIXES)
def test_a_played_game_goes_with_its_last_state_and_leaves_nothing_to_collect(rules, options):
    gc.collect()
    gc.disable()
    try:
        ref = _play(rules, options, seed=7)
        assert ref() is None  # freed by reference counting alone
        assert gc.collect() == 0  # and nothing of it was left in a cycle
    finally:
        gc.enable()


def test_the_variants_still_read_their_game_while_it_lives():
    game = make_game("studiogiochi-2017", magic=True, filibusters=True, morgan="also")
    for variant in game.rules.variants:
        assert variant.game.players == game.players
        assert variant.game.rules is game.rules
