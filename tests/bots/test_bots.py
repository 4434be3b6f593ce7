"""Bots: legal choices on every preset, sensible greedy play, greedy beats random."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cartagena_net.bots.kinds import BOT_KINDS, GreedyBot, RandomBot, make_bot
from cartagena_net.engine import PRESETS, make_game, view

MAX_STEPS = 20_000


def play(preset: str, kinds: list[str], seed: int, **options: object):
    """Play one game between bots; every choice must be one of the legal actions."""
    game = make_game(preset, players=len(kinds), **options)
    state = game.new_state(seed=seed)
    bots = [make_bot(kind, random.Random(seed * 101 + i)) for i, kind in enumerate(kinds)]
    chosen: list[str] = []
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        action = bots[seat].choose(view(state, seat), legal)
        assert action in legal, (preset, seat, action, legal)
        chosen.append(action)
        state.apply(action)
    return state, chosen


def test_kinds_and_factory():
    assert BOT_KINDS == ("random", "greedy", "ismcts")
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("greedy"), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot kind"):
        make_bot("clever")
    with pytest.raises(ValueError):
        make_bot("greedy").choose({}, [])


def test_bots_module_is_pure():
    code = (
        "import sys, cartagena_net.bots.kinds; "
        "bad = [m for m in ('twisted', 'msgpack', 'prompt_toolkit') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_greedy_beats_random_clearly():
    wins = 0
    games = 100
    for seed in range(games):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state, _ = play("jamaica", kinds, seed)
        assert state.is_over
        wins += kinds[state.outcome.winner] == "greedy"
    assert wins >= 85, f"greedy won only {wins} of {games}"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_games_finish_with_legal_choices(preset):
    for seed in range(3):
        players = 2 + seed
        kinds = [BOT_KINDS[(seed + i) % 2] for i in range(players)]
        state, chosen = play(preset, kinds, seed)
        assert state.is_over, f"{preset} seed {seed} did not finish"
        assert chosen


@pytest.mark.parametrize("morgan", ["also", "instead"])
def test_morgan_and_filibusters_games(morgan):
    seen: set[str] = set()
    for seed in range(4):
        state, chosen = play(
            "studiogiochi-2017", ["greedy", "greedy", "random"], seed,
            morgan=morgan, filibusters=True,
        )
        assert state.is_over
        seen.update(a.split()[0] for a in chosen)
    assert "morgan" in seen
    assert "discard" in seen  # decisions owed out of turn are answered


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**31),
    kinds=st.lists(st.sampled_from(("random", "greedy")), min_size=5, max_size=5),
)
def test_choices_always_legal(preset, players, seed, kinds):
    state, _ = play(preset, kinds[:players], seed)
    assert state.is_over


# -- hand-made positions ----------------------------------------------------

SYMBOLS = ["skull", "dagger", "key", "bottle", "pistol", "hat"]


def make_view(board, mine, theirs, hand, **extra):
    view_ = {
        "rules": "jamaica", "options": {}, "board": board, "boat": len(board) + 1,
        "symbols": SYMBOLS,
        "seats": [
            {"seat": 0, "color": "red", "pirates": mine, "hand_size": len(hand), "hand": hand},
            {"seat": 1, "color": "blue", "pirates": theirs, "hand_size": 6, "hand": None},
        ],
        "stock": 50, "discard": [], "row": None, "turn": 0, "actor": 0,
        "actions_taken": 0, "actions_max": 3, "actions_min": 1, "pending": [],
        "outcome": None, "viewer": 0,
    }
    view_.update(extra)
    return view_


BOARD = SYMBOLS * 6  # 1 skull, 2 dagger, 3 key, ... 36 hat; boat 37


def test_greedy_prefers_the_long_advance():
    # skull from 0 lands on 1; hat from 0 lands on 6.
    v = make_view(BOARD, [0] * 6, [0] * 6, ["skull", "hat"])
    bot = GreedyBot(random.Random(0))
    assert bot.choose(v, ["advance 0 skull", "advance 0 hat"]) == "advance 0 hat"


def test_greedy_moves_the_rearmost_pirate():
    # Same card (key): from 0 lands on 3 (+3), from 20 lands on 21 (+1).
    mine = [0, 20, 20, 30, 30, 30]
    v = make_view(BOARD, mine, [5, 5, 5, 5, 5, 5], ["key", "bottle"])
    bot = GreedyBot(random.Random(0))
    assert bot.choose(v, ["advance 0 key", "advance 20 key"]) == "advance 0 key"


def test_greedy_retreats_onto_two_pirates_when_low_on_cards():
    # One card left; space 12 holds two pirates just behind ours at 14.
    mine = [12, 14, 30, 30, 31, 31]
    theirs = [12, 20, 20, 25, 25, 26]
    v = make_view(BOARD, mine, theirs, ["skull"])
    bot = GreedyBot(random.Random(0))
    legal = ["advance 12 skull", "advance 14 skull", "retreat 14", "end"]
    assert bot.choose(v, legal) == "retreat 14"
    # With a full hand the same retreat is not worth it.
    full = ["skull", "hat", "hat", "key", "dagger", "bottle", "pistol", "pistol"]
    v = make_view(BOARD, mine, theirs, full)
    assert bot.choose(v, [*legal[:3], "advance 12 hat"]) != "retreat 14"


def test_greedy_discards_duplicates_and_keeps_variety():
    hand = ["key", "key", "key", "key", "skull", "hat", "bottle", "pistol", "dagger"]
    v = make_view(BOARD, [0] * 6, [0] * 6, hand)
    legal = ["discard key key", "discard skull hat", "discard bottle pistol", "discard key hat"]
    assert GreedyBot(random.Random(0)).choose(v, legal) == "discard key key"


def test_greedy_avoids_opening_a_road():
    # Spaces: 1 hat, 2 key, 3 skull, 4 dagger, 5 dagger, 6 skull, ...; boat 13.
    # Ours at 1 and 4. "advance 1 skull" (1 -> 3) beats "advance 4 dagger" (4 -> 5)
    # on its own, but when the other skull space (6) is taken and an opponent waits
    # at the start, landing on 3 opens a skull road to the boat for them.
    board = ["hat", "key", "skull", "dagger", "dagger", "skull", "bottle", "pistol", "key",
             "hat", "bottle", "pistol"]
    hand = ["skull", "dagger", "hat", "hat", "key"]
    legal = ["advance 1 skull", "advance 4 dagger"]
    mine = [1, 4, 13, 13, 13, 13]
    no_road = make_view(board, mine, [7, 7, 13, 13, 13, 13], hand)
    road = make_view(board, mine, [0, 6, 13, 13, 13, 13], hand)
    assert GreedyBot(random.Random(0)).choose(no_road, legal) == "advance 1 skull"
    assert GreedyBot(random.Random(0)).choose(road, legal) == "advance 4 dagger"


class LongestAdvance:
    """A simple baseline: the longest advance; retreats only with two cards or fewer."""

    def choose(self, view_, legal):
        from cartagena_net.bots.kinds import base_symbol, board_from_view

        board = board_from_view(view_)
        hand_size = view_["seats"][view_["viewer"]]["hand_size"]

        def score(action):
            words = action.split()
            if words[0] == "advance":
                pos = int(words[1])
                return board.advance_to(pos, base_symbol(words[2])) - pos
            if words[0] == "retreat":
                pos = int(words[1])
                dst, drawn = board.retreat_to(pos)
                return 3 * drawn - (pos - dst) - (3 if hand_size > 2 else 0)
            return 0.5 if words[0] == "end" else 0

        return max(legal, key=score)


def test_greedy_beats_a_longest_advance_baseline():
    wins, games = 0, 40
    for seed in range(games):
        greedy_seat = seed % 2
        state = make_game("jamaica", players=2).new_state(seed=seed)
        players = [LongestAdvance(), LongestAdvance()]
        players[greedy_seat] = make_bot("greedy", random.Random(seed))
        for _ in range(MAX_STEPS):
            if state.is_over:
                break
            seat = state.actor
            legal = [str(a) for a in state.legal_actions()]
            state.apply(players[seat].choose(view(state, seat), legal))
        assert state.is_over
        wins += state.outcome.winner == greedy_seat
    assert wins >= 28, f"greedy won only {wins} of {games} against the baseline"


# -- the Whole Jailbreak: the sloop ---------------------------------------------------
WHOLE_BOARD = "GLPHCR GLPHCR GLPRHC / RGLPHC RGLPHC RGLPHC"  # sloop 19, cove 38


def whole_view(red, blue, shore="cartagena", hand=("gun", "rum", "hook")):
    game = make_game("studiogiochi-2017", players=2, story="whole", board=WHOLE_BOARD,
                     pirates=len(red))
    state = game.new_state(seed=0)
    state.setup([red, blue], hands=[list(hand), ["gun"]], turn=0, shore=shore)
    return view(state, 0)


@pytest.mark.parametrize("red,blue,shore,choice", [
    ([19, 19, 5], [0, 0, 0], "cartagena", "sail"),  # only red lands at Tortuga
    ([19, 3, 5], [19, 19, 19], "cartagena", "end"),  # blue would land three, red one
    ([16, 17, 0], [19, 19, 25], "tortuga", "sail"),  # bring it back: blue stays stuck
    ([2, 20, 22], [15, 17, 18], "tortuga", "end"),  # blue would board, not red
])
def test_greedy_sails_when_it_helps_itself_more_than_the_others(red, blue, shore, choice):
    v = whole_view(red, blue, shore)
    picks = {GreedyBot(random.Random(i)).choose(v, ["sail", "end"]) for i in range(5)}
    assert picks == {choice}


@pytest.mark.parametrize("kinds", [["greedy", "random"], ["random", "greedy"]])
def test_greedy_beats_random_in_the_whole_jailbreak(kinds):
    wins = 0
    for seed in range(6):
        state, _chosen = play("studiogiochi-2017", kinds, seed, story="whole")
        assert state.is_over
        wins += kinds[state.outcome.winner] == "greedy"
    assert wins >= 5
