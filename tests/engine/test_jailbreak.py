"""The Whole Jailbreak (2017): two paths, the sloop between them, the Captain; every rule
and every decision of docs/rules.md (D24-D33) on set-up positions, and the book's
Example 2."""
from __future__ import annotations

import pytest

from cartagena_net.engine import (
    SPECTATOR,
    State,
    make_game,
    parse_action,
    view,
)

from .helpers import legal, position, refused

# Three segments a path (G gun, R rum, L lantern, P parrot, H hook, C chest). Passage:
# spaces 1..18 with rum at 6, 12 and 16; the sloop is position 19; the island path is
# 20..37 (the book's 19..36); the cove is 38.
PASSAGE = "GLPHCR GLPHCR GLPRHC"
ISLAND = "RGLPHC RGLPHC RGLPHC"
BOARD = f"{PASSAGE} / {ISLAND}"
SLOOP, COVE = 19, 38


def whole(placed, hands, turn=0, shore=None, colors="red,blue", **options) -> State:
    options.setdefault("story", "whole")
    s = position("studiogiochi-2017", BOARD, colors, placed, hands, turn, **options)
    if shore is not None:
        s.setup(placed, turn=turn, shore=shore)
    return s


# -- the board ------------------------------------------------------------------------
def test_the_places_run_jail_passage_sloop_island_cove():
    s = whole([[0], [0]], [[], []])
    b = s.board
    assert (b.sloop, b.boat, b.paths) == (SLOOP, COVE, ((1, 18), (20, 37)))
    v = view(s, SPECTATOR)
    assert v["story"] == "whole" and v["boat"] == COVE and len(v["board"]) == 37
    assert v["board"][SLOOP - 1] is None and v["board"][SLOOP] == "rum"
    assert v["paths"] == [{"name": "underground passage", "first": 1, "last": 18},
                          {"name": "island path", "first": 20, "last": 37}]
    assert v["sloop"] == {"pos": SLOOP, "shore": "cartagena", "capacity": 3, "aboard": [0, 0]}
    assert (v["start_name"], v["goal_name"], v["captain"]) == ("jail", "cove", None)


def test_a_random_whole_board_has_three_segments_a_path_by_default():
    g = make_game("studiogiochi-2017", story="whole")
    assert (g.segments, g.island_segments, g.jail_in_passage) == (3, 3, True)
    s = g.new_state(seed=1)
    assert s.board.paths == ((1, 18), (20, 37)) and len(s.chance) == 7  # 6 segments + deck
    g = make_game("studiogiochi-2017", story="whole", segments=4, island_segments=5)
    assert g.new_state(seed=1).board.paths == ((1, 24), (26, 55))
    assert make_game(**g.spec()) == g


@pytest.mark.parametrize("options,words", [
    ({"story": "whole", "segments": 2}, "3 or more segments"),
    ({"story": "whole", "island_segments": 2}, "3 or more segments"),
    ({"island_segments": 4}, "story=whole only"),
    ({"jail_in_passage": "no"}, "story=whole only"),
    ({"morgan": "island"}, "story=whole only"),
    ({"story": "whole", "side": "island"}, "no side"),
    ({"story": "island", "side": "tunnel"}, "island side"),
    ({"story": "whole", "board": "GRLPHC"}, "split by '/'"),
    ({"board": "GRLPHC/GRLPHC"}, "needs story=whole"),
    ({"story": "moon"}, "one of"),
])
def test_story_options_are_checked_with_reasons(options, words):
    with pytest.raises(ValueError, match=words):
        make_game("studiogiochi-2017", **options)


def test_story_needs_the_2017_boards():
    with pytest.raises(ValueError, match="studiogiochi-2017"):
        make_game("jamaica", story="whole")
    assert make_game("jamaica", story="escape").story == "escape"


def test_story_island_is_the_island_side():
    g = make_game("studiogiochi-2017", story="island")
    assert (g.side, g.start_name, g.goal_name, g.path_names) == (
        "island", "flooded sloop", "cove", ("island path",))
    assert g.new_state(seed=0).board.sloop is None


