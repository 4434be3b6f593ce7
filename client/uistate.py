"""Small pieces of UI state: a line being typed, the new-table form, a move preview."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cartagena_net.i18n import _

COLORS = ("any", "red", "blue", "yellow", "green", "purple", "grey")


@dataclass
class InputLine:
    """A line being typed: a chat message, an address, a name."""

    purpose: str
    prompt: str
    text: str = ""


@dataclass
class CreateForm:
    """The "new table" form in the lobby."""

    presets: list[str]
    preset: int = 0
    players: int = 4
    bots: int = 0
    name: str = "table"
    options: str = ""
    row: int = 0

    FIELDS = ("rules", "players", "bots", "name", "options")

    def options_dict(self) -> dict[str, Any]:
        """``k=v`` words as an options map (ints and booleans recognised)."""
        out: dict[str, Any] = {}
        for word in self.options.split():
            key, sep, val = word.partition("=")
            if not sep or not key:
                raise ValueError(_("option {word} is not KEY=VALUE").format(word=repr(word)))
            out[key] = parse_value(val)
        out["players"] = self.players
        return out


def parse_value(val: str) -> int | str | bool:
    """An option value from text: int, bool or str."""
    low = val.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(val)
    except ValueError:
        return val


@dataclass
class Preview:
    """An action shown with its result, waiting for Enter."""

    action: str
    text: str
    landing: int | None = None
    origin: int | None = None
