"""The log's event lines: the host's English ``text`` and a client's own rendering come from
one function over the event's data (``cartagena_net.engine.sentences``). A client renders
each event in its reader's language and shows the host's line for a kind it does not know."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import SPECTATOR, RandomChance, State, make_game, view
from cartagena_net.engine.sentences import english_place, event_sentence
from cartagena_net.i18n import language, set_language
from client.sentences import event_lines


@pytest.fixture
def swedish():
    before = language()
    set_language("sv")
    yield
    set_language(before)


def _played(preset: str, seed: int, **options) -> State:
    rng = random.Random(seed)
    state = State.new(make_game(preset, players=3, **options), RandomChance(random.Random(seed)))
    for _ in range(400):
        if state.outcome is not None:
            break
        state.apply(rng.choice(state.legal_actions(undo=True)))
    return state


@pytest.mark.parametrize("preset, options", [
    ("jamaica", {}), ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"story": "whole"}), ("web-2008", {}),
])
def test_the_hosts_line_is_the_shared_sentence_of_the_events_data(preset, options):
    state = _played(preset, 7, **options)
    for viewer in (SPECTATOR, 0, 1):
        v = view(state, viewer, since=0)
        g, board = state.game, state.board
        place = english_place(g.start_name, g.goal_name, board.boat, board.sloop)
        for e in v["events"]:
            data = {k: x for k, x in e.items() if k != "text"}
            assert event_sentence(data, g.colors.__getitem__, place) == e["text"]
        # the client in English renders exactly the host's lines
        assert event_lines(v, v["events"], [e["text"] for e in v["events"]]) == [
            e["text"] for e in v["events"]]


def test_a_swedish_client_renders_the_events_data_in_swedish(swedish):
    v = view(_played("jamaica", 3), 0, since=0)
    lines = event_lines(v, v["events"], [e["text"] for e in v["events"]])
    text = "\n".join(lines)
    assert "spelar" in text and " på tur" in text
    for english in ("plays", "'s turn", "retreats", "draws", "ends the turn"):
        assert english not in text, english
    turn = next(i for i, e in enumerate(v["events"]) if e["type"] == "turn")
    color = {"red": "röd", "blue": "blå", "green": "grön", "yellow": "gul"}[
        v["seats"][v["events"][turn]["seat"]]["color"]]
    assert lines[turn] == f"{color} på tur"


def test_plurals_of_cards_drawn_in_both_languages(swedish):
    v = {"seats": [{"seat": 0, "color": "red"}], "boat": 13, "start_name": "start",
         "goal_name": "boat"}
    one = {"type": "retreat", "seat": 0, "from": 5, "to": 0, "drawn": 1}
    two = dict(one, drawn=2)
    assert event_lines(v, [one, two], ["x", "y"]) == [
        "röd flyttar bakåt 5 → start och plockar upp 1 kort",
        "röd flyttar bakåt 5 → start och plockar upp 2 kort"]
    won = {"type": "win", "seat": 0}
    assert event_lines(v, [won], ["x"]) == ["röd har alla pirater i båten och vinner!"]
    set_language("en")
    assert event_lines(v, [one, two], ["x", "y"]) == [
        "red retreats 5 → start and draws 1 card", "red retreats 5 → start and draws 2 cards"]


def test_an_unknown_kind_or_broken_fields_show_the_hosts_english_line(swedish):
    v = {"seats": [{"seat": 0, "color": "red"}], "boat": 13}
    events = [{"type": "comet", "seat": 0}, {"type": "advance", "seat": 0},
              "not a map", {"type": "turn", "seat": 0}]
    lines = ["a comet falls", "red plays ?", "odd", "red's turn"]
    assert event_lines(v, events, lines) == ["a comet falls", "red plays ?", "odd", "röd på tur"]
    # events and lines that do not pair up: the host's lines as they are
    assert event_lines(v, events[:2], lines) == lines
    assert event_lines(None, events, lines) == lines


@pytest.mark.parametrize("preset, options", [
    ("jamaica", {}), ("ravensburger", {}), ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"story": "island"}),
])
def test_the_views_table_of_place_names_names_every_position_as_english_place(
        preset, options):
    """The view names the positions in its events' lines from a table made once per
    board: the same names as english_place for every position an event may name (the
    start, each space, the sloop, the goal, and -1 for the goal of a win)."""
    from cartagena_net.engine.view import _english_places

    state = make_game(preset, players=3, **options).new_state(seed=5)
    g, board = state.game, state.board
    place = english_place(g.start_name, g.goal_name, board.boat, board.sloop)
    table = _english_places(g.start_name, g.goal_name, board.boat, board.sloop)
    for p in [-1, *range(board.boat + 1)]:
        assert table(p) == place(p), p
    assert (board.sloop is not None) == (options.get("story") == "whole")
