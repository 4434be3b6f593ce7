"""How personalised versions plug into the core turn.

The core turn (``state.py``) knows advancing with a card, the whole-turn draw, ending
the turn, decisions owed, turns and the win. Everything else is a :class:`Variant`
in its own module: the basic recharge (``retreat.py``), Morgan (``morgan.py``),
Filibusters (``filibusters.py``) and the Whole Jailbreak's sloop (``jailbreak.py``).
A variant may

- add the actions it owns to the legal list (``legal``) and apply them (``apply``,
  returning how many of the turn's actions they cost);
- refuse a move of a pirate (``check``: advance, retreat or Morgan push), e.g. onto a
  sloop that is away;
- say whether a seat can still recharge (``can_recharge``, for the empty-hand draw);
- react to a card played (``card_played``) and to a new turn (``turn_started``);
- keep its own public state in ``state.extra`` (plain immutable values);
- make a seat owe a decision (``state.pending``: (seat, count, kind), answered by
  actions of that kind, which ``decisions`` lists: Filibusters' discards, the Black
  Magic Woman's Gun, Rum and Lantern choices);
- learn that the discard pile became a new stock (``reshuffled``);
- mark actions that reveal nothing as undoable (``undoable``, ``undo_note``: what the
  undo logs);
- say what the core may take for granted, so that it does less: that its actions change
  only the actor's pirates and hand and draw at most a few cards (``actor_only``,
  ``most_drawn``: ``apply`` saves less), or that its legal actions are exactly the
  retreats of the pirates that have somewhere to retreat to (``swept``: where nothing
  checks a move, ``legal_actions`` lists them in its one pass over the pirates).

What a variant may do to a :class:`~cartagena_net.engine.state.State` is named in
:class:`VariantState`: the state's public fields it reads and changes, and the
operations of the core turn it may call (move a pirate, draw cards, log an event, check
the win...). A variant module calls no underscore member of ``State``
(``tests/test_repository.py`` checks it).

:class:`~cartagena_net.engine.versions.Rules` composes the variants a game's options
ask for, once per game.
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Protocol

from .errors import IllegalActionError

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Action
    from .state import State

Refusal = tuple  # (why, fields[, rule]): IllegalActionError's arguments


class VariantState(Protocol):
    """The part of :class:`~cartagena_net.engine.state.State` a variant module uses.

    Fields (``FIELDS``; read, and changed only as the core turn would):

    - ``game``, ``board``: the Game and its places; ``tables``: the game's precomputed
      move tables for this board (``Game.action_tables``);
    - ``pirates[seat]``: sorted positions; ``occ[pos]``: pirates on each place;
    - ``hands[seat][k]``: how many cards of kind ``k``; ``stock`` (top last),
      ``discard`` (top last): card kinds;
    - ``turn``, ``taken`` (actions taken this turn), ``pending`` ((seat, count, kind)
      decisions owed), ``extra`` (each variant's own public state, plain values);
    - ``events``: the events kept, or None where the state keeps none (a search's copy):
      read only to build no event for nothing (see ``log``).
    """

    FIELDS = ("game", "board", "tables", "pirates", "occ", "hands", "stock", "discard",
              "turn", "taken", "pending", "extra", "events")

    def own_pirate(self, seat: int, pos: int) -> None:
        """Raise IllegalActionError unless ``seat`` has a pirate at ``pos``."""

    def move_pirate(self, seat: int, frm: int, to: int) -> None:
        """Move one of ``seat``'s pirates from ``frm`` to ``to`` (occupancy, pirates home)."""

    def draw_cards(self, seat: int, n: int) -> list[int]:
        """Draw up to ``n`` cards into ``seat``'s hand (from the row or the stock,
        reshuffling the discard pile when needed); the kinds drawn."""

    def check_win(self, seat: int) -> bool:
        """End the game if ``seat`` has every pirate home; whether it did."""

    def log(self, event: tuple | None) -> None:
        """Record an event (one of ``events.py``'s; the views' ``events``, filtered by
        ``view``); None where ``state.events`` is None (the state keeps none, a search's:
        an action a search takes often builds none for nothing)."""

    def shuffle(self, items: list[int]) -> None:
        """Shuffle ``items`` with the game's chance source, recording the outcome so
        that the game replays exactly."""

    def place_arg(self, pos: int) -> str | int:
        """A place as a reason's ``place`` field (engine/reasons.py): its word, or a
        space's number."""

    def advance_target(self, pos: int, symbol: int) -> int:
        """Where a pirate at ``pos`` lands playing a card of ``symbol``."""

    def retreat_target(self, pos: int) -> int:
        """Where a pirate at ``pos`` retreats to (0, the start, if nowhere nearer)."""


class Variant:
    """A personalised version: hooks the core turn calls. Every hook is optional."""

    kinds: tuple[str, ...] = ()  # action kinds this variant applies
    undoable: tuple[str, ...] = ()  # ... that reveal nothing and may be taken back (D23)
    extra_keys: tuple[str, ...] = ()  # its entries in ``state.extra``
    recharge = False  # a way to draw cards (matters for the empty-hand draw)
    refuses = True  # whether ``check`` may refuse anything in this game (else it is skipped)
    # Whether its actions change no seat's pirates or hand but the actor's, of the piles
    # only draw from the stock (``most_drawn`` cards at most), besides the turn and its
    # own ``extra``, and none is undoable: apply saves less (State._seat_action).
    actor_only = False
    most_drawn = 0
    # Whether its legal actions are exactly the retreats of the pirates that have a
    # retreat target (moves.retreat_targets), one for each such space: where no variant
    # checks a move, legal_actions lists them in its one pass over the pirates
    # (moves.sweep, ``tables.retreat``) instead of calling ``legal``.
    swept = False

    def __init__(self, game: Any) -> None:
        # The game by a weak proxy: the game keeps its rules (``Game.rules``), which keep
        # their variants, so a strong reference back would make a cycle, and every game
        # with its action tables would wait for the garbage collector's oldest
        # generation instead of going when its last state and table let it go.
        self.game = weakref.proxy(game)

    def setup(self, state: State) -> None:
        """A new game (or a set-up position): initialise ``state.extra`` entries."""

    def from_view(self, state: State, view: dict[str, Any]) -> None:
        """Set this variant's ``state.extra`` entries from a view (``State.from_view``),
        with the cards it holds that the viewer sees; the ones it hides stay out until
        :meth:`deal_held`."""

    def shown_hands(self, view: dict[str, Any]) -> dict[int, list[str]]:
        """Other seats' hands this view shows its viewer (e.g. the Gun's target hand)."""
        return {}

    def held(self, state: State) -> list[int]:
        """The cards this variant holds outside hands, stock, discard pile and row."""
        return []

    def hidden_held(self, state: State, view: dict[str, Any]) -> tuple[int, ...]:
        """How many cards this variant holds that ``view`` hides, place by place (e.g.
        another seat's power pool): a rebuilt state deals them (:meth:`deal_held`)."""
        return ()

    def deal_held(self, state: State, sizes: tuple[int, ...], cards: list[int]) -> None:
        """Put ``cards`` (as many as ``sizes`` adds up to) into the hidden places."""

    def shuffle_hidden(self, state: State, rng: Any) -> None:
        """A determinization: put this variant's hidden non-card state (e.g. face-down
        tiles) in a random order consistent with the view, with ``rng.random``."""

    def legal(self, state: State, seat: int, out: list[Action]) -> None:
        """Append this variant's actions ``seat`` may take now (nothing is pending)."""

    def apply(self, state: State, seat: int, action: Action) -> int:
        """Apply one of ``kinds``; return the number of the turn's actions it used."""
        raise IllegalActionError("unknown-action", {"action": action.kind}, "unknown")

    def undo_note(self, state: State, action: Action) -> tuple:
        """What an undo of an undoable action just applied logs: the event's class (one of
        ``events.py``'s ``undo`` events) and its fields after the seat."""
        raise NotImplementedError(f"an undoable {action.kind!r} says what its undo logs")

    def decisions(self, state: State) -> list[Action]:
        """The actions answering the decision this variant made someone owe."""
        return []

    def check(self, state: State, seat: int, owner: int, frm: int, to: int,
              how: str) -> Refusal | None:
        """Refuse (message, rule) moving ``owner``'s pirate ``frm`` → ``to`` by ``how``
        (advance, retreat, morgan), or None to allow it."""
        return None

    def can_recharge(self, state: State, seat: int) -> bool:
        """A recharge (``recharge = True``): whether ``seat`` could use it at the start of
        its turn, i.e. whether ``legal`` then lists any of its actions."""
        if not self.recharge:
            return False
        out: list[Action] = []
        taken, state.taken = state.taken, 0
        try:
            self.legal(state, seat, out)
        finally:
            state.taken = taken
        return bool(out)

    def card_played(self, state: State, seat: int, k: int) -> None:
        """``seat`` played card kind ``k`` (after its move, if the game goes on)."""

    def turn_started(self, state: State) -> None:
        """``state.turn`` has just become a new seat's turn."""

    def reshuffled(self, state: State) -> None:
        """The discard pile has just become a new, shuffled stock."""


def need_action(state: State) -> None:
    """Raise unless one of the turn's actions is left."""
    if state.taken >= state.game.actions:
        raise IllegalActionError("no-actions-left")


# Why an action kind is refused when no variant of the game applies it.
ABSENT: dict[str, Refusal] = {
    "retreat": ("no-retreat",),
    "morgan": ("morgan-off",),
    "discard": ("discard-not-owed",),
    "sail": ("no-sloop",),
    "power": ("magic-off",),
    "take": ("take-not-owed",),
    "give": ("give-not-owed",),
    "keep": ("keep-not-owed",),
    "stack": ("stack-not-owed",),
}
