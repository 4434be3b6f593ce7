"""What a game logs: one named tuple for each kind of event.

An event is a tuple whose first field, ``kind``, names its kind (``"advance"``,
``"retreat"``, ...); its other fields are named, and every reader (the views'
``view._event``, the pirates' numbers in ``numbers.fold``) takes them by name. An event
is built without its kind, which its class fixes: ``Advance(seat, frm, to, card)``.
Cards are card kinds (ints, ``game.card_names`` names them), places are positions,
seats are seat numbers. Events are never changed once logged.

A state that keeps no events (a search's copy: ``state.events is None``) logs nothing
(``State.log`` drops them). Where an event would be built on most actions of a search
(an advance, a new turn, a retreat, Morgan's push), none is built there: the core turn
does not log it, and a variant logs None instead.

What goes on the wire is not these tuples but the views' event maps (``view._event``,
docs/protocol.md's event table): a new kind of event is a class here, a branch there,
and its sentence (``sentences.py``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


def _kind(kind: str, **fixed: str) -> Callable[[type[T]], type[T]]:
    """Make a NamedTuple class (whose first field is ``kind``) an event class: it is built
    from its other fields only, ``kind`` and the ``fixed`` fields set to these values."""

    def make(cls: Any) -> Any:
        fixed["kind"] = kind
        given = [f for f in cls._fields if f not in fixed]
        items = ", ".join(repr(fixed[f]) if f in fixed else f for f in cls._fields)
        namespace: dict[str, Any] = {"_tuple_new": tuple.__new__}
        args = ", ".join(given)
        text = f"def __new__(_cls, {args}):\n    return _tuple_new(_cls, ({items},))"
        exec(text, namespace)  # noqa: S102 - our own text, of the class's field names
        new = namespace["__new__"]
        new.__doc__ = f"{cls.__name__}({args}): an event of kind {kind!r}."
        cls.__new__ = new
        at = [i for i, f in enumerate(cls._fields) if f not in fixed]
        # pickling and copying build it again from the given fields only
        cls.__getnewargs__ = lambda self: tuple(self[i] for i in at)
        KINDS.setdefault(kind, []).append(cls)
        return cls

    return make


#: Each kind's event classes (two for ``undo`` and ``power``), in the order declared here.
KINDS: dict[str, list[type]] = {}


@_kind("turn")
class Turn(NamedTuple):
    """``seat``'s turn begins."""
    kind: str
    seat: int


@_kind("end")
class End(NamedTuple):
    """``seat`` ended its turn early."""
    kind: str
    seat: int


@_kind("win")
class Win(NamedTuple):
    """``seat`` won: its pirates are all home."""
    kind: str
    seat: int


@_kind("advance")
class Advance(NamedTuple):
    """``seat``'s pirate advanced from ``frm`` to ``to``, playing a card of kind ``card``."""
    kind: str
    seat: int
    frm: int
    to: int
    card: int


@_kind("retreat")
class Retreat(NamedTuple):
    """``seat``'s pirate retreated from ``frm`` to ``to`` and drew ``cards``."""
    kind: str
    seat: int
    frm: int
    to: int
    cards: tuple[int, ...]


@_kind("morgan")
class Morgan(NamedTuple):
    """``seat`` pushed ``owner``'s pirate from ``frm`` back to ``to`` (Morgan) and drew
    ``cards``."""
    kind: str
    seat: int
    owner: int
    frm: int
    to: int
    cards: tuple[int, ...]


@_kind("draw")
class Draw(NamedTuple):
    """``seat`` spent its turn drawing ``cards`` (an empty hand's draw)."""
    kind: str
    seat: int
    cards: tuple[int, ...]


@_kind("undo", action="advance")
class UndoAdvance(NamedTuple):
    """``seat`` took back its advance from ``frm`` to ``to`` (card ``card`` back in hand)."""
    kind: str
    seat: int
    action: str
    frm: int
    to: int
    card: int


@_kind("undo", action="sail")
class UndoSail(NamedTuple):
    """``seat`` took back its sail: the sloop is back at ``shore``."""
    kind: str
    seat: int
    action: str
    shore: str


@_kind("reshuffle")
class Reshuffle(NamedTuple):
    """The discard pile became the new stock, ``size`` cards."""
    kind: str
    size: int


@_kind("row")
class Row(NamedTuple):
    """A new face-up row was laid out: ``cards``."""
    kind: str
    cards: tuple[int, ...]


@_kind("discard")
class Discard(NamedTuple):
    """``seat`` discarded a card of kind ``card`` (Filibusters)."""
    kind: str
    seat: int
    card: int


@_kind("owe")
class Owe(NamedTuple):
    """``seat`` owes ``count`` discards (Filibusters)."""
    kind: str
    seat: int
    count: int


@_kind("captain")
class Captain(NamedTuple):
    """``seat`` is the Captain this turn (the Whole Jailbreak)."""
    kind: str
    seat: int


@_kind("sail")
class Sail(NamedTuple):
    """``seat`` sailed the sloop to ``shore``; ``free``: the Captain's free sail."""
    kind: str
    seat: int
    shore: str
    free: bool


@_kind("power")
class Gun(NamedTuple):
    """``seat`` played the Gun (card kind ``card``) at ``target``'s hand."""
    kind: str
    seat: int
    card: int
    target: int


@_kind("power")
class Power(NamedTuple):
    """``seat`` played Rum or the Lantern (card kind ``card``) and drew ``drawn`` cards
    for it."""
    kind: str
    seat: int
    card: int
    drawn: int


@_kind("take")
class Take(NamedTuple):
    """``seat`` took a card of kind ``card`` from ``target``'s hand (the Gun);
    ``target`` drew ``cards`` for it."""
    kind: str
    seat: int
    target: int
    card: int
    cards: tuple[int, ...]


@_kind("give")
class Give(NamedTuple):
    """``seat`` gave ``to`` a card of kind ``card`` from its Rum."""
    kind: str
    seat: int
    to: int
    card: int


@_kind("keep")
class Keep(NamedTuple):
    """``seat`` kept ``cards`` of its power's draw."""
    kind: str
    seat: int
    cards: tuple[int, ...]


@_kind("stack")
class Stack(NamedTuple):
    """``seat`` put ``cards`` back on top of the stock (the Lantern), the first on top."""
    kind: str
    seat: int
    cards: tuple[int, ...]


@_kind("chest")
class Chest(NamedTuple):
    """``seat`` opened the chest at ``pos`` with a card of kind ``card``: tile ``tile``
    (``magic.TILE_NAMES``), ``cards`` drawn for it, its pirate now at ``to``."""
    kind: str
    seat: int
    card: int
    pos: int
    tile: int
    cards: tuple[int, ...]
    to: int


@_kind("tiles")
class Tiles(NamedTuple):
    """The tiles were laid out again on ``chests`` chests."""
    kind: str
    chests: int


@_kind("parrot")
class Parrot(NamedTuple):
    """``seat``'s pirate flew from ``frm`` to ``to`` on two parrots (``card``,
    ``card2``) to the next space of symbol ``symbol``."""
    kind: str
    seat: int
    frm: int
    to: int
    card: int
    card2: int
    symbol: int


@_kind("hook")
class Hook(NamedTuple):
    """Two of ``seat``'s pirates advanced from ``frm`` to ``to`` with the Hook
    (``card``) and a card of kind ``card2``."""
    kind: str
    seat: int
    frm: int
    to: int
    card: int
    card2: int


#: Any event.
Event = tuple
