"""`cartagena review ID`: the bot reviews a kept game: each seat's chance of winning after
every action, and the actions that cost the most, with what the bot would have played."""
from __future__ import annotations

import argparse
import os
import sys

HELP = "let the bot review a kept game: the chances after every action and where it turned"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cartagena_net.bots.review import PLAYOUTS, SEARCH

    parser.add_argument("id", metavar="ID|FILE", help="a record id (or its start), or a file")
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help="the records folder (default: this user's)")
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                        help="worker processes (default: the cores, up to 4)")
    parser.add_argument("--playouts", type=int, default=PLAYOUTS,
                        help=f"games played out from each position (default {PLAYOUTS})")
    parser.add_argument("--search", type=int, default=SEARCH, metavar="ITERATIONS",
                        help=f"the bot's search at each action (default {SEARCH})")
    parser.add_argument("--again", action="store_true",
                        help="review again even if a review is kept")


def run(args: argparse.Namespace) -> int:
    from cartagena_net.bots.pool import WorkerDied, run_jobs
    from cartagena_net.bots.review import assemble, jobs
    from cartagena_net.records import RecordError
    from cartagena_net.records.store import (
        find,
        read,
        read_review,
        write_review,
    )

    for name in ("workers", "playouts", "search"):
        if getattr(args, name) < 1:
            print(f"cartagena review: --{name} takes a number of at least 1", file=sys.stderr)
            return 2
    try:
        path = find(args.id, args.dir)
        rec = read(path)
        if rec["kind"] != "full":
            raise RecordError("a spectator's record (a game that did not end) holds no "
                              "cards: only a finished game can be reviewed")
        folder = path.parent  # the review goes beside the record, in reviews/
        kept = None if args.again else read_review(folder, rec["id"])
    except RecordError as exc:
        print(f"cartagena review: {exc}", file=sys.stderr)
        return 1
    if kept is None:
        todo = jobs(rec, args.playouts, args.search)
        tty = sys.stderr.isatty()

        def progress(done: int, total: int) -> None:
            if tty:
                print(f"\rreviewing: {done}/{total} positions", end="", file=sys.stderr)

        try:
            answers = run_jobs(todo, args.workers, progress)
        except (WorkerDied, OSError) as exc:
            print(f"\ncartagena review: {exc}", file=sys.stderr)
            return 1
        except RecordError as exc:
            print(f"\ncartagena review: {exc}", file=sys.stderr)
            return 1
        if tty:
            print(file=sys.stderr)
        kept = assemble(rec, answers, args.playouts, args.search)
        try:
            where = write_review(folder, kept)
        except OSError as exc:
            print(f"cartagena review: cannot keep the review in {folder}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            where = None
        if where is not None:
            print(f"kept in {where}")
    sys.stdout.write(summary(rec, kept))
    return 0


def summary(rec: dict, rev: dict) -> str:
    """The review in a few lines: the final chances curve's turns and the costly moves."""
    from cartagena_net.records.format import player_label

    players = rec["players"]
    method = rev["method"]
    head = (f"review of {rec['id']} ({method['playouts']} playouts a position, "
            f"search {method['search']} iterations)")
    lines = [head]
    turning = rev.get("turning") or []
    if not turning:
        lines.append("no action cost a seat anything by the bot's estimate")
    for k in turning:
        m = rev["moves"][k]
        before = rev["positions"][k]["chances"][m["seat"]]
        after = rev["positions"][k + 1]["chances"][m["seat"]]
        lines.append(f"action {k + 1}: {player_label(players[m['seat']])} played "
                     f"{m['played']}; the bot would have played {m['best']} "
                     f"(-{m['loss'] * 100:.0f}%); chances {before * 100:.0f}% -> "
                     f"{after * 100:.0f}%")
    return "\n".join(lines) + "\n"
