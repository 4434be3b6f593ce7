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
    assert hint_line({"action": "advance 0 key", "reason": "this pirate jumps 9 spaces"}) \
        == "hint: advance 0 key — this pirate jumps 9 spaces"
