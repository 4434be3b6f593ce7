"""The rule books, statement by statement, re-posed the way an outsider would: through
``make_game`` options, an explicit ``board``, ``state.setup(...)`` and the action
notation. Each test quotes the line it checks; where docs/rules.md decides an
ambiguity, the test asserts the decision (its number is named)."""
from __future__ import annotations

import pytest

from cartagena_net.engine import (
    PRESETS,
    SPECTATOR,
    State,
    make_game,
    view,
)
from cartagena_net.engine.presets import CLASSIC, JUNGLE, STUDIOGIOCHI, WEB_2008

from .helpers import cards_total, position, refused
from .helpers import legal as acts

S1672 = "SDKBPH" * 2  # 12 spaces (skull dagger key bottle pistol hat twice), boat 13
J2014 = "RKPHLS" * 2  # rum key pistol hook lantern spyglass, boat 13
G2017 = "GRLPHC" * 2  # gun rum lantern parrot hook chest, boat 13


def duo(preset: str, placed, hands, turn=0, board=None, **options) -> State:
    board = board or {"ravensburger": J2014, "ravensburger-advanced": J2014,
                      "studiogiochi-2017": G2017}.get(preset, S1672)
    return position(preset, board, "red,blue", placed, hands, turn, **options)


# == every preset's numbers against its book ==========================================
@pytest.mark.parametrize("preset,players,pirates,segments,symbols,per,dark,deal,bonus,"
                         "actions,row,public", [
    # 1672: "6 board-segments", "a group of 6 pirates", "17 of each sign", "deal 6 cards
    # to each player", "from 1 to 3 moves", Tortuga: "12 cards are dealt face up".
    ("jamaica", (2, 5), 6, 6, CLASSIC, 17, 0, 6, 0, 3, 0, False),
    ("tortuga", (2, 5), 6, 6, CLASSIC, 17, 0, 6, 0, 3, 12, True),
    ("hispaniola", (2, 5), 6, 6, CLASSIC, 17, 0, 6, 0, 3, 12, False),
    # 2014 basic: "5 game board segments", "4 pirates", "90 cards (15 per symbol)", "Give
    # that player 6 cards ... all remaining players 5", "up to 2 actions".
    ("ravensburger", (2, 5), 4, 5, JUNGLE, 15, 0, 5, 1, 2, 0, False),
    # 2014 advanced: "all 6 game board segments", "all 5 pirates", "up to 3 actions".
    ("ravensburger-advanced", (2, 5), 5, 6, JUNGLE, 15, 0, 5, 1, 3, 0, False),
    # 2017: "Place 6 of the 8 board-segments", "Each of 2-5 players takes a set of 6
    # pirates", "17 for each symbol. Two cards of each symbol have a darker background",
    # "deal each player 6 cards", "from 1 to 3 actions".
    ("studiogiochi-2017", (2, 5), 6, 6, STUDIOGIOCHI, 17, 2, 6, 0, 3, 0, False),
    # 2008: "2-6 players", "six 'pirate' pieces", "six segments", "seventeen each of the
    # six symbols" (D1), "each player is dealt three cards" (D19), "up to three actions".
    ("web-2008", (2, 6), 6, 6, WEB_2008, 17, 0, 3, 0, 3, 0, False),
])
def test_preset_numbers_match_the_book(preset, players, pirates, segments, symbols, per,
                                       dark, deal, bonus, actions, row, public):
    p = PRESETS[preset]
    assert p.players == players
    g = make_game(preset, players=players[0])
    assert (g.pirates, g.segments, tuple(g.symbols), g.per_symbol, g.dark_per_symbol,
            g.deal, g.start_bonus, g.actions, g.min_actions, g.row_size, g.hands_public) == (
        pirates, segments, symbols, per, dark, deal, bonus, actions, 1, row, public)
    for n in range(players[0], players[1] + 1):
        s = make_game(preset, players=n).new_state(seed=n)
        assert len(s.game.deck) == cards_total(s) == per * 6
        assert [s.hand_size(i) for i in range(n)] == [deal + bonus] + [deal] * (n - 1)
        assert s.board.length == 6 * segments and s.board.boat == 6 * segments + 1
        assert all(p == [0] * pirates for p in s.pirates)
        assert len(s.row or ()) == row
    with pytest.raises(ValueError, match="players"):
        make_game(preset, players=players[1] + 1)
    with pytest.raises(ValueError, match="players"):
        make_game(preset, players=players[0] - 1)


def test_cartagena_rules_shows_each_presets_cards_and_range(capsys):
    from cartagena_net.cli import main
    from cartagena_net.cli import rules as cmd_rules

    for name, p in PRESETS.items():
        assert main(["rules", name]) in (0, None)
        out = capsys.readouterr().out
        g = make_game(name)
        assert f"{name:<22} {p.players[0]}-{p.players[1]} players" in out
        for key in ("pirates", "segments", "actions", "deal", "start_bonus", "row_size",
                    "hands_public", "empty_hand_draw"):
            assert f"      {key} = {getattr(g, key)}\n" in out, (name, key)
        assert f"      per_symbol = {g.per_symbol}\n" in out
        assert f"      dark_per_symbol = {g.dark_per_symbol}\n" in out
        assert f"      symbols = {list(g.symbols)}\n" in out
    main(["rules"])
    out = capsys.readouterr().out
    for o in cmd_rules.OPTIONS:  # every option is described
        assert f"\n  {o} " in out
    for a in cmd_rules.ACTIONS:
        assert f"\n  {a} " in out


