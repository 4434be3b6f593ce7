"""Golden playthroughs: seeded games whose every action, public line and per-seat view
are stored, so that a change in the rules or in what a view reveals fails loudly.

Regenerate (after an intended change only) with:
``python -m tests.engine.test_golden``.
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from cartagena_net.engine import SPECTATOR, make_game, view

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "jamaica-3p": ("jamaica", {"players": 3}, 2026),
    "tortuga-2p": ("tortuga", {"players": 2, "segments": 3}, 1672),
    "studiogiochi-filibusters-morgan": (
        "studiogiochi-2017", {"players": 3, "segments": 4, "filibusters": True,
                              "morgan": "also"}, 2017),
    "studiogiochi-whole-2p": (
        "studiogiochi-2017", {"players": 2, "story": "whole", "pirates": 3,
                              "morgan": "island", "filibusters": True}, 1672),
    # every magic power's events (Gun, Rum, Lantern, chests with the snake, parrots, hooks)
    "studiogiochi-magic-whole-3p": (
        "studiogiochi-2017", {"players": 3, "magic": True, "story": "whole",
                              "morgan": "also"}, 56),
}


def playthrough(name: str) -> dict:
    preset, options, seed = CASES[name]
    state = make_game(preset, **options).new_state(seed=seed)
    rng = random.Random(seed)
    steps = []
    while not state.is_over:
        seen = len(state.events)
        action = rng.choice(state.legal_actions())
        state.apply(action)
        public = view(state, SPECTATOR, since=seen)
        digests = {
            str(v): hashlib.sha256(json.dumps(view(state, v), sort_keys=True).encode())
            .hexdigest()[:16]
            for v in [*range(state.game.players), SPECTATOR]
        }
        steps.append({"action": str(action), "lines": [e["text"] for e in public["events"]],
                      "views": digests})
    return {"case": name, "steps": steps, "ranking": list(state.outcome.ranking)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_golden(name):
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    actual = playthrough(name)
    assert len(actual["steps"]) == len(expected["steps"])
    for i, (a, e) in enumerate(zip(actual["steps"], expected["steps"], strict=True)):
        assert a == e, f"step {i} differs"
    assert actual["ranking"] == expected["ranking"]


def test_spectator_lines_in_golden_jamaica_never_name_a_drawn_card():
    data = json.loads((GOLDEN / "jamaica-3p.json").read_text())
    symbols = make_game("jamaica").symbols
    for step in data["steps"]:
        for line in step["lines"]:
            if " draws " in line:
                assert not any(s in line.split(" draws ")[1] for s in symbols), line


if __name__ == "__main__":
    for case in CASES:
        (GOLDEN / f"{case}.json").write_text(json.dumps(playthrough(case), indent=0) + "\n")
        print("wrote", case)
