"""One seat at a table: who sits there (player or bot) and how to reach them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Seat:
    """A seat. A human seat has a ``token``; a bot seat has ``bot_kind`` and, for a
    searching bot added at a level of its own, ``bot_level`` (None: the host's level)."""

    index: int
    color: str
    name: str | None = None
    token: str | None = None
    bot_kind: str | None = None
    bot_level: str | None = None  # a searching bot's own level ("easy", "normal", "hard")
    bot: Any = None
    conn: Any = None
    takeover_bot: Any = None
    takeover_kind: str | None = None  # the kind of the stand-in bot playing for an absent player
    takeover_call: Any = field(default=None, repr=False)

    @property
    def occupied(self) -> bool:
        return self.token is not None or self.bot_kind is not None

    @property
    def human(self) -> bool:
        return self.token is not None and self.bot_kind is None

    @property
    def connected(self) -> bool:
        return self.bot_kind is not None or self.conn is not None

    @property
    def controller(self) -> Any:
        """The bot that plays this seat now (its own or a takeover bot), or None."""
        return self.bot if self.bot_kind is not None else self.takeover_bot

    def clear(self) -> None:
        """Free the seat."""
        self.name = self.token = self.bot_kind = self.bot_level = None
        self.bot = self.conn = self.takeover_bot = self.takeover_kind = None

    def stand_in(self, bot: Any, kind: str | None) -> None:
        """A bot plays this seat for its absent player (``None``: the seat waits again)."""
        self.takeover_bot = bot
        self.takeover_kind = kind if bot is not None else None

    def level(self, default: str | None = None) -> str | None:
        """The level its own bot plays at: a searching bot's ``bot_level``, else ``default``
        (the host's level; None where the host times its bots); a greedy bot's is easy;
        None for any other seat (a person, a random bot, a stand-in)."""
        if self.bot_kind == "greedy":
            return "easy"
        if self.bot_kind != "ismcts":
            return None
        return self.bot_level or default

    def public(self, default_level: str | None = None) -> dict[str, Any]:
        """The seat as listed in ``lobby`` (no token); ``default_level``: the host's level
        for a searching bot added without one."""
        return {
            "seat": self.index,
            "name": self.name,
            "color": self.color,
            "bot": self.bot_kind or self.takeover_kind,
            "connected": self.connected if self.occupied else False,
            "level": self.level(default_level),
        }

    def record(self) -> dict[str, Any]:
        """The seat as journaled (with its token, and its bot's own level if any)."""
        rec = {"name": self.name, "token": self.token, "bot": self.bot_kind}
        if self.bot_level is not None:
            rec["level"] = self.bot_level
        return rec
