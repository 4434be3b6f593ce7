"""`cartagena replay ID|FILE`: read a record, replay its game exactly, and say how it went."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from cartagena_net.i18n import N_, _, ngettext

HELP = (N_("replay a kept game or a record file exactly, in the terminal: step by action "
        "or turn, as any seat or a spectator"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar=_("ID|FILE"), help=_("a record id (or its start), or a file"))
    parser.add_argument("--dir", default=None, metavar=_("DIR"),
                        help=_("the records folder (default: this user's)"))
    parser.add_argument("--score", action="store_true", help=_("also print the game's score"))
    parser.add_argument("--check", action="store_true",
                        help=_("only check that it replays and say how it went (the default "
                             "without a terminal)"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII, no Unicode symbols"))
    from cartagena_net.cli.session import add_reader_arguments

    add_reader_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from cartagena_net.i18n.when import when
    from cartagena_net.i18n.words import end_word
    from cartagena_net.records import RecordError, replay, score
    from cartagena_net.records.format import (
        in_file,
        player_words,
        rules_text,
        winner_words,
    )
    from cartagena_net.records.store import find, read

    try:
        path = find(args.id, args.dir)
        rec = read(path)
        full = rec["kind"] == "full"
        with in_file(path):
            if full:
                replay(rec)  # exactly, or RecordError naming the first move that does not fit
            text = score(rec, words=True, say=_said)  # on a screen: in the reader's words
    except RecordError as exc:
        print(f"cartagena replay: {exc}", file=sys.stderr)
        return 1
    from cartagena_net.cli.journal_args import interactive
    from cartagena_net.cli.session import screen_reader

    reader = screen_reader(args)
    if full and not args.check and not args.score and reader and (
            args.screen_reader or interactive()):  # asked for now: even over pipes
        from client.reader_replay import run_reader_replay

        return run_reader_replay(rec, review=_review(path, rec))
    if full and not args.check and not args.score and interactive():
        from client.replay import run_viewer

        return run_viewer(rec, ascii_only=args.ascii, review=_review(path, rec))
    players = ", ".join(player_words(p) for p in rec["players"])
    print(f"{rec['id']}: {rules_text(rec)}; {players}")
    print(_("started {started}, ended {ended} ({end})").format(
        started=when(rec["started"]), ended=when(rec["ended"]), end=end_word(rec["end"])))
    moves = len(rec["moves"])
    if full:
        winner = winner_words(rec)
        if rec.get("outcome") is None:
            winner = _("({end}, unfinished)").format(end=end_word(rec["end"]))
        print(ngettext("{n} action replayed exactly from {path}; winner: {winner}",
                       "{n} actions replayed exactly from {path}; winner: {winner}",
                       moves).format(n=moves, path=path, winner=winner))
    else:
        print(ngettext("a spectator's record of a game that had not ended ({n} action): "
                       "what a spectator saw, not the cards, so it is shown, not replayed",
                       "a spectator's record of a game that had not ended ({n} actions): "
                       "what a spectator saw, not the cards, so it is shown, not replayed",
                       moves).format(n=moves))
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
        print("cartagena replay: " + _("the review is left out: {error}").format(error=exc),
              file=sys.stderr)
        return None


def _said(seen: Any, events: list[Any]) -> list[str]:
    """The events of a score's turn in the reader's words, as the client's log says them."""
    from client.sentences import event_lines

    return event_lines(seen, events, [str(e.get("text", "")) for e in events])
