"""`cartagena spectate [HOST[:PORT]]`: watch a game read-only."""
from __future__ import annotations

import argparse

from cartagena_net.cli.session import add_common, start
from cartagena_net.i18n import N_, _

HELP = N_("watch a game read-only: HOST[:PORT], or choose among the hosts found on the LAN")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--name", default=None,
                        help=_("your name in the chat (default: the name you gave last, "
                               "else spectator)"))


def run(args: argparse.Namespace) -> int:
    return start(args, spectate=True)
