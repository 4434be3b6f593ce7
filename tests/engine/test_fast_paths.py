"""The engine's fast paths agree with the plain rules: the one-sweep retreat targets
with the scan of each pirate, and the search's ``apply_unchecked`` with the checked,
atomic ``apply`` on many random games of every preset and option mix."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import PRESETS, SPECTATOR, make_game, moves
from cartagena_net.engine.view import view

MIXES = [(p, {}) for p in sorted(PRESETS)] + [
    ("studiogiochi-2017", {"morgan": "also", "filibusters": True, "hand_limit": 4}),
    ("studiogiochi-2017", {"morgan": "instead"}),
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"story": "whole", "morgan": "island", "filibusters": True,
                           "jail_in_passage": True}),
    ("studiogiochi-2017", {"story": "island"}),
    ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"magic": True, "story": "whole", "morgan": "also",
                           "filibusters": True}),
    ("jamaica", {"row_size": 6, "hands_public": True}),
    ("jamaica", {"empty_hand_draw": "always", "deal": 0, "actions": 1, "start_bonus": 2}),
]
IDS = [p + "".join(f"-{k}={v}" for k, v in o.items()) for p, o in MIXES]


def test_one_sweep_retreat_targets_agree_with_one_scan_a_pirate():
    rng = random.Random(31)
    for _ in range(20_000):
        n = rng.randrange(3, 40)
        occ = [rng.choice((0, 0, 1, 2, 3)) for _ in range(n)]
        split = rng.choice((None, rng.randrange(1, n)))
        back = [1 if split is None or p <= split else split + 1 for p in range(n)]
        pirates = sorted(rng.randrange(n) for _ in range(rng.randrange(1, 7)))
        assert moves.retreat_targets(occ, pirates, back) == [
            (p, moves.retreat_target(occ, p, back[p])) for p in sorted(set(pirates)) if p]


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_the_fast_apply_agrees_with_the_checked_one_on_random_games(preset, options):
    for seed in range(6):
        game = make_game(preset, players=2 + seed % 4, **options)
        checked = game.new_state(seed=seed)
        fast = game.new_state(seed=seed, events=False)
        rng = random.Random(seed)
        while not checked.is_over:
            legal = checked.legal_actions()
            assert legal == fast.legal_actions()
            action = rng.choice(legal)
            checked.apply(action)
            fast.apply_unchecked(action)
            assert checked == fast
            assert checked.chance == fast.chance and checked.history == fast.history
        assert fast.is_over and checked.outcome == fast.outcome


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_views_sharing_their_public_part_are_each_viewers_own_view(preset, options):
    """One broadcast builds the viewer-free part once (``shared``): in any order of
    viewers, each view is exactly the one built alone, events and hands included."""
    for seed in range(3):
        game = make_game(preset, players=2 + seed % 4, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        viewers: list = [*range(game.players), SPECTATOR]
        sent = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.3:
                continue  # several actions between broadcasts, as a bot's quick turn
            shared: dict = {}
            rng.shuffle(viewers)
            for viewer in viewers:
                alone = view(state, viewer, since=sent)
                assert view(state, viewer, since=sent, shared=shared) == alone, viewer
                if viewer == SPECTATOR:
                    assert not any(s["hand"] for s in alone["seats"]) or game.hands_public
            sent = state.event_count
