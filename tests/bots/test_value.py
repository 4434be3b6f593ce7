"""The value model: it reads a viewer's view alone (every card that viewer cannot see
dealt anew, the same chances), its shipped weights load for the rules they serve, and
rules without a model get none (their callers fall back to playouts)."""
from __future__ import annotations

import random

import pytest

from cartagena_net.bots import value
from cartagena_net.engine import SPECTATOR, make_game, view
from cartagena_net.engine.determinize import Determinizer, track_known

from .test_coach import redeal
from .test_ismcts import random_position

SERVED = [("jamaica", {}), ("studiogiochi-2017", {"magic": True}),
          ("studiogiochi-2017", {})]
SERVED_IDS = ["jamaica", "magic", "2017"]


def chances_of(state, viewer):
    seen = view(state, viewer, since=0)
    known = track_known({}, seen["events"], -1 if viewer == SPECTATOR else viewer)
    return value.chances(view(state, viewer), known)


@pytest.mark.parametrize(("preset", "options"), SERVED, ids=SERVED_IDS)
def test_the_shipped_model_loads_for_the_rules_it_serves(preset, options):
    state = make_game(preset, players=4, **options).new_state(seed=1)
    model = value.model_for(view(state, SPECTATOR))
    assert model is not None
    assert model.meta["games"] >= 100 and model.meta["seed"] is not None
    got = chances_of(state, SPECTATOR)
    assert len(got) == 4 and abs(sum(got) - 1) < 1e-9
    assert all(0.05 < p < 0.6 for p in got)  # nobody is far ahead at the start


@pytest.mark.parametrize(("preset", "options"), SERVED, ids=SERVED_IDS)
@pytest.mark.parametrize("viewer", [SPECTATOR, 0, 1])
def test_redealing_every_hidden_card_gives_the_same_chances(preset, options, viewer):
    changed = 0
    for seed in range(4):
        state = random_position(preset, options, 500 + seed, players=2 + seed % 3)
        if viewer != SPECTATOR and viewer >= state.game.players:
            continue
        other = redeal(state, viewer)
        changed += other.hands != state.hands or other.stock != state.stock
        a, b = chances_of(state, viewer), chances_of(other, viewer)
        assert a is not None and a == b, (preset, seed)
        # a determinization of the viewer's view, read through that viewer's view again
        seen = view(state, viewer, since=0)
        known = track_known({}, seen["events"], -1 if viewer == SPECTATOR else viewer)
        sample = Determinizer(view(state, viewer), known).sample(random.Random(seed))
        resampled = view(sample, viewer)
        assert value.chances(resampled, known) == a
        # who plays each seat is the lobby's: the same with it, whatever is hidden
        kinds = ["search", "greedy", "random", "unknown"][:state.game.players]
        with_kinds = value.chances(view(state, viewer), known, kinds=kinds)
        assert value.chances(view(other, viewer), known, kinds=kinds) == with_kinds
        assert value.chances(resampled, known, kinds=kinds) == with_kinds
    assert changed


def test_the_model_moves_with_the_race():
    state = make_game("jamaica", players=2).new_state(seed=3)
    seen = view(state, SPECTATOR)
    even = value.chances(seen)
    ahead = dict(seen, seats=[dict(seen["seats"][0], pirates=[20, 25, 30, 33, 37, 37]),
                              seen["seats"][1]])
    behind = dict(seen, seats=[seen["seats"][0],
                               dict(seen["seats"][1], pirates=[20, 25, 30, 33, 37, 37])])
    assert value.chances(ahead)[0] > 0.9 and value.chances(behind)[0] < 0.1
    assert 0.2 < even[0] < 0.8


def test_rules_without_a_model_get_none():
    for preset, options in [("ravensburger", {}), ("jamaica", {"row_size": 6}),
                            ("studiogiochi-2017", {"magic": True, "story": "whole"}),
                            ("tortuga", {})]:
        state = make_game(preset, players=3, **options).new_state(seed=2)
        assert value.model_for(view(state, SPECTATOR)) is None, preset
        assert value.chances(view(state, SPECTATOR)) is None


def test_the_room_moves_half_way_to_each_new_estimate():
    assert value.smoothed(None, [0.2, 0.8]) == [0.2, 0.8]
    assert value.smoothed([0.5, 0.5], [0.1, 0.9]) == pytest.approx([0.32, 0.68])  # 45% way
    assert value.smoothed([0.5, 0.5], [0.2, 0.3, 0.5]) == [0.2, 0.3, 0.5]  # a new table


def test_a_finished_game_is_certain_and_a_model_of_other_features_is_refused():
    state = random_position("jamaica", {}, 9, players=3)
    while not state.is_over:
        state.apply(random.Random(len(state.history)).choice(state.legal_actions()))
    w = state.outcome.winner
    assert value.chances(view(state, SPECTATOR)) == [float(s == w) for s in range(3)]
    with pytest.raises(ValueError, match="features"):
        value.Model({"name": "x", "features": ["lead"], "w1": [], "b1": [], "w2": [],
                     "lin": []})
    # a model of the features before who plays each seat was one: those weigh nothing
    old = value.Model({"name": "x", "features": ["togo"], "w1": [[1.0]], "b1": [0.0],
                       "w2": [1.0], "lin": [2.0]})
    assert len(old.lin) == len(value.FEATURES) and old.lin[-1] == 0.0
    rows = value.features(view(state, SPECTATOR), kinds=["search", "random", "greedy"])
    assert old.score(rows[0]) == old.score([rows[0][0]] + [0.0] * (len(rows[0]) - 1))


