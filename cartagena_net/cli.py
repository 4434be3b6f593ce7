"""The `cartagena` command.

Each subcommand lives in ``cartagena_net/cmd_<name>.py`` and provides ``HELP: str``,
``add_arguments(parser)`` and ``run(args) -> int``; heavy imports (Twisted, the
client) wait inside ``run`` so that building the parser stays cheap.
"""
from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ("play", "host", "join", "spectate", "list", "bot", "rules", "selfplay")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cartagena",
        description="Cartagena, the pirate-escape race game, over a local network.",
        epilog="`cartagena COMMAND --help` shows a command's options.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"cartagena_net.cmd_{name}")
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
    return int(args._run(args) or 0)
