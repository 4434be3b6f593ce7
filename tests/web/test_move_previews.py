"""Where a browser seat's moves land (web/seats.py ``previews``): every move that moves a
pirate is previewed, a Morgan push and the parrot's and the hook's powers among them, and
each preview is where the engine then puts the pirate."""
from __future__ import annotations

import random

from cartagena_net.engine import SPECTATOR, RandomChance, State, make_game, view
from cartagena_net.web.seats import previews

MOVES = ("advance", "retreat", "morgan", "power parrot", "power hook")


def _moves(action: str) -> bool:
    words = action.split()
    return words[0] in ("advance", "retreat", "morgan") or (
        words[0] == "power" and words[1].rstrip("*") in ("parrot", "hook"))


def test_every_pirate_move_is_previewed_where_the_engine_puts_it():
    seen = dict.fromkeys(MOVES, 0)
    for seed in range(40):
        rng = random.Random(seed)
        state = State.new(make_game("studiogiochi-2017", players=3, magic=True, morgan="also",
                                    segments=4), RandomChance(random.Random(seed)))
        for _ in range(250):
            if state.outcome is not None:
                break
            actor = state.actor
            legal = [str(a) for a in state.legal_actions()]
            got = previews(view(state, actor), legal)
            for action in legal:
                if not _moves(action):
                    continue
                words = action.split()
                kind = " ".join(words[:2]) if words[0] == "power" else words[0]
                kind = kind.replace("*", "")
                assert action in got, action
                after = state.copy(events=True)
                before = len(after.events)
                after.apply(action)
                landed = [e for e in view(after, SPECTATOR, since=before)["events"]
                          if e["type"] in ("advance", "retreat", "morgan", "parrot", "hook")]
                assert landed and landed[0]["to"] == got[action], (action, got[action], landed)
                seen[kind] += 1
            state.apply(rng.choice(legal))
        if all(seen.values()):
            break
    assert all(seen.values()), seen