# == 1672 (English and Swedish) ========================================================
def test_1672_board_36_spaces_six_segments_of_the_six_signs():
    # "6 board-segments ... a different sequence of the following 6 signs: a skull, a
    # dagger, a key, a bottle, a pistol, a three-cornered hat." "a continuous underground
    # passage of 36 spaces"; the Swedish lists five signs, D2 keeps six.
    g = make_game("jamaica")
    assert g.symbols == CLASSIC and len(set(CLASSIC)) == 6
    for seed in range(5):
        b = g.new_state(seed=seed).board
        assert b.length == 36
        for seg in range(6):
            assert sorted(b.spaces[seg * 6:seg * 6 + 6]) == list(range(6))


def test_1672_arrow_card_is_not_dealt_and_the_deck_is_102():
    # "A deck of 103 cards; on the face of one is an arrow ... Remove from the deck the
    # card with the arrow" (D1).
    g = make_game("tortuga", players=5)
    assert len(g.deck) == 102 and set(g.card_names) == set(CLASSIC)


def test_1672_jamaica_hides_hands_and_draws_from_the_stock():
    # "The players hold their cards in hand (hidden from the other players). The rest of
    # the deck is placed face down on the table to form a stock".
    s = make_game("jamaica", players=2).new_state(seed=3)
    v = view(s, 1)
    assert v["seats"][0]["hand"] is None and v["seats"][0]["hand_size"] == 6
    assert v["seats"][1]["hand"] is not None and v["row"] is None
    assert v["stock"] == 102 - 12 and "stock_cards" not in v
    assert view(s, SPECTATOR)["seats"][1]["hand"] is None


def test_1672_tortuga_open_hands_and_a_row_of_12_in_the_arrows_direction():
    # "The players lay out their cards face up on the table, for all to see. From the rest
    # of the deck, 12 cards are dealt face up in a row. The card with the arrow ... shows
    # the direction of the sequence".
    s = duo("tortuga", [[0, 8], [6, 6]], [["key"], ["hat"]])
    v = view(s, SPECTATOR)
    assert v["seats"][0]["hand"] == ["key"] and v["seats"][1]["hand"] == ["hat"]
    s = make_game("tortuga", players=3).new_state(seed=2)
    assert len(s.row) == 12 and s.hand_size(2) == 6
    assert view(s, SPECTATOR)["seats"][2]["hand"] is not None
    s = duo("tortuga", [[0, 8], [6, 6]], [[], []])
    first_two = list(s.row[:2])
    s.apply("retreat 8")  # 6 holds 2: the first two of the row, in the arrow's order
    assert s.hand_size(0) == 2
    assert sorted(k for k in range(len(s.hands[0])) for _ in range(s.hands[0][k])) == \
        sorted(first_two)


def test_1672_tortuga_new_row_of_12_when_depleted():
    # "When the row is depleted, a new 12-card row is laid out."
    s = duo("tortuga", [[0, 8], [6, 6]], [[], []])
    s.row = s.row[:1]
    s.apply("retreat 8")
    assert s.hand_size(0) == 2 and len(s.row) == 11  # a new row of 12, one taken


def test_1672_row_runs_out_mid_draw_the_rest_from_the_new_row():
    # D12: the next cards in the arrow's order, the new row's first when it runs out.
    s = duo("tortuga", [[0, 8], [6, 6]], [[], []])
    s.row = s.row[:1]
    last = s.row[0]
    next_row_head = s.stock[-1]  # the new row is dealt from the top of the stock
    s.apply("retreat 8")
    assert s.hands[0][last] >= 1 and s.hands[0][next_row_head] >= 1
    assert view(s, SPECTATOR)["seats"][0]["hand"] is not None


def test_1672_turn_one_to_three_moves_at_least_one():
    # "you may make from 1 to 3 moves ... at least one move must be made at each turn."
    s = duo("jamaica", [[0, 0], [0, 0]], [["skull"] * 4, ["key"]])
    assert "end" not in acts(s) and refused(s, "end") == "min-actions"
    s.apply("advance 0 skull")
    assert "end" in acts(s)
    s.apply("advance 0 skull")
    s.apply("advance 1 skull")
    assert s.turn == 1 and s.hand_size(0) == 1  # three moves: the turn passes (D4)


def test_1672_moves_in_any_order_and_combination():
    # "Moves may be performed in any order and in any combination"
    s = duo("jamaica", [[0, 4], [2, 5]], [["hat", "hat"], []])
    s.apply("advance 0 hat")  # the hat space 6
    s.apply("retreat 4")  # to 2 (one pirate): 1 card
    s.apply("advance 2 hat")  # 6 is taken: the next hat, 12
    assert s.pirates[0] == [6, 12] and s.hand_size(0) == 1 and s.turn == 1


def test_1672_advance_to_the_next_vacant_sign_from_start_or_passage():
    # "select one of your pirates (either one already in the underground passage or one
    # who has yet to enter it) and advance him to the next vacant space marked with the
    # same sign ... (vacant meaning not occupied by another pirate)."
    s = duo("jamaica", [[0, 2], [3, 0]], [["key", "key"], []])
    s.apply("advance 0 key")  # key at 3 is taken by blue: the next key, 9
    assert s.pirates[0] == [2, 9]
    s.apply("advance 2 key")  # 3 taken, 9 taken (own pirate too): no key ahead: sloop
    assert s.pirates[0] == [9, 13]
    assert s.discard and len(s.discard) == 2  # "Play a card to the table (discard pile)"


