"""The program's things said in words, in the reader's language: a bot's kind and level
(``greedy bot``, ``girig bot``, never ``greedy-bot``), a table's options and a record's
rules (``jamaica, 3 players, Filibusters``, never ``players=3 filibusters=True``).

The notation (``-o players=3``, ``--bot greedy``) stays the command line's and the
protocol's; these are only what a person reads. ``cartagena_net/web/static/i18n.js``
(``Names.bot``, ``Names.options``) says the same with the same catalog entries.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartagena_net.i18n import N_, NP_, _, decimal, ngettext, pgettext

BOT_KINDS = {"random": NP_("bot kind", "random bot"), "greedy": NP_("bot kind", "greedy bot"),
             "ismcts": NP_("bot kind", "thinking bot")}
BOT_LEVELS = {"easy": NP_("bot level", "easy"), "normal": NP_("bot level", "normal"),
              "hard": NP_("bot level", "hard")}


def bot_kind(kind: Any) -> str:
    """``greedy bot`` (``girig bot``); an unknown kind as it is."""
    kind = str(kind)
    return pgettext("bot kind", BOT_KINDS[kind]) if kind in BOT_KINDS else kind


def bot_words(kind: Any, level: Any = None, think: Any = None) -> str:
    """A bot's kind with its level or thinking time: ``thinking bot, normal``,
    ``tänkande bot, 1,5 s``."""
    text = bot_kind(kind)
    if level:
        lv = str(level)
        text += ", " + (pgettext("bot level", BOT_LEVELS[lv]) if lv in BOT_LEVELS else lv)
    elif isinstance(think, (int, float)) and not isinstance(think, bool):
        text += ", " + _("{seconds} s").format(seconds=decimal(f"{think:g}"))
    return text


def _yes_no(name: str, value: bool) -> str:
    words = {
        "hands_public": (NP_("option", "open hands"), NP_("option", "hidden hands")),
        "filibusters": (NP_("option", "Filibusters"), NP_("option", "no Filibusters")),
        "magic": (NP_("option", "Black Magic Woman"), NP_("option", "no Black Magic Woman")),
        "jail_in_passage": (NP_("option", "the jail in the passage"),
                            NP_("option", "the jail apart from the passage")),
    }
    return pgettext("option", words[name][0 if value else 1])


CHOICES = {
    "empty_hand_draw": {"stuck": NP_("option", "an empty hand draws when stuck"),
                        "always": NP_("option", "an empty hand always draws")},
    "morgan": {"off": NP_("option", "no Morgan"),
               "instead": NP_("option", "Morgan instead of retreat"),
               "also": NP_("option", "Morgan beside retreat"),
               "island": NP_("option", "Morgan on the island")},
    "side": {"passage": NP_("option", "the passage side"),
             "tunnel": NP_("option", "the tunnel side"),
             "island": NP_("option", "the island side"),
             "jungle": NP_("option", "the jungle side")},
    "story": {"escape": NP_("option", "the escape"), "island": NP_("option", "the island"),
              "whole": NP_("option", "the Whole Jailbreak")},
}


def option_words(name: str, value: Any) -> str:
    """One option in words: ``3 players``, ``Filibusters``, ``Morgan beside retreat``; an
    option or value not known here in the notation (``name=value``). A value as typed
    (``-o pirates=1``: text) reads as the rules read it: ASCII digits a number, ``true``
    and ``false`` a yes or a no."""
    if isinstance(value, str):
        if value.isascii() and value.isdigit():
            value = int(value)
        elif value.lower() in ("true", "false"):
            value = value.lower() == "true"
    if isinstance(value, bool) and name in ("hands_public", "filibusters", "magic",
                                            "jail_in_passage"):
        return _yes_no(name, value)
    if name in CHOICES and str(value) in CHOICES[name]:
        return pgettext("option", CHOICES[name][str(value)])
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
        counted = {
            "players": ngettext("{n} player", "{n} players", n),
            "pirates": ngettext("{n} pirate each", "{n} pirates each", n),
            "segments": ngettext("{n} segment", "{n} segments", n),
            "actions": ngettext("{n} action a turn", "{n} actions a turn", n),
            "deal": ngettext("{n} card dealt", "{n} cards dealt", n),
            "start_bonus": ngettext("{n} extra card for the start player",
                                    "{n} extra cards for the start player", n),
            "row_size": ngettext("a face-up row of {n}", "a face-up row of {n}", n)
            if n else _("no face-up row"),
            "hand_limit": _("hand limit {n}"),
            "island_segments": ngettext("{n} island segment", "{n} island segments", n),
        }
        if name in counted:
            return counted[name].format(n=n)
    if isinstance(value, list):
        value = ",".join(map(str, value))
    return f"{name}={value}"


# the engine's order of its options (cartagena_net/engine/options.py), players first
ORDER = ("players", "pirates", "segments", "actions", "deal", "start_bonus", "hands_public",
         "row_size", "empty_hand_draw", "morgan", "filibusters", "magic", "hand_limit", "side",
         "story", "island_segments", "jail_in_passage", "board", "colors")


def options_words(options: Mapping[str, Any] | None, skip: tuple[str, ...] = ("colors",)) -> str:
    """A table's options in words, ``, `` between them (the seat colours show with the
    seats)."""
    items = sorted((options or {}).items(),
                   key=lambda kv: (ORDER.index(kv[0]) if kv[0] in ORDER else len(ORDER), kv[0]))
    return ", ".join(option_words(k, v) for k, v in items if k not in skip)


def rules_words(preset: str, options: Mapping[str, Any] | None) -> str:
    """A game's rules: its preset's name (a name: it stays) and its options in words,
    ``jamaica, 3 players, Filibusters``."""
    rest = options_words(options)
    return f"{preset}, {rest}" if rest else preset


def bot_row_words(key: Any) -> str:
    """A scoreboard's bot row (``ismcts normal``, ``ismcts 1.5s``: its kind and level or
    thinking time, as the records count it) in words: ``thinking bot, normal``."""
    kind, _sep, how = str(key).partition(" ")
    if kind not in BOT_KINDS:  # not a kind known here: the row's name, marked a bot
        return f"{key} ({_('bot')})"
    if how.endswith("s") and how[:-1].replace(".", "", 1).isdigit():
        return bot_words(kind, think=float(how[:-1]))
    return bot_words(kind, level=how or None)


END_WORDS = {"won": NP_("game end", "won"), "stopped": N_("stopped"),
             "abandoned": N_("abandoned")}


def end_word(end: str) -> str:
    """How a record's game ended, in words (``won``: it ended by its rules)."""
    if end == "won":
        return pgettext("game end", END_WORDS[end])
    return _(END_WORDS[end]) if end in END_WORDS else end


# the seat colours the program names (their words are client/glyphs.py's ``COLOR_NAMES``)
COLORS = ("red", "blue", "green", "yellow", "purple", "violet", "magenta", "black", "white",
          "orange", "brown", "pink", "cyan", "grey", "gray")


def color_word(color: Any) -> str:
    """A seat colour in the reader's language (an unknown one as it is)."""
    return _(str(color)) if color in COLORS else str(color)
