"""`cartagena records`: the games kept on this machine (date, rules, players, winner)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "list the games kept on this machine (records of every game that ended or stopped)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help="the records folder (default: this user's)")
    parser.add_argument("--json", action="store_true", help="print one JSON array")


def summary(rec: dict[str, Any]) -> dict[str, Any]:
    """One record as a row: id, start, rules, players, winner, end."""
    from cartagena_net.records.format import player_label, rules_label, winner_label

    return {"id": rec["id"], "started": rec["started"], "rules": rules_label(rec),
            "players": [player_label(p) for p in rec["players"]],
            "winner": winner_label(rec), "end": rec["end"], "moves": len(rec["moves"])}


def run(args: argparse.Namespace) -> int:
    from cartagena_net.records.store import listing, records_dir

    folder = args.dir or records_dir()
    found = listing(folder)
    rows = [summary(item.record) for item in found if item.record is not None]
    bad = [item for item in found if item.record is None]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    elif not rows:
        print(f"no games kept in {folder} yet")
    else:
        for r in rows:
            date = r["started"].replace("T", " ").rstrip("Z")
            print(f"{r['id']}  {date}  {r['rules']:<22}  {', '.join(r['players'])}  "
                  f"winner: {r['winner']}")
    for item in bad:
        print(f"cartagena records: skipped {item.error}", file=sys.stderr)
    return 0