def test_1672_a_pirate_aboard_the_sloop_does_not_advance():
    # "select one of your pirates (either one already in the underground passage or one
    # who has yet to enter it)": not one aboard.
    s = duo("jamaica", [[13, 0], [0, 0]], [["skull"], []])
    assert acts(s) == {"advance 0 skull"}
    assert refused(s, "advance 13 skull") == "advance-from-boat"


def test_1672_no_vacant_sign_ahead_climbs_aboard_the_sloop():
    # "If there is no vacant space with the sign you selected ahead of the pirate you
    # intend to move, you can advance him all the way to the end of the passage and let
    # him climb aboard the sloop." (D8: always, the card decides)
    s = duo("jamaica", [[10, 0], [0, 0]], [["skull"], []])
    assert s.advance_target(10, 0) == 13
    s.apply("advance 10 skull")
    assert s.pirates[0] == [0, 13]


def test_1672_retreat_to_first_space_with_one_or_two_and_draw_that_many():
    # "move him backwards to the first space occupied by one or two pirates ... vacant
    # spaces and spaces occupied by three pirates are ignored ... If your pirate moving
    # backwards lands on a space occupied by 1 pirate, pick up 1 card, if ... 2, 2 cards."
    s = position("jamaica", S1672, "red,blue,green", [[2, 2, 9], [5, 5, 0], [5, 0, 0]],
                 [[], [], []], 0)
    s.apply("retreat 9")  # 8..6 empty, 5 holds three: passed; 2 holds two: +2
    assert s.pirates[0] == [2, 2, 2] and s.hand_size(0) == 2
    s = duo("jamaica", [[1, 9], [4, 4]], [[], []])
    s.apply("retreat 9")
    assert s.pirates[0] == [1, 4] and s.hand_size(0) == 2


def test_1672_retreat_may_not_skip_one_to_reach_two():
    # "you are not allowed to skip a space occupied by one pirate in order to reach one
    # occupied by two." (D7)
    s = duo("jamaica", [[2, 2, 9], [5, 0, 0]], [[], []])
    assert s.retreat_target(9) == 5
    s.apply("retreat 9")
    assert s.pirates[0] == [2, 2, 5] and s.hand_size(0) == 1


def test_1672_never_more_than_three_on_a_space():
    # "(Note that there can never be more than three pirates on a space.)" (D16)
    with pytest.raises(ValueError, match="at most 3"):
        duo("jamaica", [[4, 4], [4, 4]], [[], []])
    s = duo("jamaica", [[0, 0], [0, 0]], [[], []], pirates=2)
    s.setup([[0, 0], [0, 0]])  # the start has no limit
    assert s.occ[0] == 4


def test_1672_reshuffle_discard_when_the_deck_is_depleted():
    # "When the deck is depleted, form a new deck with the cards in the discard pile."
    s = duo("jamaica", [[0, 8], [6, 6]], [[], []])
    s.discard, s.stock = s.stock[:5], []
    s.apply("retreat 8")
    assert s.hand_size(0) == 2 and len(s.stock) == 3 and s.discard == []


def test_1672_first_to_land_six_wins_and_the_ranking():
    # "First to land his 6 pirates on the sloop wins the game." Ranking after the winner
    # (D15): most aboard, then furthest along in total, then seat order.
    boat = 13
    s = position("jamaica", S1672, "red,blue,yellow,green",
                 [[boat] * 5 + [10], [boat] * 2 + [1, 2, 3, 4], [boat] * 2 + [5, 6, 7, 8],
                  [boat] * 3 + [0] * 3], [["skull"], [], [], []], 0)
    s.apply("advance 10 skull")
    assert s.is_over and s.outcome.winner == 0
    assert s.outcome.ranking == (0, 3, 2, 1)
    assert s.legal_actions() == [] and refused(s, "end") == "game-over"


# -- the 1672 worked examples, on the illustration rebuilt --------------------------------
BOARD_1672 = "SKDBPH DHKBPS KPDHSB BKPHSD BSDKPH BSDKPH"
PIRATES_1672 = [[0, 6, 6, 17, 18, 20], [0, 0, 0, 8, 17, 17], [0, 0, 0, 0, 9, 31],
                [0, 0, 3, 12, 19, 25]]  # blue, red, yellow, green
HANDS_1672 = [["dagger"] * 4 + ["bottle"], ["skull", "key", "hat"], ["skull", "key", "hat"],
              ["pistol", "hat"]]


def illustration(turn: int) -> State:
    return position("tortuga", BOARD_1672, "blue,red,yellow,green", PIRATES_1672,
                    HANDS_1672, turn)


def test_1672_example_yellow_skull_9_to_23():
    s = illustration(2)
    assert s.advance_target(9, 0) == 23  # skipping the skulls at 12 and 17
    s.apply("advance 9 skull")
    assert s.pirates[2] == [0, 0, 0, 0, 23, 31]


def test_1672_example_red_8_back_to_6_two_cards_from_the_row():
    s = illustration(1)
    row = list(s.row)
    s.apply("retreat 8")
    assert s.pirates[1] == [0, 0, 0, 6, 17, 17] and s.hand_size(1) == 5
    assert s.row == row[2:]


