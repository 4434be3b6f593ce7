"""Why something was refused or ended, as data: a reason's key (``why``) and its fields
(``args``), and the one table of their English templates.

The host sends an ``error`` and a ``bye`` with ``why`` and ``args`` beside the English
``message``/``reason`` it makes here (docs/protocol.md, 4.3 and 4.17); a ``hint``'s
``why`` map comes to a key and fields the same way (:func:`hint_reason`). Each client
words a reason in its reader's language from the data alone, through the same table:
the terminal with the catalog (``client/plain.py``), the pages with the templates the
host writes into ``/i18n.js``. A key this code does not know gives None: the client
then shows the host's English line. The engine's own refusals carry their reason the
same way: an action the rules forbid (:class:`.errors.ActionError`), and rules or
options no game can be made with (:class:`.errors.OptionError`).

A field is shown by its name: ``card`` and ``power`` name a card, ``color`` a seat
colour, ``colors`` several and ``symbols`` several cards (space-separated), ``place`` a place (a number is a space);
``cards``, ``spaces``, ``actions``, ``seats`` and ``tables`` are counts said with their
noun by the language's plural rule ("1 kort", "2 kort"); any other field is shown as it
is (a number, a table's number, the action notation). Like :mod:`.sentences`, this module
reads no state and translates nothing itself: the caller gives the translations and the
game's words.
"""
from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from .sentences import ENGLISH, Translations


def N_(message: str) -> str:
    """Marks a template for the catalogs (``python -m cartagena_net.i18n.extract``)."""
    return message


