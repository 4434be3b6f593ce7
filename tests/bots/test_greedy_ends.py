"""Greedy finishes its games: every preset and option combination, 2 to 5 seats, tables
of greedy bots only; a board that keeps coming back makes greedy play for progress; it
still beats random heads-up; `cartagena selfplay` stops a game that runs too long."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from cartagena_net.bots.kinds import LOOP_PATIENCE, LOOP_SPAN, GreedyBot, make_bot
from cartagena_net.engine import PRESETS, make_game, view
from tests.bots.test_bots import BOARD, make_view

ROOT = Path(__file__).resolve().parents[2]
ACTION_BOUND = 5_000  # generous: all-greedy games on these boards take a few hundred


def play_greedy(preset: str, players: int, seed: int, **options: object):
    """One all-greedy game; (state, actions taken), stopped at ACTION_BOUND."""
    game = make_game(preset, players=players, **options)
    state = game.new_state(seed=seed, events=False)
    bots = [GreedyBot(random.Random(seed * 31 + i)) for i in range(players)]
    for n in range(ACTION_BOUND):
        if state.is_over:
            return state, n
        seat = state.actor
        legal = [str(a) for a in state.legal_actions()]
        action = bots[seat].choose(view(state, seat), legal)
        assert action in legal
        state.apply(action, seat=seat)
    return state, ACTION_BOUND


def combos_2017() -> list[dict[str, object]]:
    """Every valid mix of story, Morgan, Filibusters and Black Magic Woman (2017)."""
    found = []
    for story in ("escape", "island", "whole"):
        for morgan in ("off", "instead", "also", "island"):
            for filibusters in (False, True):
                for magic in (False, True):
                    options = {"story": story, "morgan": morgan, "filibusters": filibusters,
                               "magic": magic}
                    try:
                        make_game("studiogiochi-2017", **options)
                    except ValueError:
                        continue
                    found.append(options)
    return found


COMBOS = combos_2017()


def test_the_combinations_cover_every_story_morgan_filibusters_and_magic():
    assert len(COMBOS) >= 30
    for key in ("story", "morgan", "filibusters", "magic"):
        assert len({str(c[key]) for c in COMBOS}) >= 2


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(map(str, o.values())))
def test_all_greedy_2017_games_end(options):
    for seed in range(4):  # 2, 3, 4 and 5 seats
        players = 2 + seed
        state, n = play_greedy("studiogiochi-2017", players, seed, pirates=3, **options)
        assert state.is_over, f"{options} {players} seats seed {seed}: no end in {n} actions"


@pytest.mark.parametrize("preset", sorted(set(PRESETS) - {"studiogiochi-2017"}))
@pytest.mark.parametrize("morgan", ["off", "instead", "also"])
def test_all_greedy_games_of_every_preset_end(preset, morgan):
    for seed in range(2):
        players = 2 + 3 * seed  # 2 and 5 seats
        state, n = play_greedy(preset, players, seed, pirates=3, morgan=morgan)
        assert state.is_over, f"{preset} morgan={morgan} seed {seed}: no end in {n} actions"


def test_the_whole_jailbreak_with_filibusters_and_morgan_ends_on_the_full_board():
    # The table that looped: four greedy seats, the full board, Morgan also, Filibusters.
    for seed in range(3):
        state, n = play_greedy("studiogiochi-2017", 4, seed, story="whole", morgan="also",
                               filibusters=True)
        assert state.is_over, f"seed {seed}: no end in {n} actions"


def test_a_board_that_keeps_coming_back_makes_greedy_play_for_progress():
    # Low on cards, greedy retreats onto two pirates (test_bots); if that same board keeps
    # coming back, the retreat is a loop and greedy advances instead.
    mine = [12, 14, 30, 30, 31, 31]
    theirs = [12, 20, 20, 25, 25, 26]
    v = make_view(BOARD, mine, theirs, ["skull"])
    other = make_view(BOARD, mine, [13, 20, 20, 25, 25, 26], ["skull"])
    legal = ["advance 12 skull", "advance 14 skull", "retreat 14", "end"]
    bot = GreedyBot(random.Random(0))
    picks = []
    for _ in range(LOOP_PATIENCE + LOOP_SPAN + 1):
        picks.append(bot.choose(v, legal))
        bot.choose(other, legal)
    assert picks[0] == "retreat 14"
    assert picks[-1].startswith("advance")
    # Several decisions on one visit count once: a fresh bot is patient again.
    fresh = GreedyBot(random.Random(0))
    assert [fresh.choose(v, legal) for _ in range(10)] == ["retreat 14"] * 10
    # A new game (everyone at the start) wipes the memory: patient again.
    bot.choose(make_view(BOARD, [0] * 6, [0] * 6, ["skull"]), ["advance 0 skull"])
    assert bot.choose(v, legal) == "retreat 14"


@pytest.mark.parametrize("options", [
    {"story": "whole", "morgan": "also", "filibusters": True},
    {"story": "island", "morgan": "instead"},
    {"magic": True, "filibusters": True},
], ids=["whole-also-filibusters", "island-instead", "magic-filibusters"])
def test_greedy_still_beats_random_heads_up(options):
    wins, games = 0, 8
    for seed in range(games):
        kinds = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        game = make_game("studiogiochi-2017", players=2, **options)
        state = game.new_state(seed=seed, events=False)
        bots = [make_bot(k, random.Random(seed * 7 + i)) for i, k in enumerate(kinds)]
        for _ in range(ACTION_BOUND):
            if state.is_over:
                break
            seat = state.actor
            state.apply(bots[seat].choose(view(state, seat),
                                          [str(a) for a in state.legal_actions()]), seat=seat)
        assert state.is_over
        wins += kinds[state.outcome.winner] == "greedy"
    assert wins >= 7, f"greedy won only {wins} of {games} with {options}"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cartagena_net", *args], check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_selfplay_finishes_the_table_that_looped():
    out = run_cli("selfplay", "--rules", "studiogiochi-2017", "-o", "story=whole",
                  "-o", "filibusters=true", "-o", "morgan=also", "--bot", "greedy",
                  "--games", "3", "--seed", "1", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    assert result["unfinished"] == 0 and sum(result["wins"]) == 3


def test_selfplay_stops_a_game_past_the_action_cap_and_reports_it():
    out = run_cli("selfplay", "--rules", "jamaica", "--games", "3", "--seed", "4",
                  "--max-actions", "5", "--json")
    assert out.returncode == 1
    result = json.loads(out.stdout)
    assert result["unfinished"] == 3 and sum(result["wins"]) == 0
    assert result["max_actions"] == 5 and result["mean_actions"] == 5
    text = run_cli("selfplay", "--rules", "jamaica", "--games", "2", "--seed", "4",
                   "--max-actions", "5")
    assert text.returncode == 1 and "unfinished: 2 (stopped after 5 actions)" in text.stdout
    ok = run_cli("selfplay", "--rules", "jamaica", "--games", "2", "--seed", "4", "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["unfinished"] == 0
    bad = run_cli("selfplay", "--rules", "jamaica", "--games", "1", "--max-actions", "0")
    assert bad.returncode != 0 and "--max-actions" in bad.stderr