def test_1672_example_1_three_daggers_open_a_road_for_the_others():
    s = illustration(0)
    for frm, to in ((0, 7), (6, 15), (6, 24)):
        s.apply(f"advance {frm} dagger")
        assert to in s.pirates[0]
    assert s.pirates[0] == [7, 15, 17, 18, 20, 24] and s.turn == 1
    # "the 3 dagger-spaces he occupied ... can now be skipped": a dagger from the start
    # now passes 3, 7, 15 and 24 in one move, to the dagger at 27.
    assert s.advance_target(0, 1) == 27


def test_1672_example_2_five_cards_by_three_retreats():
    s = illustration(0)
    for frm, to, gained in ((17, 12, 1), (18, 17, 2), (17, 12, 2)):
        before = s.hand_size(0)
        s.apply(f"retreat {frm}")
        assert to in s.pirates[0] and s.hand_size(0) == before + gained
    assert s.pirates[0] == [0, 6, 6, 12, 12, 20] and s.hand_size(0) == 10


def test_1672_example_3_bottle_to_the_sloop_retreat_and_a_gap_then_dagger():
    s = illustration(0)
    s.apply("advance 17 bottle")
    assert s.pirates[0][-1] == 37
    s.apply("retreat 18")
    assert s.hand_size(0) == 4 + 2 and s.occ[17] == 3
    assert s.occ[18] == 0 and s.advance_target(17, 3) == 18  # the gap in the bottle road
    s.apply("advance 0 dagger")
    assert s.pirates[0] == [6, 6, 7, 17, 20, 37] and s.turn == 1


@pytest.mark.parametrize("preset,options,start,goal", [
    ("jamaica", {}, "start", "sloop"),  # 1672: "the sloop is docked at the other end"
    ("web-2008", {}, "start", "sloop"),  # 2008: "the rescue sloop"
    ("ravensburger", {}, "meeting place", "rowboat"),  # 2014: meeting place, rowboat
    ("studiogiochi-2017", {}, "jail", "sloop"),  # 2017: "the jail board ... the sloop"
    ("studiogiochi-2017", {"story": "island"}, "flooded sloop", "cove"),
    ("studiogiochi-2017", {"story": "whole"}, "jail", "cove"),
])
def test_the_start_and_the_goal_keep_each_books_names(preset, options, start, goal):
    g = make_game(preset, **options)
    assert (g.start_name, g.goal_name) == (start, goal)


# == 2008 web rules ====================================================================
def test_2008_positions_zero_to_37():
    # "All pirates start the game before the first space (position zero). After the final
    # space (position 37) is the goal"; "Positions are numbered, 1-36".
    s = make_game("web-2008", players=6).new_state(seed=1)
    assert s.board.boat == 37 and s.board.length == 36 and s.pirates[5] == [0] * 6
    assert [s.hand_size(i) for i in range(6)] == [3] * 6


def test_2008_retreat_draws_the_pirates_that_were_there_and_never_to_start():
    # "The player draws a number of cards equal to the number of pirates that were on the
    # space before the move"; "The pirate cannot be moved back to the starting position."
    s = duo("web-2008", [[3, 7, 12], [3, 0, 0]], [[], []], board="BDKHGS" * 2)
    s.apply("retreat 7")
    assert s.pirates[0] == [3, 3, 12] and s.hand_size(0) == 2
    assert s.retreat_target(3) == 0 and refused(s, "retreat 3") == "no-retreat-target"


def test_2008_a_pirate_can_be_moved_backward_out_of_the_sloop():
    # "A pirate can be moved backard out of the rescue sloop." (D5)
    s = duo("web-2008", [[13, 0], [11, 0]], [[], []], board="BDKHGS" * 2)
    s.apply("retreat 13")
    assert s.pirates[0] == [0, 11] and s.hand_size(0) == 1


def test_2008_players_owners_irrelevant_on_a_space():
    # "pirates owned by different players can be on the same space with no special effect"
    s = duo("web-2008", [[2, 0], [2, 2]], [["dagger"], []], board="BDKHGS" * 2)
    assert s.occ[2] == 3
    s.apply("advance 0 dagger")  # 2 is taken by anyone: the next dagger
    assert s.pirates[0] == [2, 8]


# == 2014 Ravensburger ==================================================================
def test_2014_start_player_gets_six_the_others_five_and_sizes_are_seen():
    # "Give that player 6 cards from the deck and give all remaining players 5 cards
    # instead." "It should always be possible to see how many cards each player has".
    s = make_game("ravensburger", players=4).new_state(seed=5)
    v = view(s, 2)
    assert [x["hand_size"] for x in v["seats"]] == [6, 5, 5, 5]
    assert v["seats"][0]["hand"] is None and s.turn == 0


def test_2014_two_actions_same_action_twice_with_the_same_pirate():
    # "up to 2 actions ... You can also carry out the same action twice, either both times
    # with the same pirate or with two different pirates."
    s = duo("ravensburger", [[0, 0, 0, 0], [0, 0, 0, 0]], [["rum", "key"], []])
    s.apply("advance 0 rum")
    s.apply("advance 1 key")
    assert s.pirates[0] == [0, 0, 0, 2] and s.turn == 1


def test_2014_pass_with_one_action_but_not_both():
    # "You are also allowed to pass with one of your actions ... but not with both!"
    s = duo("ravensburger", [[0] * 4, [0] * 4], [["rum"], []])
    assert refused(s, "end") == "min-actions"
    s.apply("advance 0 rum")
    s.apply("end")
    assert s.turn == 1


