"""`cartagena list`: the hosts found on the LAN by UDP discovery."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cartagena_net.i18n import N_, _

HELP = N_("list the hosts found on the LAN (UDP discovery)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--timeout", type=float, default=2.0, metavar="S",
                        help=_("seconds to listen for replies (default 2)"))
    parser.add_argument("--to", action="append", default=[], metavar=_("ADDRESS"),
                        help=_("also probe this address (ADDR or ADDR:UDPPORT) by unicast; "
                        "repeatable (finds a host on 127.0.0.1, or across routers)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON array"))
    parser.add_argument("--no-broadcast", action="store_true",
                        help=_("do not broadcast probes (only --to addresses)"))
    parser.add_argument("--udp-port", type=int, default=41672, help=_("discovery UDP port"))
    parser.add_argument("--no-mdns", action="store_true",
                        help=_("do not also search by multicast DNS (_cartagena._tcp)"))


def host_record(host: Any) -> dict[str, Any]:
    """A found host as plain JSON data."""
    return {
        "name": host.name,
        "address": host.address,
        "port": host.port,
        "version": host.version,
        "host_id": host.host_id,
        "instance": host.instance,
        "free_seats": host.free_seats,  # None: unknown (found by mDNS alone)
        "table_count": host.n_tables,  # None: unknown
        "tables": [dict(t) for t in host.tables],
    }


TABLE_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}


def table_status(status: Any) -> str:
    """A table's status as the host names it, in the reader's language."""
    text = str(status or "")
    return _(TABLE_STATUS[text]) if text in TABLE_STATUS else text


def format_hosts(hosts: list[Any]) -> str:
    """Human-readable lines: one per host, one per table under it."""
    if not hosts:
        return _("no hosts found")
    lines = []
    for h in hosts:
        lines.append(f"{h.name}  {h.address}:{h.port}  {h.tables_text()}  "
                     + _("protocol v{n}").format(n=h.version))
        for t in h.tables:
            lock = "  " + _("(password)") if t.get("password") else ""
            lines.append("    " + _("table {n}: {name}  {rules}  {status}  {free}/{seats} free")
                         .format(n=t.get("id"), name=t.get("name"), rules=t.get("rules"),
                                 status=table_status(t.get("status")), free=t.get("free", 0),
                                 seats=t.get("seats", 0)) + lock)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from cartagena_net.discovery import parse_target

    try:
        targets = [parse_target(t, args.udp_port) for t in args.to]
    except ValueError as exc:
        print(f"cartagena list: {exc}", file=sys.stderr)
        return 2
    if args.timeout <= 0 or args.timeout > 600:
        print("cartagena list: " + _("--timeout must be between 0 and 600 seconds"),
              file=sys.stderr)
        return 2
    if args.no_broadcast and not targets:
        print("cartagena list: " + _("--no-broadcast needs at least one --to ADDRESS"),
              file=sys.stderr)
        return 2

    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.discovery import find_hosts

    outcome: dict[str, Any] = {}
    send_errors: dict[int, str] = {}

    def start() -> None:
        d = find_hosts(reactor, timeout=args.timeout, targets=targets,
                       broadcast=not args.no_broadcast, udp_port=args.udp_port,
                       send_errors=send_errors,
                       mdns=False if args.no_mdns else None)
        d.addCallbacks(lambda hosts: outcome.update(hosts=hosts),
                       lambda f: outcome.update(error=f.getErrorMessage()))
        d.addBoth(lambda _: reactor.stop())

    reactor.callWhenRunning(start)
    reactor.run()
    if "error" in outcome:
        print("cartagena list: " + _("discovery failed: {error}").format(
            error=outcome["error"]), file=sys.stderr)
        return 1
    hosts = outcome.get("hosts", [])
    if args.json:
        print(json.dumps([host_record(h) for h in hosts], ensure_ascii=False))
    else:
        print(format_hosts(hosts))
        if not hosts:
            from cartagena_net.discovery.explain import explain, seen_now

            print("\n".join(explain(seen_now(sys.platform, send_errors,
                                              not args.no_broadcast, args.udp_port))))
    return 0
