"""What a tester found cut or missing at the edges of the terminal: the end of a game
(winner, ranking, the keys to play again and to quit) fits 80x24; the quit question at 80
columns and the status while reconnecting at 100 wrap and are read whole, never cut."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import RandomChance, State, make_game
from client.model import ClientModel
from client.render import render_screen, to_text
from tests.client.test_swedish_screens import COLOURS, _feed, _model


def _played(players: int, end: bool, seed: int = 5) -> ClientModel:
    """`cartagena play`'s model (solo, hosting its game, tonight's scores) of a jamaica game
    of ``players`` seats, played at random to its end or some way into it."""
    state = State.new(make_game("jamaica", players=players, colors=",".join(COLOURS[:players])),
                      RandomChance(random.Random(seed)))
    rng = random.Random(seed)
    m = _model(0, players)
    m.solo = m.hosting = m.game_kept = True
    m.scores = [{"player": "ann", "wins": 1, "games": 2},
                {"player": "greedy easy", "bot": True, "wins": 1, "games": 2}]
    for _step in range(20 if not end else 20000):
        if state.outcome is not None:
            break
        state.apply(rng.choice(state.legal_actions(undo=True)), seat=state.actor)
    _feed(m, state, 0, 0, 1)
    return m


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_end_of_a_game_fits_80x24(lang, players):
    from cartagena_net.i18n import _

    m = _played(players, end=True)
    assert m.game_over
    text = to_text(render_screen(m, 80, 24))
    assert _("window too small (need {need}, have {have}): enlarge the terminal").split(
        "(")[0].strip() not in text
    assert _("Ranking:") in text and m.seat_name(m.view["outcome"]["winner"]) in text
    assert _("play again (same table)") in text and _("quit") in text


def test_the_quit_question_wraps_at_80_columns(lang):
    from client.plain import quit_question

    m = _played(4, end=False)
    m.on_key("q")
    assert m.overlay == "quit"
    for width, height in ((80, 24), (60, 24), (100, 30)):
        text = to_text(render_screen(m, width, height))
        assert "too small" not in text and "för litet" not in text, text
        assert _flat(quit_question(m)) in _flat(text), (width, text)
        lines = text.splitlines()
        assert len(lines) == height and all(len(x) <= width for x in lines)


def test_the_status_while_reconnecting_wraps_at_100_columns(lang):
    m = _played(3, end=False)
    m.reconnecting = True
    m.status = ("nothing answers on 127.0.0.1:47100: is the host running, and is that the "
                "address and port it listens on? the firewall may also be refusing it")
    m.trouble = ("the host cannot write its state folder /home/someone/.local/state/"
                 "cartagena-net/journals (No space left on device): a crash would lose it")
    for width in (100, 80):
        text = to_text(render_screen(m, width, 30))
        assert "too small" not in text and "för litet" not in text, text
        assert _flat(m.status) in _flat(text)
        assert _flat(m.trouble) in _flat(text)
        lines = text.splitlines()
        assert all(len(x) <= width for x in lines)


@pytest.mark.parametrize("width, height", [(80, 24), (100, 30)])
def test_a_replay_seen_from_a_seat_keeps_its_keys_and_says_no_one_plays_now(
        lang, width, height):
    """`cartagena replay ID`, 1 (seen as seat 1), Home: the replay's key line stays in
    every view at every position, and nothing says "your turn" or "waiting for" (nobody
    plays in a replay) or offers a help (?) the viewer does not have."""
    from cartagena_net.i18n import _
    from client.replay import ReplayViewer
    from tests.records.test_format import bot_game, record_of

    rec = record_of(bot_game("jamaica", {"players": 3, "segments": 2}, seed=3))
    viewer = ReplayViewer(rec)
    keys = _("deal/end")
    waiting = _("waiting for {who}…").split("{")[0]
    for seat in ("spectator", 0, 1, 2):
        viewer.see_as(seat)
        for pos in (0, 1, 2, viewer.turn_starts[1], viewer.turn_starts[2], viewer.last):
            viewer.go(pos)
            text = viewer.screen_text(width, height)
            where = f"seen as {seat} at {pos}:\n{text}"
            assert keys in text and _("quit") in text, where
            assert _("your turn") not in text and waiting not in text, where
            assert "? " + _("help") not in text, where
            if pos == viewer.last:
                assert _("You win!") not in text, where
