"""The client's keys, one group per mode, the way ptpython gives each mode its own
key-binding group with a ``Condition`` filter, kept free of prompt_toolkit so that the
model can be driven and tested without a terminal.

A :class:`KeyGroup` says when it is active (:meth:`KeyGroup.when`), what its keys do
(:meth:`KeyGroup.handle`, which says whether the key was the group's) and, for a screen,
which keys the key bar and the ``?`` help list (:meth:`KeyGroup.help`). The dispatcher
(:mod:`client.keys`) asks the groups in order of precedence; the first active group that
takes the key ends the search. The groups call only the model's own queries and actions
(its attributes, ``send``, ``set_status``, ``start_input``, ``send_action``, ...).
"""
from __future__ import annotations

from typing import Any

from client.keymap import KeyPairs

Model = Any  # a client.model.ClientModel (named loosely: the model imports the groups)


class KeyGroup:
    """One mode's keys and the condition under which they apply."""

    name = "keys"

    def when(self, m: Model) -> bool:
        """This group is active now."""
        return True

    def handle(self, m: Model, key: str) -> bool:
        """React to ``key``; True if the key was this group's (no later group sees it)."""
        return False

    def help(self, m: Model, now: bool) -> KeyPairs | None:
        """The keys this group's screen lists (``now``: the key bar; else the help)."""
        return None


class Modal(KeyGroup):
    """A group that takes every key while it is active (an overlay, a form, a screen)."""

    def handle(self, m: Model, key: str) -> bool:
        self.on_key(m, key)
        return True

    def on_key(self, m: Model, key: str) -> None:
        raise NotImplementedError


def first_active(groups: tuple[KeyGroup, ...], m: Model) -> KeyGroup | None:
    for group in groups:
        if group.when(m):
            return group
    return None


def dispatch(groups: tuple[KeyGroup, ...], m: Model, key: str) -> bool:
    """Offer ``key`` to each active group in turn until one takes it."""
    return any(group.when(m) and group.handle(m, key) for group in groups)
