"""`cartagena replay ID|FILE`: read a record, replay its game exactly, and say how it went."""
from __future__ import annotations

import argparse
import sys

HELP = ("replay a kept game or a record file exactly, in the terminal: step by action "
        "or turn, as any seat or a spectator")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar="ID|FILE", help="a record id (or its start), or a file")
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help="the records folder (default: this user's)")
    parser.add_argument("--score", action="store_true", help="also print the game's score")
    parser.add_argument("--check", action="store_true",
                        help="only check that it replays and say how it went (the default "
                             "without a terminal)")
    parser.add_argument("--ascii", action="store_true", help="plain ASCII, no Unicode symbols")


def run(args: argparse.Namespace) -> int:
    from cartagena_net.records import RecordError, replay, score
    from cartagena_net.records.format import (
        in_file,
        player_label,
        rules_label,
        winner_label,
    )
    from cartagena_net.records.store import find, read

    try:
        path = find(args.id, args.dir)
        rec = read(path)
        full = rec["kind"] == "full"
        with in_file(path):
            if full:
                replay(rec)  # exactly, or RecordError naming the first move that does not fit
            text = score(rec)
    except RecordError as exc:
        print(f"cartagena replay: {exc}", file=sys.stderr)
        return 1
    from cartagena_net.cli.journal_args import interactive

    if full and not args.check and not args.score and interactive():
        from client.replay import run_viewer

        return run_viewer(rec, ascii_only=args.ascii, review=_review(path, rec))
    players = ", ".join(player_label(p) for p in rec["players"])
    print(f"{rec['id']}: {rules_label(rec)}; {players}")
    print(f"started {rec['started']}, ended {rec['ended']} ({rec['end']})")
    if full:
        print(f"{len(rec['moves'])} actions replayed exactly from {path}; "
              f"winner: {winner_label(rec)}")
    else:
        print(f"a spectator's record of a game that had not ended ({len(rec['moves'])} "
              "actions): what a spectator saw, not the cards, so it is shown, not replayed")
    if args.score:
        sys.stdout.write(text)
    return 0


def _review(path: object, rec: dict) -> dict | None:
    """The kept review of the record (``cartagena review``, or the host's), if any and
    readable; a damaged one is said and left out."""
    from pathlib import Path

    from cartagena_net.records import RecordError
    from cartagena_net.records.store import read_review

    try:
        return read_review(Path(str(path)).parent, rec["id"])
    except RecordError as exc:
        print(f"cartagena replay: the review is left out: {exc}", file=sys.stderr)
        return None