#: Every reason: its key (at most 32 characters) and English template.
REASONS: dict[str, str] = {
    # -- the engine: an action the rules refuse (error ``illegal-action``) -----------------
    "game-over": N_("the game is over"),
    "not-your-move": N_("it is {color}'s move, not yours"),
    "owes-discard": N_("{color} must first discard ({n} to go)"),
    "owes-take": N_("{color} must first take a card with the Gun"),
    "owes-give": N_("{color} must first give the Rum's cards ({n} to go)"),
    "owes-keep": N_("{color} must first keep one of the Lantern's cards"),
    "owes-stack": N_("{color} must first put the Lantern's cards back ({n} to go)"),
    "min-actions": N_("take at least {actions} before ending the turn"),
    "draw-not-allowed": N_("drawing as the whole turn is only allowed at the start of a turn "
                           "with no cards"),
    "draw-not-stuck": N_("drawing as the whole turn is only allowed at the start of a turn "
                         "with no cards and no legal recharge"),
    "undo-not-allowed": N_("nothing to take back: only the last advance or sail of this "
                           "turn, if it drew no card, won nothing and left nothing owed"),
    "no-actions-left": N_("no actions left this turn"),
    "hook-two-actions": N_("the hook needs two of the turn's actions"),
    "no-pirate-there": N_("{color} has no pirate at {place}"),
    "unknown-card": N_("there is no {card} card in this game"),
    "card-not-in-hand": N_("you hold no {card} card"),
    "advance-from-boat": N_("a pirate in the {place} cannot advance"),
    "retreat-from-start": N_("a pirate at the {place} cannot retreat"),
    "no-retreat-target": N_("no space behind holds 1 or 2 pirates, and nothing retreats to "
                            "the {place}"),
    "discard-not-owed": N_("no discard is owed now"),
    "discard-too-many": N_("you must discard {cards}, not {given}"),
    "no-such-seat": N_("there is no seat {seat}"),
    "morgan-own-pirate": N_("Morgan moves an opponent's pirate, not your own"),
    "morgan-boat": N_("a pirate in the {place} cannot be moved on"),
    "no-retreat": N_("in this game Morgan replaces retreating"),
    "morgan-off": N_("the Morgan option is off in this game"),
    "no-sloop": N_("there is no sloop to sail in this story (story=whole has one)"),
    "magic-off": N_("card powers are the Black Magic Woman's (-o magic=true)"),
    "take-not-owed": N_("no Gun choice is owed now"),
    "give-not-owed": N_("no Rum hand-out is owed now"),
    "keep-not-owed": N_("no Lantern choice is owed now"),
    "stack-not-owed": N_("no Lantern cards are to be put back now"),
    "unknown-action": N_("unknown action {action}"),
    "no-retreat-on-island": N_("in this game pirates on the island do not retreat: Morgan "
                               "recharges there"),
    "morgan-not-on-island": N_("in this game Morgan recharges only on the island: retreat in "
                               "the passage"),
    "sail-nobody-aboard": N_("the sloop sails for Tortuga only with one of your pirates "
                             "aboard"),
    "sail-nobody-waiting": N_("the sloop sails back to Cartagena only for a player with a "
                              "pirate still in the underground passage"),
    "sail-nobody-waiting-jail": N_("the sloop sails back to Cartagena only for a player with "
                                   "a pirate still in the jail or in the underground passage"),
    "no-retreat-from-sloop": N_("the sloop is at Tortuga: behind it is the sea, no retreat"),
    "sloop-at-cartagena": N_("the sloop is at Cartagena: it must sail to Tortuga before its "
                             "pirates land"),
    "sloop-away": N_("no free space ahead, and the sloop is away at Tortuga: nobody can board"),
    "sloop-full": N_("{n} {color} pirates are already aboard the sloop"),
    "gun-no-target": N_("the Gun aims at an opponent's seat"),
    "gun-empty-hand": N_("{color} has no cards to take"),
    "no-chest-there": N_("no closed chest at {place}"),
    "parrot-pair": N_("the parrot power plays two parrots"),
    "power-light-first": N_("play your light {card} cards first: a dark one only when no "
                            "light one is left (or all dark ones, with the Filibusters)"),
    "parrot-symbol": N_("two parrots stand for a symbol: {symbols}"),
    "hook-needs-two": N_("the hook moves two of your pirates from one place; you have fewer "
                         "at {place}"),
    "card-not-drawn": N_("no {card} among the cards drawn"),
    "give-to-whom": N_("give one card to each other player, one at a time"),
    # -- the engine: a text that is no action (error ``bad-action``) ----------------------
    "notation-long": N_("an action is a short text, e.g. 'advance 0 skull'"),
    "notation-empty": N_("empty action"),
    "notation-number": N_("{word} is not a position or seat number in {text}"),
    "notation-card": N_("{word} is not a card name in {text}"),
    "notation-discard": N_("discard names 1 to 30 cards, e.g. 'discard skull key'"),
    "notation-one-card": N_("{kind} names one card: {text}"),
    "notation-give": N_("'give' takes a seat and a card: {text}"),
    "notation-kind": N_("unknown action {kind}; one of: {kinds}"),
    "notation-arity": N_("{kind} takes {n} argument(s): {text}"),
    "notation-power": N_("'power' names a card, e.g. 'power rum' or 'power gun 1'"),
    "notation-no-power": N_("{word} has no power; powers: {powers} (Black Magic Woman)"),
    "notation-power-words": N_("wrong words for a {card} power in {text}; e.g. {example}"),
    # -- the engine: rules or options a game cannot be made with (OptionError) ----------
    # (option names and values are the notation: ``option`` an option's name, ``value``
    # a value as typed, ``preset`` a preset's name, ``lo``/``hi`` a range's ends)
    "unknown-rules": N_("unknown rules {preset}; presets: {presets}"),
    "unknown-option": N_("unknown option {option}; options: {options}"),
    "option-yes-no-not": N_("option {option} takes yes or no, not {value}"),
    "option-number-not": N_("option {option} takes a whole number, not {value}"),
    "option-number": N_("option {option} takes a whole number"),
    "option-yes-no": N_("option {option} takes yes or no"),
    "option-text": N_("option {option} takes a text value"),
    "option-colors": N_("option colors takes colour names, comma separated"),
    "option-range": N_("option {option} must be {lo}..{hi}"),
    "option-choices": N_("option {option} is one of {choices}"),
    "preset-players": N_("{preset} is for {lo} to {hi} players"),
    "filibusters-no-dark": N_("filibusters needs dark cards (studiogiochi-2017)"),
    "magic-symbols": N_("magic needs the 2017 symbols (studiogiochi-2017)"),
    "magic-row": N_("magic draws from the hidden stock: no face-up row"),
    "colors-too-few": N_("colors: {n} different colours needed"),
    "colors-words": N_("colors: each colour is a word of at most {most} letters"),
    "deal-too-many": N_("not enough cards to deal that many"),
    "story-needs-2017": N_("story={story} needs the 2017 island boards (studiogiochi-2017)"),
    "whole-no-side": N_("story=whole has its own places (jail, sloop, cove): no side"),
    "whole-segments": N_("story=whole needs {least} or more segments on each path (segments= "
                         "the tunnel's, island_segments= the island's)"),
    "option-whole-only": N_("option {option} is for story=whole only"),
    "morgan-island-whole": N_("morgan=island (retreat in the passage, Morgan on the island) "
                              "is for story=whole only"),
    "island-side": N_("story=island plays the island side: no other side"),
    "board-two-paths": N_("board: with story=whole give the two paths split by '/', e.g. "
                          "'GRLPHC.../PHCGRL...'"),
    "board-sloop": N_("board: '/' (the sloop) needs story=whole"),
    "board-letters": N_("board: unknown symbol letters {letters}; use {use}"),
    # -- the host: a request refused -----------------------------------------------------
    "hello-first": N_("say hello first"),
    "hello-again": N_("hello was already said"),
    "no-common-version": N_("no common protocol version: this host speaks {versions}"),
    "spectator-no-seat": N_("a spectator has no seat to resume: say hello as a player to use "
                            "a seat token"),
    "bad-token": N_("unknown or expired seat token"),
    "host-password-needed": N_("this host needs its password"),
    "host-password-wrong": N_("wrong password for this host"),
    "password-wait": N_("too many wrong passwords from your address: wait a little"),
    "password-checking": N_("checking the password: try again in a moment"),
    "password-wrong": N_("wrong or missing password"),
    "password-unusable": N_("that password cannot be used: {detail}"),
    "client-may-not-send": N_("a client may not send {type}"),
    "spectators-cannot": N_("spectators watch: they cannot do that"),
    "spectators-cannot-act": N_("spectators watch: they cannot act"),
    "spectator-only-watches": N_("a spectator connection only watches: send join_table with "
                                 "spectate true"),
    "no-such-table": N_("there is no table {table}"),
    "table-gone": N_("table {table} is gone"),
    "not-at-table": N_("you are not at table {table}"),
    "leave-first": N_("leave table {table} first"),
    "table-password-needed": N_("table {table} needs its password"),
    "table-password-wrong": N_("wrong password for table {table}"),
    "address-tables": N_("your address ({address}) already holds {tables} on this host"),
    "host-tables": N_("this host already has {tables}, as many as it allows"),
    "bots-count": N_("a table with {seats} takes 0 to {most} bots"),
    "options-not-plain": N_("the options must be plain values"),
    "rules-unusable": N_("cannot make a {rules} game: {detail}"),
    "table-playing": N_("table {table} is already playing"),
    "no-color-seat": N_("there is no {color} seat at this table (colours: {colors})"),
    "seat-not-color": N_("seat {seat} is not {color}"),
    "no-free-seat": N_("table {table} has no free seat"),
    "seat-out-of-range": N_("seat {seat} does not exist (0 to {last})"),
    "seat-taken": N_("seat {seat} ({color}) is taken"),
    "owner-only": N_("only the table's owner (the first to sit) may do that"),
    "stand-in-name-seat": N_("during a game a bot can only stand in for an absent player: "
                             "name the seat"),
    "player-here": N_("the {color} player is here: a bot stands in only for an absent player"),
    "stand-in-only": N_("during a game only a bot standing in for an absent player can be "
                        "taken off"),
    "no-bot": N_("seat {seat} has no bot"),
    "seats-unusable": N_("a {rules} table cannot have {seats}"),
    "unknown-bot": N_("unknown bot kind {kind} (one of {kinds})"),
    "unknown-level": N_("unknown bot level {level} (one of {levels})"),
    "bot-level-kind": N_("only a thinking bot plays at a level (easy, normal or hard); "
                         "a random or a greedy bot has none"),
    "hint-seated-only": N_("only a seated player may ask for a hint"),
    "no-hints": N_("table {table} does not allow hints (its owner chooses when creating it)"),
    "not-playing": N_("table {table} is not playing"),
    "hint-not-now": N_("you have nothing to decide now: ask on your turn"),
    "hint-failed": N_("the host could not work out a hint (a fault logged on the host); "
                      "play on"),
    "no-spectators": N_("table {table} is closed to spectators"),
    "seats-empty": N_("seats still empty: {colors}; wait for players or add bots"),
    "journal-failed": N_("the host cannot save the game ({error}): nothing was changed; try "
                         "again once the host's disk has room"),
    "no-seat-here": N_("you have no seat at table {table}"),
    "table-faulted": N_("table {table} stopped after a host fault"),
    "stale": N_("the game moved on: your move answered position {seq}, the game is at {now}"),
    "not-your-turn": N_("it is not {color}'s turn to act"),
    "action-fault": N_("the host failed to apply {action} (a fault logged on the host); the "
                       "action was refused and the game is unchanged"),
    # -- the host's connection ------------------------------------------------------------
    "host-full": N_("the host is full ({n} connections)"),
    "address-full": N_("too many connections from {address} (at most {n})"),
    "rate-limited": N_("too many messages: slow down"),
    "frame-incomplete": N_("a frame was still incomplete after {seconds} s (at most {limit} s)"),
    "idle": N_("nothing heard for {seconds} s"),
    "handshake-timeout": N_("no hello within the handshake deadline"),
    "resumed-elsewhere": N_("your seat was resumed by another connection"),
    "internal": N_("internal error in the host"),
    # -- bye -----------------------------------------------------------------------------
    "host-ended": N_("the host ended the game"),
    # -- a hint's reason (hint_reason) -----------------------------------------------------
    "hint-only": N_("it is the only move you have"),
    "hint-jump": N_("this pirate jumps {spaces}"),
    "hint-jump-two": N_("these two pirates jump {spaces}"),
    "hint-power-jump": N_("the {power} power: this pirate jumps {spaces}"),
    "hint-power-jump-two": N_("the {power} power: these two pirates jump {spaces}"),
    "hint-boat": N_("this pirate jumps {spaces} and reaches the {place}"),
    "hint-retreat": N_("this pirate steps back {spaces} and draws {cards}"),
    "hint-push": N_("moving that pirate forward draws you {cards}"),
    "hint-sail": N_("the sloop sails with your pirates aboard"),
    "hint-keep": N_("keeps the card you need next: a {card} moves a pirate {spaces}"),
    "hint-power": N_("the {power} power is worth most now"),
    "hint-choose": N_("the {card} is the best choice here"),
    "hint-draw": N_("a new card is worth most now"),
    "hint-gain": N_("the bot rates it best"),
    # -- a hint's move in the screen's words (hint_move) ------------------------------
    "hint-advance": N_("play the {card}: your pirate {pirate} {from} jumps to {to}, "
                       "the first free {card}"),
    "hint-advance-goal": N_("play the {card}: your pirate {pirate} {from} reaches {to}: "
                            "no {card} ahead is free"),
    "hint-advance-two": N_("play the {power} with the {card}: your two pirates {from} "
                           "jump to {to}"),
    "hint-parrot": N_("play two parrots as the {card}: your pirate {pirate} {from} jumps "
                      "to {to}"),
    "hint-back": N_("move your pirate {pirate} {from} back to {to} and draw {cards}"),
    "hint-morgan": N_("move {color}'s pirate {from} forward to {to} and draw {cards}"),
    "hint-end": N_("end your turn"),
    "hint-draw-card": N_("draw a card"),
    "hint-discard": N_("discard the {card}"),
    "hint-sail-now": N_("sail the sloop"),
    "hint-gun": N_("use the {power}'s power on {color}: see their hand and take a card"),
    "hint-rum": N_("use the {power}'s power: draw, keep two cards and give one to each "
                   "other player"),
    "hint-lantern": N_("use the {power}'s power: draw four cards, keep one and put the "
                       "rest back on the stock"),
    "hint-chest": N_("use the {power}'s power: open the chest under your pirate {pirate} "
                     "{from}"),
    "hint-take": N_("take the {card} from {color}"),
    "hint-give": N_("give the {card} to {color}"),
    "hint-keep-card": N_("keep the {card}"),
    "hint-stack": N_("put the {card} back on the stock"),
    "hint-card-moves": N_("a {card} moves your pirate {spaces} now"),
    "hint-card-helps": N_("it moves {color}'s pirates {spaces} at most"),
    "hint-chance": N_("{line} — your chance {before}% → {after}%"),
}

