"""Named rulesets (one per edition in the rules) and the options each accepts.

See docs/rules.md for the rule text behind every value and decision.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import SEGMENT
from .errors import OptionError
from .game import Game
from .options import OPTIONS, PALETTE, STORIES, Option, coerce_option  # noqa: F401

CLASSIC = ("skull", "dagger", "key", "bottle", "pistol", "hat")
WEB_2008 = ("bottle", "dagger", "key", "hat", "gun", "skull")
JUNGLE = ("rum", "key", "pistol", "hook", "lantern", "spyglass")
STUDIOGIOCHI = ("gun", "rum", "lantern", "parrot", "hook", "chest")

_BASE: dict[str, Any] = {
    "pirates": 6, "segments": 6, "symbols": CLASSIC, "per_symbol": 17, "dark_per_symbol": 0, "deal": 6,
    "start_bonus": 0, "actions": 3, "min_actions": 1, "hands_public": False, "row_size": 0,
    "empty_hand_draw": "stuck", "morgan": "off", "filibusters": False, "magic": False, "hand_limit": 7, "side": "passage",
    "board": None, "story": "escape", "island_segments": None, "jail_in_passage": None,
}
WHOLE_SEGMENTS = 3  # the default (and least) segments of each path in the Whole Jailbreak
COLOR_LETTERS = 16  # the longest seat colour's letters


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    source: str
    players: tuple[int, int]  # allowed range
    default_players: int
    values: dict[str, Any]


def _preset(name, title, source, players, **changes) -> Preset:
    return Preset(name, title, source, players, min(4, players[1]),
                  {**_BASE, **changes})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        _preset("jamaica", "1672 rules, Jamaica way: hidden hands, draw from the stock",
                "1672-classic-jamaica-tortuga.en.txt", (2, 5)),
        _preset("tortuga", "1672 rules, Tortuga way: open hands, draw from a face-up row of 12",
                "1672-classic-jamaica-tortuga.en.txt", (2, 5), hands_public=True, row_size=12),
        _preset("hispaniola", "Hidden hands, draws from a face-up row of 12 (online option)",
                "1672-classic-jamaica-tortuga.en.txt", (2, 5), row_size=12),
        _preset("ravensburger", "2014 jungle edition, basic game: 5 segments, 4 pirates, "
                "2 actions, start player gets 6 cards, the others 5",
                "2014-ravensburger-jungle.en.txt", (2, 5), symbols=JUNGLE, per_symbol=15,
                segments=5, pirates=4, actions=2, deal=5, start_bonus=1, side="jungle"),
        _preset("ravensburger-advanced", "2014 jungle edition, advanced game: 6 segments, "
                "5 pirates, 3 actions", "2014-ravensburger-jungle.en.txt", (2, 5),
                symbols=JUNGLE, per_symbol=15, segments=6, pirates=5, actions=3, deal=5,
                start_bonus=1, side="jungle"),
        _preset("studiogiochi-2017", "2017 edition: 17 cards a symbol (2 dark), 4-8 segments, "
                "the escape, the island or the whole jailbreak (story=), Morgan and "
                "Filibusters options",
                "2017-studiogiochi-with-variants.en.txt", (2, 5), symbols=STUDIOGIOCHI,
                dark_per_symbol=2, empty_hand_draw="always", side="tunnel"),
        _preset("web-2008", "2008 web rules (Jamaica): 2-6 players, deal 3, up to 3 actions",
                "2008-web-jamaica.html.txt", (2, 6), symbols=WEB_2008, deal=3),
    )
}


def _parse_board(text: str, symbols: tuple[str, ...], paths: int = 1) -> str:
    """Normalise an explicit board to one letter per space; with two paths, the two
    parts are split by one '/' (the sloop)."""
    parts = text.split("/")
    if len(parts) != paths:
        raise OptionError("board-two-paths" if paths == 2 else "board-sloop")
    if paths == 2:
        return "/".join(_parse_board(part, symbols) for part in parts)
    letters = {s[0].upper(): s for s in symbols}
    names = {s: s[0].upper() for s in symbols}
    words = [w for w in text.replace(",", " ").split() if w]
    if all(w.lower() in names for w in words) and words:
        out = "".join(names[w.lower()] for w in words)
    else:
        out = "".join(c.upper() for c in text if not c.isspace() and c not in ",-|")
    bad = sorted({c for c in out if c not in letters})
    if not out or bad:
        raise OptionError("board-letters", {"letters": " ".join(bad) or "-",
                                            "use": "".join(letters)})
    return out


def make_game(preset: str = "jamaica", **options: Any) -> Game:
    """Build a :class:`Game` from a preset and options; raises :class:`OptionError` (a
    ValueError) with the reason as data."""
    if preset not in PRESETS:
        raise OptionError("unknown-rules", {"preset": repr(preset), "presets": ", ".join(PRESETS)})
    p = PRESETS[preset]
    values = dict(p.values)
    players = p.default_players
    colors = PALETTE
    given = set()
    for name, raw in options.items():
        if raw is None:
            continue
        given.add(name)
        value = coerce_option(name, raw)
        opt = OPTIONS[name]
        if opt.kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise OptionError("option-number", {"option": name})
        if opt.kind is bool and not isinstance(value, bool):
            raise OptionError("option-yes-no", {"option": name})
        if opt.kind is str and name != "colors" and not isinstance(value, str):
            raise OptionError("option-text", {"option": name})
        if name == "colors" and (not isinstance(value, (list, tuple))
                                 or not all(isinstance(c, str) for c in value)):
            raise OptionError("option-colors")
        if opt.bounds and not opt.bounds[0] <= value <= opt.bounds[1]:
            raise OptionError("option-range", {"option": name, "lo": opt.bounds[0],
                                               "hi": opt.bounds[1]})
        if opt.choices and value not in opt.choices:
            raise OptionError("option-choices", {"option": name,
                                                 "choices": ", ".join(opt.choices)})
        if name == "players":
            players = value
        elif name == "colors":
            colors = tuple(value)
        else:
            values[name] = value
    lo, hi = p.players
    if not lo <= players <= hi:
        raise OptionError("preset-players", {"preset": preset, "lo": lo, "hi": hi})
    _story(preset, values, given)
    if values["board"]:
        whole = values["story"] == "whole"
        values["board"] = _parse_board(values["board"], values["symbols"], 2 if whole else 1)
        lengths = [len(part) for part in values["board"].split("/")]
        values["segments"] = max(1, lengths[0] // SEGMENT)
        if whole:
            values["island_segments"] = max(1, lengths[1] // SEGMENT)
    if values["filibusters"] and not values["dark_per_symbol"]:
        raise OptionError("filibusters-no-dark")
    if values["magic"]:
        if values["symbols"] != STUDIOGIOCHI:
            raise OptionError("magic-symbols")
        if values["row_size"]:
            raise OptionError("magic-row")
    if len(colors) < players or len(set(colors[:players])) != players:
        raise OptionError("colors-too-few", {"n": players})
    if any(not c.isalpha() or len(c) > COLOR_LETTERS for c in colors[:players]):
        raise OptionError("colors-words", {"most": COLOR_LETTERS})
    needed = players * values["deal"] + values["start_bonus"] + values["row_size"]
    if needed > values["per_symbol"] * len(values["symbols"]):
        raise OptionError("deal-too-many")
    return Game(preset=preset, players=players, colors=tuple(colors[:players]), **values)


def _story(preset: str, values: dict[str, Any], given: set[str]) -> None:
    """Check and complete the options of the part of the story played (rules D24)."""
    story = values["story"]
    if story != "escape" and values["symbols"] != STUDIOGIOCHI:
        raise OptionError("story-needs-2017", {"story": story})
    if story == "whole":
        if values["side"] != "tunnel":
            raise OptionError("whole-no-side")
        if "segments" not in given:
            values["segments"] = WHOLE_SEGMENTS
        if values["island_segments"] is None:
            values["island_segments"] = WHOLE_SEGMENTS
        if values["jail_in_passage"] is None:
            values["jail_in_passage"] = True
        least = WHOLE_SEGMENTS
        if not values["board"] and min(values["segments"], values["island_segments"]) < least:
            raise OptionError("whole-segments", {"least": least})
        return
    for name in ("island_segments", "jail_in_passage"):
        if values[name] is not None:
            raise OptionError("option-whole-only", {"option": name})
    if values["morgan"] == "island":
        raise OptionError("morgan-island-whole")
    if story == "island":
        if "side" in given and values["side"] != "island":
            raise OptionError("island-side")
        values["side"] = "island"
