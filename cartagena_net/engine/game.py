"""The Game: a ruleset and its parameters, fixed for a whole game. States come from it."""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from .actions import ActionTables, action_tables
from .board import SEGMENT  # noqa: F401  (re-exported: spaces per board segment)
from .chance import RandomChance
from .options import OPTIONS, PALETTE
from .state import State
from .versions import Rules


@dataclass(frozen=True)
class Game:
    """Rules and parameters. Create with :func:`cartagena_net.engine.make_game`."""

    preset: str
    players: int
    pirates: int
    segments: int
    symbols: tuple[str, ...]
    per_symbol: int
    dark_per_symbol: int
    deal: int
    start_bonus: int
    actions: int
    min_actions: int
    hands_public: bool
    row_size: int
    empty_hand_draw: str
    morgan: str
    filibusters: bool
    hand_limit: int
    side: str
    board: str | None = None
    colors: tuple[str, ...] = field(default=PALETTE)
    story: str = "escape"
    island_segments: int | None = None
    jail_in_passage: bool | None = None
    magic: bool = False

    # -- derived, computed once -------------------------------------------------
    @cached_property
    def kinds(self) -> int:
        """Number of card kinds: one per symbol, doubled when dark cards exist."""
        return len(self.symbols) * (2 if self.dark_per_symbol else 1)

    @cached_property
    def card_names(self) -> tuple[str, ...]:
        dark = tuple(s + "*" for s in self.symbols) if self.dark_per_symbol else ()
        return self.symbols + dark

    @cached_property
    def card_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.card_names)}

    @cached_property
    def letters(self) -> dict[str, int]:
        """One-letter code of each symbol (its first letter, unique in every preset)."""
        return {s[0]: i for i, s in enumerate(self.symbols)}

    @cached_property
    def deck(self) -> tuple[int, ...]:
        n = len(self.symbols)
        light = self.per_symbol - self.dark_per_symbol
        cards = [s for s in range(n) for _ in range(light)]
        cards += [s + n for s in range(n) for _ in range(self.dark_per_symbol)]
        return tuple(cards)

    @cached_property
    def rules(self) -> Rules:
        """The personalised versions in play, composed once (see ``versions.py``)."""
        return Rules(self)

    @property
    def start_name(self) -> str:
        return _PLACES[self.side if self.story != "whole" else "whole"][0]

    @property
    def goal_name(self) -> str:
        return _PLACES[self.side if self.story != "whole" else "whole"][1]

    @property
    def path_names(self) -> tuple[str, ...]:
        """The name of each path, in the order pirates travel them."""
        if self.story == "whole":
            return (_PATHS["tunnel"], _PATHS["island"])
        return (_PATHS[self.side],)

    @cached_property
    def _options(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.magic:  # an option added later: games without it keep their data
            del d["magic"]
        return d

    def options(self) -> dict[str, Any]:
        """The parameters as plain data (public; part of every view); a fresh copy."""
        d = dict(self._options)
        d["symbols"] = list(self.symbols)
        d["colors"] = list(self.colors)
        return d

    def spec(self) -> dict[str, Any]:
        """``make_game(**spec)`` rebuilds this game exactly (plain data, for journals)."""
        spec: dict[str, Any] = {"preset": self.preset}
        for name in OPTIONS:
            value = getattr(self, name)
            if value is not None and (name != "magic" or value):
                spec[name] = list(value) if isinstance(value, tuple) else value
        return spec

    # -- interned actions ---------------------------------------------------------
    def action_tables(self, length: int) -> ActionTables:
        """The tables of this game's boards of ``length`` (shared with other games on
        boards of the same kinds and length: :func:`actions.action_tables`), kept while
        this game lives."""
        cache = self.__dict__.setdefault("tables", {})
        tables = cache.get(length)
        if tables is None:
            tables = cache[length] = action_tables(self.card_names, self.players, length)
        return tables

    # -- states ---------------------------------------------------------------------
    def new_state(
        self,
        seed: int | None = None,
        rng: random.Random | None = None,
        chance: Any = None,
        events: bool = True,
    ):
        """A new game: board laid out, deck shuffled and dealt by the chance source.

        Give ``seed`` (reproducible), ``rng`` (e.g. ``random.SystemRandom()``) or a
        ``chance`` object (e.g. :class:`ReplayChance`). ``events=False`` skips the event
        log (faster, for bots' search).
        """
        if chance is None:
            if rng is None:
                rng = random.Random(seed) if seed is not None else random.SystemRandom()
            chance = RandomChance(rng)
        return State.new(self, chance, events=events)


_PLACES = {
    "passage": ("start", "sloop"),
    "tunnel": ("jail", "sloop"),
    "island": ("flooded sloop", "cove"),
    "jungle": ("meeting place", "rowboat"),
    "whole": ("jail", "cove"),
}
_PATHS = {
    "passage": "passage",
    "tunnel": "underground passage",
    "island": "island path",
    "jungle": "jungle path",
}
