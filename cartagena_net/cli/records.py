"""`cartagena records`: the games kept on this machine (date, rules, players, winner)."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cartagena_net.i18n import N_, _, decimal, ngettext, pgettext
from cartagena_net.i18n.words import bot_row_words, end_word

HELP = N_("list the games kept on this machine (records of every game that ended or stopped)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dir", default=None, metavar=_("DIR"),
                        help=_("the records folder (default: this user's)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON array"))
    parser.add_argument("--stats", action="store_true",
                        help=_("the scoreboard: games, wins and places per player name and "
                             "per bot level"))


def summary(rec: dict[str, Any]) -> dict[str, Any]:
    """One record as a row: id, start, rules, players, winner, end."""
    from cartagena_net.records.format import player_label, rules_label, winner_label

    return {"id": rec["id"], "started": rec["started"], "rules": rules_label(rec),
            "players": [player_label(p) for p in rec["players"]],
            "winner": winner_label(rec), "end": rec["end"], "moves": len(rec["moves"])}


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th`` (in Swedish ``1:a``, ``2:a``, ``11:e``)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return pgettext("ordinal", "{n}th").format(n=n)
    return (pgettext("ordinal", "{n}st") if n % 10 == 1 else pgettext("ordinal", "{n}nd")
            if n % 10 == 2 else pgettext("ordinal", "{n}rd")).format(n=n)


def format_scoreboard(board: list[dict[str, Any]], folder: str) -> str:
    """The scoreboard as a table a person reads."""
    if not board:
        return _("no games kept in {folder} yet").format(folder=folder)
    names = [bot_row_words(r["player"]) if r["bot"] else r["player"] for r in board]
    width = max(12, *(len(n) for n in names))
    heads = [_("player"), _("games"), _("wins"), _("rating"), _("places")]
    cols = [max(5, len(heads[1])), max(4, len(heads[2])), max(6, len(heads[3]))]
    lines = [(f"{heads[0]:<{width}}  {heads[1]:>{cols[0]}}  {heads[2]:>{cols[1]}}  "
              f"{heads[3]:>{cols[2]}}  {heads[4]}")]
    for r, name in zip(board, names, strict=True):
        places = ", ".join(f"{_ordinal(i)} {n}" for i, n in enumerate(r["places"], 1) if n)
        if r["unfinished"]:
            places += ("; " if places else "") + ngettext("{n} unfinished", "{n} unfinished",
                                                              r["unfinished"]).format(
                n=r["unfinished"])
        if r.get("hinted"):
            places += ("; " if places else "") + _("{n} with hints").format(n=r["hinted"])
        rating = f"{r.get('rating', 0.0):.1f}"
        lines.append(f"{name:<{width}}  {r['games']:>{cols[0]}}  {r['wins']:>{cols[1]}}  "
                     f"{decimal(rating):>{cols[2]}}  {places}")
    if any(r["bot"] for r in board):
        lines.append(_("a bot's row is every seat of that kind and level: two at one table "
                       "are one player in that game"))
    lines.append(_("places: among the players of each game; rating: openskill's "
                   "Plackett-Luce over every finished game, mu - 3 sigma"))
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
        print(_("no games kept in {folder} yet").format(folder=folder))
    else:
        from cartagena_net.i18n.when import when
        from cartagena_net.records.format import player_words, rules_text, winner_words

        for item, r in zip((i for i in found if i.record is not None), rows):
            rec = item.record
            date = when(r["started"])
            winner = winner_words(rec)
            if rec.get("outcome") is None:
                winner = _("({end}, unfinished)").format(end=end_word(r["end"]))
            players = ", ".join(player_words(p) for p in rec["players"])
            print(f"{r['id']}  {date}  {rules_text(rec)}  {players}  "
                  + _("winner: {winner}").format(winner=winner))
    for item in bad:
        print("cartagena records: " + _("skipped {error}").format(error=item.error),
              file=sys.stderr)
    return 0
