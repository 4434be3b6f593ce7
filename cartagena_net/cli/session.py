"""The terminal client's command-line parts, shared by `join`, `spectate`, `play` and `host`.

The arguments every client-starting command takes (how to find the host, how the
client tells you it is your turn), the default player name, and :func:`start`, which
runs the client for `join` and `spectate`.
"""
from __future__ import annotations

import argparse
import contextlib
import getpass
import sys
from typing import Any

from cartagena_net.cli.password_args import add_password_arguments, read_password
from cartagena_net.i18n import N_, _


def default_name() -> str:
    """The name the player gave last (``n`` in the lobby, ``--name``; kept in the per-user
    settings, client.settings), else the login name."""
    from client.settings import saved_name

    name = saved_name()
    if name:
        return name
    try:
        return (getpass.getuser() or "player")[:32]
    except (KeyError, OSError):
        return "player"


def given_name(args: argparse.Namespace) -> str | None:
    """``--name`` as given (kept for the next runs too), or None."""
    name = " ".join((getattr(args, "name", None) or "").split())[:32]
    if not name:
        return None
    from client.settings import save_name

    trouble = save_name(name)
    if trouble:
        print(f"cartagena: {trouble}", file=sys.stderr)
    return name


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
    add_reader_arguments(parser)


def add_reader_arguments(parser: argparse.ArgumentParser) -> None:
    """--screen-reader (remembered): the client line by line, for a screen reader."""
    parser.add_argument("--screen-reader", action=argparse.BooleanOptionalAction,
                        default=None,
                        help=_("line by line for a screen reader, over plain pipes: every "
                               "event a sentence, your moves numbered in words (remembered "
                               "for later runs; --no-screen-reader turns it off)"))


def screen_reader(args: argparse.Namespace) -> bool:
    """The screen-reader mode: as asked (and remembered), else as remembered. Its lines
    are written whatever the output's encoding can say (the rest replaced)."""
    from client import settings

    asked = getattr(args, "screen_reader", None)
    if asked is None:
        on = settings.load().get(settings.SCREEN_READER) is True
    else:
        on = bool(asked)
        settings.save(settings.SCREEN_READER, on)
    if on:
        with contextlib.suppress(AttributeError, ValueError):
            sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    return on


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
    command = "cartagena spectate" if spectate else "cartagena join"
    trouble = None if screen_reader(args) else no_terminal()
    if trouble:
        print(f"{command}: {trouble}", file=sys.stderr)
        return 2
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from client.app import run_client

    if spectate:
        from client.settings import saved_name

        name = (getattr(args, "name", None) or saved_name() or _("spectator"))[:32]
    else:
        name = given_name(args) or default_name()
    reader = screen_reader(args)
    status = {"code": 0}

    def done(result: Any) -> None:
        if hasattr(result, "getErrorMessage"):
            print(f"{command}: {stopped_because(result)}", file=sys.stderr)
            status["code"] = 1
        stop_reactor(reactor)

    def begin() -> None:
        d = run_client(reactor, host, port, name, spectate=spectate, ascii_only=args.ascii,
                       table=args.table, password=password, browse=host is None,
                       discovery_targets=args.to, broadcast=not args.no_broadcast,
                       udp_port=args.udp_port, bell=not args.no_bell,
                       title=not args.no_title, screen_reader=reader)
        d.addBoth(done)

    reactor.callWhenRunning(begin)
    reactor.run()
    return status["code"]



def no_terminal() -> str | None:
    """Why the client's screen cannot run here (None when it can): it needs a terminal
    on both its standard input and output."""
    streams = (sys.stdin, sys.stdout)
    if all(s is not None and hasattr(s, "isatty") and s.isatty() for s in streams):
        return None
    return _("its screen needs a terminal, and the standard input or output is not one "
             "(a pipe, a file, a service): run it in a terminal window, or add "
             "--screen-reader to play line by line")


def stopped_because(failure: Any) -> str:
    """Why the client stopped, in a sentence (never an empty one)."""
    text = str(failure.getErrorMessage() or "").strip()
    if text:
        return _("the client stopped: {error}").format(error=text)
    kind = getattr(getattr(failure, "type", None), "__name__", "") or _("an unknown error")
    return _("the client stopped unexpectedly ({error}); run it again in a terminal "
             "window").format(error=kind)


def stop_reactor(reactor: Any) -> None:
    """Stop the reactor unless it is already stopping."""
    from twisted.internet.error import ReactorNotRunning

    try:
        reactor.stop()
    except ReactorNotRunning:
        pass
