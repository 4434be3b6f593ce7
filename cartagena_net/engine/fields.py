"""A state's fields, declared once: what each holds, how a copy takes it, how an action's
save and an undo treat it, whether equality compares it.

``state.FIELDS`` is the one declaration: a :class:`Field` for each field of
:class:`~cartagena_net.engine.state.State`. Its ``__slots__``, a new blank state, its
copy, its equality key, the position an undo puts back and what an action's save keeps
are all made from it here, once, as plain Python functions (compiled from their text,
the way ``dataclasses`` makes ``__init__``): as fast as functions written out by hand,
and a field added to the declaration is copied, compared and saved with no other
change. The hand-written fast paths that save less (``State._plain_advance``,
``State._seat_action``) are checked against the declaration by
``tests/engine/test_fields.py``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

# -- how a copy takes a field (each a text of Python: the field's value is ``{v}``) ----
SHARED = "shared"  # the same object: immutable, or never changed in place
LIST = "list"  # a list of immutable items: the copy's own list
LISTS = "lists"  # a list of lists of immutable items: the copy's own lists
LIST_OR_NONE = "list-or-none"  # a list as LIST, or None
DICT = "dict"  # a dict of immutable values: the copy's own dict
EVENTS = "events"  # the event log (or None): in the copy only when asked (``events=True``)
WITH_EVENTS = "with-events"  # kept with the event log (or where none is kept), else empty
FORK = "fork"  # the chance source: a fork of it, or the copy's ``chance`` argument

_COPIED = {
    SHARED: "{v}",
    LIST: "{v}[:]",
    LISTS: "list(map(list, {v}))",
    LIST_OR_NONE: "None if {v} is None else {v}[:]",
    DICT: "{v}.copy()",
    EVENTS: "{v}[:] if events and {v} is not None else None",
    WITH_EVENTS: "{v} if c.events is not None or self.events is None else {empty!r}",
    FORK: "chance if chance is not None else {v}.fork()",
}
_DEEP = (SHARED, LIST, LISTS, LIST_OR_NONE, DICT)  # copies of the value alone

# -- how an action's save and an undo treat a field ------------------------------------
FIXED = "fixed"  # never changed by an action: not saved
POSITION = "position"  # the position: an undo note and a save keep a deep copy of it
LOG = "log"  # only appended to by an action: a save keeps its length, a failure cuts it back
WHOLE = "whole"  # a save keeps a copy and puts it back (not part of the position)
CHANCE = "chance"  # the chance source: a save keeps a replay's place in its outcomes


class Field(NamedTuple):
    """One field of a state. ``copy``: how a copy takes it (SHARED, LIST, ...);
    ``part``: how an action's save treats it (FIXED, POSITION, LOG, WHOLE, CHANCE);
    ``key``: whether equality compares it (True), or the name of its attribute that
    equality compares (the board's ``spaces``); ``empty``: its value in a blank state
    (a new list or dict for the list and dict kinds)."""

    name: str
    copy: str
    part: str
    key: bool | str = False
    empty: Any = None


def _tuple(items: list[str]) -> str:
    """The text of a tuple of ``items`` (one item or none included)."""
    return "(" + "".join(f"{i}, " for i in items) + ")"


def _compile(name: str, text: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    exec(text, namespace)  # noqa: S102 - our own text, of the declared field names
    fn = namespace[name]
    fn.__source__ = text  # for a reader of a traceback or a debugger
    return fn


def slots(fields: tuple[Field, ...]) -> tuple[str, ...]:
    """``__slots__``: the fields, and a weak reference (the views keep their memos of a
    state beside it, not on it: ``view.py``)."""
    return (*(f.name for f in fields), "__weakref__")


def blank(fields: tuple[Field, ...]) -> Callable[[type], Any]:
    """``blank(cls)``: a new instance of ``cls`` with every field at its empty value."""
    lines = [f"    s.{f.name} = " + ("[]" if f.copy in (LIST, LISTS) else "{}" if f.copy == DICT
                                     else repr(f.empty))
             for f in fields]
    text = "def blank(cls):\n    s = _new(cls)\n" + "\n".join(lines) + "\n    return s\n"
    return _compile("blank", text, {"_new": object.__new__})


def copier(fields: tuple[Field, ...], doc: str) -> Callable[..., Any]:
    """The ``copy(self, events=False, chance=None)`` method: every field as its ``copy``
    kind says, in the order declared."""
    lines = [f"    c.{f.name} = " + _COPIED[f.copy].format(v=f"self.{f.name}", empty=f.empty)
             for f in fields]
    text = ("def copy(self, events=False, chance=None):\n"
            "    c = _new(self.__class__)\n" + "\n".join(lines) + "\n    return c\n")
    fn = _compile("copy", text, {"_new": object.__new__})
    fn.__doc__ = doc
    return fn


def key(fields: tuple[Field, ...]) -> Callable[[Any], tuple]:
    """The ``_key(self)`` method: what equality compares, in the order declared."""
    items = [f"self.{f.name}" if f.key is True else f"self.{f.name}.{f.key}"
             for f in fields if f.key]
    return _compile("_key", f"def _key(self):\n    return {_tuple(items)}\n", {})


def _position_fields(fields: tuple[Field, ...]) -> list[Field]:
    out = [f for f in fields if f.part == POSITION]
    assert all(f.copy in _DEEP for f in out), "a position field is a plain value, list or dict"
    return out


def position_index(fields: tuple[Field, ...], name: str) -> int:
    """Where field ``name`` is in a position tuple (:func:`position`)."""
    return [f.name for f in _position_fields(fields)].index(name)


def position(fields: tuple[Field, ...]) -> tuple[Callable[[Any], tuple],
                                                Callable[[Any, tuple], None]]:
    """``_position(self)``: a tuple of the POSITION fields, each copied deep (as a copy
    takes it); ``_set_position(self, pos)``: puts one back as it is."""
    pos = _position_fields(fields)
    get = _tuple([_COPIED[f.copy].format(v=f"self.{f.name}") for f in pos])
    put = _tuple([f"self.{f.name}" for f in pos])
    return (
        _compile("_position", f"def _position(self):\n    return {get}\n", {}),
        _compile("_set_position", f"def _set_position(self, pos):\n    {put} = pos\n", {}),
    )


def copy_position(fields: tuple[Field, ...]) -> Callable[[tuple], tuple]:
    """``copy_position(pos)``: a deep copy of a position tuple (:func:`position`)."""
    pos = _position_fields(fields)
    names = _tuple([f.name for f in pos])
    again = _tuple([_COPIED[f.copy].format(v=f.name) for f in pos])
    return _compile("copy_position",
                    f"def copy_position(pos):\n    {names} = pos\n    return {again}\n", {})


def logs(fields: tuple[Field, ...]) -> tuple[Callable[[Any], tuple],
                                            Callable[[Any, tuple], None]]:
    """``_log_lengths(self)``: the length of each LOG field (None where it is None);
    ``_cut_logs(self, lengths)``: each cut back to those lengths."""
    lengths = _lengths(fields)
    cuts = "".join(f"    n = lengths[{i}]\n    if n is not None and self.{f.name} is not None:\n"
                   f"        del self.{f.name}[n:]\n"
                   for i, f in enumerate(f for f in fields if f.part == LOG))  # (None: kept none)
    return (
        _compile("_log_lengths", f"def _log_lengths(self):\n    return {lengths}\n", {}),
        _compile("_cut_logs", f"def _cut_logs(self, lengths):\n{cuts}    return None\n", {}),
    )


def log_index(fields: tuple[Field, ...], name: str) -> int:
    """Where LOG field ``name``'s length is in ``_log_lengths()`` (and in a save's)."""
    return [f.name for f in fields if f.part == LOG].index(name)


def _lengths(fields: tuple[Field, ...]) -> str:
    """The text of the LOG fields' lengths (None for a field that may be None and is)."""
    return _tuple([f"len(self.{f.name})" if f.copy in (LIST, LISTS) else
                   f"None if self.{f.name} is None else len(self.{f.name})"
                   for f in fields if f.part == LOG])


