"""Named rulesets (one per edition in the rules) and the options each accepts.

See docs/rules.md for the rule text behind every value and decision.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import PALETTE, SEGMENT, Game

CLASSIC = ("skull", "dagger", "key", "bottle", "pistol", "hat")
WEB_2008 = ("bottle", "dagger", "key", "hat", "gun", "skull")
JUNGLE = ("rum", "key", "pistol", "hook", "lantern", "spyglass")
STUDIOGIOCHI = ("gun", "rum", "lantern", "parrot", "hook", "chest")

_BASE: dict[str, Any] = {
    "pirates": 6, "segments": 6, "symbols": CLASSIC, "per_symbol": 17, "dark_per_symbol": 0, "deal": 6,
    "start_bonus": 0, "actions": 3, "min_actions": 1, "hands_public": False, "row_size": 0,
    "empty_hand_draw": "stuck", "morgan": "off", "filibusters": False, "hand_limit": 7, "side": "passage",
    "board": None,
}


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
                "tunnel or island, Morgan and Filibusters options",
                "2017-studiogiochi-with-variants.en.txt", (2, 5), symbols=STUDIOGIOCHI,
                dark_per_symbol=2, empty_hand_draw="always", side="tunnel"),
        _preset("web-2008", "2008 web rules (Jamaica): 2-6 players, deal 3, up to 3 actions",
                "2008-web-jamaica.html.txt", (2, 6), symbols=WEB_2008, deal=3),
    )
}


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
               "whole turn: stuck = only with no legal retreat, always = whenever the hand "
               "is empty at the start of the turn", choices=("stuck", "always")),
        Option("morgan", str, "Morgan recharge: move an opponent's pirate forward and draw; "
               "off, instead (of retreat) or also (beside retreat)",
               choices=("off", "instead", "also")),
        Option("filibusters", bool, "playing a dark card makes every other player with more "
               "than hand_limit cards discard down to it (needs dark cards)"),
        Option("hand_limit", int, "Filibusters hand limit", bounds=(1, 30)),
        Option("side", str, "board side (names of the start and the goal)",
               choices=("passage", "tunnel", "island", "jungle")),
        Option("board", str, "explicit board: symbol letters or names, e.g. "
               "'SDKBPH HPBKDS' (default: random layout from the seed)"),
        Option("colors", str, "seat colours, comma separated"),
    )
}


def coerce_option(name: str, value: Any) -> Any:
    """Turn a command-line string (or a plain value) into the option's type."""
    opt = OPTIONS.get(name)
    if opt is None:
        raise ValueError(f"unknown option {name!r}; options: {', '.join(OPTIONS)}")
    if opt.kind is bool and isinstance(value, str):
        low = value.strip().lower()
        if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise ValueError(f"option {name} takes yes or no, not {value!r}")
        return low in ("1", "true", "yes", "on")
    if opt.kind is int and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"option {name} takes a whole number, not {value!r}") from None
    if name == "colors" and isinstance(value, str):
        return tuple(c.strip() for c in value.split(",") if c.strip())
    return value


def _parse_board(text: str, symbols: tuple[str, ...]) -> str:
    """Normalise an explicit board to one letter per space."""
    letters = {s[0].upper(): s for s in symbols}
    names = {s: s[0].upper() for s in symbols}
    words = [w for w in text.replace(",", " ").split() if w]
    if all(w.lower() in names for w in words) and words:
        out = "".join(names[w.lower()] for w in words)
    else:
        out = "".join(c.upper() for c in text if not c.isspace() and c not in ",-|")
    bad = sorted({c for c in out if c not in letters})
    if not out or bad:
        raise ValueError(f"board: unknown symbol letters {bad}; use {''.join(letters)}")
    return out


def make_game(preset: str = "jamaica", **options: Any) -> Game:
    """Build a :class:`Game` from a preset and options; raises ValueError with a reason."""
    if preset not in PRESETS:
        raise ValueError(f"unknown rules {preset!r}; presets: {', '.join(PRESETS)}")
    p = PRESETS[preset]
    values = dict(p.values)
    players = p.default_players
    colors = PALETTE
    for name, raw in options.items():
        if raw is None:
            continue
        value = coerce_option(name, raw)
        opt = OPTIONS[name]
        if opt.kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"option {name} takes a whole number")
        if opt.bounds and not opt.bounds[0] <= value <= opt.bounds[1]:
            raise ValueError(f"option {name} must be {opt.bounds[0]}..{opt.bounds[1]}")
        if opt.choices and value not in opt.choices:
            raise ValueError(f"option {name} is one of {', '.join(opt.choices)}")
        if name == "players":
            players = value
        elif name == "colors":
            colors = tuple(value)
        else:
            values[name] = value
    lo, hi = p.players
    if not lo <= players <= hi:
        raise ValueError(f"{preset} is for {lo} to {hi} players")
    if values["board"]:
        values["board"] = _parse_board(values["board"], values["symbols"])
        values["segments"] = max(1, len(values["board"]) // SEGMENT)
    if values["filibusters"] and not values["dark_per_symbol"]:
        raise ValueError("filibusters needs dark cards (studiogiochi-2017)")
    if len(colors) < players or len(set(colors[:players])) != players:
        raise ValueError(f"colors: {players} different colours needed")
    if any(not c.isalpha() or len(c) > 16 for c in colors[:players]):
        raise ValueError("colors: each colour is a word of at most 16 letters")
    needed = players * values["deal"] + values["start_bonus"] + values["row_size"]
    if needed > values["per_symbol"] * len(values["symbols"]):
        raise ValueError("not enough cards to deal that many")
    return Game(preset=preset, players=players, colors=tuple(colors[:players]), **values)
