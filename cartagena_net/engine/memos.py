"""What the views keep beside a state or a board, not on it: a state holds only its game.

A host builds every viewer's view after every action; most of a view is what it was a
moment ago (the game's fixed part, the seats' faces whose pirates and hands did not
move, the pirates' numbers folded up to the last event). The views keep what they
built in a :class:`Beside`, one entry for each object they were asked about, for as
long as that object lives (a weak reference: a state or board that is dropped takes
its entry with it). Each user checks that what it kept still holds before it uses it.
"""
from __future__ import annotations

import weakref
from typing import Any


class Beside:
    """Values kept beside objects, one for each, for as long as it lives. The objects
    need not be hashable (a state is not): they are told apart by identity. Not for
    objects copied or pickled with their values: nothing is copied. A value must not
    reach its object (nor what reaches it, as a game reaches its boards): the entry
    would keep both for good; refer to such things weakly."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[int, tuple[weakref.ref, Any]] = {}

    def get(self, obj: Any) -> Any:
        """The value kept beside ``obj``, or None."""
        kept = self._kept.get(id(obj))
        if kept is not None and kept[0]() is obj:
            return kept[1]
        return None

    def put(self, obj: Any, value: Any) -> Any:
        """Keep ``value`` beside ``obj`` (in place of any before); ``value``."""
        key = id(obj)
        kept = self._kept

        def gone(_ref: weakref.ref, key: int = key) -> None:
            # ``obj`` is going: no other object can have its identity yet
            entry = kept.get(key)
            if entry is not None and entry[0] is _ref:
                del kept[key]

        kept[key] = (weakref.ref(obj, gone), value)
        return value

    def __len__(self) -> int:
        return len(self._kept)
