"""Every worked example in the rules, reproduced on a set-up position."""
from __future__ import annotations

from .helpers import position

# The 1672 illustration (Tortuga way), rebuilt so that every example holds at once.
# Segments of six spaces, one of each symbol (S skull, D dagger, K key, B bottle,
# P pistol, H hat): skulls at 12, 17 and 23; daggers at 3, 7, 15 and 24; every bottle
# ahead of 17 (18, 19, 25, 31) taken.
BOARD_1672 = "SKDBPH DHKBPS KPDHSB BKPHSD BSDKPH BSDKPH"
COLORS = "blue,red,yellow,green"
BLUE, RED, YELLOW = 0, 1, 2
PIRATES_1672 = [
    [0, 6, 6, 17, 18, 20],  # blue
    [0, 0, 0, 8, 17, 17],  # red
    [0, 0, 0, 0, 9, 31],  # yellow
    [0, 0, 3, 12, 19, 25],  # green
]
HANDS_1672 = [
    ["dagger"] * 4 + ["bottle"],
    ["skull", "key", "hat"],
    ["skull", "key", "hat"],
    ["pistol", "hat"],
]


def tortuga(turn: int):
    return position("tortuga", BOARD_1672, COLORS, PIRATES_1672, HANDS_1672, turn)


def test_yellow_skull_from_9_to_23_skipping_occupied_skulls():
    s = tortuga(YELLOW)
    s.apply("advance 9 skull")
    assert 23 in s.pirates[YELLOW] and 9 not in s.pirates[YELLOW]


def test_red_retreats_from_8_to_6_and_picks_up_two_from_the_row():
    s = tortuga(RED)
    row_before = list(s.row)
    hand_before = s.hand_size(RED)
    s.apply("retreat 8")
    assert 6 in s.pirates[RED] and s.occ[6] == 3
    assert s.hand_size(RED) == hand_before + 2
    assert s.row == row_before[2:]  # taken from the face-up row, in the arrow's direction


def test_blue_option_1_three_daggers():
    s = tortuga(BLUE)
    s.apply("advance 0 dagger")
    s.apply("advance 6 dagger")
    s.apply("advance 6 dagger")
    assert s.pirates[BLUE] == [7, 15, 17, 18, 20, 24]
    assert s.turn == RED  # three actions used: the turn passes by itself


def test_blue_option_2_five_new_cards_by_retreating():
    s = tortuga(BLUE)
    before = s.hand_size(BLUE)
    s.apply("retreat 17")  # to 12, one pirate there: 1 card
    assert s.hand_size(BLUE) == before + 1
    s.apply("retreat 18")  # to 17, where 2 red remain: 2 cards
    assert s.hand_size(BLUE) == before + 3
    s.apply("retreat 17")  # to 12, now holding 2 (one of them blue): 2 cards
    assert s.hand_size(BLUE) == before + 5
    assert s.pirates[BLUE] == [0, 6, 6, 12, 12, 20]


def test_blue_option_3_bottle_to_the_sloop_then_retreat_then_dagger():
    s = tortuga(BLUE)
    s.apply("advance 17 bottle")  # every bottle ahead of 17 is taken: into the sloop
    assert s.pirates[BLUE][-1] == s.board.boat
    before = s.hand_size(BLUE)
    s.apply("retreat 18")  # to 17, where 2 red are left
    assert s.hand_size(BLUE) == before + 2
    s.apply("advance 0 dagger")
    assert s.pirates[BLUE] == [6, 6, 7, 17, 20, s.board.boat]


def test_a_retreat_may_not_skip_a_single_pirate_to_reach_two():
    # From 17, space 12 (one green pirate) stops the retreat: 6 (two blue) is never reached.
    s = tortuga(BLUE)
    assert s.retreat_target(17) == 12


# The 2014 jungle edition's examples (R rum, K key, P pistol, H hook, L lantern,
# S spyglass; five segments, four pirates).
BOARD_2014 = "RKPHLS SRKPHL RKHPLS LRKSPH PLSRKH"
JUNGLE_COLORS = "black,grey,purple,yellow"
BLACK, GREY = 0, 1
PIRATES_2014 = [
    [10, 19, 20, 24],  # black: pirate 2 at 10, pirate 3 at 20, pirate 1 at 24
    [21, 26, 30, 31],  # grey: pirate 1 at 21, pirate 4 in the boat
    [18, 22, 25, 30],  # purple: pirate 2 at 18
    [16, 16, 19, 19],  # yellow
]
HANDS_2014 = [["pistol", "lantern", "spyglass"], ["lantern", "pistol"], [], ["rum"]]


def jungle(turn: int):
    return position("ravensburger", BOARD_2014, JUNGLE_COLORS, PIRATES_2014, HANDS_2014, turn)


def test_black_pistol_or_lantern_takes_pirate_1_into_the_boat():
    for card in ("pistol", "lantern"):
        s = jungle(BLACK)
        s.apply(f"advance 24 {card}")
        assert s.pirates[BLACK][-1] == s.board.boat


def test_black_spyglass_takes_pirate_2_to_the_last_segments_free_spyglass():
    s = jungle(BLACK)
    s.apply("advance 10 spyglass")
    assert 27 in s.pirates[BLACK]


def test_black_pirate_3_retreats_to_purple_then_to_the_pistol_space():
    s = jungle(BLACK)
    s.apply("retreat 20")  # skips the lantern with 3, stops at purple's lone pirate
    assert 18 in s.pirates[BLACK] and s.hand_size(BLACK) == 4
    s.apply("retreat 18")  # second action: back to the pistol space with 2, draws 2
    assert 16 in s.pirates[BLACK] and s.hand_size(BLACK) == 6


def test_grey_lantern_to_the_boat_but_pistol_only_two_spaces():
    s = jungle(GREY)
    s.apply("advance 21 lantern")
    assert s.pirates[GREY].count(s.board.boat) == 2
    s = jungle(GREY)
    s.apply("advance 21 pistol")
    assert 23 in s.pirates[GREY]


def test_grey_pirate_4_leaves_the_boat_for_the_hook_space_and_draws_two():
    s = jungle(GREY)
    s.apply("retreat 31")
    assert 30 in s.pirates[GREY] and s.occ[30] == 3 and s.hand_size(GREY) == 4
