"""Helpers for engine tests: boards and positions built from the rules' illustrations."""
from __future__ import annotations

import pytest

from cartagena_net.engine import IllegalActionError, State, make_game


def cards_total(state: State) -> int:
    """Every card: hands, stock, discard pile, row, and cards drawn for a power."""
    power = state.extra.get("power")
    drawn = 0
    if power and power[0] != "gun":
        drawn = len(power[3]) + (len(power[4]) if power[0] == "lantern" else 0)
    return (sum(sum(h) for h in state.hands) + len(state.stock) + len(state.discard)
            + len(state.row or ()) + drawn)


def two(pirates, hands, turn=0, preset="jamaica", board="SDKBPH" * 2, **options) -> State:
    """A red and blue game on a 12-space board (jamaica by default; boat = 13)."""
    return position(preset, board, "red,blue", pirates, hands, turn, **options)


def position(preset: str, board: str, colors: str, placed, hands, turn: int,
             **options) -> State:
    """A state on an explicit board with every pirate (and hand, unless None) placed."""
    options.setdefault("pirates", len(placed[0]))
    game = make_game(preset, board=board, colors=colors, players=len(placed), **options)
    state = game.new_state(seed=0)
    state.setup(placed, hands=hands, turn=turn)
    return state


def legal(s: State) -> set[str]:
    """The actor's legal actions, in notation."""
    return {str(a) for a in s.legal_actions()}


def refused(s: State, text: str) -> str:
    """Apply ``text``, which must be refused and change nothing; the rule it names."""
    before = s.copy()
    with pytest.raises(IllegalActionError) as err:
        s.apply(text)
    assert s == before
    return err.value.rule


def log_failing_at(original, fail_at: int, error: type[Exception] = RuntimeError):
    """A ``State.log`` for a test's monkeypatch: it logs as ``original`` until its
    ``fail_at``-th call, which raises ``error`` (and so does every later one)."""
    calls = 0

    def failing_log(self, event):
        nonlocal calls
        calls += 1
        if calls >= fail_at:
            raise error("logging failed")
        original(self, event)

    return failing_log
