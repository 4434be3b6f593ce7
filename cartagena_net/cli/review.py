"""`cartagena review ID`: the bot reviews a kept game: each seat's chance of winning after
every action, and the actions that cost the most, with what the bot would have played."""
from __future__ import annotations

import argparse
import os
import sys

from cartagena_net.i18n import N_, _, ngettext, percent

HELP = N_("let the bot review a kept game: the chances after every action and where it turned")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cartagena_net.bots.review import PLAYOUTS, SEARCH

    parser.add_argument("id", metavar="ID|FILE", help=_("a record id (or its start), or a file"))
    parser.add_argument("--dir", default=None, metavar="DIR",
                        help=_("the records folder (default: this user's)"))
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)),
                        help=_("worker processes (default: the cores, up to 4)"))
    parser.add_argument("--playouts", type=int, default=PLAYOUTS,
                        help=_("games played out from each position (default {n})").format(
                            n=PLAYOUTS))
    parser.add_argument("--search", type=int, default=SEARCH, metavar="ITERATIONS",
                        help=_("the bot's search at each action (default {n})").format(n=SEARCH))
    parser.add_argument("--again", action="store_true",
                        help=_("review again even if a review is kept"))


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
            print("cartagena review: " + _("--{name} takes a number of at least 1").format(
                name=name), file=sys.stderr)
            return 2
    try:
        path = find(args.id, args.dir)
        rec = read(path)
        if rec["kind"] != "full":
            raise RecordError(_("a spectator's record (a game that did not end) holds no "
                                "cards: only a finished game can be reviewed"))
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
                print("\r" + _("reviewing: {done}/{total} positions").format(
                    done=done, total=total), end="", file=sys.stderr)

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
            print("cartagena review: " + _("cannot keep the review in {folder}: {error}").format(
                folder=folder, error=exc.strerror or exc), file=sys.stderr)
            where = None
        if where is not None:
            print(_("kept in {where}").format(where=where))
    sys.stdout.write(summary(rec, kept))
    return 0


def summary(rec: dict, rev: dict) -> str:
    """The review in a few lines: the final chances curve's turns and the costly moves."""
    from cartagena_net.records.format import player_label

    players = rec["players"]
    method = rev["method"]
    head = _("review of {id} ({playouts} a position, search {search})").format(
        id=rec["id"], playouts=ngettext("{n} playout", "{n} playouts", method["playouts"]).format(
            n=method["playouts"]),
        search=ngettext("{n} iteration", "{n} iterations", method["search"]).format(
            n=method["search"]))
    lines = [head]
    turning = rev.get("turning") or []
    if not turning:
        lines.append(_("no action cost a seat anything by the bot's estimate"))
    for k in turning:
        m = rev["moves"][k]
        before = rev["positions"][k]["chances"][m["seat"]]
        after = rev["positions"][k + 1]["chances"][m["seat"]]
        lines.append(_("action {number}: {player} played {played}; the bot would have "
                       "played {best} (-{loss}); chances {before} -> {after}").format(
            number=k + 1, player=player_label(players[m["seat"]]), played=m["played"],
            best=m["best"], loss=percent(f"{m['loss'] * 100:.0f}"),
            before=percent(f"{before * 100:.0f}"), after=percent(f"{after * 100:.0f}")))
    return "\n".join(lines) + "\n"