def test_the_race_features_read_retreats_and_the_cards_still_needed():
    state = make_game("jamaica", players=2).new_state(seed=3)
    seen = view(state, SPECTATOR)
    col = {name: k for k, name in enumerate(value.FEATURES)}
    # seat 0: two pirates on space 5 and one on 9; seat 1: one on 7, the rest at the start
    ahead = dict(seen, seats=[dict(seen["seats"][0], pirates=[5, 5, 9, 30, 33, 36]),
                              dict(seen["seats"][1], pirates=[0, 0, 0, 0, 0, 7])])
    rows = value.features(ahead)
    # seat 0's pirate on 9 would go back to 7 (one pirate); its pirates on 5 have none
    assert rows[0][col["draw"]] == 0.5 and rows[0][col["draw_back"]] == 2 / 12
    # seat 1's pirate on 7 would go back to 5, where two stand: two cards
    assert rows[1][col["draw"]] == 1.0 and rows[1][col["draw2_back"]] == 2 / 12
    assert rows[0][col["cards"]] < rows[1][col["cards"]]
    assert rows[0][col["need_lead"]] < 0 < rows[1][col["need_lead"]]
    assert rows[0][col["rank"]] == 0 and rows[1][col["rank"]] == 1
    assert rows[1][col["at_start"]] == 5 / 6 and rows[0][col["front"]] == 1 / 37


def test_who_plays_each_seat_is_read_from_the_lobby_s_public_listing():
    lobby = [{"seat": 0, "name": "ann", "bot": None, "connected": True, "level": None},
             {"seat": 1, "name": "Kidd", "bot": "ismcts", "connected": True, "level": "hard"},
             {"seat": 2, "name": "Rex", "bot": "greedy", "connected": True, "level": "easy"},
             {"seat": 3, "name": "Ruby", "bot": "random", "connected": True, "level": None},
             {"seat": 4, "name": "bob", "bot": "greedy", "connected": False},  # a stand-in
             {"seat": 5, "name": None, "bot": None, "connected": False}]
    assert [value.seat_kind(s) for s in lobby] == [
        "unknown", "search", "greedy", "random", "unknown", "unknown"]
    record = [{"seat": 0, "kind": "human", "name": "ann"},
              {"seat": 1, "kind": "bot", "bot": "ismcts", "level": "normal"},
              {"seat": 2, "kind": "bot", "bot": "ismcts", "think": 0.5},
              {"seat": 3, "kind": "bot", "bot": "something new"}]
    assert [value.seat_kind(p) for p in record] == ["unknown", "search", "search", "unknown"]
    assert value.seat_kind(None) == "unknown" and set(value.KINDS) >= {"unknown", "search"}


@pytest.mark.parametrize(("preset", "options"), SERVED, ids=SERVED_IDS)
def test_who_plays_each_seat_moves_the_chances_where_it_should(preset, options):
    state = make_game(preset, players=4, **options).new_state(seed=5)
    seen = view(state, SPECTATOR)
    blind = value.chances(seen)
    # nobody said, or every seat unknown (people): the chances of before, in spirit
    assert value.chances(seen, kinds=["unknown"] * 4) == blind
    assert value.chances(seen, kinds=[]) == blind
    assert max(blind) - min(blind) < 0.25
    # a searching bot against random bots is the favourite at the start, wherever it sits
    for hard in range(4):
        kinds = ["random"] * 4
        kinds[hard] = "search"
        got = value.chances(seen, kinds=kinds)
        assert got[hard] > 0.5 and got[hard] > blind[hard] + 0.2, (hard, got)
        assert abs(sum(got) - 1) < 1e-9
    # greedy bots against two searching ones: the searching ones are ahead, and a person
    # (unknown) is between a greedy bot and a searching one
    got = value.chances(seen, kinds=["greedy", "search", "greedy", "search"])
    assert got[1] > got[0] and got[3] > got[2] and got[1] + got[3] > 0.6
    mixed = value.chances(seen, kinds=["greedy", "search", "unknown", "unknown"])
    assert mixed[0] < min(mixed[2], mixed[3]) and mixed[1] > max(mixed[2], mixed[3]) - 0.05


def test_hints_and_reviews_are_told_who_plays_each_seat():
    from cartagena_net.bots import coach, review

    state = make_game("jamaica", players=3).new_state(seed=8)
    me = state.actor
    seen = view(state, me)
    legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
    action = legal[0]
    kinds = ["search", "search", "search"]
    kinds[me] = "random"
    # the hint's job carries the kinds to the chance it quotes
    fn, args = coach.hint_job(seen, legal, {}, seed=1, deadline=False, kinds=kinds,
                              iterations=30, think=60.0)
    assert args[-1] == kinds
    blind, told = coach.chance_after(seen, {}, action), coach.chance_after(seen, {}, action,
                                                                          kinds)
    assert told[0] < blind[0] - 0.1 and told[1] < blind[1] - 0.1  # a random bot's seat
    hinted = fn(*args)
    assert hinted["why"]["before"] == round(100 * told[0])
    # the review reads who played from the record's players
    record = {"moves": [], "players": [
        {"seat": s, "kind": "bot", "bot": "ismcts" if k == "search" else "random"}
        for s, k in enumerate(kinds)]}
    got = review.chances(state, 0, random.Random(0), [value.seat_kind(p)
                                                      for p in record["players"]])
    assert got == [round(p, 4) for p in value.chances(view(state, SPECTATOR), {}, kinds=kinds)]
    assert got[me] < 0.05
