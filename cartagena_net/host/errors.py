"""The one exception the host's lobby and tables raise for a refused request."""
from __future__ import annotations


class HostError(Exception):
    """A request refused: ``code`` and ``message`` go into an ``error`` message."""

    def __init__(self, code: str, message: str, fatal: bool = False) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = fatal
