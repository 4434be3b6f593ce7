"""`cartagena review ID`: the bot reviews a kept game: each seat's chance of winning after
every action, and the actions that cost the most, with what the bot would have played."""
from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from cartagena_net.i18n import N_, _, ngettext, percent
from cartagena_net.portable.cores import usable_cores

HELP = N_("let the bot review a kept game: the chances after every action and where it turned")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cartagena_net.bots.review import PLAYOUTS, SEARCH

    parser.add_argument("id", metavar=_("ID|FILE"), nargs="?", default=None,
                        help=_("a record id (or its start), or a file"))
    parser.add_argument("--due", action="store_true",
                        help=_("make every review that is due and was never made (a host "
                               "stopped before it; a host also makes them at its next start)"))
    parser.add_argument("--dir", default=None, metavar=_("DIR"),
                        help=_("the records folder (default: this user's)"))
    parser.add_argument("--workers", type=int, default=max(1, min(4, usable_cores())),
                        help=_("worker processes (default: the cores, up to 4)"))
    parser.add_argument("--playouts", type=int, default=PLAYOUTS,
                        help=_("games played out from each position (default {n})").format(
                            n=PLAYOUTS))
    parser.add_argument("--search", type=int, default=SEARCH, metavar=_("ITERATIONS"),
                        help=_("the bot's search at each action (default {n})").format(n=SEARCH))
    parser.add_argument("--again", action="store_true",
                        help=_("review again even if a review is kept"))


def run(args: argparse.Namespace) -> int:
    for name in ("workers", "playouts", "search"):
        if getattr(args, name) < 1:
            print("cartagena review: " + _("--{name} takes a number of at least 1").format(
                name=name), file=sys.stderr)
            return 2
    if args.due:
        if args.id is not None:
            print("cartagena review: " + _("give an ID or --due, not both"), file=sys.stderr)
            return 2
        return _due(args)
    if args.id is None:
        print("cartagena review: " + _("give a record's ID (`cartagena records` lists them), "
                                       "or --due"), file=sys.stderr)
        return 2
    return _one(args, args.id)


def _due(args: argparse.Namespace) -> int:
    from cartagena_net.records.store import due, records_dir

    folder = args.dir or records_dir()
    ids = due(folder)
    if not ids:
        print(_("no review is due in {folder}").format(folder=folder))
        return 0
    print(ngettext("{n} review due in {folder}", "{n} reviews due in {folder}",
                   len(ids)).format(n=len(ids), folder=folder))
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
        self.show(ngettext("reviewing {id}: {total} positions in {n} worker...",
                           "reviewing {id}: {total} positions in {n} workers...",
                           workers).format(id=record_id, total=total, n=workers))

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
        text = _("reviewing {id}: {done}/{total} positions").format(
            id=self.record_id, done=done, total=total)
        if done < total:
            text += _(", about {time} left").format(time=_duration(left))
        self.show(text)

    def end(self) -> None:
        if self.tty:
            self.stream.write(f" ({_duration(time.monotonic() - self.started)})\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return _("{s} s").format(s=seconds)
    return _("{m} min {s} s").format(m=seconds // 60, s=seconds % 60)


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
            raise RecordError(f"{path}: " + _(
                "a spectator's record (a game that did not end) holds no cards: only a "
                "finished game can be reviewed"))
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
            print("cartagena review: " + _("cannot keep the review in {folder}: {error}").format(
                folder=folder, error=exc.strerror or exc), file=sys.stderr)
            where = None
        if where is not None:
            print(_("kept in {where}").format(where=where))
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
    head = _("review of {id} ({playouts} a position, search {search})").format(
        id=rec["id"], playouts=ngettext("{n} playout", "{n} playouts", method["playouts"]).format(
            n=method["playouts"]),
        search=ngettext("{n} iteration", "{n} iterations", method["search"]).format(
            n=method["search"]))
    lines = [head]
    turning = rev.get("turning") or []
    if not turning:
        lines.append(_("no action cost a seat anything by the bot's estimate"))
    else:
        lines.append(_("the actions that cost the most, the costliest first:"))
    for k in turning:
        m = rev["moves"][k]
        before = rev["positions"][k]["chances"][m["seat"]]
        after = rev["positions"][k + 1]["chances"][m["seat"]]
        said = m.get("said") or {}
        # Each move as the screens name a move (its card, from where), the same for
        # every seat: the hints' words speak to the seat itself ("your pirate").
        seen = _seen(rec, k)
        played = (_plain(seen, m["played"]) or _words(said.get("played"))
                  or m["played"])
        best = (_plain(seen, m["best"]) or _words(said.get("best")) or m["best"]
                if m.get("best") else "")
        if "chance" in m and "best_chance" in m:  # a review by the value model
            line = _("action {number}: {player}: {played} (chance {after}); better: "
                     "{best} (chance {best_after}): it cost {loss}").format(
                number=k + 1, player=player_label(players[m["seat"]]),
                played=played, best=best,
                after=percent(f"{m['chance'] * 100:.0f}"),
                best_after=percent(f"{m['best_chance'] * 100:.0f}"),
                loss=percent(f"{m['loss'] * 100:.0f}"))
            if m.get("sure") is True:
                line += " " + _("(the search agrees)")
            elif m.get("sure") is False:
                line += " " + _("(the search is not sure)")
            lines.append(line)
            continue
        lines.append(_("action {number}: {player}: {played}; better: {best} (-{loss}); "
                       "chances {before} -> {after}").format(
            number=k + 1, player=player_label(players[m["seat"]]), played=played,
            best=best, loss=percent(f"{m['loss'] * 100:.0f}"),
            before=percent(f"{before * 100:.0f}"), after=percent(f"{after * 100:.0f}")))
    return "\n".join(lines) + "\n"


def _seen(rec: dict, k: int) -> dict | None:
    """The spectator's view before action ``k + 1`` (None if the record cannot be played
    to there: a damaged one)."""
    from cartagena_net.bots.review import state_at
    from cartagena_net.engine import SPECTATOR, view

    try:
        return view(state_at(rec, k), SPECTATOR)
    except Exception:  # noqa: BLE001 - a damaged record: the review's own words, if any
        return None


def _plain(seen: dict | None, action: str) -> str | None:
    """An action (the one played, or the bot's) in a reader's words, from the position
    before it (``seen``: :func:`_seen`; None if there is none)."""
    from client.powers import move_words

    return None if seen is None else move_words(seen, action)


def _words(said: Any) -> str | None:
    """A move of the review worded from its data (the hints' templates), None if not."""
    from cartagena_net.engine.reasons import reason_text
    from cartagena_net.i18n import language, translation
    from client.glyphs import color_name, place, symbol_name

    if not isinstance(said, dict):
        return None
    return reason_text(said.get("why"), said.get("args"), translation(language()),
                       color_name, symbol_name, place)
