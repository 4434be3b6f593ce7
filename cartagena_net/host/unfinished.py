"""Which journals of a state directory hold an unfinished game (read only).

Asked before a host starts, so that the command line can say what it found and offer
to resume it. Nothing here writes: restoring (and moving aside what cannot be read)
is :mod:`cartagena_net.host.restore`'s work once the host starts.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartagena_net.engine import make_game
from cartagena_net.host import gamerec
from cartagena_net.host.journal import list_journals, read_journal


@dataclass
class UnfinishedGame:
    """A game a journal holds that has not ended: where it is and who plays it."""

    table: int
    name: str
    rules: str
    players: list[str]
    actions: int
    to_act: str | None
    path: Path

    def describe(self) -> str:
        """One line for a person: ``table 1 "ann's table": jamaica, ann v Blackbeard...``."""
        turn = f", {self.to_act} to play" if self.to_act else ""
        return (f"table {self.table} {self.name!r}: {self.rules}, "
                f"{', '.join(self.players)}; {self.actions} action(s) played{turn}")


def unfinished_games(state_dir: str | os.PathLike[str]) -> list[UnfinishedGame]:
    """The unfinished games of the journals in ``state_dir``, by table id.

    A journal that cannot be read is left out (restoring it says what is wrong).
    """
    found = []
    try:
        journals = list_journals(state_dir)
    except OSError:
        return []
    for table_id, path in journals:
        try:
            game = _read(table_id, path)
        except Exception:  # noqa: BLE001, S112 - damaged: restore will say why
            continue
        if game is not None:
            found.append(game)
    return found


def _seat_label(seat: Any) -> str:
    if not isinstance(seat, dict):
        return "?"
    name = str(seat.get("name") or "?")[:32]
    bot = seat.get("bot")
    return f"{name} ({bot} bot)" if bot else name


def _read(table_id: int, path: Path) -> UnfinishedGame | None:
    records = read_journal(path).records
    if not records or records[0].get("t") != "table":
        return None
    meta = records[0]
    seats: list[Any] = []
    outcomes: list[list[int]] | None = None
    actions: list[tuple[list[list[int]], str]] = []
    for rec in records[1:]:
        kind = rec.get("t")
        if kind == "seats" and isinstance(rec.get("seats"), list):
            seats = rec["seats"]
        elif kind == "game":
            outcomes, actions = list(rec.get("chance") or []), []
        elif kind == "act" and outcomes is not None:
            actions.append((list(rec.get("chance") or []), str(rec.get("action"))))
    if outcomes is None:
        return None
    game = make_game(str(meta["rules"]), **dict(meta.get("options") or {}))
    state, applied, _ = gamerec.replay_prefix(game, outcomes, actions)
    if state.is_over:
        return None
    actor = state.actor
    to_act = (_seat_label(seats[actor]) if isinstance(actor, int) and 0 <= actor < len(seats)
              else None)
    return UnfinishedGame(table=table_id, name=str(meta.get("name") or "")[:64],
                          rules=str(meta["rules"]), players=[_seat_label(s) for s in seats],
                          actions=applied, to_act=to_act, path=path)
