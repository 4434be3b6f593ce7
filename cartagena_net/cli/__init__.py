"""The `cartagena` command line.

Each subcommand lives in its own module, ``cartagena_net/cli/<name>.py``, and provides
``HELP: str``, ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports
(Twisted, the client) wait inside ``run`` so that building the parser stays cheap.
Beside them: the argument helpers the commands share (``game_args``, ``bot_args``,
``password_args``, ``session``) and the event loop set-up (``loop``). Nothing outside
this package imports it, but the entry points (``python -m cartagena_net`` and the
``cartagena`` script call :func:`main`).

Every command takes ``--lang CODE`` (else the locale variables choose, see
:mod:`cartagena_net.i18n`); the language is set before the parser is built, so its help
and argparse's own words (``usage:``, errors) speak it too.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from cartagena_net.cli.number_args import Parser
from cartagena_net.i18n import (
    LANGUAGES,
    N_,
    _,
    from_environment,
    ngettext,
    set_language,
)

COMMANDS = ("play", "host", "join", "spectate", "list", "bot", "rules", "selfplay", "records",
            "export", "replay", "review")


# argparse's own words that a user of the command meets (it looks them up with
# gettext at the moment it shows them: see words_of_argparse).
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unrecognized arguments: %s"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def words_of_argparse() -> None:
    """argparse translates its words with the standard library's default gettext domain;
    have it use this program's catalogs (and language) instead."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def lang_in(argv: list[str]) -> str | None:
    """The value of ``--lang`` anywhere before ``--``, if any (it must be known before
    the parser, whose help it translates, is built)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=argparse.SUPPRESS,
                        help=_("the language to speak (default: from LANGUAGE, LC_ALL, "
                               "LC_MESSAGES or LANG, else English)"))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cartagena",
        description=_("Cartagena, the pirate-escape race game, over a local network."),
        epilog=_("`cartagena COMMAND --help` shows a command's options."))
    add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for name in COMMANDS:
        module = importlib.import_module(f"cartagena_net.cli.{name}")
        p = sub.add_parser(name, help=_(module.HELP), description=_(module.HELP))
        module.add_arguments(p)
        add_lang(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    # (not list(argv): importing the command cartagena_net.cli.list binds ``list`` here)
    argv = sys.argv[1:] if argv is None else [*argv]
    set_language(lang_in(argv) or from_environment())
    words_of_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except BrokenPipeError:  # e.g. `cartagena rules | head`: the reader left; not an error
        # What is still buffered goes nowhere, so that exit does not fail to flush it.
        from cartagena_net.portable.files import open_fd

        os.dup2(open_fd(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