def test_2014_advance_skips_occupied_matching_symbols_then_the_boat():
    # "to the first unoccupied symbol of the type you just played. Skip over ... symbols
    # that match your card but are occupied" / "If there are no empty matching symbols
    # between the pirate ... and the end of the trail, then you place your pirate
    # directly into the boat instead."
    s = duo("ravensburger", [[0, 0, 0, 1], [7, 0, 0, 0]], [["rum", "rum"], []])
    s.apply("advance 0 rum")  # 1 own, 7 blue: boat
    assert s.pirates[0] == [0, 0, 1, 13]


def test_2014_retreat_rules_boat_meeting_place_and_three():
    # "Skip over any spaces with 3 pirates, along with any unoccupied spaces."; "Pirates
    # that are already on board the boat may also be moved backward"; "You are never
    # allowed to move back to the meeting place!"
    s = duo("ravensburger", [[13, 8, 8, 2], [8, 0, 0, 0]], [[], []])
    s.apply("retreat 13")  # 12..9 empty, 8 holds 3: passed; 2 holds 1
    assert s.pirates[0] == [2, 2, 8, 8] and s.hand_size(0) == 1
    s.apply("retreat 8")  # 2 now holds 2
    assert s.pirates[0] == [2, 2, 2, 8] and s.hand_size(0) == 3
    s = duo("ravensburger", [[3, 0, 0, 0], [0, 0, 0, 0]], [[], []])
    assert refused(s, "retreat 3") == "no-retreat-target"


def test_2014_no_cards_and_no_retreat_draws_one_as_the_whole_turn():
    # "If a player has run out of cards but also has no pirates that can be legally moved
    # backward, then, as an exception, that player may draw a single card ... This is
    # then that player's entire turn!" (D9, stuck)
    s = duo("ravensburger", [[3, 0, 0, 0], [0, 0, 0, 0]], [[], ["rum"]])
    assert acts(s) == {"draw"}
    s.apply("draw")
    assert s.hand_size(0) == 1 and s.turn == 1
    s = duo("ravensburger", [[3, 5, 0, 0], [0, 0, 0, 0]], [[], ["rum"]])
    assert "draw" not in acts(s) and refused(s, "draw") == "draw-not-allowed"
    s = duo("ravensburger", [[3, 0, 0, 0], [0, 0, 0, 0]], [["key"], ["rum"]])
    assert refused(s, "draw") == "draw-not-allowed"  # only when out of cards


def test_2014_the_three_limit_does_not_count_for_meeting_place_or_boat():
    # "Naturally this rule does not count for the meeting space or the boat."
    s = duo("ravensburger", [[13, 13, 13, 12], [13, 0, 0, 0]], [["spyglass"], []])
    s.apply("advance 12 spyglass")
    assert s.occ[13] == 5 and s.outcome.winner == 0


def test_2014_game_over_as_soon_as_the_last_pirate_is_on_board():
    # "The game is over as soon as one player moves their last pirate onto the board."
    s = duo("ravensburger", [[13, 13, 13, 11], [0] * 4], [["lantern", "rum"], []])
    s.apply("advance 11 lantern")
    assert s.is_over and s.outcome.ranking == (0, 1)
    assert refused(s, "advance 0 rum") == "game-over"


def test_2014_advanced_five_pirates_six_segments_three_actions():
    s = duo("ravensburger-advanced", [[0] * 5, [0] * 5], [["rum"] * 3, []])
    for _ in range(3):
        s.apply("advance 0 rum")
    assert s.pirates[0] == [0, 0, 1, 7, 13] and s.turn == 1


# -- the 2014 worked examples -----------------------------------------------------------
BOARD_2014 = "RKPHLS SRKPHL RKHPLS LRKSPH PLSRKH"
PIRATES_2014 = [[10, 19, 20, 24], [21, 26, 30, 31], [18, 22, 25, 30], [16, 16, 19, 19]]
HANDS_2014 = [["pistol", "lantern", "spyglass"], ["lantern", "pistol"], [], ["rum"]]


def jungle(turn: int) -> State:
    return position("ravensburger", BOARD_2014, "black,grey,purple,yellow", PIRATES_2014,
                    HANDS_2014, turn)


def test_2014_examples_black():
    for card in ("pistol", "lantern"):  # "all pistols and lanterns in front ... occupied"
        assert jungle(0).advance_target(24, JUNGLE.index(card)) == 31
    s = jungle(0)
    assert s.advance_target(10, JUNGLE.index("spyglass")) == 27  # last segment's spyglass
    assert s.occ[19] == 3 and s.retreat_target(20) == 18  # not the lantern with three
    s.apply("retreat 20")
    assert s.hand_size(0) == 4 and s.retreat_target(18) == 16  # not back to 16 directly
    s.apply("retreat 18")
    assert 16 in s.pirates[0] and s.hand_size(0) == 6 and s.turn == 1


def test_2014_examples_grey():
    s = jungle(1)
    assert s.advance_target(21, JUNGLE.index("lantern")) == 31
    assert s.advance_target(21, JUNGLE.index("pistol")) == 23  # "only ... 2 spaces"
    s.apply("retreat 31")  # from the boat to the hook space before it, 2 pirates there
    assert s.board.spaces[29] == JUNGLE.index("hook") and s.hand_size(1) == 4


