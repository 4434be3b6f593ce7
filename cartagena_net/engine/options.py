"""The options a game accepts, with their types, bounds and help (``cartagena rules``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError

PALETTE = ("red", "blue", "yellow", "green", "purple", "grey")
STORIES = ("escape", "island", "whole")


@dataclass(frozen=True)
class Option:
    name: str
    kind: type
    help: str
    choices: tuple = ()
    bounds: tuple[int, int] | None = None


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("players", int, "number of seats (the preset's range)"),
        Option("pirates", int, "pirates per player", bounds=(1, 6)),
        Option("segments", int, "board segments of 6 spaces", bounds=(1, 12)),
        Option("actions", int, "most actions per turn (at least one is always owed)",
               bounds=(1, 6)),
        Option("deal", int, "cards dealt to each player", bounds=(0, 12)),
        Option("start_bonus", int, "extra cards for the start player", bounds=(0, 6)),
        Option("hands_public", bool, "hands are face up for everyone"),
        Option("row_size", int, "face-up draw row size; 0 = draw from the hidden stock",
               bounds=(0, 24)),
        Option("empty_hand_draw", str, "when a player with no cards may draw one card as the "
               "whole turn: stuck = only with no legal recharge, always = whenever the hand "
               "is empty at the start of the turn", choices=("stuck", "always")),
        Option("morgan", str, "Morgan recharge: move an opponent's pirate forward and draw; "
               "off, instead (of retreat), also (beside retreat) or island (the Whole "
               "Jailbreak's mix: retreat in the passage, Morgan on the island)",
               choices=("off", "instead", "also", "island")),
        Option("filibusters", bool, "playing a dark card makes every other player with more "
               "than hand_limit cards discard down to it (needs dark cards)"),
        Option("magic", bool, "Black Magic Woman: each card may release its power instead "
               "of a move (gun, rum, lantern, parrot, hook, chest), with the treasure chest "
               "tiles (needs the 2017 symbols)"),
        Option("hand_limit", int, "Filibusters hand limit", bounds=(1, 30)),
        Option("side", str, "board side (names of the start and the goal)",
               choices=("passage", "tunnel", "island", "jungle")),
        Option("story", str, "part of the 2017 story: escape (jail to sloop), island "
               "(flooded sloop to cove) or whole (jail, passage, sloop, island, cove)",
               choices=STORIES),
        Option("island_segments", int, "island path segments with story=whole (>= 3; "
               "segments then counts the tunnel's)", bounds=(1, 12)),
        Option("jail_in_passage", bool, "story=whole: a pirate in the jail counts as one "
               "in the underground passage for sailing the sloop back"),
        Option("board", str, "explicit board: symbol letters or names, e.g. "
               "'SDKBPH HPBKDS'; with story=whole the two paths split by '/' "
               "(default: random layout from the seed)"),
        Option("colors", str, "seat colours, comma separated"),
    )
}


def coerce_option(name: str, value: Any) -> Any:
    """Turn a command-line string (or a plain value) into the option's type."""
    opt = OPTIONS.get(name)
    if opt is None:
        raise OptionError("unknown-option", {"option": repr(name), "options": ", ".join(OPTIONS)})
    if opt.kind is bool and isinstance(value, str):
        low = value.strip().lower()
        if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise OptionError("option-yes-no-not", {"option": name, "value": repr(value)})
        return low in ("1", "true", "yes", "on")
    if opt.kind is int and isinstance(value, str):
        # Only ASCII digits are numbers: int() alone also takes '٣', '３', '+3', ' 3', '3_0'.
        if not (value.isascii() and value.isdigit() and len(value) <= 6):
            raise OptionError("option-number-not", {"option": name, "value": repr(value)})
        return int(value)
    if name == "colors" and isinstance(value, str):
        return tuple(c.strip() for c in value.split(",") if c.strip())
    return value
