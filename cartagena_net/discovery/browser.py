"""The client side of discovery: probe, listen to announcements, keep a live list."""
from __future__ import annotations

import ipaddress
import os
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from twisted.internet import defer, task
from twisted.internet import protocol as tprotocol
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol import discovery as wire

from .interfaces import LIMITED_BROADCAST, broadcast_targets
from .responder import DISCOVERY_PORT
from .sockets import listen_udp

Target = str | tuple[str, int]
RECENT_NONCES = 8  # replies must echo one of our latest probes' nonces
MDNS = "mdns"  # the instance of a host known only by mDNS


@dataclass(frozen=True)
class HostInfo:
    """A host heard on the network. ``address`` is the datagram's source address."""

    host_id: str
    instance: str
    name: str
    address: str
    port: int
    version: int
    tables: Any
    # A host known by mDNS alone: its TXT record's summary (None: an older host's record
    # has none, and its tables are unknown until the lobby is joined).
    table_count: int | None = None
    free_count: int | None = None

    @property
    def tables_known(self) -> bool:
        """Whether the number of tables is known (heard by UDP, or an mDNS summary)."""
        return self.instance != MDNS or self.table_count is not None

    @property
    def n_tables(self) -> int | None:
        """How many tables the host has; None when unknown."""
        return len(self.tables or ()) if self.instance != MDNS else self.table_count

    @property
    def free_seats(self) -> int | None:
        """Free seats over all tables, as far as the table summary tells (None: unknown,
        a host known by mDNS alone whose record says nothing of its tables)."""
        if self.instance == MDNS:
            return self.free_count
        return sum(table_free_seats(t) for t in self.tables or () if isinstance(t, dict))

    def tables_text(self) -> str:
        """``2 tables, 3 free seats``, or that they are unknown."""
        n, free = self.n_tables, self.free_seats
        if n is None or free is None:
            return "tables unknown (found by mDNS: join to see them)"
        return f"{n} table{'s' if n != 1 else ''}, {free} free seat{'s' if free != 1 else ''}"


def table_free_seats(table: dict[str, Any]) -> int:
    """Free seats of one table summary (``free`` when given, else its open seats)."""
    if isinstance(table.get("free"), int):
        return max(0, table["free"])
    seats = table.get("seats")
    if isinstance(seats, list):
        return sum(1 for s in seats if isinstance(s, dict) and not s.get("name") and not s.get("bot"))
    return 0


def summary_counts(summary: dict[str, Any]) -> tuple[int, int]:
    """(tables, free seats) of a host's discovery summary (what mDNS advertises)."""
    tables = [t for t in summary.get("tables") or () if isinstance(t, dict)]
    return len(tables), sum(table_free_seats(t) for t in tables)


def parse_target(target: Target, default_port: int = DISCOVERY_PORT) -> tuple[str, int]:
    """``"addr"``, ``"addr:port"`` or ``(addr, port)`` -> ``(addr, port)``; ValueError if bad."""
    if isinstance(target, tuple):
        host, port = target
    else:
        text = target.strip()
        if text.count(":") == 1:
            host, port_text = text.split(":")
            if not (port_text.isascii() and port_text.isdigit()):
                raise ValueError(f"bad port in {target!r}")
            port = int(port_text)
        else:
            host, port = text, default_port
    if not host:
        raise ValueError(f"no address in {target!r}")
    if not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {target!r}")
    return host, int(port)


class _BrowserProtocol(tprotocol.DatagramProtocol):
    def __init__(self, owner: DiscoveryBrowser) -> None:
        self.owner = owner

    def datagramReceived(self, datagram: bytes, addr: tuple[str, int]) -> None:
        self.owner.datagram_received(datagram, addr)


