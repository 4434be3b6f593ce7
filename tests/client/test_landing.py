"""The client's landing preview agrees with the engine on every legal move."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cartagena_net.engine import make_game, view
from client.landing import advance_to, morgan_to, retreat_to


def moved(before: list[int], after: list[int]) -> tuple[int, int]:
    gone = Counter(before) - Counter(after)
    new = Counter(after) - Counter(before)
    assert sum(gone.values()) == 1 and sum(new.values()) == 1
    return next(iter(gone)), next(iter(new))


@pytest.mark.parametrize("preset,options", [
    ("jamaica", {"players": 3}),
    ("ravensburger", {"players": 2, "segments": 2}),
    ("studiogiochi-2017", {"players": 4, "morgan": "also", "filibusters": True}),
    ("studiogiochi-2017", {"players": 3, "story": "whole", "morgan": "also"}),
    ("studiogiochi-2017", {"players": 3, "story": "whole", "morgan": "island"}),
])
def test_preview_matches_engine(preset: str, options: dict) -> None:
    game = make_game(preset, **options)
    rng = random.Random(5)
    checked = Counter()
    for seed in range(3):
        state = game.new_state(seed=seed)
        for _ in range(300):
            if state.is_over:
                break
            actor = state.actor
            v = view(state, actor)
            for act in state.legal_actions():
                if act.kind not in ("advance", "retreat", "morgan"):
                    continue
                trial = state.copy()
                trial.apply(act)
                after = view(trial, actor)
                who = act.seat if act.kind == "morgan" else actor
                src, dst = moved(v["seats"][who]["pirates"], after["seats"][who]["pirates"])
                assert src == act.pos
                if act.kind == "advance":
                    assert advance_to(v, act.pos, act.card) == dst, str(act)
                elif act.kind == "retreat":
                    landing = retreat_to(v, act.pos)
                    assert landing is not None and landing[0] == dst, str(act)
                else:
                    assert morgan_to(v, act.pos, act.seat)[0] == dst, str(act)
                checked[act.kind] += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked["advance"] > 100 and checked["retreat"] > 20
    if options.get("morgan"):
        assert checked["morgan"] > 20
