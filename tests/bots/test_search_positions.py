"""The search decides on real positions of Black Magic Woman games without raising: every
mix (alone, the Whole Jailbreak, Morgan, Filibusters, all of them), 2 to 5 seats, with
what each seat watched (its known cards) and a small budget; every answer is legal."""
from __future__ import annotations

import random

import pytest

from cartagena_net.bots.ismcts import search
from cartagena_net.engine import make_game, view
from cartagena_net.engine.determinize import track_known

MIXES = {
    "alone": {},
    "whole": {"story": "whole"},
    "morgan": {"morgan": "also"},
    "filibusters": {"filibusters": True},
    "all": {"story": "whole", "morgan": "island", "filibusters": True},
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_the_search_answers_on_every_kind_of_magic_position(mix, players):
    game = make_game("studiogiochi-2017", magic=True, players=players, **MIXES[mix])
    state = game.new_state(seed=players)
    rng = random.Random(players)
    seen = [0] * players
    known: list[dict[int, list[str]]] = [{} for _ in range(players)]
    searched = kinds = 0
    while not state.is_over:
        me = state.actor
        v = view(state, me, since=seen[me])
        seen[me] = state.event_count
        track_known(known[me], v.pop("events"), me)
        legal = [str(a) for a in state.legal_actions()]
        if len(legal) > 1 and rng.random() < 0.3:
            config = {"iterations": 24, "think": 10.0, "rounds": 0.5,
                      "trees": 2 if searched % 4 == 3 else 1}
            answer = search(v, legal, known[me], config, seed=searched).action
            assert answer in legal
            searched += 1
            if state.pending:
                kinds += 1
            choice = answer if rng.random() < 0.5 else rng.choice(legal)
        else:
            choice = rng.choice(legal)
        state.apply(choice)
    assert searched >= 15
    assert kinds, "some search decided a power's choice"


def test_selfplay_in_magic_reports_no_search_failure():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "cartagena_net", "selfplay", "--rules", "studiogiochi-2017",
         "-o", "magic=true", "-o", "segments=3", "--players", "2", "--bot", "ismcts,greedy",
         "--rotate", "--games", "2", "--think", "0.02", "--seed", "5", "--json"],
        cwd=root, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["search_failures"] == 0 and result["search_errors"] == []
    assert result["kinds"]["ismcts"]["decisions"] > 0


def test_a_failed_search_falls_back_to_greedy_and_selfplay_says_so(monkeypatch, capsys):
    """Set up on purpose (no real position fails any more): the search's evaluation
    raises. The bot still answers, with greedy's choice; selfplay counts the failures,
    names the error, and exits 1."""
    import json

    from cartagena_net.bots import ismcts
    from cartagena_net.bots.kinds import GreedyBot, make_bot
    from cartagena_net.cli import main

    def broken(state, temperature=0.0):
        raise ArithmeticError("no reward today")

    monkeypatch.setattr(ismcts, "rewards", broken)
    game = make_game("studiogiochi-2017", magic=True, players=2)
    state = game.new_state(seed=4)
    v, legal = view(state, 0), [str(a) for a in state.legal_actions()]
    bot = make_bot("ismcts", random.Random(0), think=1.0, iterations=10)
    assert bot.choose(v, legal) == GreedyBot(random.Random(0)).choose(v, legal)
    assert bot.failures == 1 and bot.last is None
    assert bot.last_error == "ArithmeticError: no reward today"
    status = main(["selfplay", "--rules", "studiogiochi-2017", "-o", "magic=true",
                   "-o", "segments=2", "--bot", "ismcts,greedy", "--games", "1",
                   "--think", "0.01", "--seed", "1", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1
    assert result["search_failures"] > 0 and result["unfinished"] == 0
    assert result["kinds"]["ismcts"]["search_failures"] == result["search_failures"]
    assert result["search_errors"] == ["ArithmeticError: no reward today"]


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_every_legal_action_is_one_shared_object(mix):
    """The search keys its tree by the identity of the legal actions: the same action
    must be the same object in every state of a game (powers and decisions included)."""
    game = make_game("studiogiochi-2017", magic=True, players=3, **MIXES[mix])
    state = game.new_state(seed=9)
    rng = random.Random(9)
    shared: dict[str, int] = {}
    kinds = set()
    while not state.is_over:
        twin = state.copy()
        for a, b in zip(state.legal_actions(), twin.legal_actions(), strict=True):
            assert a is b
            assert shared.setdefault(str(a), id(a)) == id(a), str(a)
            kinds.add(a.kind)
        state.apply(rng.choice(state.legal_actions()))
    assert {"power", "advance"} <= kinds
