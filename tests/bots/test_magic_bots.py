"""Bots with Black Magic Woman: every power and decision chosen legally; greedy uses the
powers when they help."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cartagena_net.bots.kinds import GreedyBot
from cartagena_net.engine import make_game, view

from .test_bots import play

POWERS = {"gun", "rum", "lantern", "parrot", "hook", "chest"}


def used(chosen: list[str]) -> Counter:
    return Counter(a.split()[1].removesuffix("*") if a.startswith("power") else
                   a.split()[0] for a in chosen)


@pytest.mark.parametrize("options", [
    {"magic": True, "segments": 4},
    {"magic": True, "story": "whole", "filibusters": True, "morgan": "also"},
], ids=["magic", "whole"])
def test_random_and_greedy_play_every_power_legally_to_the_end(options):
    seen: Counter = Counter()
    for seed in range(6):
        kinds = ["random", "greedy", "random"] if seed % 2 else ["greedy", "random", "greedy"]
        state, chosen = play("studiogiochi-2017", kinds, seed, **options)
        assert state.is_over
        seen += used(chosen)
    assert POWERS <= set(seen)
    assert {"take", "give", "keep", "stack"} <= set(seen)


def greedy_in(state) -> str:
    legal = [str(a) for a in state.legal_actions()]
    return GreedyBot(random.Random(0)).choose(view(state, state.actor), legal)


def position(placed, hands, **options):
    game = make_game("studiogiochi-2017", board="GRLPHC" * 3, colors="red,blue",
                     players=2, pirates=len(placed[0]), magic=True, **options)
    state = game.new_state(seed=0)
    state.setup(placed, hands=hands)
    return state


def test_greedy_plays_two_parrots_as_the_card_that_wins():
    # 1..18: G R L P H C x3, the sloop 19. No gun or rum lies ahead of 14: two parrots
    # played as either take the last pirate aboard.
    s = position([[14, 19], [13, 13]], [["parrot", "parrot"], []])
    assert greedy_in(s) in ("power parrot parrot 14 gun", "power parrot parrot 14 rum")


def test_greedy_hooks_a_pair_forward():
    s = position([[0, 0], [13, 13]], [["hook", "chest"], []])
    assert greedy_in(s) == "power hook chest 0"


def test_greedy_takes_the_best_card_with_the_gun():
    s = position([[0, 0], [13, 13]], [["gun"], ["chest", "gun"]])
    s.apply("power gun 1")
    assert greedy_in(s) == "take chest"
