"""The `cartagena` command line.

Each subcommand lives in its own module, ``cartagena_net/cli/<name>.py``, and provides
``HELP: str``, ``add_arguments(parser)`` and ``run(args) -> int``; heavy imports
(Twisted, the client) wait inside ``run`` so that building the parser stays cheap.
Beside them: the argument helpers the commands share (``game_args``, ``bot_args``,
``password_args``, ``session``) and the event loop set-up (``loop``). Nothing outside
this package imports it, but the entry points (``python -m cartagena_net`` and the
``cartagena`` script call :func:`main`).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

COMMANDS = ("play", "host", "join", "spectate", "list", "bot", "rules", "selfplay", "records",
            "export", "replay", "review")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cartagena",
        description="Cartagena, the pirate-escape race game, over a local network.",
        epilog="`cartagena COMMAND --help` shows a command's options.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"cartagena_net.cli.{name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
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