# == 2017 studiogiochi: the basic game ==================================================
def test_2017_setup_jail_sloop_six_pirates_deal_six_hidden():
    # "Place the jail board at one end of the path and the sloop ... at the other end."
    # "deal each player 6 cards, face-down."
    g = make_game("studiogiochi-2017", players=5)
    assert (g.start_name, g.goal_name) == ("jail", "sloop")
    s = g.new_state(seed=4)
    assert [s.hand_size(i) for i in range(5)] == [6] * 5
    assert view(s, 0)["seats"][1]["hand"] is None


def test_2017_a_just_drawn_card_is_usable_the_same_turn():
    # "A just drawn card can be used in a following actions of the same turn." (D22)
    s = duo("studiogiochi-2017", [[0, 8], [6, 0]], [[], []])
    s.apply("retreat 8")
    card = next(c for c in STUDIOGIOCHI if s.hands[0][STUDIOGIOCHI.index(c)]
                or s.hands[0][STUDIOGIOCHI.index(c) + 6])
    dark = "" if s.hands[0][STUDIOGIOCHI.index(card)] else "*"
    s.apply(f"advance 0 {card}{dark}")
    assert s.taken == 2 and s.hand_size(0) == 0


def test_2017_no_cards_may_skip_the_turn_and_draw_one_even_with_a_retreat():
    # "In case a player has no cards left he may skip his whole turn and draw one card."
    s = duo("studiogiochi-2017", [[0, 8], [6, 0]], [[], ["gun"]])
    assert {"draw", "retreat 8"} <= acts(s)
    s.apply("draw")
    assert s.hand_size(0) == 1 and s.turn == 1


def test_2017_segments_four_to_eight_and_four_or_five_pirates():
    # "To play a short game, use 4 board segments; we recommend 7-8 board segments" /
    # "it is also possible to play with 4-5 pirates instead of 6."
    for segs in (4, 5, 6, 7, 8):
        assert make_game("studiogiochi-2017", segments=segs).new_state(
            seed=0).board.length == 6 * segs
    for pirates in (4, 5):
        s = make_game("studiogiochi-2017", pirates=pirates).new_state(seed=0)
        assert s.pirates[0] == [0] * pirates


def test_2017_island_story_flooded_sloop_to_the_cove():
    # "Use the board segments on the island-side ... The pirates move from the flooded
    # sloop to the cove."
    s = duo("studiogiochi-2017", [[12, 0], [0, 0]], [["gun"], []], story="island")
    assert (s.game.start_name, s.game.goal_name) == ("flooded sloop", "cove")
    s.apply("advance 12 gun")
    assert s.pirates[0] == [0, 13]


# == Morgan ============================================================================
def test_morgan_pushes_an_opponent_to_the_first_space_with_one_or_two():
    # "The player chooses one opponent pirate and moves it forward until it reaches a
    # space occupied by one or two pirates. The player bypasses empty spaces and spaces
    # occupied by three pirates. ... one pirate, the player draws one card; ... two
    # pirates, ... two cards."
    s = position("studiogiochi-2017", G2017, "red,blue,green",
                 [[0, 4, 4], [2, 0, 0], [4, 9, 9]], [[], [], []], 0, morgan="instead")
    s.apply("morgan 1 2")  # 3 empty, 4 holds three: passed; 9 holds two
    assert s.pirates[1] == [0, 0, 9] and s.hand_size(0) == 2
    s.apply("morgan 2 4")  # 5..8 empty, 9 holds three now: passed; nothing: the sloop
    assert s.pirates[2] == [9, 9, 13] and s.hand_size(0) == 4


def test_morgan_from_the_jail_and_one_card_for_one_pirate():
    s = duo("studiogiochi-2017", [[5, 0], [0, 0]], [[], []], morgan="instead")
    assert "morgan 1 0" in acts(s)  # D13: a pirate at the start may be pushed
    s.apply("morgan 1 0")
    assert s.pirates[1] == [0, 5] and s.hand_size(0) == 1


def test_morgan_to_the_sloop_draws_two_regardless_and_may_win_for_the_owner():
    # "If there are no suitable spaces, the pirate may either jump aboard the sloop ...
    # In this case the player draws two cards ..., regardless of the number of pirates on
    # the sloop". A pirate so pushed counts for its owner (D13).
    s = duo("studiogiochi-2017", [[0, 0], [13, 10]], [[], []], morgan="instead")
    s.apply("morgan 1 10")
    assert s.hand_size(0) == 2 and s.outcome.winner == 1


def test_morgan_instead_or_also_and_never_ones_own_pirate():
    # "The players may choose which kind of card recharge to use in a game. They can even
    # be used together" (D13).
    s = duo("studiogiochi-2017", [[0, 8], [6, 0]], [["gun"], []], morgan="instead")
    kinds = {a.kind for a in s.legal_actions()}
    assert "retreat" not in kinds and "morgan" in kinds
    assert refused(s, "retreat 8") == "no-retreat"
    assert refused(s, "morgan 0 8") == "morgan-own-pirate"
    s = duo("studiogiochi-2017", [[0, 8], [6, 0]], [["gun"], []], morgan="also")
    assert {"retreat", "morgan"} <= {a.kind for a in s.legal_actions()}
    s = duo("studiogiochi-2017", [[0, 8], [6, 0]], [["gun"], []])
    assert "morgan" not in {a.kind for a in s.legal_actions()}


def test_morgan_counts_as_a_recharge_for_the_stuck_draw():
    # D9: `stuck` draws only with no legal recharge, Morgan included.
    s = duo("jamaica", [[3, 0], [0, 0]], [[], ["key"]], morgan="instead")
    assert "draw" not in acts(s) and "morgan 1 0" in acts(s)


