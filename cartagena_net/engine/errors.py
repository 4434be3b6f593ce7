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


class OptionError(ValueError):
    """Rules or options a game cannot be made with (an unknown preset, an option's bad
    value, options that do not go together): ``why``, the reason's key in
    :data:`cartagena_net.engine.reasons.REASONS`, and its ``fields`` (option names and
    values as they were given: the notation, shown as they are in every language). The
    exception's text is the English sentence; a caller words it in its reader's language
    with :func:`cartagena_net.engine.reasons.reason_text`. A ValueError, so that every
    ``except ValueError`` keeps catching it."""

    def __init__(self, why: str, fields: Mapping[str, Any] | None = None) -> None:
        self.why = why
        self.fields = dict(fields or {})
        super().__init__(english(why, self.fields))
