"""Morgan (2017): move an opponent's pirate forward to the nearest space holding 1 or 2
pirates and draw that many; with none, it jumps aboard the sloop or reaches the cove and
the mover draws 2 (rules D13). ``morgan=island`` mixes the recharges in the Whole
Jailbreak: retreat in the underground passage, Morgan on the island (D32)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import events, moves
from .errors import IllegalActionError
from .jailbreak import on_island
from .rules import Refusal, Variant, need_action

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .state import State


def push_target(state: State, pos: int) -> tuple[int, int]:
    """(position, cards drawn) for pushing a pirate at ``pos`` forward."""
    return moves.morgan_target(state.occ, pos, state.board.end[pos])


class Morgan(Variant):
    kinds = ("morgan",)
    recharge = True

    def __init__(self, game) -> None:
        super().__init__(game)
        self.island_only = game.morgan == "island"
        self.refuses = self.island_only  # morgan=also and =instead refuse no move

    def legal(self, state: State, seat: int, out: list[Action]) -> None:
        g = self.game
        if state.taken >= g.actions:
            return
        boat = state.board.boat
        checks = g.rules.checks
        for owner in range(g.players):
            if owner == seat:
                continue
            prev = -1
            row = state.tables.morgan[owner]
            for p in state.pirates[owner]:
                if p != prev and p != boat:
                    prev = p
                    if checks and g.rules.refusal(
                            state, seat, owner, p, push_target(state, p)[0], "morgan"):
                        continue
                    out.append(row[p])

    def check(self, state: State, seat: int, owner: int, frm: int, to: int,
              how: str) -> Refusal | None:
        if not self.island_only:
            return None
        return island_refusal(on_island(state, frm), how)

    def apply(self, state: State, seat: int, action: Action) -> int:
        g = self.game
        need_action(state)
        owner, pos = action.seat, action.pos
        if not 0 <= owner < g.players:
            raise IllegalActionError("no-such-seat", {"seat": owner})
        if owner == seat:
            raise IllegalActionError("morgan-own-pirate")
        if pos == state.board.boat:
            raise IllegalActionError("morgan-boat", {"place": g.goal_name})
        state.own_pirate(owner, pos)
        target, n = push_target(state, pos)
        g.rules.check(state, seat, owner, pos, target, "morgan")
        state.move_pirate(owner, pos, target)
        drawn = tuple(state.draw_cards(seat, n))
        # (None: a state that keeps no events, a search's, builds none on every push)
        state.log(events.Morgan(seat, owner, pos, target, drawn) if state.events is not None
                  else None)
        state.check_win(owner)
        return 1



def island_refusal(on_island: bool, how: str) -> Refusal | None:
    """``morgan=island``: why a retreat on the island or a push in the passage is not
    allowed, or None. Pure: shared with the previews on a view."""
    if how == "retreat" and on_island:
        return ("no-retreat-on-island",)
    if how == "morgan" and not on_island:
        return ("morgan-not-on-island",)
    return None