# -- moving the sloop -----------------------------------------------------------------
def test_sail_to_tortuga_needs_a_pirate_of_yours_aboard_and_costs_an_action():
    s = whole([[0, 5], [SLOOP, 0]], [["gun"], ["gun"]])
    assert "sail" not in legal(s)
    assert refused(s, "sail") == "sail-nobody-aboard"
    s.setup([[SLOOP, 5], [SLOOP, 0]], turn=0)
    s.extra["captain"], s.extra["free_sail"] = None, False  # a tie of one each, no free sail
    s.apply("advance 5 gun")
    assert "sail" in legal(s)
    s.apply("sail")
    assert s.extra["shore"] == "tortuga" and s.taken == 2
    assert s.pirates == [[7, SLOOP], [0, SLOOP]]  # pirates stay aboard


def test_sail_back_needs_a_pirate_still_in_the_passage_the_jail_counts():
    s = whole([[0, SLOOP], [25, 30]], [["gun"], ["gun"]], shore="tortuga", turn=1)
    assert refused(s, "sail") == "sail-nobody-waiting"
    s = whole([[0, SLOOP], [25, 30]], [["gun"], ["gun"]], shore="tortuga", turn=0)
    assert "sail" in legal(s)  # the jail counts as the passage (D26)
    s.apply("sail")
    assert s.extra["shore"] == "cartagena" and s.pirates[0] == [0, SLOOP]


def test_with_jail_in_passage_off_only_a_passage_space_calls_the_sloop_back():
    s = whole([[0, SLOOP], [3, 30]], [["gun"], ["gun"]], shore="tortuga",
              jail_in_passage="no")
    assert refused(s, "sail") == "sail-nobody-waiting"
    s.setup([[0, SLOOP], [3, 30]], turn=1, shore="tortuga")
    assert "sail" in legal(s)


def test_the_sloop_may_sail_more_than_once_a_turn():
    s = whole([[SLOOP, 4], [SLOOP, 0]], [["gun"], ["gun"]])
    s.extra["captain"], s.extra["free_sail"] = None, False
    s.apply("sail")
    s.apply("sail")
    assert s.extra["shore"] == "cartagena" and s.taken == 2
    s.apply("sail")
    assert s.turn == 1 and s.extra["shore"] == "tortuga"  # the third action ends the turn


def test_the_captain_sails_once_free_before_the_first_action():
    s = whole([[SLOOP, SLOOP, 4], [SLOOP, 0, 0]], [["gun"], ["gun"]])
    assert s.extra["captain"] == 0 and view(s, 1)["captain"] == 0
    assert view(s, 1)["free_sail"] is True
    s.apply("sail")
    assert s.taken == 0 and s.extra["shore"] == "tortuga" and not s.extra["free_sail"]
    assert "end" not in legal(s)  # the free sail is not one of the turn's actions (D3)
    s.apply("sail")  # a second sail costs an action
    assert s.taken == 1
    events = view(s, 1, since=0)["events"]
    assert [e["free"] for e in events if e["type"] == "sail"] == [True, False]
    assert any(e["type"] == "captain" and e["seat"] == 0 for e in events)


def test_a_tie_makes_a_captain_but_nobody_aboard_makes_none():
    s = whole([[SLOOP, 4], [SLOOP, 0]], [["gun"], ["gun"]])
    assert s.extra["captain"] == 0  # one each: a tie counts
    s = whole([[SLOOP, 4], [SLOOP, SLOOP]], [["gun"], ["gun"]])
    assert s.extra["captain"] is None  # blue has more aboard
    s = whole([[0, 4], [0, 0]], [["gun"], ["gun"]])
    assert s.extra["captain"] is None  # nobody aboard: no Captain (D29)


def test_the_captain_is_decided_at_the_start_of_the_turn():
    s = whole([[3, 5], [SLOOP, 0]], [["rum"], ["gun"]])
    assert s.extra["captain"] is None
    s.apply("advance 5 rum")  # 6 is the next rum
    s.apply("end")
    assert s.turn == 1 and s.extra["captain"] == 1 and s.extra["free_sail"]


def test_a_sail_is_taken_back_by_undo():
    s = whole([[SLOOP, 4], [0, 0]], [["gun"], ["gun"]])
    before = s.copy()
    s.apply("sail")
    assert s.can_undo()
    s.apply("undo")
    assert s == before and s.extra["free_sail"]
    lines = [e["text"] for e in view(s, 0, since=0)["events"]]
    assert lines[-1] == "red takes back the sail to Tortuga"


# -- boarding and landing -------------------------------------------------------------
def test_no_free_space_ahead_boards_the_sloop_at_cartagena():
    s = whole([[14, 0], [16, 0]], [["rum"], ["gun"]])
    s.apply("advance 14 rum")  # 16 is taken: aboard
    assert s.pirates[0] == [0, SLOOP]