MAX_ARGS = 8  # fields of one reason (the protocol's cap too)
TIME_FIELDS = frozenset({"seconds", "limit"})  # seconds, maybe with a decimal point
CARD_FIELDS = frozenset({"card", "power"})
COUNT_FIELDS = frozenset({"cards", "spaces", "actions", "seats", "tables"})


def fields(why: str) -> set[str]:
    """The names of the fields a reason's template uses."""
    return {f for _text, f, _spec, _conv in string.Formatter().parse(REASONS[why]) if f}


#: What an operating system's error means, by its symbolic name (``errno``): a field
#: ``error`` that comes with an ``errno`` known here is shown as these words, not as the
#: host's system's own (:func:`os_error_text`).
OS_ERRORS: dict[str, str] = {
    "ENOSPC": N_("the disk is full"),
    "EDQUOT": N_("the disk quota is used up"),
    "EROFS": N_("the disk is read-only"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("permission denied"),
    "EIO": N_("the disk reports an input/output error"),
    "ENOENT": N_("the folder does not exist"),
    "ENOTDIR": N_("a part of the path is not a folder"),
    "EMFILE": N_("too many files are open"),
    "ENFILE": N_("too many files are open"),
}


def _same(text: str) -> str:
    return text


#: A damaged journal's kind of damage (``host/unfinished.JournalDamage.cause``, a
#: notice's ``cause``: docs/protocol.md 4.4).
JOURNAL_DAMAGE: dict[str, str] = {
    "damaged": N_("a record in it is damaged"),
    "inconsistent": N_("its records do not fit the game"),
    "empty": N_("it is empty"),
    "fault": N_("the host could not read it"),
}


def damage_text(fields: Mapping[str, Any], gettext: Callable[[str], str] = _same) -> str:
    """A damaged journal's ``cause`` in words through ``gettext``, else the host's own
    ``why`` (an older host sends no cause)."""
    cause = fields.get("cause")
    if isinstance(cause, str) and cause in JOURNAL_DAMAGE:
        return gettext(JOURNAL_DAMAGE[cause])
    return str(fields.get("why") or "?")


def os_error_text(fields: Mapping[str, Any], gettext: Callable[[str], str] = _same,
                  default: str = "?") -> str:
    """An OS error sent as data (``errno``, ``error``: ``portable.files.error_fields``)
    in words through ``gettext``: its name's meaning where known, else the OS's own
    words, else ``default``."""
    name = fields.get("errno")
    if isinstance(name, str) and name in OS_ERRORS:
        return gettext(OS_ERRORS[name])
    text = fields.get("error")
    return str(text) if isinstance(text, str) and text else default


def _count(name: str, n: Any, tr: Translations) -> str:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"{name} is a count")
    if name == "cards":
        text = tr.ngettext("{n} card", "{n} cards", n)
    elif name == "spaces":
        text = tr.ngettext("{n} space", "{n} spaces", n)
    elif name == "actions":
        text = tr.ngettext("{n} action", "{n} actions", n)
    elif name == "seats":
        text = tr.ngettext("{n} seat", "{n} seats", n)
    else:
        text = tr.ngettext("{n} table", "{n} tables", n)
    return text.format(n=n)


