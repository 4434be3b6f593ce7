"""`cartagena review ID`: the bot reviews a kept game: each seat's chance of winning after
every action, and the actions that cost the most, with what the bot would have played."""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

HELP = "let the bot review a kept game: the chances after every action and where it turned"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cartagena_net.bots.review import PLAYOUTS, SEARCH

    parser.add_argument("id", metavar="ID|FILE", nargs="?", default=None,
                        help="a record id (or its start), or a file")
    parser.add_argument("--due", action="store_true",
                        help="make every review that is due and was never made (a host "
                             "stopped before it; a host also makes them at its next start)")
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
    for name in ("workers", "playouts", "search"):
        if getattr(args, name) < 1:
            print(f"cartagena review: --{name} takes a number of at least 1", file=sys.stderr)
            return 2
    if args.due:
        if args.id is not None:
            print("cartagena review: give an ID or --due, not both", file=sys.stderr)
            return 2
        return _due(args)
    if args.id is None:
        print("cartagena review: give a record's ID (`cartagena records` lists them), or "
              "--due", file=sys.stderr)
        return 2
    return _one(args, args.id)


def _due(args: argparse.Namespace) -> int:
    from cartagena_net.records.store import due, records_dir

    folder = args.dir or records_dir()
    ids = due(folder)
    if not ids:
        print(f"no review is due in {folder}")
        return 0
    print(f"{len(ids)} review{'s' if len(ids) != 1 else ''} due in {folder}")
    worst = 0
    for record_id in ids:
        worst = max(worst, _one(args, record_id, folder))
    return worst


class Progress:
    """``reviewing ID: 40/109 positions, about 1 min 20 s left`` on one terminal line,
    redrawn as answers come (flushed: a line without its end stays unseen otherwise);
    nothing where stderr is not a terminal."""

    def __init__(self, record_id: str, total: int, workers: int, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.record_id, self.total = record_id, total
        self.started = time.monotonic()
        self.width = 0
        self.show(f"reviewing {record_id}: {total} positions in {workers} "
                  f"worker{'s' if workers != 1 else ''}...")

    def show(self, text: str) -> None:
        if not self.tty:
            return
        pad = max(0, self.width - len(text))
        self.width = len(text)
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()

    def __call__(self, done: int, total: int) -> None:
        spent = time.monotonic() - self.started
        left = spent / done * (total - done) if done else 0.0
        self.show(f"reviewing {self.record_id}: {done}/{total} positions"
                  + (f", about {_duration(left)} left" if done < total else ""))

    def end(self) -> None:
        if self.tty:
            self.stream.write(f" ({_duration(time.monotonic() - self.started)})\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60} s"


def _one(args: argparse.Namespace, key: str, folder: Any = None) -> int:
    from cartagena_net.bots.pool import WorkerDied, run_jobs
    from cartagena_net.bots.review import assemble, jobs
    from cartagena_net.records import RecordError, replay
    from cartagena_net.records.format import in_file
    from cartagena_net.records.store import (
        clear_due,
        find,
        read,
        read_review,
        write_review,
    )

    try:
        path = find(key, folder if folder is not None else args.dir)
        rec = read(path)
        if rec["kind"] != "full":
            raise RecordError(f"{path}: a spectator's record (a game that did not end) "
                              "holds no cards: only a finished game can be reviewed")
        folder = path.parent  # the review goes beside the record, in reviews/
        kept = None if args.again else read_review(folder, rec["id"])
        if kept is None:
            with in_file(path):
                replay(rec)  # a record that does not replay is said once, with its file
    except RecordError as exc:
        print(f"cartagena review: {exc}", file=sys.stderr)
        return 1
    if kept is None:
        todo = jobs(rec, args.playouts, args.search)
        progress = Progress(rec["id"], len(todo), min(args.workers, len(todo)))
        try:
            answers = run_jobs(todo, args.workers, progress)
        except (WorkerDied, OSError, RecordError) as exc:
            progress.show("")
            print(f"\rcartagena review: {rec['id']}: {exc}", file=sys.stderr)
            return 1
        progress.end()
        kept = assemble(rec, answers, args.playouts, args.search)
        try:
            where = write_review(folder, kept)
        except OSError as exc:
            print(f"cartagena review: cannot keep the review in {folder}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            where = None
        if where is not None:
            print(f"kept in {where}")
            try:
                clear_due(folder, rec["id"])
            except OSError:
                pass
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
