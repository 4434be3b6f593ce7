"""`cartagena rules`: list the presets and the options each game accepts."""
from __future__ import annotations

import argparse
import json

from cartagena_net.cli.game_args import checked_game, option_pair
from cartagena_net.engine import OPTIONS, PRESETS
from cartagena_net.i18n import N_, _, ngettext

HELP = N_("list rules presets, options, stories and the action notation")

STORIES = {
    "escape": N_("the basic game: from the start along one path to the goal (the sloop)"),
    "island": N_("2017, on Tortuga: from the flooded sloop along the island path to the cove"),
    "whole": N_("2017, the Whole Jailbreak: jail, underground passage, the sloop between the "
             "shores (sail it; the Captain sails once free), island path, cove"),
}
ACTIONS = {
    "advance P CARD": N_("play CARD, move your pirate at P to the next free space of its "
                      "symbol on its path, else to the path's end (sloop or goal)"),
    "retreat P": N_("move your pirate at P back to the nearest space with 1 or 2, draw that many"),
    "morgan SEAT P": N_("(morgan=) push SEAT's pirate at P forward to the next space with 1 "
                     "or 2, draw that many (2 at the end of the path)"),
    "sail": N_("(story=whole) move the sloop to the other shore"),
    "draw": N_("with no cards (and, with empty_hand_draw=stuck, no retreat or Morgan move "
            "either): draw one card as the whole turn"),
    "end": N_("end the turn (after at least one action)"),
    "discard CARD [CARD...]": N_("(filibusters=) a discard owed after a dark card"),
    "undo": N_("take back the last advance or sail of this turn, when it revealed nothing"),
    "power gun SEAT": N_("(magic=) see SEAT's hand, then 'take CARD' (SEAT draws another)"),
    "power rum": N_("(magic=) draw players + 1, then 'give SEAT CARD' to each other player; "
                 "keep the last two"),
    "power lantern": N_("(magic=) draw four, 'keep CARD', then 'stack CARD' the rest back "
                     "on the stock, top first"),
    "power chest P": N_("(magic=) open the chest tile under your pirate at P: 1-3 cards, "
                     "empty, or the snake"),
    "power parrot PARROT P SYMBOL": N_("(magic=) two parrots as one SYMBOL card, one action"),
    "power hook CARD P": N_("(magic=) hook and CARD, two actions: two of your pirates at P "
                         "advance together"),
}


def cards(game) -> dict:
    """The deck of a game: its symbols, cards of each and dark cards of each."""
    return {"symbols": list(game.symbols), "per_symbol": game.per_symbol,
            "dark_per_symbol": game.dark_per_symbol}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", choices=sorted(PRESETS),
                        help=_("show one preset's values"))
    parser.add_argument("--option", "-o", action="append", type=option_pair, default=[],
                        metavar=_("KEY=VALUE"),
                        help=_("show the preset's values with these options, e.g. -o story=whole"))
    parser.add_argument("--json", action="store_true", help=_("one JSON object"))


def run(args: argparse.Namespace) -> int:
    names = [args.preset] if args.preset else list(PRESETS)
    chosen = dict(args.option)
    if chosen and not args.preset:
        raise SystemExit("cartagena rules: " + _(
            "-o needs a PRESET, e.g. `cartagena rules studiogiochi-2017 -o story=whole`"))
    try:
        games = {n: checked_game(n, **chosen) for n in names}
    except ValueError as err:
        raise SystemExit(f"cartagena rules: {err}") from None
    if args.json:
        print(json.dumps({
            "presets": {n: {"title": PRESETS[n].title, "players": list(PRESETS[n].players),
                            "source": PRESETS[n].source, "values": games[n].spec(),
                            "cards": cards(games[n])}
                        for n in names},
            "options": {o.name: {"type": o.kind.__name__, "help": o.help,
                                 "choices": list(o.choices),
                                 "bounds": list(o.bounds) if o.bounds else None}
                        for o in OPTIONS.values()},
            "stories": STORIES, "actions": ACTIONS,
        }))
        return 0
    print(_("Presets (--rules NAME):"))
    for n in names:
        p = PRESETS[n]
        players = ngettext("{low}-{high} player", "{low}-{high} players", p.players[1]).format(
            low=p.players[0], high=p.players[1])
        print(f"  {n:<22} {players}  {_(p.title)}")
        if args.preset:
            for key, value in {**games[n].spec(), **cards(games[n])}.items():
                print(f"      {key} = {value}")
    print("\n" + _("Options (-o KEY=VALUE, on play, host and selfplay):"))
    for o in OPTIONS.values():
        allowed = ("|".join(o.choices) if o.choices
                   else f"{o.bounds[0]}..{o.bounds[1]}" if o.bounds else o.kind.__name__)
        print(f"  {o.name:<16} {allowed:<28} {_(o.help)}")
    print("\n" + _("Stories (-o story=NAME, studiogiochi-2017):"))
    for name, text in STORIES.items():
        print(f"  {name:<16} {_(text)}")
    print("\n" + _("Actions (positions: 0 = start, then the spaces (and the sloop), last the "
                   "goal):"))
    for name, text in ACTIONS.items():
        print(f"  {name:<24} {_(text)}")
    return 0