def reason_text(why: Any, args: Mapping[str, Any] | None = None, tr: Translations = ENGLISH,
                color: Callable[[str], str] = _same, card: Callable[[str], str] = _same,
                place: Callable[[str], str] = _same) -> str | None:
    """The sentence of reason ``why`` with its fields ``args``, translated by ``tr``, the
    game's words named by ``color``, ``card`` and ``place`` (each given the engine's
    English word). None for a key not in :data:`REASONS` or fields that do not fit its
    template (a client then shows the host's own line)."""
    template = REASONS.get(why) if isinstance(why, str) else None
    if template is None:
        return None
    try:
        shown: dict[str, Any] = {}
        for name, value in (args or {}).items():
            if name in COUNT_FIELDS:
                shown[name] = _count(name, value, tr)
            elif isinstance(value, bool):
                shown[name] = str(value).lower()
            elif name in CARD_FIELDS:
                shown[name] = card(str(value))
            elif name == "color":
                shown[name] = color(str(value))
            elif name == "symbols":
                shown[name] = ", ".join(card(c) for c in str(value).split())
            elif name == "colors":
                shown[name] = ", ".join(color(c) for c in str(value).split())
            elif name == "error" and (args or {}).get("errno") in OS_ERRORS:
                shown[name] = tr.gettext(OS_ERRORS[args["errno"]])  # type: ignore[index]
            elif name == "place":
                shown[name] = (tr.gettext("space {n}").format(n=value)
                               if isinstance(value, int) else place(str(value)))
            elif name in TIME_FIELDS and isinstance(value, (str, float)):
                shown[name] = str(value).replace(".", tr.pgettext("decimal separator", "."))
            elif name == "from":  # where a pirate stands: a space's number, or a place
                shown[name] = (tr.gettext("on space {n}").format(n=value)
                               if isinstance(value, int) else
                               tr.gettext("at the {place}").format(place=place(str(value))))
            elif name == "to":  # where it lands
                shown[name] = (tr.gettext("space {n}").format(n=value)
                               if isinstance(value, int) else
                               tr.gettext("the {place}").format(place=place(str(value))))
            else:
                shown[name] = value
        return tr.gettext(template).format(**shown)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return None


