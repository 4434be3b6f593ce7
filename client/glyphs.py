"""Symbols, colours and key letters: how game things look on the terminal."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from cartagena_net.i18n import N_, NP_, _, ngettext, pgettext

# One-column glyphs (checked with wcwidth) for the symbols of every ruleset.
UNICODE_GLYPHS: dict[str, str] = {
    "skull": "☠",
    "dagger": "†",
    "key": "⚷",
    "keys": "⚷",
    "keyring": "⚷",
    "bottle": "⚱",
    "rum": "⚱",
    "hat": "♔",
    "pistol": "⌐",
    "gun": "⌐",
    "hook": "⌡",
    "grapple": "⌡",
    "lantern": "☼",
    "spyglass": "⊸",
    "telescope": "⊸",
    "parrot": "⚘",
    "chest": "▣",
    "treasure": "▣",
}

# The cards' names as a player reads them (the notation keeps the engine's: "skull").
SYMBOL_NAMES: dict[str, str] = {
    "skull": NP_("card", "skull"),
    "dagger": NP_("card", "dagger"),
    "key": NP_("card", "key"),
    "keys": NP_("card", "keys"),
    "keyring": NP_("card", "keyring"),
    "bottle": NP_("card", "bottle"),
    "rum": NP_("card", "rum"),
    "hat": NP_("card", "hat"),
    "pistol": NP_("card", "pistol"),
    "gun": NP_("card", "gun"),
    "hook": NP_("card", "hook"),
    "grapple": NP_("card", "grapple"),
    "lantern": NP_("card", "lantern"),
    "spyglass": NP_("card", "spyglass"),
    "telescope": NP_("card", "telescope"),
    "parrot": NP_("card", "parrot"),
    "chest": NP_("card", "chest"),
    "treasure": NP_("card", "treasure"),
}

# The seat colours as a player reads them (the host and the notation keep "red").
COLOR_NAMES: dict[str, str] = {
    "red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
    "purple": N_("purple"), "violet": N_("violet"), "magenta": N_("magenta"),
    "black": N_("black"), "white": N_("white"), "orange": N_("orange"), "brown": N_("brown"),
    "pink": N_("pink"), "cyan": N_("cyan"), "grey": N_("grey"), "gray": N_("gray"),
}


# The places the engine names (start and goal, paths), as a player reads them.
PLACE_NAMES = {
    "start": NP_("place", "start"), "sloop": NP_("place", "sloop"),
    "jail": NP_("place", "jail"), "flooded sloop": NP_("place", "flooded sloop"),
    "cove": NP_("place", "cove"), "meeting place": NP_("place", "meeting place"),
    "rowboat": NP_("place", "rowboat"), "boat": NP_("place", "boat"),
    "passage": NP_("place", "passage"),
    "underground passage": NP_("place", "underground passage"),
    "island path": NP_("place", "island path"), "jungle path": NP_("place", "jungle path"),
    "path": NP_("place", "path"),
}


def place(name: str) -> str:
    """A place's name in the reader's language (an unknown one as the host named it)."""
    return pgettext("place", PLACE_NAMES[name]) if name in PLACE_NAMES else name


def symbol_name(symbol: str) -> str:
    """A card's name in the reader's language (a dark card ``skull*`` is ``skull*``)."""
    base = symbol.rstrip("*")
    name = pgettext("card", SYMBOL_NAMES[base]) if base in SYMBOL_NAMES else base
    return name + symbol[len(base):]


def card_count(n: int) -> str:
    """``1 card``, ``2 cards`` (``1 kort``, ``2 kort``)."""
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def color_name(color: str) -> str:
    """A seat colour in the reader's language (an unknown one as the host named it)."""
    return _(COLOR_NAMES[color]) if color in COLOR_NAMES else color


def seat_number(seat: object) -> object:
    """A seat's number as a person counts (from 1; the wire's from 0)."""
    return seat + 1 if isinstance(seat, int) else seat


def seat_words(seat: object) -> str:
    """A seat named by its number, as a person counts it."""
    return _("seat {n}").format(n=seat_number(seat))


UNICODE_MARKS = {"start": "⚑", "boat": "⛴", "turn": "▶", "hidden": "▒", "arrow": "→", "sep": "·",
                 "cove": "⛱", "sea": "≈"}
ASCII_MARKS = {"start": "S", "boat": "@", "turn": ">", "hidden": "#", "arrow": "->", "sep": "|",
               "cove": "C", "sea": "~"}

# prompt_toolkit colour names for the seat colours.
COLOR_STYLES: dict[str, str] = {
    "red": "ansired",
    "blue": "ansibrightblue",
    "green": "ansigreen",
    "yellow": "ansiyellow",
    "purple": "ansimagenta",
    "violet": "ansimagenta",
    "magenta": "ansimagenta",
    "black": "ansibrightblack",
    "white": "ansiwhite",
    "orange": "#ff8700",
    "brown": "#af5f00",
    "pink": "#ff87d7",
    "cyan": "ansicyan",
    "grey": "ansigray",
    "gray": "ansigray",
}

# Keys that the game screen uses for commands; symbols never take them.
RESERVED_KEYS = frozenset("qrewmcyzfv")  # v: the card powers


def glyph(symbol: str, ascii_only: bool = False, keys: dict[str, str] | None = None) -> str:
    """The one-column mark of ``symbol`` (a dark card ``skull*`` looks like ``skull``);
    ``None`` is the sloop's place between two paths (the Whole Jailbreak)."""
    if symbol is None:
        return "~"
    base = symbol.rstrip("*")
    if not ascii_only and base in UNICODE_GLYPHS:
        return UNICODE_GLYPHS[base]
    if keys and base in keys:
        return keys[base]
    return (base[:1] or "?").lower()


def marks(ascii_only: bool) -> dict[str, str]:
    """Start, boat and other marks for the chosen character set."""
    return ASCII_MARKS if ascii_only else UNICODE_MARKS


def end_mark(name: str, start: bool, ascii_only: bool) -> str:
    """The mark of the start or the goal by what it is: a sloop or boat (the escape's goal,
    the island story's flooded start) is a boat, the cove a beach, the jail a flag."""
    m = marks(ascii_only)
    if "sloop" in name or name == "boat":
        return m["boat"]
    if name == "cove":
        return m["cove"]
    return m["start"] if start else m["boat"]


def color_style(color: str) -> str:
    """A prompt_toolkit style string for a seat colour."""
    return "bold fg:" + COLOR_STYLES.get(color, "ansiwhite")


def symbol_keys(symbols: Sequence[str]) -> dict[str, str]:
    """Give each symbol a distinct lowercase key: a letter of its name if free."""
    keys: dict[str, str] = {}
    taken = set(RESERVED_KEYS)
    for sym in symbols:
        for ch in sym.lower() + "abcdfghijklnopstuvxz":
            if ch.isalpha() and ch.isascii() and ch not in taken:
                keys[sym] = ch
                taken.add(ch)
                break
    return keys


def color_letters(colors: Iterable[str]) -> dict[str, str]:
    """One distinct capital letter per seat colour, a letter of its name in the reader's
    language, the first of its name's letters not yet taken (blue B, black L; in Swedish
    röd R, blå B, gul G, grön Ö): the letter shown beside a colour's name is its own. (The cards' keys stay those of
    their English names, so that keys and the notation agree in every language.)"""
    letters: dict[str, str] = {}
    taken: set[str] = set()
    for color in colors:
        if color in letters:
            continue
        for ch in color_name(color).upper() + color.upper() + "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            if ch.isalpha() and ch not in taken:
                letters[color] = ch
                taken.add(ch)
                break
    return letters
