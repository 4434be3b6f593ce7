"""The one exception the host's lobby and tables raise for a refused request."""
from __future__ import annotations

from typing import Any

from cartagena_net.engine.reasons import english


class HostError(Exception):
    """A request refused: ``code``, the reason as data (``why``, a key of
    :data:`cartagena_net.engine.reasons.REASONS`, and its ``fields``) and the English
    ``message`` made from them go into an ``error`` message (docs/protocol.md 4.3)."""

    def __init__(self, code: str, why: str, fatal: bool = False, **fields: Any) -> None:
        self.code = code
        self.why = why
        self.fields = fields
        self.message = english(why, fields)
        self.fatal = fatal
        super().__init__(f"{code}: {self.message}")

    @classmethod
    def of(cls, code: str, exc: Any, fatal: bool = False) -> HostError:
        """The HostError passing on an error that carries a reason (the engine's)."""
        return cls(code, exc.why, fatal, **exc.fields)