def save(fields: tuple[Field, ...], replay: type) -> tuple[Callable[[Any], tuple],
                                                          Callable[[Any, tuple], None]]:
    """``_save(self)``: everything an action may change, copied deep enough to put back:
    (the position, the LOG fields' lengths, the WHOLE fields' copies, the place of a
    replaying chance source (``replay``) in its outcomes, else None); ``_restore(self,
    saved)`` puts it all back."""
    whole = [f for f in fields if f.part == WHOLE]
    chance = [f.name for f in fields if f.part == CHANCE]
    assert len(chance) == 1, "one chance source"
    kept = _tuple([_COPIED[f.copy].format(v=f"self.{f.name}") for f in whole])
    back = "".join(f"    self.{f.name} = whole[{i}]\n" for i, f in enumerate(whole))
    ch = chance[0]
    return (
        _compile("_save", "def _save(self):\n"
                 f"    ch = self.{ch}\n"
                 f"    return (self._position(), {_lengths(fields)}, {kept},\n"
                 "            ch._next if isinstance(ch, _Replay) else None)\n",
                 {"_Replay": replay}),
        _compile("_restore", "def _restore(self, saved):\n"
                 "    position, lengths, whole, replay_next = saved\n"
                 "    self._set_position(position)\n"
                 "    self._cut_logs(lengths)\n" + back +
                 f"    if replay_next is not None:\n        self.{ch}._next = replay_next\n",
                 {}),
    )
