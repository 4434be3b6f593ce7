"""Edge cases of the rules, each as decided in docs/rules.md."""
from __future__ import annotations

import pytest

from cartagena_net.engine import (
    PRESETS,
    IllegalActionError,
    InvalidActionError,
    State,
    legal_actions,
    make_game,
    parse_action,
    view,
)

from .helpers import cards_total, position

BOARD = "SDKBPH" * 2  # 12 spaces, boat = 13


def two(pirates, hands, turn=0, preset="jamaica", board=BOARD, **options) -> State:
    return position(preset, board, "red,blue", pirates, hands, turn, **options)


def test_every_preset_sets_up_its_deck_deal_and_board():
    expect = {  # preset: (cards, spaces, pirates, deal to seat 0, deal to seat 1, row)
        "jamaica": (102, 36, 6, 6, 6, 0),
        "tortuga": (102, 36, 6, 6, 6, 12),
        "hispaniola": (102, 36, 6, 6, 6, 12),
        "ravensburger": (90, 30, 4, 6, 5, 0),
        "ravensburger-advanced": (90, 36, 5, 6, 5, 0),
        "studiogiochi-2017": (102, 36, 6, 6, 6, 0),
        "web-2008": (102, 36, 6, 3, 3, 0),
    }
    assert set(expect) == set(PRESETS)
    for name, (cards, spaces, pirates, d0, d1, row) in expect.items():
        s = make_game(name, players=2).new_state(seed=1)
        assert cards_total(s) == cards == len(s.game.deck), name
        assert s.board.length == spaces and len(s.pirates[0]) == pirates, name
        assert (s.hand_size(0), s.hand_size(1), len(s.row or ())) == (d0, d1, row), name
        for seg in range(spaces // 6):  # every segment holds each symbol once
            assert sorted(s.board.spaces[seg * 6:seg * 6 + 6]) == list(range(6)), name


def test_studiogiochi_has_two_dark_cards_of_each_symbol():
    g = make_game("studiogiochi-2017")
    assert len(g.deck) == 102
    assert sum(1 for k in g.deck if g.card_names[k].endswith("*")) == 12


def test_player_ranges_and_bad_options_are_refused_with_reasons():
    with pytest.raises(ValueError, match="2 to 5 players"):
        make_game("jamaica", players=6)
    assert make_game("web-2008", players=6).players == 6
    with pytest.raises(ValueError, match="unknown option"):
        make_game("jamaica", flying=True)
    with pytest.raises(ValueError, match="filibusters needs dark cards"):
        make_game("jamaica", filibusters=True)
    with pytest.raises(ValueError, match="unknown symbol"):
        make_game("jamaica", board="XYZ")
    with pytest.raises(ValueError, match="unknown rules"):
        make_game("monopoly")


def test_nothing_retreats_to_the_start():
    s = two([[3, 0], [0, 0]], [["key"], []])
    assert "retreat 3" not in map(str, s.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        s.apply("retreat 3")
    assert err.value.rule == "no-retreat-target"
    with pytest.raises(IllegalActionError) as err:
        s.apply("retreat 0")
    assert err.value.rule == "retreat-from-start"


def test_a_pirate_in_the_boat_may_retreat():
    s = two([[13, 0], [5, 0]], [[], []])
    s.apply("retreat 13")
    assert s.pirates[0] == [0, 5] and s.hand_size(0) == 1


def test_retreat_passes_over_spaces_with_three():
    s = position("jamaica", BOARD, "red,blue", [[9, 5, 5], [5, 2, 0]], [[], []], 0)
    assert s.retreat_target(9) == 2  # 5 holds 3 pirates: passed by


def test_advance_skips_taken_spaces_and_boards_when_none_is_free():
    s = two([[0, 0], [1, 7]], [["skull", "skull"], []])  # skulls at 1 and 7, both taken
    s.apply("advance 0 skull")
    assert s.pirates[0] == [0, 13]
    with pytest.raises(IllegalActionError) as err:
        s.apply("advance 13 skull")
    assert err.value.rule == "advance-from-boat"


def test_never_more_than_three_on_a_space():
    with pytest.raises(ValueError, match="at most 3"):
        position("jamaica", BOARD, "red,blue", [[4, 4], [4, 4]], None, 0)


def test_the_game_ends_the_moment_the_last_pirate_boards_even_mid_turn():
    s = two([[12, 13], [0, 0]], [["skull", "key"], []], board="SDKBPH" + "DKBPHS")
    s.apply("advance 12 key")  # no key ahead of 12: into the boat
    assert s.is_over and s.outcome.winner == 0 and s.outcome.ranking == (0, 1)
    assert s.actor is None and s.legal_actions() == [] and s.taken == 1
    with pytest.raises(IllegalActionError) as err:
        s.apply("end")
    assert err.value.rule == "game-over"
    assert view(s, 1)["outcome"] == {"winner": 0, "ranking": [0, 1]}


def test_at_least_one_action_then_end_and_at_most_three():
    s = two([[0, 0], [0, 0]], [["skull", "dagger", "key", "hat"], ["hat"]])
    with pytest.raises(IllegalActionError) as err:
        s.apply("end")
    assert err.value.rule == "min-actions"
    s.apply("advance 0 skull")
    assert "end" in map(str, s.legal_actions())
    s.apply("advance 0 dagger")
    s.apply("advance 1 key")
    assert s.turn == 1 and s.taken == 0  # the third action passed the turn


def test_ravensburger_two_actions_one_may_be_passed_but_not_both():
    s = make_game("ravensburger", players=2).new_state(seed=3)
    assert "end" not in map(str, s.legal_actions())
    first = next(a for a in s.legal_actions() if a.kind == "advance")
    s.apply(first)
    assert "end" in map(str, s.legal_actions())
    s.apply(next(a for a in s.legal_actions() if a.kind == "advance"))
    assert s.turn == 1


def test_stock_and_discard_both_empty_a_retreat_draws_what_there_is():
    g = make_game("jamaica", players=2, board=BOARD, pirates=2)
    s = g.new_state(seed=0)
    everything = [g.card_names[k] for k in g.deck]
    s.setup([[5, 4], [4, 0]], hands=[[], everything])
    assert s.stock == [] and s.discard == []
    s.apply("retreat 5")  # lands on 4 (2 pirates): would draw 2, there are none
    assert s.hand_size(0) == 0 and cards_total(s) == 102
    assert view(s, 0, since=0)["events"][-1]["drawn"] == 0


def test_a_turn_in_which_nothing_is_possible_passes_with_a_draw_of_nothing():
    g = make_game("jamaica", players=2, board=BOARD, pirates=2)
    s = g.new_state(seed=0)
    everything = [g.card_names[k] for k in g.deck]
    s.setup([[0, 0], [3, 0]], hands=[[], everything])
    assert [str(a) for a in s.legal_actions()] == ["draw"]
    s.apply("draw")
    assert s.turn == 1 and s.hand_size(0) == 0


def test_empty_hand_draw_stuck_only_without_a_retreat():
    s = two([[5, 0], [3, 0]], [[], ["key"]])
    assert "draw" not in map(str, s.legal_actions())  # retreat 5 -> 3 is possible
    with pytest.raises(IllegalActionError) as err:
        s.apply("draw")
    assert err.value.rule == "draw-not-allowed"
    s = two([[5, 0], [3, 0]], [[], ["gun"]], preset="studiogiochi-2017",
            board="GRLPHC" * 2)
    assert "draw" in map(str, s.legal_actions())  # 2017: an empty hand may always draw


def test_discard_pile_becomes_the_new_stock_when_the_stock_runs_out():
    s = make_game("jamaica", players=2, board=BOARD, pirates=2).new_state(seed=4)
    s.setup([[6, 5], [4, 0]])
    s.discard, s.stock = s.stock[:-1], s.stock[-1:]
    s.apply("retreat 6")  # to 5: draws the last card of the stock
    assert s.stock == []
    s.apply("retreat 5")  # to 4: the discard pile is shuffled into a new stock
    assert any(e.kind == "reshuffle" for e in s.events)
    assert cards_total(s) == 102


def test_tortuga_lays_out_a_new_row_when_the_row_is_used_up():
    s = make_game("tortuga", players=2, board=BOARD, pirates=2).new_state(seed=5)
    s.setup([[5, 0], [4, 4]])
    s.discard += s.row[1:]
    s.row = s.row[:1]
    nxt = s.stock[-12:][::-1]
    s.apply("retreat 5")  # 2 cards: the last of the row, then the first of a new row
    assert s.row == nxt[1:] and cards_total(s) == 102


def test_morgan_moves_an_opponent_forward_and_draws():
    board = "GRLPHC" * 2
    s = two([[0, 0], [2, 0]], [[], []], preset="studiogiochi-2017", board=board,
            morgan="instead")
    kinds = {a.kind for a in s.legal_actions()}
    assert "retreat" not in kinds and "morgan" in kinds
    s.setup([[0, 6], [2, 0]])
    s.apply("morgan 1 2")  # blue's pirate at 2 moves up to 6 (one red pirate): draw 1
    assert s.pirates[1] == [0, 6] and s.hand_size(0) == 1
    s.apply("morgan 1 6")  # no space ahead with 1 or 2: into the sloop, draw 2
    assert s.pirates[1] == [0, 13] and s.hand_size(0) == 3
    with pytest.raises(IllegalActionError) as err:
        s.apply("morgan 0 6")
    assert err.value.rule == "morgan-own-pirate"


def test_filibusters_make_others_discard_down_to_seven_before_play_goes_on():
    board = "GRLPHC" * 2
    big = ["gun"] * 5 + ["rum"] * 5
    s = position("studiogiochi-2017", board, "red,blue,green", [[0], [0], [0]],
                 [["gun*", "rum"], big, big[:8]], 0, filibusters=True)
    s.apply("advance 0 gun*")
    assert [(p[0], p[1]) for p in s.pending] == [(1, 3), (2, 1)]
    assert s.actor == 1
    with pytest.raises(IllegalActionError) as err:
        s.apply("advance 0 rum", seat=0)
    assert err.value.rule == "not-your-turn"
    with pytest.raises(IllegalActionError) as err:
        s.apply("advance 0 gun")
    assert err.value.rule == "decision-owed"
    s.apply("discard gun gun")
    s.apply("discard rum")
    assert s.actor == 2 and s.hand_size(1) == 7
    s.apply("discard gun")
    assert s.actor == 0 and s.hand_size(2) == 7 and s.taken == 1


def test_illegal_actions_name_the_rule_and_change_nothing():
    s = make_game("jamaica").new_state(seed=9)
    before = s.copy()
    cases = {
        "advance 7 skull": "no-pirate-there",
        "advance 0 parrot": "unknown-card",
        "retreat 0": "retreat-from-start",
        "morgan 1 0": "morgan-off",
        "discard skull": "discard-not-owed",
        "end": "min-actions",
    }
    missing = next(n for n in s.game.symbols if not s.hands[0][s.game.card_index[n]])
    cases[f"advance 0 {missing}"] = "card-not-in-hand"
    for text, rule in cases.items():
        with pytest.raises(IllegalActionError) as err:
            s.apply(text)
        assert err.value.rule == rule, text
        assert s == before
    with pytest.raises(IllegalActionError) as err:
        s.apply("advance 0 skull", seat=2)
    assert err.value.rule == "not-your-turn"
    for junk in ("", "fly 3", "advance x skull", "advance 3", "retreat -1", "advance 3 SK!",
                 "power", "power skull", "power gun", "power rum 3", "power parrot 4 rum",
                 "take", "give rum", "give 1", "keep a b", "stack 3"):
        with pytest.raises(InvalidActionError):
            s.apply(junk)
    assert s == before and s.history == []


@pytest.mark.parametrize("text", [
    "advance 0 skull", "advance 37 key*", "retreat 12", "morgan 2 5", "draw", "end",
    "discard skull", "discard gun* rum", "power gun 1", "power gun* 3", "power rum",
    "power lantern*", "power chest 12", "power parrot parrot* 4 rum", "power hook hook 0",
    "take chest*", "give 2 rum", "keep lantern", "stack gun*",
])
def test_notation_round_trips(text):
    a = parse_action(text)
    assert str(a) == text and parse_action(str(a)) == a
    assert parse_action(f"  {text.upper()} ") == a


def test_forgotten_events_keep_their_numbers():
    s = make_game("jamaica", players=2).new_state(seed=11)
    for _ in range(30):
        s.apply(s.legal_actions()[0])
    total = s.event_count
    tail = view(s, 0, since=total - 3)["events"]
    s.forget_events(total - 5)
    assert s.event_count == total and len(s.events) == 5
    assert view(s, 0, since=total - 3)["events"] == tail
    assert len(view(s, 0, since=0)["events"]) == 5  # older ones are gone, not renumbered
    s.forget_events(total + 10)
    assert s.event_count == total and s.events == []


def test_legal_actions_function_matches_the_method():
    s = make_game("tortuga", players=3).new_state(seed=2)
    assert legal_actions(s) == s.legal_actions() and legal_actions(s)


def test_legal_actions_ask_only_the_checks_that_can_refuse_something():
    """Morgan refuses moves only when it recharges on the island alone (morgan=island):
    otherwise its check is not asked for every move listed; the sloop's always is."""
    assert make_game("studiogiochi-2017", morgan="also", filibusters=True).rules.checks == ()
    assert make_game("studiogiochi-2017", morgan="instead").rules.checks == ()
    whole = make_game("studiogiochi-2017", story="whole", morgan="also").rules
    assert [c.__self__.__class__.__name__ for c in whole.checks] == ["Sloop"]
    island = make_game("studiogiochi-2017", story="whole", morgan="island").rules
    assert sorted(c.__self__.__class__.__name__ for c in island.checks) == ["Morgan", "Sloop"]