def english(why: str, args: Mapping[str, Any] | None = None) -> str:
    """The host's English line for a reason; the key itself if its fields do not fit (a
    test holds every reason the code gives to its template)."""
    text = reason_text(why, args)
    return text if text is not None else why


def hint_reason(why: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A ``hint``'s ``why`` map (docs/protocol.md 4.18) as a reason's key and fields,
    without its ``gain`` (:func:`hint_text` adds it). A field the map leaves out stays
    out (the template then does not fit: the client shows the host's line). None for a
    map that is not one."""
    if not isinstance(why, Mapping):
        return None
    kind = why.get("kind")

    def given(*names: str) -> dict[str, Any]:
        return {n: why[n] for n in names if why.get(n) is not None}

    if kind == "jump":
        two = "-two" if (why.get("pirates") or 1) > 1 else ""
        if why.get("power"):
            return f"hint-power-jump{two}", given("power", "spaces")
        return f"hint-jump{two}", given("spaces")
    if kind == "boat":  # the goal by its name (a host before it said none: the boat)
        return "hint-boat", {**given("spaces"), "place": why.get("place") or "boat"}
    fields_of = {"only": (), "retreat": ("spaces", "cards"),
                 "push": ("cards",), "sail": (), "keep": ("card", "spaces"),
                 "power": ("power",), "choose": ("card",), "draw": ()}
    if kind in fields_of:
        return f"hint-{kind}", given(*fields_of[kind])
    return "hint-gain", {}


def hint_text(why: Mapping[str, Any], tr: Translations = ENGLISH,
              card: Callable[[str], str] = _same, color: Callable[[str], str] = _same,
              place: Callable[[str], str] = _same) -> str | None:
    """A hint's line from its ``why`` map, in ``tr``'s language: the move as the screens
    say it (``move``, a reason's key and fields) and why (``also``; else the reason of
    its ``kind``), and the seat's chance ``before`` and ``after`` it; a map without a
    ``move`` (an older host) by its ``kind`` alone. None if it cannot be said."""
    if not isinstance(why, Mapping):
        return None
    line = None
    move = why.get("move")
    if isinstance(move, Mapping):
        line = reason_text(move.get("why"), move.get("args"), tr=tr, card=card,
                           color=color, place=place)
        also = why.get("also")
        if line is not None and isinstance(also, Mapping):
            more = reason_text(also.get("why"), also.get("args"), tr=tr, card=card,
                               color=color, place=place)
            if more is not None:
                line = f"{line} — {more}"
    if line is None:
        found = hint_reason(why)
        if found is None:
            return None
        line = reason_text(*found, tr=tr, card=card, place=place)
    before, after = why.get("before"), why.get("after")
    if line is not None and isinstance(before, int) and isinstance(after, int) \
            and not isinstance(before, bool) and not isinstance(after, bool):
        line = reason_text("hint-chance", {"line": line, "before": before, "after": after},
                           tr=tr)
    return line
