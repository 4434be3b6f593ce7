"""The leak test in the OpenSpiel style over random Black Magic Woman games: for every
viewer, at every step, re-deal everything that viewer cannot know (other hands, the
stock below the part it knows, cards drawn for another seat's power, the closed chest
tiles); its view must not change. ``tests/benchmarks/bench_magic_leak.py`` runs the
same check over 1,000 games."""
from __future__ import annotations

import random

from cartagena_net.engine import SPECTATOR, State, make_game, view

from .test_properties import hidden_swapped

GAMES = (
    {"players": 3, "magic": True, "segments": 4},
    {"players": 2, "magic": True, "segments": 8, "filibusters": True},
    {"players": 4, "magic": True, "story": "whole", "filibusters": True, "morgan": "also"},
)


def leak_checked_game(game, seed: int, every: int = 1) -> tuple[State, int]:
    """Play one random game, checking every viewer's view every ``every`` actions
    (and at every step of a power); return the final state and the checks made."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    checks = 0
    step = 0
    while not state.is_over:
        if step % every == 0 or state.extra["power"] is not None:
            for me in [*range(game.players), SPECTATOR]:
                seat = me if me != SPECTATOR else -1
                mine = view(state, me)
                for _ in range(2):
                    theirs = view(hidden_swapped(state, seat, rng), me)
                    assert mine == theirs, (seed, step, me)
                checks += 1
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    return state, checks


def test_no_view_changes_when_what_its_viewer_cannot_know_is_dealt_differently():
    powers = set()
    for i, options in enumerate(GAMES):
        game = make_game("studiogiochi-2017", **options)
        for seed in range(4):
            state, checks = leak_checked_game(game, 100 * i + seed, every=5)
            assert checks
            powers |= {a.split()[1].removesuffix("*") for a in map(str, state.history)
                       if a.startswith("power")}
    assert powers == {"gun", "rum", "lantern", "parrot", "hook", "chest"}


def test_the_swap_really_changes_hidden_things():
    """The re-deal is not a no-op: the check above could fail."""
    game = make_game("studiogiochi-2017", magic=True, players=3)
    state = game.new_state(seed=1)
    rng = random.Random(1)
    other = hidden_swapped(state, 0, rng)
    assert other.hands[0] == state.hands[0]
    assert (other.hands[1:], other.stock, other.extra["chests"]) != \
        (state.hands[1:], state.stock, state.extra["chests"])
