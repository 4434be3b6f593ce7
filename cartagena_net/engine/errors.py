"""Errors raised by the rules engine."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .reasons import english


class ActionError(ValueError):
    """Base class: an action could not be applied; the state is unchanged.

    ``why`` is the reason's key in :data:`cartagena_net.engine.reasons.REASONS` and
    ``fields`` its fields (data a client words in its own language); the exception's
    text is the English sentence made from them."""

    rule = "action"

    def __init__(self, why: str, fields: Mapping[str, Any] | None = None,
                 rule: str | None = None) -> None:
        self.why = why
        self.fields = dict(fields or {})
        super().__init__(english(why, self.fields))
        if rule is not None:
            self.rule = rule


class InvalidActionError(ActionError):
    """The text is not an action at all (bad notation)."""

    rule = "notation"


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid now; ``rule`` names the rule broken
    (the reason's key unless given)."""

    def __init__(self, why: str, fields: Mapping[str, Any] | None = None,
                 rule: str | None = None) -> None:
        super().__init__(why, fields, rule if rule is not None else why)
