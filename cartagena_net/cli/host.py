"""`cartagena host`: host tables on the LAN (and play at one unless --headless)."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from cartagena_net.cli.bot_args import add_level_arguments, bot_choice
from cartagena_net.cli.game_args import add_game_arguments, game_options
from cartagena_net.cli.number_args import ascii_float, ascii_int
from cartagena_net.cli.password_args import add_password_arguments, read_password
from cartagena_net.i18n import N_, _, decimal, ngettext

HELP = N_("host a game on the LAN (TCP, discovery on UDP 41672); plays too unless --headless")


DEFAULT_TAKEOVER = 120.0


def takeover_seconds(text: str) -> float | None:
    """``--takeover``: seconds (> 0), or ``off``."""
    if text.strip().lower() in ("off", "no", "never", "none"):
        return None
    try:
        value = ascii_float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds or off").format(
            text=repr(text))) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(_("--takeover needs more than 0 seconds, or off"))
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", help=_("host name shown to others (default: this machine's)"))
    parser.add_argument("--port", type=int, default=41672, help=_("TCP port (0: any free port)"))
    parser.add_argument("--bind", default="", help=_("address to listen on (default: all)"))
    add_game_arguments(parser, N_("seats at the first table (default: the preset's)"))
    parser.add_argument("--table-name", default=None, help=_("name of the first table"))
    parser.add_argument("--bots", type=int, default=0, help=_("bots seated at the first table"))
    add_level_arguments(parser, "--bot-kind")
    parser.add_argument("--bot-delay", type=float, default=0.7, help=_("seconds before a bot acts"))
    parser.add_argument("--headless", action="store_true", help=_("no local client: only host"))
    parser.add_argument("--ascii", action="store_true", help=_("plain ASCII, no Unicode symbols"))
    from cartagena_net.cli.session import add_notify_arguments, add_reader_arguments

    add_notify_arguments(parser)
    add_reader_arguments(parser)
    from cartagena_net.cli.journal_args import add_journal_arguments

    add_journal_arguments(parser)
    parser.add_argument("--discovery", choices=("on", "off"), default="on",
                        help=_("answer LAN discovery on UDP 41672 (and advertise by mDNS)"))
    parser.add_argument("--no-mdns", action="store_true",
                        help=_("do not advertise by multicast DNS (_cartagena._tcp.local.)"))
    add_password_arguments(parser, N_("the password players and watchers need to join"))
    parser.add_argument("--no-spectators", action="store_true", help=_("close tables to watchers"))
    from cartagena_net.cli.learn_args import add_learning_arguments

    add_learning_arguments(parser)
    parser.add_argument("--idle-table-grace", type=float, default=300.0, metavar=_("SECONDS"),
                        help=_("a game a client left to bots alone, with nobody watching, "
                             "pauses at once and is removed after this many seconds "
                             "(default 300)"))
    parser.add_argument("--takeover", type=takeover_seconds, default=DEFAULT_TAKEOVER,
                        metavar=_("SECONDS|off"),
                        help=_("a bot plays an absent player's seat after this long, until "
                               "the player returns (default {seconds}; off: never)").format(
                                   seconds=decimal(f"{DEFAULT_TAKEOVER:g}")))
    parser.add_argument("--log-format", choices=("text", "json"), default="text")
    parser.add_argument("--no-game-log", action="store_true",
                        help=_("with --headless: do not log every game event"))
    from cartagena_net.portable.sockets import connection_limits

    default, cap = connection_limits()
    parser.add_argument("--max-connections", type=int, default=default, metavar="N",
                        help=_("connections the host holds at once (default {default}; at "
                               "most {cap} here: the platform's event loop and file "
                               "limit)").format(default=default, cap=cap))
    parser.add_argument("--max-per-address", type=int, default=64)
    parser.add_argument("--max-tables-per-address", type=int, default=16, metavar="N",
                        help=_("tables one client address may hold at once (default 16)"))
    parser.add_argument("--rate-limit", type=float, default=100.0, metavar=_("MSGS_PER_S"),
                        help=_("per-connection message rate (bursts of twice as many)"))
    parser.add_argument("--web", default=None, metavar="PORT|off",
                        help=_("read-only web view of the tables for browsers "
                             "(default: the game port + 1; off: none)"))
    parser.add_argument("--web-host", action="append", default=[], metavar=_("NAME"),
                        type=web_host_name,
                        help=_("another name the web port answers to (repeatable), e.g. "
                               "a name the LAN's DNS gives this machine; it always answers "
                               "to its own addresses, localhost and NAME.local"))


def web_host_name(value: str) -> str:
    """One ``--web-host`` NAME, checked (argparse says why it is refused)."""
    from cartagena_net.web.hostcheck import valid_name

    try:
        return valid_name(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def web_port(value: str | None, game_port: int) -> int | None:
    """The web view's port from ``--web`` (None: off). ValueError if it is not one."""
    if value is None:
        return game_port + 1 if 0 < game_port < 65535 else 0
    if value.strip().lower() == "off":
        return None
    try:
        port = ascii_int(value)
    except ValueError:
        raise ValueError(_("--web takes a port number or off, not {value}").format(
            value=repr(value))) from None
    if not 0 <= port <= 65535:
        raise ValueError(_("--web port {port} is not in 0..65535").format(port=port))
    return port


