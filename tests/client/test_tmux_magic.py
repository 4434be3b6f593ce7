"""End to end in a real terminal: a Black Magic Woman game of `cartagena play` under
tmux, driven by keys, using the Gun, the Rum and the Lantern (and moving otherwise)
until the game ends.

The game is dealt from a seed (`cartagena play --seed`), so it does not depend on the
luck of the draw: seed 2 deals red a Gun, a Rum and a Lantern (checked below against the
engine, from the same seeded deal the host uses)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    hand_keys,
    my_turn,
    pirates,
    take_turn_action,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux

POWERS = {"g": "Gun", "u": "Rum", "l": "Lantern"}  # the 2017 keys: gun g, rum u, lantern l
OPTIONS = {"magic": True, "segments": 4, "pirates": 4, "deal": 12, "players": 2}
SEED = 2


def test_the_seeded_deal_holds_a_gun_a_rum_and_a_lantern() -> None:
    """The seed the game below is played with deals red every power it uses."""
    from cartagena_net.engine import make_game, view
    from cartagena_net.host.gamerec import deal_rng, new_state

    state = new_state(make_game("studiogiochi-2017", **OPTIONS), deal_rng(SEED))
    hand = {c.removesuffix("*") for c in view(state, 0)["seats"][0]["hand"]}
    assert {"gun", "rum", "lantern"} <= hand


def choose_until_done(t: Tmux, s: str) -> str:
    """Answer a power's decisions (take, give, keep, stack) with → and Enter."""
    for _ in range(10):
        text = wait_screen(t, s, lambda x: "You must" in x or my_turn(x) or "GAME OVER" in x,
                           "a decision or the turn")
        if "You must" not in text:
            return text
        gun = next((x for x in text.splitlines() if "looks at blue's cards:" in x), "")
        # The Gun's pick: a lantern if blue holds one (this test needs one), else any.
        t.keys(s, "l" if "lantern" in gun.split("cards:")[-1] else "Right")
        wait_screen(t, s, lambda x: "Enter confirm" in x, "the decision's preview")
        before = t.screen(s)
        t.keys(s, "Enter")
        wait_screen(t, s, lambda x, b=before: x != b and "sent: " not in x,
                    "the host to take the decision")
    raise AssertionError("the decisions do not end")


def retreat(t: Tmux, s: str, text: str) -> bool:
    """Retreat a pirate (drawing cards), if one can."""
    if "r retreat" not in text:
        return False
    for n, where in reversed(pirates(text)):
        if where == "jail":
            continue
        t.keys(s, n, "r")
        shown = wait_screen(t, s, lambda x: "Enter confirm" in x or "cannot" in x.lower(),
                            "the retreat's preview or a refusal")
        if "Enter confirm" in shown:
            before = t.screen(s)
            t.keys(s, "Enter")
            wait_screen(t, s, lambda x, b=before: x != b and "sent: " not in x,
                        "the host to take the retreat")
            return True
        t.keys(s, "Escape")
    return False


def test_a_magic_game_from_the_keyboard_with_gun_rum_and_lantern(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-magic-{os.getpid()}", env)
    s = "play"
    try:
        t.start(s, [*CLI, "play", "--rules", "studiogiochi-2017", "-o", "magic=true",
                    "-o", "segments=4", "-o", "pirates=4", "-o", "deal=12", "--players", "2",
                    "--bots", "1", "--bot-kind", "random", "--bot-delay", "0", "--name", "ann",
                    "--seed", str(SEED)])
        t.tmux("resize-window", "-t", s, "-x", "120", "-y", "45")
        used: set[str] = set()
        moves = 0
        while True:
            text = wait_screen(t, s, lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn or the end")
            if "GAME OVER" in text:
                break
            assert "chests:" in text
            want = [k for k in POWERS if POWERS[k] not in used and k in
                    [c.lower() for c in hand_keys(text)]]
            if want:
                key = want[0]
                t.keys(s, "v")
                wait_screen(t, s, lambda x: "Enter confirm" in x, "a power's preview")
                t.keys(s, key)
                wait_screen(t, s, lambda x, k=key: POWERS[k] + " (" in x,
                            "the chosen power's preview")
                before = t.screen(s)
                t.keys(s, "Enter")
                wait_screen(t, s, lambda x, b=before: x != b and "sent: " not in x,
                            "the host to take the power")
                if key == "g":
                    gun = wait_screen(t, s, lambda x: "You must" in x, "the Gun's choice")
                    assert re.search(r"Gun: ann|Gun: red looks at blue's cards: \S", gun)
                used.add(POWERS[key])
                choose_until_done(t, s)
            elif used != set(POWERS.values()) and retreat(t, s, text):
                pass  # draw cards: the powers still to use need their cards
            else:
                take_turn_action(t, s, text)
            moves += 1
            assert moves < 300, "the game does not end"
        assert used == {"Gun", "Rum", "Lantern"}, used
        assert re.search(r"Ranking: 1\. .+? \((red|blue)\)", text)
        t.keys(s, "q")
        wait_screen(t, s, lambda x: "EXIT=0" in x, "cartagena play to exit")
        assert_no_traceback(env)
    finally:
        t.kill()
