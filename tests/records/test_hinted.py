"""A record marks each action taken after a hint, and the scoreboard counts the games a
player played with hints apart."""
from __future__ import annotations

import json

from cartagena_net.records import format as fmt

from .test_format import bot_game, players_of


def test_hinted_moves_are_marked_kept_and_counted_on_the_scoreboard(tmp_path):
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=3)
    assert len(state.history) > 4
    rec = fmt.build(state, record_id="20261124T200000Z-abcdef-2",
                    players=players_of(state.game), started="2026-11-24T20:00:00Z",
                    ended="2026-11-24T20:30:00Z", end="won", hinted={1, 4})
    back = fmt.check(fmt.loads(fmt.dumps(rec)))
    marked = [k for k, m in enumerate(back["moves"]) if m.get("hinted")]
    assert marked == [1, 4]
    assert back["hinted"] == sorted({back["moves"][k]["seat"] for k in (1, 4)})
    assert fmt.replay(back).outcome == state.outcome  # still replays exactly
    plain = fmt.build(state, record_id="20261124T200000Z-abcdef-3",
                      players=players_of(state.game), started="2026-11-24T21:00:00Z",
                      ended="2026-11-24T21:30:00Z", end="won")
    assert "hinted" not in plain and not any("hinted" in m for m in plain["moves"])
    board = {r["player"]: r for r in fmt.scoreboard([json.loads(json.dumps(back)), plain])}
    for seat, p in enumerate(back["players"]):
        row = board[fmt.score_key(p)[1]]
        assert row["games"] == 2
        assert row.get("hinted", 0) == (1 if seat in back["hinted"] else 0)
