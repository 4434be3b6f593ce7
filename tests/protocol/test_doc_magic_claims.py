"""Two places where a client written from the documents met a host that did otherwise:
the Lantern's ``stacked`` (docs/rules.md D46) and the ``chest`` event's ``drawn``
(docs/protocol.md). The documents and the host now say the same; these check it on the
views a host sends."""
from __future__ import annotations

import random
from pathlib import Path

from cartagena_net.engine import SPECTATOR, make_game, view

DOCS = Path(__file__).resolve().parents[2] / "docs"


def magic_games(n: int, players: int = 3):
    for seed in range(n):
        state = make_game("studiogiochi-2017", players=players, magic=True).new_state(seed=seed)
        yield state, random.Random(seed)


def test_every_chest_event_says_how_many_cards_it_drew_even_none():
    assert "`drawn`, always there: 0 for an `empty` or `snake` tile" in \
        (DOCS / "protocol.md").read_text()
    tiles = set()
    for state, rng in magic_games(25):
        while not state.is_over:
            seen = state.event_count
            acts = [a for a in state.legal_actions() if str(a).startswith("power chest")]
            state.apply(rng.choice(acts or state.legal_actions()))
            for viewer in (*range(state.game.players), SPECTATOR):
                for e in view(state, viewer, since=seen)["events"]:
                    if e["type"] != "chest":
                        continue
                    assert isinstance(e["drawn"], int), e
                    assert (e["drawn"] == 0) == (e["tile"] in ("empty", "snake")), e
                    assert ("cards" in e) == (viewer == e["seat"] and e["drawn"] > 0), e
                    tiles.add(e["tile"])
    assert {"empty", "snake"} <= tiles and tiles & {"1", "2", "3"}


def test_a_lanterns_cards_go_onto_the_stock_together_with_the_last_one():
    text = (DOCS / "rules.md").read_text()
    assert "they go onto the stock together when the last one" in text
    assert "is placed, as one public `stack` event" in text
    checked = 0
    for state, rng in magic_games(60, players=2):
        while not state.is_over and checked < 12:
            lantern = [a for a in state.legal_actions() if str(a) == "power lantern"]
            if not lantern:
                state.apply(rng.choice(state.legal_actions()))
                continue
            seat = state.actor
            other = 1 - seat
            state.apply(lantern[0])
            drawn = view(state, seat)["magic"]["power"]["left"]
            state.apply(rng.choice(state.legal_actions()))  # keep one
            stock = view(state, SPECTATOR)["stock"]
            start = state.event_count
            placed = 0
            while state.pending and state.pending[0][2] == "stack":
                mine = view(state, seat)
                assert mine["magic"]["power"]["stacked"] == placed
                assert mine["stock"] == stock  # nothing is back on the stock yet
                assert mine["magic"]["known_stock"] == []
                assert view(state, SPECTATOR)["magic"]["stock_known"] == []
                assert view(state, other)["magic"]["power"]["stacked"] == placed
                state.apply(rng.choice(state.legal_actions()))
                placed += 1
            events = [e for e in view(state, seat, since=start)["events"]
                      if e["type"] == "stack"]
            (stack,) = events  # one event, when the last card is placed
            assert stack["count"] == drawn - 1 == placed + 1
            after = view(state, seat)
            assert after["stock"] == stock + drawn - 1
            assert len(after["magic"]["known_stock"]) == drawn - 1
            assert after["magic"]["stock_known"] == [{"seat": seat, "count": drawn - 1}]
            checked += 1
    assert checked >= 5, "too few Lanterns with cards to put back"
