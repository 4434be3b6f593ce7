"""The second way to find a host: multicast DNS (``_cartagena._tcp.local.``).

Some networks filter UDP broadcast but let mDNS through (it is what printers and
speakers use), and ``dns-sd -B _cartagena._tcp`` or ``avahi-browse _cartagena._tcp``
then show our hosts too. python-zeroconf does the work; it runs its own threads and
its calls may block (a registration probes the network for a second or two), so
everything here runs in a thread of its own and hands results to the reactor with
``callFromThread``.

Only the addresses the UDP discovery uses are used (this machine's LAN addresses, or
the one the host is bound to); with none, mDNS stays off. The TXT record carries the
host id (``id``), its name (``name``), protocol version (``v``) and a summary of its
tables: how many (``tables``) and their free seats (``free``), updated when they change
(at most every :data:`REFRESH` seconds), so that a host found by mDNS alone is listed
with its tables, not as an empty host. The tables themselves are told by the UDP
announcement or the lobby.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

SERVICE = "_cartagena._tcp.local."
REFRESH = 5.0  # seconds between checks of the tables' summary (cartagena host)
log = Logger(namespace="cartagena.discovery.mdns")


def instance_name(name: str, host_id: str) -> str:
    """A DNS-SD instance label from a host's name (ASCII-safe, unique by its id)."""
    label = re.sub(r"[^A-Za-z0-9 _-]+", "", name).strip()[:40] or "cartagena"
    return f"{label} {host_id[:6]}.{SERVICE}"


def txt_properties(host_id: str, name: str, version: int,
                   counts: tuple[int, int] | None) -> dict[str, str]:
    """The TXT record of a host (see the module's doc)."""
    props = {"id": host_id, "name": name[:64], "v": str(version)}
    if counts is not None:
        props["tables"], props["free"] = str(counts[0]), str(counts[1])
    return props


def _count(text: str | None) -> int | None:
    """A TXT record's count: ASCII digits only (at most 6), else unknown."""
    if text and text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return None


def _addresses(bind: str | None) -> list[str]:
    from .interfaces import lan_addresses

    if bind and bind not in ("0.0.0.0", "::"):
        return [bind]
    return lan_addresses()


class MdnsAdvertiser:
    """Advertises one host while it runs; ``start`` and ``stop`` never block."""

    def __init__(self, name: str, host_id: str, port: int, version: int,
                 bind: str | None = None, counts: tuple[int, int] | None = None) -> None:
        self.name, self.host_id, self.port, self.version = name, host_id, port, version
        self.bind = bind
        self.counts = counts  # (tables, free seats) advertised; see refresh()
        self.updates = 0  # TXT records re-sent with a new summary (for tests and logs)
        self._zc: Any = None
        self._info: Any = None
        self._lock = threading.Lock()
        self.registered = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._register, name="mdns-advertise", daemon=True).start()

    def _register(self) -> None:
        addresses = _addresses(self.bind)
        if not addresses:
            log.info("mDNS: no LAN address to advertise on")
            return
        try:
            import socket

            from zeroconf import ServiceInfo, Zeroconf

            info = ServiceInfo(
                SERVICE, instance_name(self.name, self.host_id),
                addresses=[socket.inet_aton(a) for a in addresses], port=self.port,
                properties=txt_properties(self.host_id, self.name, self.version, self.counts))
            zc = Zeroconf(interfaces=addresses)
            with self._lock:
                self._zc, self._info = zc, info
            zc.register_service(info, allow_name_change=True)
            self.registered.set()
            log.info("mDNS: advertised as {name} on {addrs}", name=info.name,
                     addrs=", ".join(addresses))
        except Exception as exc:  # noqa: BLE001 - mDNS is a second path: say why, go on
            log.warn(  # noqa: G010 - twisted's Logger has warn()
                "mDNS: cannot advertise this host ({err}); UDP discovery still works",
                err=str(exc) or type(exc).__name__)

    def refresh(self, counts: tuple[int, int]) -> None:
        """The tables' summary now (from the reactor): the TXT record is sent again, in a
        thread, when it changed."""
        if counts == self.counts:
            return
        self.counts = counts
        if self.registered.is_set():
            threading.Thread(target=self._update, name="mdns-update", daemon=True).start()

    def _update(self) -> None:
        with self._lock:
            zc, info = self._zc, self._info
        if zc is None or info is None:
            return
        try:
            from zeroconf import ServiceInfo

            new = ServiceInfo(
                SERVICE, info.name, addresses=info.addresses, port=self.port,
                properties=txt_properties(self.host_id, self.name, self.version,
                                          self.counts))
            zc.update_service(new)  # (a closed Zeroconf raises: the host is stopping)
        except Exception as exc:  # noqa: BLE001 - a second path: say why, go on
            log.info("mDNS: cannot update the tables' summary ({err})",
                     err=str(exc) or type(exc).__name__)
            return
        with self._lock:
            if self._zc is zc:
                self._info = new
        self.updates += 1

    def stop(self) -> None:
        with self._lock:
            zc, info, self._zc, self._info = self._zc, self._info, None, None
        if zc is None:
            return

        def close() -> None:
            try:
                if info is not None and self.registered.is_set():
                    zc.unregister_service(info)
            finally:
                zc.close()
        threading.Thread(target=close, name="mdns-close", daemon=True).start()


