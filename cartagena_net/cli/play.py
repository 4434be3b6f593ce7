"""`cartagena play`: you against bots, on an embedded host in this process (no broadcast)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from cartagena_net.cli.bot_args import add_level_arguments, bot_choice
from cartagena_net.cli.game_args import add_game_arguments, game_options
from cartagena_net.cli.session import (
    add_notify_arguments,
    add_reader_arguments,
    default_name,
    given_name,
    no_terminal,
    screen_reader,
    stop_reactor,
    stopped_because,
)
from cartagena_net.i18n import N_, _

HELP = N_("play against bots right away: an embedded host on 127.0.0.1, nothing on the LAN")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser, N_("seats at the table (default: bots + 1, or the preset's)"))
    parser.add_argument("--bots", type=int, default=None,
                        help=_("bots at the table (default: every other seat)"))
    add_level_arguments(parser, "--bot-kind")
    parser.add_argument("--bot-delay", type=float, default=0.7,
                        help=_("seconds a bot waits before acting"))
    parser.add_argument("--name", default=None, help=_("your name at the table"))
    parser.add_argument("--seed", type=int, default=None,
                        help=_("deal from this seed (and seed the bots): the same game again, "
                             "for practice and tests only; without it (real games) the deal "
                             "uses the OS's secure RNG"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII, no Unicode symbols"))
    parser.add_argument("--web", type=int, default=None, metavar="PORT",
                        help=_("also show the table in a browser at http://127.0.0.1:PORT/"))
    add_notify_arguments(parser)
    add_reader_arguments(parser)
    from cartagena_net.cli.learn_args import add_learning_arguments

    add_learning_arguments(parser)
    from cartagena_net.cli.journal_args import add_journal_arguments

    add_journal_arguments(parser)


def table_options(args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """The table's options and its bot count, from the arguments."""
    options = game_options(args, None if args.bots is None else args.bots + 1)
    from cartagena_net.engine import make_game

    game = make_game(args.rules, **options)
    seats = _seat_count(game)
    bots = seats - 1 if args.bots is None else args.bots
    if not 0 <= bots <= seats - 1:
        raise ValueError(_("a table of {seats} seats takes 0..{most} bots (one seat is yours)")
                         .format(seats=seats, most=seats - 1))
    return options, bots


def _seat_count(game: Any) -> int:
    from cartagena_net.engine import view

    return len(view(game.new_state(seed=0), 0)["seats"])


def resumed_seat(service: Any) -> tuple[int | None, str | None]:
    """The restored game to play on, if any: (its table, the player's seat token).

    A practice table has one human seat, the player's; the newest game still being
    played is the one taken back (a finished one just stays listed).
    """
    for tid in sorted(service.lobby.tables, reverse=True):
        table = service.lobby.tables[tid]
        humans = [s for s in table.seats if s.human]
        if table.status == "playing" and humans:
            return tid, humans[0].token
    return None, None


def run(args: argparse.Namespace) -> int:
    try:
        options, bots = table_options(args)
        bot_kind, think = bot_choice(args, args.bot_kind)
    except ValueError as exc:
        print(f"cartagena play: {exc}", file=sys.stderr)
        return 2
    if args.bot_delay < 0:
        print("cartagena play: " + _("--bot-delay must be 0 or more"), file=sys.stderr)
        return 2
    if args.web is not None and not 0 <= args.web <= 65535:
        print("cartagena play: " + _("--web port {port} is not in 0..65535").format(
            port=args.web), file=sys.stderr)
        return 2
    trouble = None if screen_reader(args) else no_terminal()
    if trouble:
        print(f"cartagena play: {trouble}", file=sys.stderr)
        return 2
    from cartagena_net.cli.journal_args import choose_state, records_folder
    from cartagena_net.host.homes import PLAY_SLOT

    try:
        state = choose_state(args, "cartagena play", PLAY_SLOT)  # holds the folder's lock
    except ValueError as exc:
        print(f"cartagena play: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"cartagena play: {exc}", file=sys.stderr)
        return 1
    # state.notice (no journal) is said in the game's status area (lobby.notices), never
    # written under the full-screen screen or seen only after it
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from twisted.internet.error import CannotListenError

    from cartagena_net.host import HostConfig, HostService
    from cartagena_net.host.errors import HostError
    from client.app import run_client

    name = given_name(args) or default_name()
    reader = screen_reader(args)
    config = HostConfig(name=_("{name}'s game").format(name=name), port=0, bind="127.0.0.1",
                        bot_delay=args.bot_delay, bot_level=args.level,
                        bot_think=think, web_port=args.web,  # the web view: if asked
                        bot_workers=args.workers,
                        seed=args.seed,  # None: the OS's secure RNG deals
                        state_dir=None if state.directory is None else str(state.directory),
                        resume=state.resume, journal_sync=args.journal_sync,
                        journal_off=state.off,
                        records_dir=records_folder(args),
                        reviews=not args.no_reviews,
                        live_chances=not args.no_live_chances)
    token: str | None = None
    try:
        service = HostService(config, reactor)
        service.startService()
        table, token = resumed_seat(service)
        if table is None:
            table = service.create_table(_("{name}'s table").format(name=name), args.rules,
                                         options, bots=bots, bot_kind=bot_kind,
                                         hints=args.hints, player_chances=args.player_chances)
    except HostError as exc:
        service.stopService()
        from client.plain import reason

        print("cartagena play: " + (reason(exc.why, exc.fields) or exc.message),
              file=sys.stderr)
        return 2
    except (OSError, CannotListenError) as exc:
        print("cartagena play: " + _("cannot start the host: {error}").format(error=exc),
              file=sys.stderr)
        return 1
    web_url = service.web.url if service.web is not None else None
    if web_url:
        print("cartagena play: " + _("web view at {url}").format(url=web_url), flush=True)
    status = {"code": 0}

    def done(result: Any) -> None:
        status["code"] = int(result or 0) if not hasattr(result, "getErrorMessage") else 1
        if hasattr(result, "getErrorMessage"):
            print(f"cartagena play: {stopped_because(result)}", file=sys.stderr)
        d = service.stopService()
        if d is not None and hasattr(d, "addBoth"):
            d.addBoth(lambda _: stop_reactor(reactor))
        else:
            stop_reactor(reactor)

    def begin() -> None:
        d = run_client(reactor, "127.0.0.1", service.port, name, ascii_only=args.ascii,
                       table=None if token else table, auto_start=not token, solo=True,
                       bell=not args.no_bell, title=not args.no_title, web_url=web_url,
                       token=token, screen_reader=reader,
                       kept=state.directory is not None)
        d.addBoth(done)

    reactor.callWhenRunning(begin)
    reactor.run()
    return status["code"]