def test_nobody_boards_a_sloop_that_is_away():
    s = whole([[14, 0], [16, SLOOP]], [["rum", "gun"], ["gun"]], shore="tortuga")
    assert "advance 14 rum" not in legal(s) and "advance 14 gun" not in legal(s)
    assert "advance 0 rum" in legal(s)  # the jail's pirate still reaches 6
    assert refused(s, "advance 14 rum") == "sloop-away"


def test_three_of_a_colour_aboard_is_the_most():
    s = whole([[SLOOP, SLOOP, SLOOP, 14], [16, 0, 0, 0]], [["rum", "gun"], ["gun"]])
    s.extra["captain"], s.extra["free_sail"] = None, False
    assert refused(s, "advance 14 rum") == "sloop-full"
    assert "advance 14 rum" not in legal(s) and "advance 14 gun" not in legal(s)
    with pytest.raises(ValueError, match="3 pirates of a colour"):
        s.setup([[SLOOP] * 4, [0] * 4])


def test_pirates_aboard_land_only_at_tortuga():
    s = whole([[SLOOP, 0], [0, 0]], [["gun", "rum"], ["gun"]])
    s.extra["free_sail"] = False
    assert not any(a.startswith(f"advance {SLOOP}") for a in legal(s))
    assert refused(s, f"advance {SLOOP} gun") == "sloop-at-cartagena"
    s.apply("sail")
    assert {f"advance {SLOOP} gun", f"advance {SLOOP} rum"} <= legal(s)
    s.apply(f"advance {SLOOP} rum")  # the island's first rum is 20
    assert s.pirates[0] == [0, 20]


def test_no_free_space_ahead_on_the_island_reaches_the_cove_and_wins():
    s = whole([[37, COVE], [36, 0]], [["hook"], ["gun"]])
    s.apply("advance 37 hook")
    assert s.is_over and s.outcome.winner == 0


def test_everyone_aboard_is_not_a_win_only_the_cove_is():
    s = whole([[14, SLOOP], [16, 0]], [["rum"], ["gun"]])
    s.apply("advance 14 rum")
    assert not s.is_over and s.pirates[0] == [SLOOP, SLOOP]


# -- retreats -------------------------------------------------------------------------
def test_retreat_from_the_sloop_at_cartagena_into_the_passage():
    s = whole([[SLOOP, 0], [15, 0]], [[], ["gun"]])
    s.extra["free_sail"] = False
    s.apply(f"retreat {SLOOP}")
    assert s.pirates[0] == [0, 15] and s.hand_size(0) == 1


def test_no_retreat_from_the_sloop_at_tortuga():
    s = whole([[SLOOP, 0], [15, 0]], [[], ["gun"]], shore="tortuga")
    assert f"retreat {SLOOP}" not in legal(s)
    assert refused(s, f"retreat {SLOOP}") == "no-retreat-from-sloop"


def test_a_retreat_on_the_island_stops_on_the_island_never_on_the_sloop():
    s = whole([[22, 0], [SLOOP, SLOOP]], [[], ["gun"]], shore="tortuga")
    assert refused(s, "retreat 22") == "no-retreat-target"
    s.setup([[22, 0], [SLOOP, 20]], turn=0, shore="tortuga")
    s.apply("retreat 22")
    assert s.pirates[0] == [0, 20]


def test_a_pirate_in_the_cove_may_retreat_onto_the_island_path():
    s = whole([[COVE, 0], [30, 10]], [[], ["gun"]])
    s.apply(f"retreat {COVE}")
    assert s.pirates[0] == [0, 30] and s.hand_size(0) == 1


# -- Morgan ---------------------------------------------------------------------------
def test_morgan_cannot_push_past_the_passage_when_the_sloop_is_away_or_full():
    s = whole([[0, 0], [17, 0]], [[], ["gun"]], shore="tortuga", morgan="instead")
    assert "morgan 1 17" not in legal(s)
    assert refused(s, "morgan 1 17") == "sloop-away"
    s = whole([[0, 0, 0, 0], [17, SLOOP, SLOOP, SLOOP]], [[], ["gun"]], morgan="instead")
    assert refused(s, "morgan 1 17") == "sloop-full"


