"""A pirate's number is the same on every screen: the seat that played along, a client
that reconnects mid-game (a fresh model), and the replay viewer of the game's record
stepped to the same moment in any order."""
from __future__ import annotations

import json
import random

from cartagena_net.engine import make_game, view
from cartagena_net.records import build
from cartagena_net.records.format import player
from client.model import ClientModel
from client.replay import ReplayViewer


def seated_model(seat: int) -> ClientModel:
    m = ClientModel(name="ann")
    m.on_message({"type": "welcome", "host_id": "h", "host_name": "h"})
    m.on_message({"type": "joined", "table": 1, "seat": seat, "token": "t"})
    return m


def test_the_numbers_agree_live_after_a_reconnect_and_in_the_replay():
    game = make_game("jamaica", players=2, segments=2)
    state = game.new_state(seed=12)
    rng = random.Random(12)
    live = seated_model(0)
    seen = 0
    shown = []  # what the seat that played along showed after each action
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions(undo=True)))
        state.forget_events(state.event_count - 20)  # as the host keeps them
        v = json.loads(json.dumps(view(state, 0, since=seen)))
        seen = state.event_count
        live.on_message({"type": "state", "table": 1, "seq": len(shown) + 1, "view": v,
                         "legal": [], "events": v.pop("events"), "lines": []})
        shown.append(list(live.my_positions()))
        if len(shown) % 7 == 0:  # a client that reconnects: a fresh model, a full view
            fresh = seated_model(0)
            full = json.loads(json.dumps(view(state, 0, since=max(0, seen - 20))))
            fresh.on_message({"type": "state", "table": 1, "seq": len(shown), "view": full,
                              "legal": [], "events": full.pop("events"), "lines": []})
            assert fresh.my_positions() == shown[-1]
    assert any(p != sorted(p) for p in shown), "no pirate ever passed another: another seed"
    rec = json.loads(json.dumps(build(
        state, record_id="20261126T100000Z-abcdef12-1",
        players=[player(s, game.colors[s], f"p{s}") for s in range(2)],
        started="2026-11-26T10:00:00Z", ended="2026-11-26T10:20:00Z", end="won")))
    replay = ReplayViewer(rec)
    replay.see_as(0)
    order = list(range(1, len(shown) + 1))
    random.Random(1).shuffle(order)
    for n in order:
        replay.go(n)
        assert replay.model.my_positions() == shown[n - 1], n
