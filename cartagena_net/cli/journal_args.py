"""Crash safety on the command line, shared by `host` and `play`: where the journals go
and whether an unfinished game found there is resumed.

By default a host journals into its own folder of the per-user state directory
(:mod:`cartagena_net.host.homes`); ``--state-dir`` chooses another folder and
``--no-journal`` keeps none. When the folder holds an unfinished game, the host says so
and asks whether to resume it; ``--resume`` and ``--no-resume`` answer in advance. With
no terminal to ask (stdin or stdout not a terminal: a service, a script) and neither
flag, the game is resumed: a host restarted after a crash carries on where it stopped,
and nothing is lost either way, since a game not resumed is archived, never deleted.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartagena_net.i18n import _, ngettext
from cartagena_net.portable.files import error_fields


def sync_seconds(text: str) -> float:
    """``--journal-sync``: seconds, 0 or more, in ASCII digits (``0.5``, ``2``)."""
    if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?", text.strip()):
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds (0 or more)")
                                         .format(text=repr(text)))
    return float(text)


def add_journal_arguments(parser: argparse.ArgumentParser) -> None:
    """--state-dir, --no-journal, --journal-sync, --no-records, --no-reviews, --resume and
    --no-resume."""
    parser.add_argument("--state-dir", default=None, metavar=_("DIR"),
                        help=_("journal (crash safety) in DIR instead of this user's own "
                             "folder for this host; journals not resumed are moved to an "
                             "archive-* folder in it, never deleted"))
    parser.add_argument("--no-journal", action="store_true",
                        help=_("keep no journal: a crash loses the game"))
    parser.add_argument("--journal-sync", type=sync_seconds, default=1.0, metavar=_("SECONDS"),
                        help=_("each action is written to the journal before it is answered "
                             "(a crash of the host loses nothing); the journal is flushed "
                             "to the disk itself at most this often, off the game's path, "
                             "so a power cut may lose that much (default 1; 0: flush every "
                             "action before answering it)"))
    parser.add_argument("--no-records", action="store_true",
                        help=_("keep no record of the games (see `cartagena records`)"))
    parser.add_argument("--no-reviews", action="store_true",
                        help=_("the bot does not review the games that end (in the background; "
                             "`cartagena review ID` still does)"))
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--resume", dest="resume", action="store_const", const=True,
                        default=None,
                        help=_("resume the tables the journals hold without asking"))
    choice.add_argument("--no-resume", dest="resume", action="store_const", const=False,
                        help=_("start afresh without asking (an unfinished game is archived)"))


@dataclass
class StateChoice:
    """Where this host journals (None: nowhere), whether it resumes, and the lock held."""

    directory: Path | None
    resume: bool
    lock: int | None = None
    notice: str | None = None  # said once the host runs (e.g. the journal is off)
    off: dict[str, str] | None = None  # the same as data: the folder and the error


def interactive() -> bool:
    """Is there a person at a terminal to ask?"""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def ask_yes(question: str) -> bool:
    """Ask a yes/no question on the terminal; Enter means yes."""
    while True:
        sys.stdout.write(question)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:  # end of input: the default
            sys.stdout.write("\n")
            return True
        answer = line.strip().lower()
        if answer in ("", "y", "yes", _("y"), _("yes")):
            return True
        if answer in ("n", "no", _("n"), _("no")):
            return False
        print(_("please answer y or n"), file=sys.stderr)


def choose_state(args: argparse.Namespace, command: str, slot: str,
                 ask: Any = None) -> StateChoice:
    """Open the journal folder for ``args`` and decide whether to resume.

    ``command`` names the command in messages; ``slot`` is the default folder's kind
    (:mod:`cartagena_net.host.homes`). ``ask(question) -> bool`` asks the person
    (default: on the terminal, when there is one). ValueError for options that do not
    go together; OSError (its text names the folder) when ``--state-dir`` cannot be used.
    """
    from cartagena_net.host import homes
    from cartagena_net.host.journal import ensure_state_dir, lock_state_dir
    from cartagena_net.host.unfinished import unfinished_games

    if args.no_journal:
        if args.state_dir:
            raise ValueError(_("--no-journal and --state-dir do not go together"))
        if args.resume:
            raise ValueError(_("--resume needs a journal: drop --no-journal"))
        return StateChoice(None, False)
    if args.state_dir:
        check_own_folder(args.state_dir)
        try:
            folder = ensure_state_dir(args.state_dir)
            lock = lock_state_dir(folder)
        except OSError as exc:
            if exc.errno is None:  # said in full already (another host holds it)
                raise OSError(_("cannot use the state dir {folder}: {error}").format(
                    folder=args.state_dir, error=exc)) from None
            raise OSError(_("cannot keep the journal in {folder} ({error}): choose a folder "
                            "you can write with --state-dir DIR, or play without a journal "
                            "with --no-journal").format(
                folder=args.state_dir, error=exc.strerror or exc)) from None
    else:
        try:
            folder, lock = homes.open_default_state_dir(
                slot, prefer=lambda f: bool(unfinished_games(f)))
        except OSError as exc:  # a read-only home, say: play on, but say it is unsafe
            return StateChoice(None, False, notice=f"{command}: " + _(
                "no journal (cannot use {folder}: {error}); a crash will lose the game "
                "(--state-dir DIR chooses another folder)").format(
                folder=homes.hosts_dir(), error=exc),
                off={"folder": str(homes.hosts_dir()), **error_fields(exc)})
    resume = args.resume
    games = unfinished_games(folder) if resume is None else []
    if resume is None and games:
        if ask is None and interactive():
            ask = ask_yes
        # Asked: said on the terminal, where the question is; else it goes to the log.
        out = sys.stdout if ask is not None else sys.stderr
        print(f"{command}: " + ngettext("{n} unfinished game in {folder}:",
                                        "{n} unfinished games in {folder}:", len(games)).format(
            n=len(games), folder=folder), file=out)
        for game in games:
            print(f"  {game.describe()}", file=out)
        if ask is not None:
            resume = bool(ask(_("Resume? [Y/n] ")))
        else:
            resume = True
            print(f"{command}: " + _("resuming (no terminal to ask; --no-resume starts "
                                     "afresh and archives it)"), file=sys.stderr)
    return StateChoice(folder, bool(resume), lock)


def check_own_folder(path: str) -> None:
    """A folder the user already has is used as it is, never changed behind their back:
    one open to others (the journals hold seat keys and hidden cards) is refused, with
    what to do. A new folder is made private (0700) by the host."""
    from cartagena_net.portable import files as portable_files

    folder = Path(path)
    if not portable_files.POSIX_MODES or not folder.is_dir():
        return
    try:
        mode = folder.stat().st_mode & 0o7777
    except OSError:
        return  # said when it is used
    if mode & 0o077:
        raise OSError(_("the state dir {folder} is open to other users (mode {mode:04o}), "
                        "and its journals would hold seat keys and hidden cards: make it "
                        "private yourself (chmod 700 {folder}), name a new folder (the "
                        "host makes it private), or play with --no-journal").format(
            folder=folder, mode=mode))


def records_folder(args: argparse.Namespace) -> str | None:
    """Where the host keeps its games' records (None: ``--no-records``)."""
    if args.no_records:
        return None
    from cartagena_net.records.store import records_dir

    return str(records_dir())