class DiscoveryBrowser:
    """Keeps a live list of hosts; calls ``on_change(hosts)`` whenever it changes.

    Listens for announcements on ``udp_port`` (bound to each broadcast address, so
    unicast probes meant for a host on this machine are never taken), probes by
    broadcast when ``broadcast`` is true and by unicast to each of ``targets``
    (``"addr"``, ``"addr:port"`` or ``(addr, port)``) every ``probe_interval``
    seconds, from an ephemeral port where the replies arrive. A host not heard for
    ``expiry`` seconds vanishes. Hosts are keyed by (host id, instance).
    """

    log = Logger()

    def __init__(
        self,
        reactor: Any,
        on_change: Callable[[list[HostInfo]], None],
        udp_port: int = DISCOVERY_PORT,
        targets: Iterable[Target] = (),
        broadcast: bool = True,
        expiry: float = 6.0,
        probe_interval: float = 2.0,
        mdns: bool | None = None,
    ) -> None:
        self.reactor = reactor
        self.on_change = on_change
        self.udp_port = udp_port
        self.targets = [parse_target(t, udp_port) for t in targets]
        self.broadcast = broadcast
        self.expiry = expiry
        self.probe_interval = probe_interval
        # mDNS (``_cartagena._tcp.local.``) as well, by default where broadcast is on
        self.mdns = broadcast if mdns is None else mdns
        self._mdns: Any = None
        self._mdns_names: dict[str, str] = {}  # mDNS service name -> host id
        self.hosts: dict[tuple[str, str], HostInfo] = {}
        self.last_seen: dict[tuple[str, str], float] = {}
        self.probes_sent = 0
        self.send_errors: dict[int, str] = {}  # errno -> a destination that got it
        self.running = False
        self._probe_port: Any = None
        self._listen_ports: list[Any] = []
        self._probe_loop: task.LoopingCall | None = None
        self._expire_loop: task.LoopingCall | None = None
        self._resolved: list[tuple[str, int]] = []
        self._nonces: deque[bytes] = deque(maxlen=RECENT_NONCES)

    # -- lifecycle --------------------------------------------------------

    def start(self) -> defer.Deferred:
        """Bind the sockets, then probe; fires once the first probes are sent
        (fails with the OSError when the probe socket cannot be bound)."""
        self.running = True
        proto = _BrowserProtocol(self)
        try:
            self._probe_port = listen_udp(
                self.reactor, proto, "0.0.0.0", 0, broadcast=self.broadcast, reuse=False
            )
        except OSError as exc:
            self.running = False
            return defer.fail(exc)
        if self.broadcast:
            for address in broadcast_targets():
                try:
                    port = listen_udp(self.reactor, _BrowserProtocol(self), address, self.udp_port)
                except OSError as exc:
                    self.log.debug("cannot listen on {a}: {e}", a=address, e=exc)
                    continue
                self._listen_ports.append(port)
        if self.mdns:
            from .mdns import MdnsBrowser

            self._mdns = MdnsBrowser(self.reactor, self.mdns_found, self.mdns_lost)
            self._mdns.start()
        self._expire_loop = task.LoopingCall(self.expire)
        self._expire_loop.clock = self.reactor
        self._expire_loop.start(max(0.1, self.expiry / 4), now=False)
        d = self._resolve_targets()

        def begin(_: Any) -> None:
            if not self.running:
                return
            self._probe_loop = task.LoopingCall(self.probe)
            self._probe_loop.clock = self.reactor
            self._probe_loop.start(self.probe_interval, now=True)

        d.addCallback(begin)
        return d

    def stop(self) -> defer.Deferred:
        """Close the sockets and stop the timers."""
        self.running = False
        if self._mdns is not None:
            self._mdns.stop()
            self._mdns = None
        for loop in (self._probe_loop, self._expire_loop):
            if loop is not None and loop.running:
                loop.stop()
        self._probe_loop = self._expire_loop = None
        ports = [p for p in [self._probe_port, *self._listen_ports] if p is not None]
        self._probe_port, self._listen_ports = None, []
        return defer.gatherResults(
            [defer.maybeDeferred(p.stopListening) for p in ports], consumeErrors=True
        )

    def _resolve_targets(self) -> defer.Deferred:
        results: list[defer.Deferred] = []
        for host, port in self.targets:
            try:
                ipaddress.IPv4Address(host)
            except ValueError:
                d = self.reactor.resolve(host)
                d.addCallback(lambda ip, port=port: (ip, port))
                d.addErrback(self._unresolved, host)
                results.append(d)
            else:
                results.append(defer.succeed((host, port)))

        def keep(found: list[Any]) -> None:  # unresolved names are left out
            self._resolved = [t for t in found if isinstance(t, tuple)]

        return defer.gatherResults(results).addCallback(keep)

    def _unresolved(self, failure: Failure, host: str) -> None:
        self.log.warn(  # noqa: G010 - twisted's Logger has warn(), not warning()
            "cannot resolve {host}: {e}", host=host, e=failure.getErrorMessage()
        )

    # -- probing ----------------------------------------------------------

    def probe(self) -> None:
        """Send one probe to every target (and every broadcast address if allowed)."""
        if self._probe_port is None:
            return
        probe = wire.Probe(nonce=os.urandom(wire.NONCE_SIZE))
        self._nonces.append(probe.nonce)
        data = probe.encode()
        destinations = list(self._resolved)
        if self.broadcast:
            for address in broadcast_targets():
                destinations.append((address, self.udp_port))
        for dest in destinations:
            try:
                self._probe_port.write(data, dest)
                self.probes_sent += 1
            except OSError as exc:
                # kept to explain an empty list (discovery.explain); the limited
                # broadcast fails on some systems where the subnets' broadcasts work
                if exc.errno is not None and dest[0] != LIMITED_BROADCAST:
                    self.send_errors.setdefault(exc.errno, f"{dest[0]}:{dest[1]}")
                self.log.debug("probe to {d} failed: {e}", d=dest, e=exc)

    def datagram_received(self, datagram: bytes, addr: tuple[str, int]) -> None:
        msg = wire.decode_datagram(datagram)
        if not isinstance(msg, wire.Announce):
            return
        if msg.nonce is not None and msg.nonce not in self._nonces:
            return  # a reply to somebody else's probe (or a stale one)
        info = HostInfo(
            host_id=msg.host_id,
            instance=msg.instance,
            name=msg.name,
            address=addr[0],
            port=msg.port,
            version=msg.version,
            tables=msg.tables,
        )
        key = (info.host_id, info.instance)
        self.last_seen[key] = self.reactor.seconds()
        if self.hosts.pop((info.host_id, MDNS), None) is not None:
            self._changed()  # heard by UDP too: its announcement replaces the mDNS entry
        old = self.hosts.get(key)
        if old is not None and old.address != info.address:
            info = HostInfo(**{**info.__dict__, "address": old.address})
        if old != info:
            self.hosts[key] = info
            self._changed()

    def mdns_found(self, record: dict[str, Any]) -> None:
        """A host resolved by mDNS; listed unless UDP discovery already heard it (whose
        announcement tells its tables). Its TXT record's summary says how many tables and
        free seats it has (``tables``, ``free``). Kept until the browser stops; an update
        of its record (the summary changed) replaces it."""
        if not self.running or any(k[0] == record["host_id"] and k[1] != MDNS
                                   for k in self.hosts):
            return
        info = HostInfo(host_id=record["host_id"], instance=MDNS, name=record["name"],
                        address=record["address"], port=record["port"],
                        version=record["version"], tables=(),
                        table_count=record.get("tables"), free_count=record.get("free"))
        self._mdns_names[record["service"]] = info.host_id
        if self.hosts.get((info.host_id, MDNS)) != info:
            self.hosts[(info.host_id, MDNS)] = info
            self._changed()

    def mdns_lost(self, service: str) -> None:
        """A host known by mDNS said goodbye."""
        host_id = self._mdns_names.pop(service, None)
        if host_id is not None and self.hosts.pop((host_id, MDNS), None) is not None:
            self._changed()

    def expire(self) -> None:
        """Drop the hosts not heard for ``expiry`` seconds."""
        now = self.reactor.seconds()
        gone = [k for k, t in self.last_seen.items() if now - t > self.expiry]
        for key in gone:
            del self.last_seen[key]
            self.hosts.pop(key, None)
        if gone:
            self._changed()

    def host_list(self) -> list[HostInfo]:
        """The hosts alive now, by name then address."""
        return sorted(self.hosts.values(), key=lambda h: (h.name, h.address, h.port, h.host_id))

    def _changed(self) -> None:
        self.on_change(self.host_list())


def find_hosts(
    reactor: Any,
    timeout: float = 2.0,
    targets: Iterable[Target] = (),
    broadcast: bool = True,
    udp_port: int = DISCOVERY_PORT,
    send_errors: dict[int, str] | None = None,
    mdns: bool | None = None,
) -> defer.Deferred:
    """Browse for ``timeout`` seconds; fires with the list of ``HostInfo`` found.
    ``send_errors``, if given, receives the errors the probes' sends got."""
    browser = DiscoveryBrowser(
        reactor,
        lambda hosts: None,
        udp_port=udp_port,
        targets=targets,
        broadcast=broadcast,
        expiry=max(timeout * 2, 6.0),
        probe_interval=max(0.25, min(1.0, timeout / 2)),
        mdns=mdns,
    )
    result: defer.Deferred = defer.Deferred()

    def finish() -> None:
        hosts = browser.host_list()
        if send_errors is not None:
            send_errors.update(browser.send_errors)
        browser.stop().addBoth(lambda _: result.callback(hosts))

    started = browser.start()
    if started.called and isinstance(started.result, Failure):
        return started
    started.addErrback(lambda f: None)
    reactor.callLater(timeout, finish)
    return result
