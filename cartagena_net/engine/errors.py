"""Errors raised by the rules engine."""
from __future__ import annotations


class ActionError(ValueError):
    """Base class: an action could not be applied; the state is unchanged."""

    rule = "action"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule


class InvalidActionError(ActionError):
    """The text is not an action at all (bad notation)."""

    rule = "notation"


class IllegalActionError(ActionError):
    """A well-formed action that the rules forbid now; ``rule`` names the rule broken."""