# == Filibusters ========================================================================
def test_filibusters_others_over_seven_discard_their_choice():
    # "Every time a dark background card is used each player (except for the one who
    # played it) has to discard all additional cards (over the 7 allowed). Each player can
    # choose which cards to discard."
    big = ["gun"] * 4 + ["rum"] * 5
    s = position("studiogiochi-2017", G2017, "red,blue,green", [[0], [0], [0]],
                 [["gun*"] + big, big, big[:7]], 0, filibusters=True, pirates=1)
    s.apply("advance 0 gun*")
    assert s.pending == [(1, 2, "discard")] and s.actor == 1  # red (10 → 9 left) is not asked
    assert {str(a) for a in s.legal_actions()} == {"discard gun", "discard rum"}
    s.apply("discard rum rum")
    assert s.actor == 0 and s.hand_size(1) == 7 and s.hand_size(0) == 9


def test_filibusters_on_the_last_action_the_turn_passes_once_debts_are_paid():
    s = duo("studiogiochi-2017", [[0, 0], [0, 0]], [["gun*", "rum", "rum"], ["gun"] * 9],
            filibusters=True)
    s.apply("advance 0 rum")
    s.apply("advance 0 rum")
    s.apply("advance 2 gun*")
    assert (s.turn, s.actor, s.pending) == (0, 1, [(1, 2, "discard")])
    s.apply("discard gun gun")
    assert (s.turn, s.actor, s.taken) == (1, 1, 0)


def test_filibusters_a_winning_dark_card_leaves_no_debt():
    # The game is over the moment the last pirate boards (D15).
    s = duo("studiogiochi-2017", [[13, 12], [0, 0]], [["chest*"], ["gun"] * 9],
            filibusters=True)
    s.apply("advance 12 chest*")
    assert s.outcome.winner == 0 and s.pending == []


def test_filibusters_a_light_card_asks_nothing():
    s = duo("studiogiochi-2017", [[0], [0]], [["gun"], ["rum"] * 9], filibusters=True,
            pirates=1)
    s.apply("advance 0 gun")
    assert s.pending == [] and s.actor == 0


def test_filibusters_combines_with_morgan_segments_pirates_and_stories():
    # "This rule may be applied or not regardless of the number of board segments, the
    # number of pirates or the story replayed." "Advise: Apply this rule while playing the
    # Morgan version." (D36)
    for story in ("escape", "island", "whole"):
        g = make_game("studiogiochi-2017", filibusters=True, morgan="also", pirates=4,
                      segments=4, story=story)
        assert g.filibusters and g.new_state(seed=1).pirates[0] == [0] * 4


# == The Whole Jailbreak ================================================================
PASSAGE = "GLPHCR GLPHCR GLPRHC"
ISLAND = "RGLPHC RGLPHC RGLPHC"
SLOOP, COVE = 19, 38


def whole(placed, hands, turn=0, shore="cartagena", colors="red,blue", **options) -> State:
    s = position("studiogiochi-2017", f"{PASSAGE} / {ISLAND}", colors, placed, hands, turn,
                 story="whole", **options)
    s.setup(placed, turn=turn, shore=shore)
    return s


def test_whole_three_or_more_segments_a_path():
    # "use 3 or more board segments to create the underground passage and 3 or more
    # island board segments" (D25)
    with pytest.raises(ValueError, match="3 or more"):
        make_game("studiogiochi-2017", story="whole", segments=2)
    g = make_game("studiogiochi-2017", story="whole", segments=4, island_segments=3)
    b = g.new_state(seed=0).board
    assert b.paths == ((1, 24), (26, 43)) and b.sloop == 25 and b.boat == 44


def test_whole_move_the_sloop_uses_an_action_and_needs_a_pirate_aboard():
    # "the player uses one of their three actions"; "If the sloop stands on Cartagena,
    # the player may move it to Tortuga only if the player has at least one pirate
    # aboard it."
    s = whole([[SLOOP, 0], [SLOOP, SLOOP]], [["gun"], []])
    assert s.extra["captain"] is None  # blue has more aboard
    s.apply("sail")
    assert s.extra["shore"] == "tortuga" and s.taken == 1
    s = whole([[5, 0], [SLOOP, 0]], [["gun"], []])
    assert refused(s, "sail") == "sail-nobody-aboard"


def test_whole_sail_back_needs_a_pirate_in_the_passage():
    # "If the sloop stands on Tortuga, the player may move it to Cartagena only if the
    # player still has at least one pirate in the underground passage." (D26)
    s = whole([[SLOOP, 25], [3, 0]], [["gun"], []], shore="tortuga")
    assert refused(s, "sail") == "sail-nobody-waiting"
    s = whole([[SLOOP, 5], [3, 0]], [["gun"], []], shore="tortuga")
    s.apply("sail")
    # "When the sloop moves back to Cartagena, all pirates aboard stay on the sloop."
    assert s.extra["shore"] == "cartagena" and SLOOP in s.pirates[0]
    s = whole([[SLOOP, 0], [3, 0]], [["gun"], []], shore="tortuga", jail_in_passage=False)
    assert refused(s, "sail") == "sail-nobody-waiting"