def friends_address(bind: str, port: int) -> str:
    """The address friends type to reach this host (shown in the host's own header)."""
    from cartagena_net.discovery.interfaces import is_loopback, lan_addresses

    if bind and bind not in ("0.0.0.0", "::"):
        return f"{bind}:{port}" + (" " + _("(this machine only)") if is_loopback(bind) else "")
    found = lan_addresses()
    return f"{found[0]}:{port}" if found else f"127.0.0.1:{port} " + _("(no network found)")


def join_lines(bind: str, port: int) -> list[str]:
    """What friends type to reach this host, one line per address they may use."""
    from cartagena_net.discovery.interfaces import is_loopback, lan_addresses

    suffix = "" if port == 41672 else f":{port}"
    if bind and bind not in ("0.0.0.0", "::"):
        where = " " + _("(this machine only)") if is_loopback(bind) else ""
        return [_("friends join with: {command}").format(
            command=f"cartagena join {bind}{suffix}") + where]
    found = lan_addresses()
    if not found:
        return [_("no network found: only this machine can join ({command})").format(
            command=f"cartagena join 127.0.0.1{suffix}")]
    return [_("friends join with: {command}").format(command=f"cartagena join {a}{suffix}")
            for a in found]


def listen_failure(exc: BaseException, config: Any) -> str:
    """What a host that cannot listen says: which port, and what to do."""
    from twisted.internet.error import CannotListenError

    from cartagena_net.portable.sockets import address_in_use

    port = getattr(exc, "port", None)
    web = bool(isinstance(exc, CannotListenError) and config.web_port
               and port == config.web_port)
    if isinstance(exc, CannotListenError) and address_in_use(exc):
        if web:
            return _("the web view's port {port} is in use: another cartagena host (or another "
                     "program) is listening on it; stop it, or choose another with --web PORT, "
                     "or --web off").format(port=port)
        return _("the game port {port} is in use: another cartagena host (or another program) "
                 "is listening on it; stop it, or choose another with --port PORT").format(
            port=port)
    hint = (" " + _("(the web view's port: choose another with --web PORT, or --web off)")
            if web else "")
    return f"{exc}{hint}"


def _start_logging(fmt: str) -> None:
    from twisted.logger import (
        FilteringLogObserver,
        LogLevel,
        LogLevelFilterPredicate,
        globalLogBeginner,
        jsonFileLogObserver,
        textFileLogObserver,
    )

    observer = jsonFileLogObserver(sys.stderr) if fmt == "json" else textFileLogObserver(sys.stderr)
    predicate = LogLevelFilterPredicate(defaultLogLevel=LogLevel.info)
    globalLogBeginner.beginLoggingTo(
        [FilteringLogObserver(observer, [predicate])], redirectStandardIO=False
    )