class MdnsBrowser:
    """Browses ``_cartagena._tcp.local.``; ``found(record)`` is called on the reactor
    for each host resolved: ``{"service", "host_id", "name", "address", "port",
    "version", "tables", "free"}`` (the last two None where the record has no summary),
    and ``lost(service)`` when one says goodbye."""

    def __init__(self, reactor: Any, found: Callable[[dict[str, Any]], None],
                 lost: Callable[[str], None] | None = None) -> None:
        self.reactor = reactor
        self.found = found
        self.lost = lost  # called with the service name a host said goodbye with
        self._zc: Any = None
        self._browser: Any = None
        self._stopped = False

    def start(self) -> None:
        threading.Thread(target=self._browse, name="mdns-browse", daemon=True).start()

    def _browse(self) -> None:
        addresses = _addresses(None)
        if not addresses or self._stopped:
            return
        try:
            from zeroconf import ServiceBrowser, ServiceStateChange, Zeroconf

            zc = Zeroconf(interfaces=addresses)

            def changed(zeroconf: Any, service_type: str, name: str,
                        state_change: Any) -> None:
                if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
                    threading.Thread(target=self._resolve, args=(zc, service_type, name),
                                     daemon=True).start()
                elif state_change is ServiceStateChange.Removed and self.lost is not None:
                    self.reactor.callFromThread(self.lost, name)

            self._zc = zc
            self._browser = ServiceBrowser(zc, SERVICE, handlers=[changed])
            if self._stopped:
                self.stop()
        except Exception as exc:  # noqa: BLE001 - a second path: the first still works
            log.info("mDNS: cannot browse ({err})", err=str(exc) or type(exc).__name__)

    def _resolve(self, zc: Any, service_type: str, name: str) -> None:
        try:
            info = zc.get_service_info(service_type, name, timeout=3000)
        except Exception:  # noqa: BLE001 - closed meanwhile, or an odd answer
            return
        if info is None or self._stopped:
            return
        props = {(k.decode("utf-8", "replace") if isinstance(k, bytes) else str(k)):
                 (v.decode("utf-8", "replace") if isinstance(v, bytes) else "")
                 for k, v in (info.properties or {}).items()}
        addresses = info.parsed_addresses()
        version = props.get("v", "1")
        if not addresses or not props.get("id") or not version.isascii() \
                or not version.isdigit():
            return
        record = {"service": name, "host_id": props["id"][:64],
                  "name": props.get("name", "")[:64],
                  "address": addresses[0], "port": int(info.port or 0),
                  "version": int(version[:4]),
                  "tables": _count(props.get("tables")), "free": _count(props.get("free"))}
        if record["tables"] is None or record["free"] is None:
            record["tables"] = record["free"] = None
        if 0 < record["port"] < 65536:
            self.reactor.callFromThread(self.found, record)

    def stop(self) -> None:
        self._stopped = True
        zc, self._zc = self._zc, None
        if zc is not None:
            threading.Thread(target=zc.close, name="mdns-close", daemon=True).start()