def test_whole_three_of_a_colour_aboard_at_most():
    # "The sloop may be occupied by a maximum of three pirates of the same color." (D30)
    s = whole([[SLOOP] * 3 + [17], [0] * 4], [["gun"], []], pirates=4)
    assert refused(s, "advance 17 gun") == "sloop-full"
    s = whole([[SLOOP] * 2 + [0, 17], [SLOOP] * 3 + [0]], [["gun"], []], pirates=4)
    s.apply("advance 17 gun")
    assert s.pirates[0].count(SLOOP) == 3  # the other colour's three do not count


def test_whole_land_one_at_a_time_by_advancing_anyone_aboard():
    # "Once the sloop is moved to Tortuga, players use the action 'Play a card and advance
    # a pirate' to disembark the pirates, one at a time."
    s = whole([[SLOOP, 0], [SLOOP, SLOOP]], [["gun"], ["rum", "gun"]], turn=1)
    assert refused(s, f"advance {SLOOP} gun") == "sloop-at-cartagena"
    s = whole([[SLOOP, 0], [SLOOP, SLOOP]], [["gun"], ["rum", "gun"]], shore="tortuga",
              turn=1)
    s.apply(f"advance {SLOOP} rum")  # the island's first rum, our 20
    s.apply(f"advance {SLOOP} gun")
    assert s.pirates[1] == [20, 21]


def test_whole_captain_sails_free_even_on_a_tie_and_more_sails_cost():
    # "if at the beginning of their turn a player has the largest number of pirates on
    # board (or equal in number to those of another player), that player is the Captain
    # and can move the sloop before using their three actions and consuming none of
    # them." "the player may move the sloop more than once on their turn." (D27, D28)
    s = whole([[SLOOP, 5], [SLOOP, 0]], [["gun"], []])
    assert s.extra["captain"] == 0
    s.apply("sail")
    assert s.taken == 0 and s.extra["shore"] == "tortuga"
    s.apply("sail")  # back (5 is in the passage): this one costs
    s.apply("sail")
    assert s.taken == 2 and s.extra["shore"] == "tortuga"
    s.apply(f"advance {SLOOP} gun")
    assert s.turn == 1


def test_whole_a_captain_with_no_cards_may_sail_free_then_draw_as_the_turn():
    # "can move the sloop before using their three actions and consuming none of them" and
    # "In case a player has no cards left he may skip his whole turn and draw one card."
    # (D28, D35): the free sail is not one of the turn's actions.
    s = whole([[SLOOP, 5], [SLOOP, 0]], [[], ["gun"]])
    assert {"sail", "draw"} <= acts(s)
    s.apply("sail")
    assert "draw" in acts(s)
    s.apply("draw")
    assert s.turn == 1 and s.hand_size(0) == 1 and s.extra["shore"] == "tortuga"
    s = whole([[SLOOP, 5], [SLOOP, SLOOP]], [[], ["gun"]])  # not the Captain
    s.apply("sail")  # a paid sail is an action: no draw after it
    assert "draw" not in acts(s) and s.taken == 1


def test_whole_nobody_aboard_no_captain():
    s = whole([[5, 0], [3, 0]], [["gun"], []])
    assert s.extra["captain"] is None  # D29


def test_whole_win_only_in_the_cove_and_ranking():
    # "through the island path of Tortuga Island they reach the cove" (D31)
    s = whole([[COVE, 37], [SLOOP, SLOOP]], [["chest"], []], shore="tortuga")
    s.apply("advance 37 chest")
    assert s.outcome.winner == 0 and s.pirates[0] == [COVE, COVE]


def test_whole_example_2_morgan():
    # "EXAMPLE 2: The green player may play a rum card and move a pirate from the jail to
    # the sloop (e) (skipping spaces 6,12 and 16 as they are already occupied).
    # Afterwards, the player moves the yellow pawn from space 36 to the cove (f) (drawing
    # two cards) and the blue pawn from space 7 to 10 (g) (drawing another two cards)."
    # The book's island space n is our n + 1 (D25).
    placed = [[0, 0, 6, 12, 16, SLOOP], [0, 0, 10, 10, 25, 37], [0, 0, 0, 7, 22, 30]]
    s = position("studiogiochi-2017", f"{PASSAGE} / {ISLAND}", "green,yellow,blue",
                 placed, [["rum"], [], []], 0, story="whole", morgan="instead")
    s.apply("advance 0 rum")
    assert s.pirates[0].count(SLOOP) == 2
    s.apply("morgan 1 37")
    assert COVE in s.pirates[1] and s.hand_size(0) == 2
    s.apply("morgan 2 7")
    assert 10 in s.pirates[2] and s.hand_size(0) == 4 and s.turn == 1


def test_whole_morgan_cannot_jump_a_full_sloop():
    # "when there are already three pirates of the same color on it, no other pirate of
    # that color can jump aboard." (D33)
    s = whole([[0, 0, 0, 0], [SLOOP] * 3 + [17]], [[], []], morgan="instead", pirates=4)
    assert "morgan 1 17" not in acts(s)
    s = whole([[0, 0, 0, 0], [SLOOP] * 2 + [0, 17]], [[], []], morgan="instead", pirates=4)
    s.apply("morgan 1 17")
    assert s.pirates[1].count(SLOOP) == 3 and s.hand_size(0) == 2


def test_whole_morgan_on_the_island_the_basic_one_in_the_passage():
    # "the basic one playing in the underground passage and the Morgan's one crossing the
    # island" (D34)
    s = whole([[5, 0], [3, 30]], [[], []], morgan="island")
    a = acts(s)
    assert "retreat 5" in a and "morgan 1 30" in a and "morgan 1 3" not in a
