"""The bot's review of a finished game: every position of every kind of game has each
seat's chances; they come from public information only (a spectator's view), the bot's
move from the acting seat's own view; the review is kept, read back, checked, shown in
the terminal replay, and made from the command line in worker processes."""
from __future__ import annotations

import json
import random

import pytest

from cartagena_net.bots import review as rv
from cartagena_net.engine import SPECTATOR, make_game, view
from cartagena_net.records import RecordError, store

from .test_cli import cartagena
from .test_format import MIXES, bot_game, record_of

FAST = {"playouts": 8, "iterations": 60}


@pytest.mark.parametrize(("rules", "options"), MIXES[-6:],
                         ids=[f"{r}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for r, o in MIXES[-6:]])
def test_every_position_of_a_game_gets_chances_and_every_action_the_bots_move(rules, options):
    state = bot_game(rules, options, seed=11)
    rec = json.loads(json.dumps(record_of(state)))
    positions = list(range(0, len(rec["moves"]) + 1, max(1, len(rec["moves"]) // 6)))
    answers = [rv.position(rec, k, seed=k, **FAST) for k in positions]
    for k, a in zip(positions, answers, strict=True):
        chances = a["chances"]
        assert len(chances) == state.game.players
        assert abs(sum(chances) - 1) < 1e-3 and all(0 <= p <= 1 for p in chances)
        if k < len(rec["moves"]):
            move = a["move"]
            assert move["seat"] == rec["moves"][k]["seat"]
            assert move["played"] == rec["moves"][k]["action"]
            assert move["loss"] is None or 0 <= move["loss"] <= 1
            if move["loss"] is not None:  # a move of the seat's legal ones: in words
                assert move["said"]["played"]["why"].startswith("hint-")
                assert ("best" in move["said"]) == (move["best"] != move["played"])
    last = rv.position(rec, len(rec["moves"]), **FAST)
    assert last["chances"][state.outcome.winner] == 1.0 and "move" not in last


def _same_public_other_hands(state, seat):
    """A copy of ``state`` with the hidden hands of seats other than ``seat`` (and the
    stock) dealt again at random: the same spectator view, other cards."""
    from cartagena_net.engine.determinize import Determinizer

    det = Determinizer(view(state, seat, since=0))
    other = det.sample(random.Random(99))
    assert view(other, SPECTATOR) == view(state, SPECTATOR)
    return other


def test_the_chances_read_only_what_a_spectator_sees():
    state = bot_game("ravensburger", {"players": 3, "segments": 2}, seed=5, stop_after=10)
    hands = [state.hand_size(s) for s in range(3)]
    assert all(hands), "a position with cards in every hidden hand"
    other = _same_public_other_hands(state, 0)
    assert [other.hands[s] for s in (1, 2)] != [state.hands[s] for s in (1, 2)]
    a = rv.chances(state, 40, random.Random(7))
    b = rv.chances(other, 40, random.Random(7))
    assert a == b  # other hidden cards, the same public view: the same estimate


def test_the_bots_move_reads_only_the_acting_seats_view():
    state = bot_game("ravensburger", {"players": 3, "segments": 2}, seed=5, stop_after=10)
    seat = state.actor
    other = _same_public_other_hands(state, seat)
    played = str(state.legal_actions()[0])
    a = rv.bot_move(state, played, 200, 16, random.Random(3))
    b = rv.bot_move(other, played, 200, 16, random.Random(3))
    assert a == b


def test_a_review_is_assembled_kept_read_back_and_checked(tmp_path):
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=2)
    rec = json.loads(json.dumps(record_of(state)))
    store.write(tmp_path, rec)
    review = rv.review(rec, seed=1, **FAST)
    assert len(review["positions"]) == len(rec["moves"]) + 1
    # The host's queue hands the jobs the record as its compact text: the same jobs.
    from cartagena_net.records.format import compact
    assert [a for _, a in rv.jobs(compact(rec), seed=1)] == [a for _, a in rv.jobs(rec, seed=1)]
    assert len(review["moves"]) == len(rec["moves"])
    losses = [m["loss"] or 0 for m in review["moves"]]
    assert [losses[k] for k in review["turning"]] == sorted(
        (x for x in losses if x > 0), reverse=True)[:len(review["turning"])]
    path = store.write_review(tmp_path, review)
    assert path == tmp_path / "reviews" / f"{rec['id']}.json"
    assert store.read_review(tmp_path, rec["id"]) == json.loads(json.dumps(review))
    assert rv.check(review, rec) is review
    assert [x.id for x in store.listing(tmp_path)] == [rec["id"]]  # reviews are not records
    for damage, why in [({"version": 9}, "newer"), ({"format": "x"}, "not a"),
                        ({"positions": []}, "damaged"),
                        ({"positions": [{"chances": [2]}] * len(review["positions"])}, "0..1")]:
        path.write_text(json.dumps(dict(review, **damage)))
        with pytest.raises(RecordError, match=why):
            store.read_review(tmp_path, rec["id"])
    path.write_bytes(b"\xff{")
    with pytest.raises(RecordError):
        store.read_review(tmp_path, rec["id"])
    with pytest.raises(ValueError, match="another game"):
        rv.check(review, dict(rec, id="other"))


def test_the_terminal_replay_shows_the_review_and_jumps_to_turning_points():
    from client.replay import ReplayViewer

    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=2)
    rec = json.loads(json.dumps(record_of(state)))
    review = rv.review(rec, seed=1, **FAST)
    review["turning"] = [3, 1]
    review["moves"][1].update(best="end", loss=0.25)
    viewer = ReplayViewer(rec, review=review)
    viewer.turning(1)
    assert viewer.pos == 2  # just after the earliest turning point (action 2)
    text = viewer.screen_text(120, 40)
    assert "bot review:" in text and "(-25%)" in text and "turning point" in text
    red = review["positions"][2]["chances"][0]
    assert f"red {red * 100:.0f}%" in text
    viewer.turning(1)
    assert viewer.pos == 4
    viewer.turning(-1)
    assert viewer.pos == 2
    assert "bot review" not in ReplayViewer(rec).screen_text(120, 40)


def test_cartagena_review_makes_keeps_and_prints_a_review(tmp_path):
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=4)
    rec = record_of(state)
    store.write(tmp_path, rec)
    done = cartagena("review", rec["id"][:10], "--dir", str(tmp_path), "--playouts", "8",
                     "--search", "60", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert f"review of {rec['id']}" in done.stdout and "Traceback" not in done.stderr
    kept = store.read_review(tmp_path, rec["id"])
    assert kept is not None and kept["method"]["playouts"] == 8
    again = cartagena("review", rec["id"], "--dir", str(tmp_path))  # kept: not made again
    assert again.returncode == 0 and "kept in" not in again.stdout
    spectators = record_of(bot_game("jamaica", {"players": 2, "segments": 1}, seed=4,
                                    stop_after=5), end="stopped")
    spectators["id"] = "20261124T200000Z-abcdef-2"
    store.write(tmp_path, spectators)
    refused = cartagena("review", spectators["id"], "--dir", str(tmp_path))
    assert refused.returncode == 1 and "only a finished game" in refused.stderr
    assert cartagena("review", rec["id"], "--dir", str(tmp_path), "--workers",
                     "0").returncode == 2


def test_the_worker_pool_answers_in_order_raises_and_replaces_a_dead_worker():
    import os
    import tempfile

    from cartagena_net.bots.pool import run_jobs

    jobs = [(pow, (2, n)) for n in range(20)]
    assert run_jobs(jobs, 2) == [2 ** n for n in range(20)]
    with pytest.raises(ZeroDivisionError):
        run_jobs([(divmod, (1, 0))], 1)
    # a job that kills its worker once: run again on a new worker
    marker = os.path.join(tempfile.gettempdir(), f"ctgn-pool-{os.getpid()}")
    answers = run_jobs([(_die_once, (marker,)), (pow, (3, 2))], 1)
    assert answers == ["second life", 9]


def _die_once(marker: str) -> str:
    import os

    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    os.unlink(marker)
    return "second life"


def test_a_game_is_dealt_from_a_spectators_view():
    from cartagena_net.engine.determinize import Determinizer

    game = make_game("tortuga", players=3)
    state = game.new_state(seed=1)
    det = Determinizer(view(state, SPECTATOR, since=0))
    sample = det.sample(random.Random(1))
    assert view(sample, SPECTATOR) == view(state, SPECTATOR)


def test_two_reviews_of_one_game_agree_and_a_mistake_is_what_it_cost():
    """With the value model (jamaica): every move is valued by the acting seat's chance
    after it, from its own view, the same every time; a mistake is the chance it cost
    against the best move, worded as the screens say moves, and checked by the search."""
    state = bot_game("jamaica", {"players": 3}, seed=3)
    rec = json.loads(json.dumps(record_of(state)))
    a = rv.review(rec, seed=1, playouts=8, iterations=150)
    b = rv.review(rec, seed=2, playouts=8, iterations=150)
    assert a["method"]["model"] == "jamaica"
    assert len(a["turning"]) == rv.TURNING
    assert len(set(a["turning"]) & set(b["turning"])) >= 4
    assert a["positions"] == b["positions"]
    costly = [m for m in a["moves"] if m.get("loss")]
    assert costly
    for m in costly:
        assert m["best"] != m["played"]
        assert m["loss"] == pytest.approx(m["best_chance"] - m["chance"], abs=2e-4)
        assert m["said"]["played"]["why"].startswith("hint-")
        if m["loss"] >= rv.SURE_FROM:
            assert isinstance(m["sure"], bool)
    for m in a["moves"]:
        if m.get("loss") == 0.0 and "best_chance" in m:
            assert m["best"] == m["played"]  # no move is called a mistake for nothing


def test_the_terminal_replay_words_a_reviewed_mistake():
    from client.replay import ReplayViewer

    state = bot_game("jamaica", {"players": 3}, seed=3)
    rec = json.loads(json.dumps(record_of(state)))
    review = rv.review(rec, seed=1, playouts=8, iterations=0)
    k = min(review["turning"])
    viewer = ReplayViewer(rec, review=review)
    viewer.turning(1)  # the earliest turning point
    assert viewer.pos == k + 1
    text = viewer.screen_text(400, 40)
    m = review["moves"][k]
    line = next(x for x in text.splitlines() if "; the bot: " in x)
    assert "; the bot: " in line and "(-" in line
    assert m["played"] not in line and m["best"] not in line, line  # no notation
    # as the screens name moves, never in the hints' second person ("your pirate")
    assert any(w in line for w in (" from ", "end of the turn", "draws a card")), line
    assert "your" not in line, line
