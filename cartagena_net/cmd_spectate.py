"""`cartagena spectate [HOST[:PORT]]`: watch a game read-only."""
from __future__ import annotations

import argparse

HELP = "watch a game read-only: HOST[:PORT], or choose among the hosts found on the LAN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from cartagena_net.cmd_join import add_common

    add_common(parser)
    parser.add_argument("--name", default="spectator", help="your name in the chat")


def run(args: argparse.Namespace) -> int:
    from cartagena_net.cmd_join import start

    return start(args, spectate=True)
