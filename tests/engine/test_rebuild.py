"""What a search rebuilds from a seat's view agrees with the game (hypothesis).

On positions of random games of every preset and option mix (the Black Magic Woman
alone, with the Whole Jailbreak, Morgan and Filibusters; 2 to 5 seats), for the seat
to act: the state ``State.from_view`` rebuilds, and every determinization dealt from
the view, has exactly the game's legal actions; each deals the whole deck (hands,
stock, discard pile, row, cards drawn for a power), shows that seat exactly the view
it was built from, and keeps the cards the seat knows where they are.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cartagena_net.engine import RandomChance, State, make_game, view
from cartagena_net.engine.determinize import Determinizer, track_known

from .test_properties import MAX_ACTIONS, SETTINGS, games, magics, stories


def every_card(state: State) -> Counter:
    """Every card of a state, by kind: hands, stock, discard, row, a power's pool."""
    cards = Counter(state.stock) + Counter(state.discard) + Counter(state.row or ())
    for hand in state.hands:
        cards += Counter({k: n for k, n in enumerate(hand) if n})
    for v in state.game.rules.variants:
        cards += Counter(v.held(state))
    return cards


def legal(state: State) -> Counter:
    return Counter(str(a) for a in state.legal_actions())


def check_rebuilt(state: State, me: int, known: dict[int, list[str]], rng: random.Random,
                  samples: int = 2) -> None:
    """From ``me``'s view: the same view, every card, the cards ``me`` knows; if ``me``
    acts, the same legal actions; else (e.g. another seat's power pending, its drawn
    cards unseen) the actor still has something to do."""
    game = state.game
    deck = Counter(game.deck)
    mine = view(state, me)
    truth = legal(state)

    def agrees(s: State) -> None:
        if state.actor == me:
            assert legal(s) == truth
        else:
            assert s.actor == state.actor and bool(legal(s)) == bool(truth)

    rebuilt = State.from_view(game, mine, RandomChance(random.Random(1)))
    agrees(rebuilt)
    assert view(rebuilt, me) == mine
    assert every_card(rebuilt) == deck
    det = Determinizer(mine, known)
    agrees(det.base)
    for _ in range(samples):
        world = det.sample(rng)
        agrees(world)
        assert view(world, me) == mine
        assert every_card(world) == deck
        assert [sum(h) for h in world.hands] == [sum(h) for h in state.hands]
        for seat, cards in known.items():  # what the seat knows is true, and kept
            held = Counter(game.card_names[k] for k in range(game.kinds)
                           for _ in range(state.hands[seat][k]))
            assert not Counter(cards) - held, (seat, cards, held)
            dealt = Counter(game.card_names[k] for k in range(game.kinds)
                            for _ in range(world.hands[seat][k]))
            assert not Counter(cards) - dealt


def walk(game, seed: int, policy: int, every: int) -> int:
    """Play a random game; check the seat to act (and another seat) at every
    ``every``-th position.
    Returns how many positions were checked."""
    state = game.new_state(seed=seed)
    rng = random.Random(policy)
    seen = [0] * game.players
    known: list[dict[int, list[str]]] = [{} for _ in range(game.players)]
    checked = 0
    for step in range(MAX_ACTIONS):
        if state.is_over:
            return checked
        for me in range(game.players):  # every seat watches every event
            events = view(state, me, since=seen[me])["events"]
            seen[me] = state.event_count
            track_known(known[me], events, me)
        if step % every == 0:
            me = state.actor
            check_rebuilt(state, me, known[me], rng)
            other = rng.choice([s for s in range(game.players) if s != me])
            check_rebuilt(state, other, known[other], rng, samples=1)
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("random game did not end")


@pytest.mark.parametrize("cases", [games(), stories(), magics()],
                         ids=["presets", "stories", "magic"])
@SETTINGS
@given(data=st.data())
def test_a_rebuilt_state_has_the_games_legal_actions_and_cards(cases, data):
    game, seed, policy = data.draw(cases)
    assert walk(game, seed, policy, every=2 if game.magic else 5)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("options", [
    {}, {"story": "whole"}, {"morgan": "also"}, {"filibusters": True},
    {"story": "whole", "morgan": "island", "filibusters": True},
], ids=["alone", "whole", "morgan", "filibusters", "all"])
def test_every_position_of_magic_games_rebuilds_exactly(options, players):
    game = make_game("studiogiochi-2017", magic=True, players=players, **options)
    assert walk(game, players, 100 + players, every=1)
