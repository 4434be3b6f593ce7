"""`cartagena join [HOST[:PORT]]`: take a seat at a host on the LAN (or pick one found)."""
from __future__ import annotations

import argparse

from cartagena_net.cli.session import add_common, start
from cartagena_net.i18n import N_, _

HELP = N_("join a host: HOST[:PORT], or choose among the hosts found on the LAN")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common(parser)
    parser.add_argument("--name", default=None,
                        help=_("your name at the table, kept for the next runs (default: "
                               "the name you gave last, else your login name)"))


def run(args: argparse.Namespace) -> int:
    return start(args, spectate=False)