def build_config(args: argparse.Namespace, password: str | None = None,
                 state: Any = None) -> Any:
    """The host's settings; ``state`` (a journal_args.StateChoice): where it journals."""
    from cartagena_net.cli.journal_args import records_folder
    from cartagena_net.host import HostConfig

    config = HostConfig(
        port=args.port,
        bind=args.bind,
        state_dir=None if state is None or state.directory is None else str(state.directory),
        resume=bool(state is not None and state.resume),
        journal_sync=args.journal_sync,
        journal_off=None if state is None else state.off,
        records_dir=records_folder(args),
        reviews=not args.no_reviews,
        password=password,
        spectators=not args.no_spectators,
        takeover=args.takeover,
        idle_table_grace=max(0.0, args.idle_table_grace),
        bot_delay=args.bot_delay,
        bot_level=args.level,
        bot_think=args.think,
        bot_workers=args.workers,
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        max_tables_per_address=args.max_tables_per_address,
        rate=args.rate_limit,
        burst=2 * args.rate_limit,
        log_events=bool(args.headless and not args.no_game_log),
        web_port=web_port(args.web, args.port),
        web_hosts=tuple(args.web_host),
        live_chances=not args.no_live_chances,
    )
    if args.name:
        config.name = args.name[:64]
    return config


def own_resumed_token(service: Any) -> str | None:
    """The seat token of this user's own client at a restored game still being played.

    The host's own client saved it (keyed by the host id, which the state dir keeps)
    before the crash, so the host's player sits down again where they were.
    """
    from client.tokens import TokenStore

    entry = TokenStore().entry(service.host_id)
    token = (entry or {}).get("token")
    for table in service.lobby.tables.values():
        if table.status == "playing" and token and table.find_token(token) is not None:
            return str(token)
    return None