def test_morgan_pushes_from_the_sloop_at_tortuga_onto_the_island():
    s = whole([[0, 0], [SLOOP, 25]], [[], ["gun"]], shore="tortuga", morgan="instead")
    s.apply(f"morgan 1 {SLOOP}")
    assert s.pirates[1] == [25, 25] and s.hand_size(0) == 1
    s = whole([[0, 0], [SLOOP, 25]], [[], ["gun"]], morgan="instead")
    assert refused(s, f"morgan 1 {SLOOP}") == "sloop-at-cartagena"


def test_morgan_island_retreats_in_the_passage_and_pushes_on_the_island():
    s = whole([[8, 30], [5, 25]], [[], ["gun"]], morgan="island")
    acts = legal(s)
    assert "retreat 8" in acts and "retreat 30" not in acts
    assert "morgan 1 25" in acts and "morgan 1 5" not in acts
    assert refused(s, "retreat 30") == "no-retreat-on-island"
    assert refused(s, "morgan 1 5") == "morgan-not-on-island"
    s.apply("morgan 1 25")  # 30 holds one pirate
    assert s.pirates[1] == [5, 30]


def test_book_example_2_morgan_in_the_whole_jailbreak():
    """Green plays rum and moves a pirate from the jail to the sloop, skipping 6, 12 and
    16; then pushes yellow from the last island space (the book's 36, our 37) into the
    cove, drawing 2; then blue from 7 to 10, drawing 2 more."""
    placed = [
        [0, 0, 6, 12, 16, SLOOP],  # green
        [0, 0, 10, 10, 25, 37],  # yellow
        [0, 0, 0, 7, 22, 30],  # blue
    ]
    s = position("studiogiochi-2017", BOARD, "green,yellow,blue", placed,
                 [["rum"], ["gun"], ["gun"]], 0, story="whole", morgan="instead")
    s.extra["free_sail"] = False  # green is the Captain, but sails no further here
    s.apply("advance 0 rum")
    assert s.pirates[0] == [0, 6, 12, 16, SLOOP, SLOOP]
    s.apply("morgan 1 37")
    assert s.pirates[1][-1] == COVE and s.hand_size(0) == 2
    s.apply("morgan 2 7")
    assert s.pirates[2] == [0, 0, 0, 10, 22, 30] and s.hand_size(0) == 4
    assert s.occ[10] == 3 and s.turn == 1


# -- the rest of the turn -------------------------------------------------------------
def test_the_empty_hand_draw_still_applies():
    s = whole([[SLOOP, 0], [0, 0]], [[], ["gun"]])
    assert {"draw", "sail"} <= legal(s)
    s.apply("sail")  # the Captain's free sail
    assert "draw" in legal(s)
    s.apply("draw")
    assert s.turn == 1 and s.hand_size(0) == 1


def test_sail_notation_round_trips():
    a = parse_action("  SAIL ")
    assert str(a) == "sail" and parse_action(str(a)) == a
    s = make_game("jamaica").new_state(seed=1)
    assert refused(s, "sail") == "no-sloop"


def test_events_name_the_sloop_and_the_shores():
    s = whole([[14, SLOOP], [16, 0]], [["rum"], ["gun"]])
    seen = s.event_count
    s.apply("sail")
    s.apply("sail")
    s.apply("advance 14 rum")
    lines = [e["text"] for e in view(s, 1, since=seen)["events"]]
    assert lines == ["red sails the sloop to Tortuga (the Captain's free sail)",
                     "red sails the sloop to Cartagena",
                     "red plays rum: 14 → sloop"]


def test_a_state_from_a_view_has_the_same_public_game():
    import random

    from cartagena_net.engine import RandomChance

    for story, seed in (("whole", 3), ("escape", 4)):
        game = make_game("studiogiochi-2017", players=3, story=story, morgan="also",
                         filibusters=True)
        s = game.new_state(seed=seed)
        rng = random.Random(seed)
        for step in range(200):
            if s.is_over:
                break
            if step % 20 == 0:
                me = s.actor
                rebuilt = State.from_view(game, view(s, me), RandomChance(random.Random(1)))
                # the viewer sees the same game: the hidden cards are dealt, counts add up
                assert view(rebuilt, me) == view(s, me)
                assert rebuilt.hands[me] == s.hands[me]
                assert [v["pirates"] for v in view(rebuilt, me)["seats"]] == \
                    [v["pirates"] for v in view(s, me)["seats"]]
                assert rebuilt.extra == s.extra
            s.apply(rng.choice(s.legal_actions()))
