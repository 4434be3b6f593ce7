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
    parser.add_argument("--stats", action="store_true",
                        help="the scoreboard: games, wins and places per player name and "
                             "per bot level")


def summary(rec: dict[str, Any]) -> dict[str, Any]:
    """One record as a row: id, start, rules, players, winner, end."""
    from cartagena_net.records.format import player_label, rules_label, winner_label

    return {"id": rec["id"], "started": rec["started"], "rules": rules_label(rec),
            "players": [player_label(p) for p in rec["players"]],
            "winner": winner_label(rec), "end": rec["end"], "moves": len(rec["moves"])}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def format_scoreboard(board: list[dict[str, Any]], folder: str) -> str:
    """The scoreboard as a table a person reads."""
    from cartagena_net.records.format import BOT_ROW

    if not board:
        return f"no games kept in {folder} yet"
    width = max(12, *(len(r["player"]) + (6 if r["bot"] else 0) for r in board))
    lines = [f"{'player':<{width}}  games  wins  rating  places"]
    for r in board:
        name = f"{r['player']} (bot)" if r["bot"] else r["player"]
        places = ", ".join(f"{_ordinal(i)} {n}" for i, n in enumerate(r["places"], 1) if n)
        if r["unfinished"]:
            places += f"{'; ' if places else ''}{r['unfinished']} unfinished"
        lines.append(f"{name:<{width}}  {r['games']:>5}  {r['wins']:>4}  "
                     f"{r.get('rating', 0.0):>6.1f}  {places}")
    if any(r["bot"] for r in board):
        lines.append(f"(bot): {BOT_ROW}")
    lines.append("places: among the players of each game; rating: openskill's Plackett-Luce "
                 "over every finished game, mu - 3 sigma")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from cartagena_net.records.store import listing, records_dir

    folder = args.dir or records_dir()
    found = listing(folder)
    rows = [summary(item.record) for item in found if item.record is not None]
    bad = [item for item in found if item.record is None]
    if args.stats:
        from cartagena_net.records.format import scoreboard

        board = scoreboard([item.record for item in found if item.record is not None])
        if args.json:
            print(json.dumps(board, ensure_ascii=False))
        else:
            print(format_scoreboard(board, str(folder)))
    elif args.json:
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
