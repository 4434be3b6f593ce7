"""The keys each mode lists: one source for the key bars and the help.

Each function returns ``(key, what)`` pairs for one mode; the mode's key group
(:mod:`client.modes`) names its function, and :func:`client.keys.screen_keys` asks the
active group. ``now=True`` gives the key bar (only what works at this moment);
``now=False`` gives the help (every key of this screen that can work for this person
with these rules).
"""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import _

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
    return None if keys is None else [(k, _(what)) for k, what in keys]  # marked with N_


def over_keys(model: Any) -> KeyPairs:
    """The game is over: play again, leave, chat."""
    pairs: KeyPairs = []
    if model.seat is not None and model.may_manage():
        pairs.append(("p", _("play again (same table)")))
    if model.seat is not None:
        pairs.append(("l", _("leave the table")))
    else:
        pairs.append(("l", _("stop watching")))
    return pairs + [("c", _("chat")), ("PgUp/PgDn", _("scroll the log")), ("q", _("quit")),
                    ("?", _("help"))]


def watching_keys(model: Any) -> KeyPairs:
    return [("c", _("chat")), ("l", _("stop watching")), ("PgUp/PgDn", _("scroll the log")),
            ("q", _("quit")), ("?", _("help"))]


def discard_keys(model: Any) -> KeyPairs:
    return [(_("letter"), _("choose a card to discard")), ("Backspace", _("take back")),
            ("Enter", _("discard")), ("?", _("help"))]


def magic_keys(model: Any) -> KeyPairs:
    kinds = model.legal_kinds()
    return [(_("←→/letter"), _("choose (digit: to whom)") if "give" in kinds else _("choose")),
            ("Enter", _("confirm")), ("?", _("help"))]


def power_keys(model: Any) -> KeyPairs:
    return [(_("←→/letter"), _("choose a power")), ("Enter", _("release it")), ("Esc", _("back")),
            ("?", _("help"))]


def morgan_keys(model: Any) -> KeyPairs:
    return [("←→", _("choose whose pirate")), ("Enter", _("push it")), ("Esc", _("back")),
            ("?", _("help"))]


def move_keys(model: Any, now: bool = True) -> KeyPairs:
    """A seated player's keys while the game runs (``now``: only what works now)."""
    opts = _options(model)
    kinds = model.legal_kinds() if now else set()
    pairs = [("1-9/←→", _("choose a pirate"))]
    if not now or "advance" in kinds:
        pairs.append((_("letter"), _("preview a card (capital: dark)") if has_dark_cards(model)
                      else _("preview a card")))
    if now and model.preview is None and kinds & {"advance", "retreat"}:
        pairs.append(("Enter", _("confirm")))  # (with a preview, its own line says so)
    elif not now:
        pairs += [("Enter", _("confirm the preview")), ("Esc", _("cancel the preview"))]
    if (not now and opts.get("morgan") != "instead") or "retreat" in kinds:
        pairs.append(("r", _("retreat")))
    if not now or "end" in kinds:
        pairs.append(("e", _("end the turn")))
    if (not now and opts.get("empty_hand_draw")) or "draw" in kinds:
        pairs.append(("w", _("draw (whole turn, empty hand)")))
    if (not now and opts.get("morgan") not in (None, "off")) or "morgan" in kinds:
        pairs.append(("m", _("Morgan push")))
    if (not now and opts.get("story") == "whole") or "sail" in kinds:
        pairs.append((SAIL_KEY, _("sail the sloop") if now else
                      _("sail the sloop to the other shore (preview; Enter confirms)")))
    if (not now and opts.get("magic")) or "power" in kinds:
        pairs.append(("v", _("card powers (Black Magic Woman)")))
    if not now and opts.get("magic"):
        pairs += [(_("←→/letter"), _("a power's choice: take, give (digit: to whom), keep, "
                                     "order back on the stock"))]
    if not now or "undo" in kinds:
        pairs.append((UNDO_KEY, _("undo the last move")))
    if (model.table_info or {}).get("hints"):
        pairs.append((HINT_KEY, _("hint: the bot's move for you, previewed (Enter plays it)")))
    if not now and opts.get("filibusters"):
        pairs += [(_("letter"), _("discard owed: choose a card")), ("Backspace", _("take back a pick"))]
    if model.may_manage():
        absent, standing = model.absent_seats(), model.stand_in_seats()
        if not now or absent:
            who = model.seat_name(absent[0]) if absent else _("an absent player")
            pairs.append(("+", _("a bot plays for {who}").format(who=who)))
        if not now or standing:
            who = model.seat_name(standing[0]) if standing else _("the absent player")
            pairs.append(("-", _("the bot stops; the seat waits for {who}").format(who=who)))
    pairs += [("c", _("chat"))]
    if not now:
        pairs += [("PgUp/PgDn Tab", _("scroll the log, whole log")),
                  ("q", quit_help(model))]
    pairs.append(("?", _("help")))
    return pairs


def quit_help(model: Any) -> str:
    """What q does in a game, as the quit question says it."""
    kept = getattr(model, "game_kept", False)
    if getattr(model, "hosting", False):
        return (_("quit (stops the game for everyone; kept for the next start)") if kept
                else _("quit (ends the game for everyone)"))
    if getattr(model, "solo", False):
        return _("quit (the game is kept for the next start)") if kept else _(
            "quit (ends the game)")
    return _("quit (your seat is kept)")


def waiting_keys(model: Any) -> KeyPairs:
    """The waiting room of a table, for its owner, a seated player or a watcher."""
    pairs: KeyPairs = []
    if model.may_manage():
        pairs += [("↑↓", _("choose a seat")), ("b", _("add a bot (the host's level)")),
                  ("e", _("add an easy bot")), ("N", _("add a normal bot")),
                  ("H", _("add a hard bot")), ("B", _("add a random bot")),
                  ("x", _("remove the chosen bot or empty seat")), ("s/Enter", _("start"))]
    pairs += [("c", _("chat")), ("l", _("leave the table") if model.seat is not None
                              else _("stop watching")), ("q", _("quit")), ("?", _("help"))]
    return pairs


def lobby_keys(model: Any) -> KeyPairs:
    pairs: KeyPairs = [("↑↓", _("choose a table")), ("Enter", _("watch") if model.spectate else _("sit"))]
    if not model.spectate:
        pairs.append(("w", _("watch")))
    if model.saved_seat_free():
        pairs.append(("r", _("take back your seat")))
    if not model.spectate:
        pairs.append(("t", _("new table")))
    pairs += [("n", _("name")), ("o", _("colour")), ("c", _("chat")), ("?", _("help")), ("q", _("quit"))]
    return pairs


def browser_keys(model: Any) -> KeyPairs:
    return [("↑↓", _("choose")), ("Enter", _("connect")), ("a", _("type an address")),
            ("n", _("name")), ("?", _("help")), ("q", _("quit"))]


def gone_keys(model: Any) -> KeyPairs:
    return [("r", _("try again")), ("a", _("another address")), ("q", _("quit"))]


def connecting_keys(model: Any) -> KeyPairs:
    return [("a", _("another address")), ("q", _("quit")), ("?", _("help"))]
