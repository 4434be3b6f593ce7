"""Small pieces of UI state: a line being typed, the new-table form, a move preview."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cartagena_net.i18n import _

COLORS = ("any", "red", "blue", "yellow", "green", "purple", "grey")


@dataclass
class InputLine:
    """A line being typed: a chat message, an address, a name."""

    purpose: str
    prompt: str
    text: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """One game option as the engine describes it (``cartagena rules``, the web form's
    /play/rules.json): its name, type name (``int``, ``bool``, ``str``), help, choices and
    bounds."""

    name: str
    kind: str
    help: str = ""
    choices: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None

    def steps(self) -> list[Any]:
        """The values left/right go through (None: the rules' own value)."""
        if self.kind == "bool":
            return [None, True, False]
        if self.choices:
            return [None, *self.choices]
        if self.kind == "int" and self.bounds:
            return [None, *range(self.bounds[0], self.bounds[1] + 1)]
        return [None]

    @property
    def typed(self) -> bool:
        """Its value is typed (a number without bounds, a text without choices)."""
        return self.kind in ("int", "str") and not self.choices


# The form's own rows, before one row per game option; ``opt:NAME`` rows follow.
BASE_FIELDS = ("rules", "players", "bots", "name", "options", "hints", "chances", "password",
               "bot_kind")
# The bots a table's owner adds (the form's bots, the waiting room's keys, the reader's
# bot command): the host's searching bot at the level it runs, one of each level (easy
# is the greedy bot), or one that plays at random; each as add_bot's kind and level.
BOT_CHOICES: dict[str, tuple[str, str | None]] = {
    "ismcts": ("ismcts", None), "easy": ("greedy", None), "normal": ("ismcts", "normal"),
    "hard": ("ismcts", "hard"), "random": ("random", None),
}
BOT_KINDS = tuple(BOT_CHOICES)


def add_bot_message(table: Any, choice: str, seat: int | None = None) -> dict[str, Any]:
    """The ``add_bot`` message for one of :data:`BOT_CHOICES` (``greedy``: the easy one).
    The host's level and easy send no level, as a client before levels did."""
    kind, level = BOT_CHOICES.get("easy" if choice == "greedy" else choice, (choice, None))
    msg: dict[str, Any] = {"type": "add_bot", "table": table, "seat": seat, "kind": kind}
    if level is not None:
        msg["level"] = level
    return msg


@dataclass
class CreateForm:
    """The "new table" form in the lobby: every table setting the web form offers (rules,
    players, each game option, hints, players see the chances) and a password."""

    presets: list[str]
    preset: int = 0
    players: int = 4
    bots: int = 0
    name: str = "table"
    options: str = ""  # extra KEY=VALUE words (the rows below take precedence)
    row: int = 0
    hints: bool = False
    chances: bool = False
    password: str = ""
    bot_kind: str = "ismcts"
    specs: tuple[OptionSpec, ...] = ()
    chosen: dict[str, Any] = field(default_factory=dict)  # option rows set (else the rules')

    @property
    def FIELDS(self) -> tuple[str, ...]:
        return BASE_FIELDS + tuple(f"opt:{s.name}" for s in self.specs)

    def spec(self, row_name: str) -> OptionSpec | None:
        if not row_name.startswith("opt:"):
            return None
        return next((s for s in self.specs if s.name == row_name[4:]), None)

    def options_dict(self) -> dict[str, Any]:
        """The options to send: the ``k=v`` words (ints and booleans recognised), then the
        option rows set, then the players."""
        out: dict[str, Any] = {}
        for word in self.options.split():
            key, sep, val = word.partition("=")
            if not sep or not key:
                raise ValueError(_("option {word} is not KEY=VALUE").format(word=repr(word)))
            out[key] = parse_value(val)
        for spec in self.specs:
            value = self.chosen.get(spec.name)
            if value is None or value == "":
                continue
            if spec.kind == "int" and isinstance(value, str):
                if not (value.isascii() and value.isdigit()):
                    raise ValueError(_("{name}: a whole number").format(name=spec.name))
                value = int(value)
            out[spec.name] = value
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
