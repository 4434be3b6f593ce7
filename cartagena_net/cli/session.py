"""The terminal client's command-line parts, shared by `join`, `spectate`, `play` and `host`.

The arguments every client-starting command takes (how to find the host, how the
client tells you it is your turn), the default player name, and :func:`start`, which
runs the client for `join` and `spectate`.
"""
from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from cartagena_net.cli.password_args import add_password_arguments, read_password
from cartagena_net.i18n import N_, _


def default_name() -> str:
    try:
        return (getpass.getuser() or "player")[:32]
    except (KeyError, OSError):
        return "player"


def add_common(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by `join` and `spectate`."""
    parser.add_argument("address", nargs="?", default=None, metavar=_("HOST[:PORT]"),
                        help=_("the host (default port 41672); none: browse the LAN"))
    parser.add_argument("--table", type=int, default=None, help=_("go straight to this table"))
    add_password_arguments(parser, N_("the host's or table's password"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII, no Unicode symbols"))
    parser.add_argument("--to", action="append", default=[], metavar=_("ADDRESS"),
                        help=_("also probe this address for hosts (repeatable)"))
    parser.add_argument("--no-broadcast", action="store_true",
                        help=_("find hosts only by probing the --to addresses"))
    parser.add_argument("--udp-port", type=int, default=41672, help=_("discovery UDP port"))
    add_notify_arguments(parser)


def add_notify_arguments(parser: argparse.ArgumentParser) -> None:
    """--no-bell and --no-title: how the client tells you it is your turn."""
    parser.add_argument("--no-bell", action="store_true",
                        help=_("no terminal bell when it becomes your turn"))
    parser.add_argument("--no-title", action="store_true",
                        help=_("do not set the terminal title when it becomes your turn"))


def start(args: argparse.Namespace, spectate: bool) -> int:
    """Run the client for `join` or `spectate`."""
    from client.app import split_address

    host: str | None = None
    port: int | None = None
    try:
        password = read_password(args)
    except ValueError as exc:
        print(f"cartagena: {exc}", file=sys.stderr)
        return 2
    if args.address:
        try:
            host, port = split_address(args.address)
        except ValueError as exc:
            print(f"cartagena: {exc}", file=sys.stderr)
            return 2
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from client.app import run_client

    name = (getattr(args, "name", None) or default_name())[:32]
    status = {"code": 0}

    def done(result: Any) -> None:
        if hasattr(result, "getErrorMessage"):
            print(f"cartagena: {result.getErrorMessage()}", file=sys.stderr)
            status["code"] = 1
        stop_reactor(reactor)

    def begin() -> None:
        d = run_client(reactor, host, port, name, spectate=spectate, ascii_only=args.ascii,
                       table=args.table, password=password, browse=host is None,
                       discovery_targets=args.to, broadcast=not args.no_broadcast,
                       udp_port=args.udp_port, bell=not args.no_bell,
                       title=not args.no_title)
        d.addBoth(done)

    reactor.callWhenRunning(begin)
    reactor.run()
    return status["code"]



def stop_reactor(reactor: Any) -> None:
    """Stop the reactor unless it is already stopping."""
    from twisted.internet.error import ReactorNotRunning

    try:
        reactor.stop()
    except ReactorNotRunning:
        pass
