"""The Whole Jailbreak (2017): the sloop between the underground passage and the island
path, moved by the ``sail`` action, with the Captain's free sail (rules D24-D33).

The sloop's position lies between the two paths (``board.sloop``); its shore is
``state.extra["shore"]``: Cartagena (the passage's end) or Tortuga (the island path's
start). Pirates board it from the passage at Cartagena (at most three of a colour) and
land from it onto the island path at Tortuga, with "play a card and advance a pirate".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import SAIL
from .errors import IllegalActionError
from .events import Captain, Sail, UndoSail
from .rules import Refusal, Variant

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .state import State

CARTAGENA, TORTUGA = "cartagena", "tortuga"
SHORES = (CARTAGENA, TORTUGA)
CAPACITY = 3  # pirates of one colour aboard


def on_island(state: State, pos: int) -> bool:
    """A pirate at ``pos`` is on the island (see :func:`island`)."""
    return island(state.board.sloop, state.extra.get("shore"), pos)


class Sloop(Variant):
    kinds = ("sail",)
    undoable = ("sail",)
    extra_keys = ("shore", "captain", "free_sail")

    def setup(self, state: State) -> None:
        shore = state.extra.setdefault("shore", CARTAGENA)
        if shore not in SHORES:
            raise ValueError(f"shore is {' or '.join(SHORES)}, not {shore!r}")
        sloop = state.board.sloop
        if any(mine.count(sloop) > CAPACITY for mine in state.pirates):
            raise ValueError(f"at most {CAPACITY} pirates of a colour aboard the sloop")
        self.turn_started(state)

    def from_view(self, state: State, view: dict) -> None:
        state.extra["shore"] = view["sloop"]["shore"]
        state.extra["captain"] = view.get("captain")
        state.extra["free_sail"] = bool(view.get("free_sail"))

    def undo_note(self, state: State, action: Action) -> tuple:
        return (UndoSail, state.extra["shore"])

    def turn_started(self, state: State) -> None:
        sloop = state.board.sloop
        aboard = [mine.count(sloop) for mine in state.pirates]
        mine = aboard[state.turn]
        captain = mine >= 1 and mine == max(aboard)
        state.extra["captain"] = state.turn if captain else None
        state.extra["free_sail"] = captain
        if captain:
            state.log(Captain(state.turn))

    # -- sailing ----------------------------------------------------------------------
    def refuse_sail(self, state: State, seat: int) -> Refusal | None:
        sloop = state.board.sloop
        mine = state.pirates[seat]
        if state.extra["shore"] == CARTAGENA:
            if sloop not in mine:
                return ("sail-nobody-aboard",)
            return None
        first = 0 if self.game.jail_in_passage else 1
        if not any(first <= p < sloop for p in mine):
            if first == 0:
                return ("sail-nobody-waiting-jail", None, "sail-nobody-waiting")
            return ("sail-nobody-waiting",)
        return None

    def free(self, state: State, seat: int) -> bool:
        """The Captain's free sail: before the turn's first action, once."""
        return (state.taken == 0 and state.extra["free_sail"]
                and state.extra["captain"] == seat)

    def legal(self, state: State, seat: int, out: list[Action]) -> None:
        if (state.taken < self.game.actions or self.free(state, seat)) \
                and self.refuse_sail(state, seat) is None:
            out.append(SAIL)

    def apply(self, state: State, seat: int, action: Action) -> int:
        refused = self.refuse_sail(state, seat)
        if refused is not None:
            raise IllegalActionError(*refused)
        free = self.free(state, seat)
        if not free and state.taken >= self.game.actions:
            raise IllegalActionError("no-actions-left")
        shore = TORTUGA if state.extra["shore"] == CARTAGENA else CARTAGENA
        state.extra["shore"] = shore
        if free:
            state.extra["free_sail"] = False
        state.log(Sail(seat, shore, free))
        return 0 if free else 1

    # -- boarding and landing -----------------------------------------------------------
    def check(self, state: State, seat: int, owner: int, frm: int, to: int,
              how: str) -> Refusal | None:
        sloop = state.board.sloop
        return refusal(sloop, state.extra["shore"], state.pirates[owner].count(sloop),
                       frm, to, how, self.game.colors[owner])


def refusal(sloop: int, shore: str, aboard: int, frm: int, to: int, how: str,
            color: str = "") -> Refusal | None:
    """Why moving a pirate ``frm`` → ``to`` by ``how`` (advance, retreat, morgan) is not
    allowed, or None. ``aboard``: pirates of its colour on the sloop. Pure: the engine
    and the previews on a view (``preview.py``) share it."""
    if frm == sloop:
        if how == "retreat":
            if shore == TORTUGA:
                return ("no-retreat-from-sloop",)
        elif shore == CARTAGENA:
            return ("sloop-at-cartagena",)
    if to == sloop:
        if shore == TORTUGA:
            return ("sloop-away",)
        if aboard >= CAPACITY:
            return ("sloop-full", {"n": CAPACITY, "color": color})
    return None


def island(sloop: int | None, shore: str | None, pos: int) -> bool:
    """A pirate at ``pos`` is on the island: on its path, in the cove, or aboard the
    sloop at Tortuga."""
    if sloop is None:
        return False
    return pos > sloop or (pos == sloop and shore == TORTUGA)
