"""The terminal's live chances (a bar and a curve a seat) and hint line."""
from __future__ import annotations

from client.learn import ChanceCurve, chances_lines, hint_line, spark


def test_the_curve_keeps_one_point_a_state_and_draws_a_line_a_seat():
    curve = ChanceCurve()
    assert chances_lines(curve, ["ann", "bob"]) == []  # none yet: nothing drawn
    assert not curve.take({"seq": 1, "chances": None})
    assert curve.take({"seq": 1, "chances": [0.5, 0.5]})
    assert curve.take({"seq": 1, "chances": [0.6, 0.4]})  # the same state, a newer estimate
    assert curve.take({"seq": 2, "chances": [0.9, 0.1]})
    assert [s for s, _ in curve.points] == [1, 2]
    lines = chances_lines(curve, ["ann", "bob"], width=40)
    assert len(lines) == 2 and lines[0].startswith("ann") and "90%" in lines[0]
    assert "10%" in lines[1] and lines[0].endswith(spark([0.6, 0.9], 2))
    plain = chances_lines(curve, ["ann", "bob"], width=40, ascii_only=True)
    assert all(ch.isascii() for line in plain for ch in line)


def test_a_hint_in_one_line():
    from tests.client.sample_views import jamaica_view

    msg = {"action": "advance 0 key", "reason": "this pirate jumps 9 spaces"}
    assert hint_line(msg, jamaica_view(0)) == \
        "hint: key from start — this pirate jumps 9 spaces"  # words, not the notation


def _seated(hints: bool):
    from client.model import ClientModel
    from tests.client.sample_views import jamaica_view, legal_for

    v = jamaica_view(0)
    m = ClientModel(name="ann")
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    m.on_message({"type": "lobby", "tables": [{"id": 1, "name": "t", "rules": "jamaica",
                                               "status": "playing", "seats": [],
                                               "hints": hints}]})
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "secret"})
    m.on_message({"type": "state", "table": 1, "seq": 7, "view": v, "legal": legal_for(v),
                  "lines": [], "chances": None})
    return m, v


def test_the_hint_key_asks_and_the_answer_is_previewed_not_played():
    from client.keymap import HINT_KEY, move_keys

    m, v = _seated(hints=True)
    assert any(k == HINT_KEY for k, _ in move_keys(m, now=False))  # in the ? help
    m.on_key(HINT_KEY)
    assert m.take_outbox() == [{"type": "hint", "table": 1}]
    action = next(a for a in m.legal if a.startswith("advance"))
    m.on_message({"type": "hint", "table": 1, "seq": 7, "action": action,
                  "reason": "this pirate jumps 4 spaces", "why": {"kind": "jump"}})
    assert m.preview is not None and m.preview.action == action
    assert m.preview.landing is not None and m.preview.text.startswith("hint: ")
    assert action not in m.preview.text and "advance" not in m.preview.text + m.status
    assert "jumps 4 spaces" in m.status  # the reason, on the status line
    assert m.take_outbox() == []  # previewed, not played
    # a new live estimate of the same position keeps the preview
    m.on_message({"type": "state", "table": 1, "seq": 7, "view": v, "legal": list(m.legal),
                  "lines": [], "events": [], "chances": [0.7, 0.3]})
    assert m.preview is not None and m.chances.latest == [0.7, 0.3]
    m.on_key("enter")  # Enter plays it like any preview
    assert [x.get("action") for x in m.take_outbox()] == [action]
    # a hint for a position that moved on is dropped
    m.preview = None
    m.on_message({"type": "hint", "table": 1, "seq": 6, "action": action, "reason": "x"})
    assert m.preview is None


def test_the_hint_key_at_a_table_without_hints_says_why_and_sends_nothing():
    from client.keymap import HINT_KEY, move_keys

    m, _ = _seated(hints=False)
    assert not any(k == HINT_KEY for k, _ in move_keys(m, now=False))
    m.on_key(HINT_KEY)
    assert m.take_outbox() == [] and m.status_error and "does not allow hints" in m.status