def run(args: argparse.Namespace) -> int:
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.cli.journal_args import choose_state
    from cartagena_net.host import HostService
    from cartagena_net.host.errors import HostError
    from cartagena_net.host.homes import host_slot
    from cartagena_net.host.sweeper import tune_allocator
    from cartagena_net.portable.sockets import connection_limits

    _floor, cap = connection_limits()
    if not 1 <= args.max_connections <= cap:
        print("cartagena host: " + _(
            "--max-connections takes 1 to {cap} on this platform (not {n}): its event loop "
            "and file limit hold no more").format(cap=cap, n=args.max_connections),
              file=sys.stderr)
        return 2
    try:
        options = game_options(args)
        bot_kind, _think = bot_choice(args, args.bot_kind)
        password = read_password(args)
        state = choose_state(args, "cartagena host", host_slot(args.port))  # holds the lock
        config = build_config(args, password, state)
    except ValueError as exc:
        print(f"cartagena host: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the state dir cannot be made or used (a file, no permission)
        print(f"cartagena host: {exc}", file=sys.stderr)
        return 1
    if state.notice and args.headless:  # with a client, its status area says it (no-journal)
        print(state.notice, file=sys.stderr)
    if args.headless:
        _start_logging(args.log_format)
    tune_allocator()  # a host runs for days: glibc's heaps kept small (host/sweeper.py)
    try:
        service = HostService(config, reactor)
    except OSError as exc:  # the state dir cannot be used (no permission)
        print("cartagena host: " + _("cannot use the state dir {folder}: {error}").format(
            folder=config.state_dir, error=exc), file=sys.stderr)
        return 1
    from twisted.internet.error import CannotListenError

    from cartagena_net.portable.signals import stop_on_signals

    # Ctrl+C, SIGTERM and (Windows) Ctrl+Break stop the reactor, from here on: its
    # shutdown triggers flush the journals, keep the stopped games' records and tell
    # the clients (stop_all below).
    stop_on_signals(reactor)
    try:
        service.startService()
    except (CannotListenError, OSError) as exc:
        print("cartagena host: " + _("cannot start: {error}").format(
            error=listen_failure(exc, config)), file=sys.stderr)
        return 1
    if service.archived is not None:
        folder, count = service.archived
        print("cartagena host: " + ngettext(
            "{n} journal file of an earlier run moved to {folder} (to restore those tables, "
            "move them back and start with --resume)",
            "{n} journal files of an earlier run moved to {folder} (to restore those tables, "
            "move them back and start with --resume)", count).format(n=count, folder=folder),
              file=sys.stderr)
    if not any(t.creator is None for t in service.lobby.tables.values()):
        # The host's own table (restored ones are kept; an empty one is not restored).
        try:
            tid = service.create_table(
                args.table_name or _("{name}'s table").format(name=config.name), args.rules,
                options, bots=args.bots, bot_kind=bot_kind, hints=args.hints,
                player_chances=args.player_chances,
            )
            table = service.lobby.tables[tid]
            if all(seat.bot_kind for seat in table.seats):
                table.start(None)  # a table of bots only plays at once (spectators watch)
        except HostError as exc:
            from client.plain import reason

            print("cartagena host: " + (reason(exc.why, exc.fields) or exc.message),
                  file=sys.stderr)
            service.stopService()
            return 2
    print("cartagena host: " + _("listening on port {port}").format(port=service.port),
          flush=True)
    if config.state_dir is not None:
        print("cartagena host: " + _("journal in {folder}").format(folder=config.state_dir),
              flush=True)
    web_url = service.web.url if service.web is not None else None
    if web_url:
        print("cartagena host: " + _("web view at {url}").format(url=web_url), flush=True)
        join_url = web_url + "play"
        print("cartagena host: " + _("guests play from a phone or any browser at {url}").format(
            url=join_url), flush=True)
        if args.headless and sys.stdout.isatty():
            from client.qr import qr_ansi_lines

            print("\n".join(qr_ansi_lines(join_url)), flush=True)
    for line in join_lines(args.bind, service.port):
        print(f"cartagena host: {line}", flush=True)

    services: list[Any] = [service]
    if args.discovery == "on":
        from cartagena_net.discovery import DiscoveryResponder

        responder = DiscoveryResponder(reactor, service.summary, service.port, interface=args.bind)
        responder.startService()
        services.insert(0, responder)
        if not args.no_mdns:
            from cartagena_net.discovery.browser import summary_counts
            from cartagena_net.discovery.mdns import REFRESH, MdnsAdvertiser
            from protocol.versions import PROTOCOL_VERSIONS

            advertiser = MdnsAdvertiser(config.name, service.host_id, service.port,
                                        max(PROTOCOL_VERSIONS), bind=args.bind,
                                        counts=summary_counts(service.summary()))
            advertiser.start()
            from twisted.internet import task

            # The TXT record's summary of the tables follows them (a guest who finds
            # this host by mDNS alone sees how many tables and free seats it has).
            refresh = task.LoopingCall(
                lambda: advertiser.refresh(summary_counts(service.summary())))
            refresh.clock = reactor
            refresh.start(REFRESH, now=False)
            reactor.addSystemEventTrigger("before", "shutdown", refresh.stop)
            reactor.addSystemEventTrigger("before", "shutdown", advertiser.stop)

    def stop_all() -> Any:
        from twisted.internet import defer

        return defer.gatherResults([defer.maybeDeferred(s.stopService) for s in services])

    reactor.addSystemEventTrigger("before", "shutdown", stop_all)
    status = {"code": 0}
    if not args.headless:
        from client.app import run_client

        def client_done(result: Any) -> None:
            if reactor.running:
                reactor.stop()

        def client_failed(failure: Any) -> None:
            print("cartagena host: " + _("client stopped: {error}").format(
                error=failure.getErrorMessage()), file=sys.stderr)
            status["code"] = 1
            client_done(None)


        from cartagena_net.cli.session import default_name, screen_reader

        name = (default_name() or config.name or "host")[:32]
        reader = screen_reader(args)
        local = args.bind if args.bind not in ("", "0.0.0.0", "::") else "127.0.0.1"
        label = friends_address(args.bind, service.port)
        first = min(service.lobby.tables)
        token = own_resumed_token(service)

        def open_client() -> None:
            d = run_client(reactor, host=local, port=service.port, name=name, spectate=False,
                           table=None if token else first, token=token,
                           password=config.password, hosting=True,
                           host_label=label,
                           ascii_only=args.ascii, bell=not args.no_bell,
                           title=not args.no_title, web_url=web_url,
                           host_trouble=service.trouble,
                           join_url=web_url + "play" if web_url else None,
                           kept=state.directory is not None,
                           screen_reader=reader)
            d.addCallbacks(client_done, client_failed)

        reactor.callWhenRunning(open_client)
    reactor.run()
    return status["code"]
