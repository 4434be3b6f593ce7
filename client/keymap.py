"""The keys each mode lists: one source for the key bars and the help.

Each function returns ``(key, what)`` pairs for one mode; the mode's key group
(:mod:`client.modes`) names its function, and :func:`client.keys.screen_keys` asks the
active group. ``now=True`` gives the key bar (only what works at this moment);
``now=False`` gives the help (every key of this screen that can work for this person
with these rules).
"""
from __future__ import annotations

from typing import Any

KeyPairs = list[tuple[str, str]]

UNDO_KEY = "z"
SAIL_KEY = "f"  # ferry the sloop (the Whole Jailbreak)
HINT_KEY = "!"  # ask the bot for a hint (a table that allows them)
SCROLL_KEYS = ("pageup", "pagedown", "home", "end")


def _options(model: Any) -> dict[str, Any]:
    return dict((model.view or {}).get("options") or {})


def has_dark_cards(model: Any) -> bool:
    return int(_options(model).get("dark_per_symbol") or 0) > 0


def replay_keys(model: Any) -> KeyPairs | None:
    """A recorded game's own keys (the replay viewer), else None."""
    keys = getattr(model, "replay_keys", None)
    return None if keys is None else list(keys)


def over_keys(model: Any) -> KeyPairs:
    """The game is over: play again, leave, chat."""
    pairs: KeyPairs = []
    if model.seat is not None and model.may_manage():
        pairs.append(("p", "play again (same table)"))
    if model.seat is not None:
        pairs.append(("l", "leave the table"))
    else:
        pairs.append(("l", "stop watching"))
    return pairs + [("c", "chat"), ("PgUp/PgDn", "scroll the log"), ("q", "quit"),
                    ("?", "help")]


def watching_keys(model: Any) -> KeyPairs:
    return [("c", "chat"), ("l", "stop watching"), ("PgUp/PgDn", "scroll the log"),
            ("q", "quit"), ("?", "help")]


def discard_keys(model: Any) -> KeyPairs:
    return [("letter", "choose a card to discard"), ("Backspace", "take back"),
            ("Enter", "discard"), ("?", "help")]


def magic_keys(model: Any) -> KeyPairs:
    kinds = model.legal_kinds()
    return [("←→/letter", "choose" + (" (digit: to whom)" if "give" in kinds else "")),
            ("Enter", "confirm"), ("?", "help")]


def power_keys(model: Any) -> KeyPairs:
    return [("←→/letter", "choose a power"), ("Enter", "release it"), ("Esc", "back"),
            ("?", "help")]


def morgan_keys(model: Any) -> KeyPairs:
    return [("←→", "choose whose pirate"), ("Enter", "push it"), ("Esc", "back"),
            ("?", "help")]


def move_keys(model: Any, now: bool = True) -> KeyPairs:
    """A seated player's keys while the game runs (``now``: only what works now)."""
    opts = _options(model)
    kinds = model.legal_kinds() if now else set()
    pairs = [("1-9/←→", "choose a pirate")]
    if not now or "advance" in kinds:
        pairs.append(("letter", "preview a card" + (" (capital: dark)" if has_dark_cards(model)
                                                    else "")))
    if now and model.preview is None and kinds & {"advance", "retreat"}:
        pairs.append(("Enter", "confirm"))  # (with a preview, its own line says so)
    elif not now:
        pairs += [("Enter", "confirm the preview"), ("Esc", "cancel the preview")]
    if (not now and opts.get("morgan") != "instead") or "retreat" in kinds:
        pairs.append(("r", "retreat"))
    if not now or "end" in kinds:
        pairs.append(("e", "end the turn"))
    if (not now and opts.get("empty_hand_draw")) or "draw" in kinds:
        pairs.append(("w", "draw (whole turn, empty hand)"))
    if (not now and opts.get("morgan") not in (None, "off")) or "morgan" in kinds:
        pairs.append(("m", "Morgan push"))
    if (not now and opts.get("story") == "whole") or "sail" in kinds:
        pairs.append((SAIL_KEY, "sail the sloop" if now else
                      "sail the sloop to the other shore (preview; Enter confirms)"))
    if (not now and opts.get("magic")) or "power" in kinds:
        pairs.append(("v", "card powers (Black Magic Woman)"))
    if not now and opts.get("magic"):
        pairs += [("←→/letter", ("a power's choice: take, give (digit: to whom), keep, "
                   "order back on the stock"))]
    if not now or "undo" in kinds:
        pairs.append((UNDO_KEY, "undo the last move"))
    if (model.table_info or {}).get("hints"):
        pairs.append((HINT_KEY, "hint: the bot's move for you, previewed (Enter plays it)"))
    if not now and opts.get("filibusters"):
        pairs += [("letter", "discard owed: choose a card"), ("Backspace", "take back a pick")]
    if model.may_manage():
        absent, standing = model.absent_seats(), model.stand_in_seats()
        if not now or absent:
            who = model.seat_name(absent[0]) if absent else "an absent player"
            pairs.append(("+", f"a bot plays for {who}"))
        if not now or standing:
            who = model.seat_name(standing[0]) if standing else "the absent player"
            pairs.append(("-", f"the bot stops; the seat waits for {who}"))
    pairs += [("c", "chat")]
    if not now:
        pairs += [("PgUp/PgDn Tab", "scroll the log, whole log"),
                  ("q", quit_help(model))]
    pairs.append(("?", "help"))
    return pairs


def quit_help(model: Any) -> str:
    """What q does in a game, as the quit question says it."""
    if getattr(model, "hosting", False):
        return "quit (ends the game for everyone)"
    if getattr(model, "solo", False):
        return "quit (ends the game)"
    return "quit (your seat is kept)"


def waiting_keys(model: Any) -> KeyPairs:
    """The waiting room of a table, for its owner, a seated player or a watcher."""
    pairs: KeyPairs = []
    if model.may_manage():
        pairs += [("↑↓", "choose a seat"), ("b", "add greedy bot"), ("B", "add random bot"),
                  ("x", "remove the chosen bot or empty seat"), ("s/Enter", "start")]
    pairs += [("c", "chat"), ("l", "leave the table" if model.seat is not None
                              else "stop watching"), ("q", "quit"), ("?", "help")]
    return pairs


def lobby_keys(model: Any) -> KeyPairs:
    pairs: KeyPairs = [("↑↓", "choose a table"), ("Enter", "watch" if model.spectate else "sit")]
    if not model.spectate:
        pairs.append(("w", "watch"))
    if model.saved_seat_free():
        pairs.append(("r", "take back your seat"))
    if not model.spectate:
        pairs.append(("t", "new table"))
    pairs += [("n", "name"), ("o", "colour"), ("c", "chat"), ("?", "help"), ("q", "quit")]
    return pairs


def browser_keys(model: Any) -> KeyPairs:
    return [("↑↓", "choose"), ("Enter", "connect"), ("a", "type an address"),
            ("n", "name"), ("?", "help"), ("q", "quit")]


def gone_keys(model: Any) -> KeyPairs:
    return [("r", "try again"), ("a", "another address"), ("q", "quit")]


def connecting_keys(model: Any) -> KeyPairs:
    return [("a", "another address"), ("q", "quit"), ("?", "help")]
