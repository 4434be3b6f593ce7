"""`cartagena rules`: list the presets and the options each game accepts."""
from __future__ import annotations

import argparse
import json

from cartagena_net.engine import OPTIONS, PRESETS, make_game

HELP = "list rules presets and options"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", choices=sorted(PRESETS),
                        help="show one preset's values")
    parser.add_argument("--json", action="store_true", help="one JSON object")


def run(args: argparse.Namespace) -> int:
    names = [args.preset] if args.preset else list(PRESETS)
    if args.json:
        print(json.dumps({
            "presets": {n: {"title": PRESETS[n].title, "players": list(PRESETS[n].players),
                            "source": PRESETS[n].source, "values": make_game(n).spec()}
                        for n in names},
            "options": {o.name: {"type": o.kind.__name__, "help": o.help,
                                 "choices": list(o.choices),
                                 "bounds": list(o.bounds) if o.bounds else None}
                        for o in OPTIONS.values()},
        }))
        return 0
    print("Presets (--rules NAME):")
    for n in names:
        p = PRESETS[n]
        print(f"  {n:<22} {p.players[0]}-{p.players[1]} players  {p.title}")
        if args.preset:
            for key, value in make_game(n).spec().items():
                print(f"      {key} = {value}")
    print("\nOptions (-o KEY=VALUE, on play, host and selfplay):")
    for o in OPTIONS.values():
        allowed = ("|".join(o.choices) if o.choices
                   else f"{o.bounds[0]}..{o.bounds[1]}" if o.bounds else o.kind.__name__)
        print(f"  {o.name:<16} {allowed:<22} {o.help}")
    return 0
