"""Every preset can be played from the keyboard: each legal action has keys that send it."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cartagena_net.engine import PRESETS, make_game, view
from client.glyphs import symbol_keys
from client.model import ClientModel


def keys_for(model: ClientModel, action: str) -> list[str]:
    words = action.split()
    keys = symbol_keys(model.view["symbols"])

    def card_key(card: str) -> str:
        k = keys[card.rstrip("*")]
        return k.upper() if card.endswith("*") else k

    mine = model.my_positions()
    if words[0] == "advance":
        return [str(mine.index(int(words[1])) + 1), card_key(words[2]), "enter"]
    if words[0] == "retreat":
        return [str(mine.index(int(words[1])) + 1), "r", "enter"]
    if words[0] == "morgan":
        pushes = model.morgan_actions()
        return ["m"] + ["right"] * pushes.index(action) + ["enter"]
    if words[0] == "discard":
        return [card_key(c) for c in words[1:]] + ["enter"]
    return {"end": ["e"], "draw": ["w"], "sail": ["f", "enter"]}[words[0]]


CASES = [(name, {}) for name in PRESETS] + [
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"story": "whole", "morgan": "island"}),
    ("studiogiochi-2017", {"morgan": "also", "filibusters": True, "hand_limit": 4}),
    ("studiogiochi-2017", {"morgan": "instead"}),
]


@pytest.mark.parametrize("preset,options", CASES)
def test_preset_playable_from_the_keyboard(preset: str, options: dict) -> None:
    game = make_game(preset, players=3, **options)
    rng = random.Random(11)
    kinds: Counter[str] = Counter()
    state = game.new_state(seed=4)
    for step in range(1500):
        if state.is_over:
            break
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        m = ClientModel(name="p")
        m.on_message({"type": "joined", "table": 1, "seat": seat, "token": "t"})
        m.on_message({"type": "state", "table": 1, "seq": step, "view": view(state, seat),
                      "legal": legal, "lines": []})
        choice = rng.choice(legal)
        for key in keys_for(m, choice):
            m.on_key(key)
        sent = [x["action"] for x in m.take_outbox()]
        assert sent == [choice], (choice, m.status)
        state.apply(choice)
        kinds[choice.split()[0]] += 1
    assert state.is_over, "a random game of 1500 actions should have ended"
    assert kinds["advance"] and kinds["retreat"] + kinds["morgan"]
    if options.get("morgan"):
        assert kinds["morgan"]
    if options.get("filibusters"):
        assert kinds["discard"]
    if options.get("story") == "whole":
        assert kinds["sail"]  # the sloop is sailed from the keyboard too
