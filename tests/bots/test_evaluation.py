"""The worth of a hand, shared by the greedy bot and the search: a card counts by the
advance its symbol gives, and cards past what the way needs or past the Filibusters
limit count for less."""
from __future__ import annotations

import math

from cartagena_net.bots.evaluation import (
    CARD_VALUE,
    DUPLICATE_DECAY,
    LOW_HAND_BONUS,
    OVER_LIMIT,
    card_values,
    cards_needed,
    hand_worth,
    symbol_cards,
)
from cartagena_net.bots.ismcts import TEMPERATURE, best_advances, rewards, seat_value
from cartagena_net.engine import make_game


def test_a_card_counts_by_the_advance_its_symbol_gives():
    long, short = card_values([(1, 9), (1, 2)])
    assert long > short
    assert long == 0.5 * CARD_VALUE + 0.5 * 9
    # A second card of one symbol is worth less than the first; gains are capped.
    first, second = card_values([(2, 5)])
    assert second < first
    assert card_values([(1, 100)]) == card_values([(1, 3 * CARD_VALUE)])


def test_a_symbols_cards_are_worth_what_the_formula_says_each_time_they_are_asked():
    """The worths are kept once computed; asked again (or for a gain past the cap),
    they are still half a flat value and half the advance, less for each further card."""
    for _ in range(2):
        for count in range(6):
            for gain in (0, 1, 2.5, 7, 3 * CARD_VALUE, 30):
                base = 0.5 * CARD_VALUE + 0.5 * min(float(gain), 3.0 * CARD_VALUE)
                expected = [base * DUPLICATE_DECAY**k for k in range(count)]
                assert list(symbol_cards(count, gain)) == expected
                assert card_values([(count, gain)]) == expected


def test_cards_beyond_the_need_and_the_limit_count_for_less():
    need = cards_needed(20)  # 20 spaces to go: 4 cards
    assert need == 4
    full = [6.0] * 8
    steps = [hand_worth(full[:k], need) - hand_worth(full[:k - 1], need) for k in range(1, 9)]
    assert steps[0] == 6.0 + LOW_HAND_BONUS and steps[3] == 6.0
    assert steps[4] < steps[3] and steps[5] < steps[4]  # surplus
    capped = hand_worth(full, 8, limit=7) - hand_worth(full[:7], 8, limit=7)
    assert capped == 6.0 * OVER_LIMIT
    assert cards_needed(0) == 2  # never fewer than two


def _state_with_hand(symbol_counts: dict[int, int], options=None):
    game = make_game("studiogiochi-2017", players=2, **(options or {}))
    state = game.new_state(seed=3)
    for seat in range(2):
        state.hands[seat] = [0] * game.kinds
    for k, n in symbol_counts.items():
        state.hands[0][k] = n
    return state


def test_the_search_values_a_card_by_its_symbols_advance():
    state = _state_with_hand({})
    best = best_advances(state, 0)
    assert len(best) == 6 and all(g >= 1 for g in best)
    far, near = max(range(6), key=best.__getitem__), min(range(6), key=best.__getitem__)
    assert best[far] > best[near]
    empty = seat_value(state, 0)
    with_far = seat_value(_state_with_hand({far: 1}), 0)
    with_near = seat_value(_state_with_hand({near: 1}), 0)
    assert with_far > with_near > empty
    # A dark card is its symbol's card.
    assert seat_value(_state_with_hand({far + 6: 1}), 0) == with_far


def test_with_filibusters_cards_past_the_limit_are_worth_half():
    options = {"filibusters": True, "hand_limit": 2}
    plain = [seat_value(_state_with_hand({0: 1, 1: 1, 2: n}), 0) for n in (0, 1)]
    limited = [seat_value(_state_with_hand({0: 1, 1: 1, 2: n}, options), 0) for n in (0, 1)]
    assert plain[0] == limited[0]
    assert 0 < limited[1] - limited[0] < plain[1] - plain[0]


def test_best_advances_for_some_symbols_agree_with_the_full_measure():
    import random

    from cartagena_net.engine import moves

    for seed, options in enumerate([{}, {"story": "whole"}, {"morgan": "also"}] * 4):
        game = make_game("studiogiochi-2017", players=3, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(60)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        board = state.board
        for seat in range(3):
            full = best_advances(state, seat)
            # the definition, pirate by pirate
            slow = [max([moves.advance_target(state.occ, board.ahead[p][k], board.end[p]) - p
                         for p in state.pirates[seat] if p < board.boat], default=0)
                    for k in range(6)]
            assert full == [max(0, g) for g in slow]
            some = sorted(rng.sample(range(6), 3))
            part = best_advances(state, seat, some)
            assert [part[k] for k in some] == [full[k] for k in some]
            assert all(part[k] == 0 for k in range(6) if k not in some)


def _placed(players: int, ahead: dict[int, list[int]]):
    """A jamaica game whose seats hold one card of each symbol, every pirate at the start
    but ``ahead``'s (seat: positions), placed by the engine's ``setup``."""
    game = make_game("jamaica", players=players)
    state = game.new_state(seed=5)
    placed = [sorted(ahead.get(s, []) + [0] * (game.pirates - len(ahead.get(s, []))))
              for s in range(players)]
    state.setup(placed, hands=[list(game.symbols) for _ in range(players)])
    return state


def test_heads_up_the_reward_is_a_sigmoid_of_the_lead():
    state = _placed(2, {1: [3]})
    lead = seat_value(state, 0) - seat_value(state, 1)
    assert lead != 0
    r = rewards(state)
    assert abs(r[0] - 1 / (1 + math.exp(-lead / TEMPERATURE))) < 1e-12
    assert abs(sum(r) - 1) < 1e-12


def test_with_four_seats_every_others_progress_costs_a_seat_reward():
    base = rewards(_placed(4, {1: [6]}))  # alike hands: only progress differs
    assert abs(sum(base) - 1) < 1e-12
    assert max(range(4), key=base.__getitem__) == 1
    # Progress of a seat that does not lead still costs seat 0 reward: the best-other
    # lead alone would not see it.
    trailing = _placed(4, {1: [6], 2: [2]})
    assert max(seat_value(trailing, s) for s in (2, 3)) < seat_value(trailing, 1)
    assert rewards(trailing)[0] < base[0]
