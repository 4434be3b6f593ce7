"""The basic recharge: move one of your pirates back to the nearest space holding 1 or 2
pirates and draw that many cards (rules D5-D7)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import events, moves
from .errors import IllegalActionError
from .rules import Variant, need_action

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .state import State


class Retreat(Variant):
    kinds = ("retreat",)
    recharge = True
    actor_only = True
    most_drawn = 2  # a card for each pirate on the space retreated to: 1 or 2
    swept = True  # where nothing checks a move, the core's sweep lists the retreats

    def legal(self, state: State, seat: int, out: list[Action]) -> None:
        if state.taken >= self.game.actions:
            return
        ret = state.tables.retreat
        rules = self.game.rules
        if not rules.checks:  # the pirates that can retreat; where to is not asked
            moves.sweep(state.occ, state.pirates[seat], state.board.back, state.board.boat,
                        None, ret, out)
            return
        for p, to in moves.retreat_targets(state.occ, state.pirates[seat], state.board.back):
            if rules.refusal(state, seat, seat, p, to, "retreat") is None:
                out.append(ret[p])

    def apply(self, state: State, seat: int, action: Action) -> int:
        if state.taken >= self.game.actions:
            need_action(state)  # raises
        pos = action.pos
        if pos == 0:
            raise IllegalActionError("retreat-from-start", {"place": state.game.start_name})
        if pos not in state.pirates[seat]:
            state.own_pirate(seat, pos)  # raises
        target = moves.retreat_target(state.occ, pos, state.board.back[pos])
        if not target:
            raise IllegalActionError("no-retreat-target", {"place": state.game.start_name})
        rules = self.game.rules
        if rules.checks:
            rules.check(state, seat, seat, pos, target, "retreat")
        n = state.occ[target]
        state.move_pirate(seat, pos, target)
        drawn = tuple(state.draw_cards(seat, n))
        # (None: a state that keeps no events, a search's, builds none on every retreat)
        state.log(events.Retreat(seat, pos, target, drawn) if state.events is not None
                  else None)
        return 1
