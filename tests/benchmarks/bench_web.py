"""One action delivered to N web watchers (Server-Sent Events), N = 10, 100, 1000.

This process runs the host (with its web view) on the asyncio reactor; a child process
holds 4 players (game protocol) and N watchers of ``/table/1/events``, each a raw
non-blocking socket, so the host's time is measured on its own. For each N the child
plays REPS actions and times from sending the action until the last of the N watchers
has received the resulting ``state`` event. The host's CPU time over those actions
(/proc/PID/schedstat: the host runs on one thread), divided by their number, is the CPU
per update.

Prints one JSON line. Target: under 100 ms at N = 1000.
"""
from __future__ import annotations

import json
import os
import re
import selectors
import socket
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.bench_fanout import Clients
from tests.benchmarks.harness import serve_until_child_exits

SIZES = tuple(int(x) for x in os.environ.get("BENCH_SIZES", "10,100,1000").split(","))
REPS = int(os.environ.get("BENCH_REPS", "15"))
STATE_ID = re.compile(rb"id: (\d+)\nevent: state\n")


class Watcher:
    """A raw SSE reader: remembers the newest ``state`` id and when it arrived."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /table/1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        self.sock.setblocking(False)
        self.tail = b""
        self.seq = 0
        self.seq_at = 0.0
        self.started = False

    def read(self, now: float) -> None:
        while True:
            try:
                chunk = self.sock.recv(1 << 16)
            except BlockingIOError:
                break
            if not chunk:
                raise ConnectionError("a watcher was closed by the host")
            data = self.tail + chunk
            if not self.started and b"\r\n\r\n" in data:
                self.started = data.startswith(b"HTTP/1.1 200")
                if not self.started:
                    raise RuntimeError(f"watcher refused: {data[:80]!r}")
            for m in STATE_ID.finditer(data):
                self.seq, self.seq_at = max(self.seq, int(m.group(1))), now
            self.tail = data[-40:]


def host_cpu() -> float:
    """The parent (host) process's CPU seconds so far (its one thread, in nanoseconds)."""
    return int(Path(f"/proc/{os.getppid()}/schedstat").read_text().split()[0]) / 1e9


def clients_main(port: int, web_port: int) -> None:
    clients = Clients(port)
    pump = clients.pump

    def register(w: Watcher) -> None:
        clients.sel.register(w.sock, selectors.EVENT_READ, w)
        clients.peers.append(w)

    players = [clients.add(f"p{i}", False) for i in range(4)]
    pump(lambda: all(p.welcomed for p in players))
    for p in players:
        p.send({"type": "join_table", "table": 1, "spectate": False})
        pump(lambda p=p: p.joined)
    owner = min(players, key=lambda p: p.seat)
    owner.send({"type": "start", "table": 1})
    pump(lambda: all(p.state is not None for p in players))
    results = {}
    watchers: list[Watcher] = []
    for n in SIZES:
        while len(watchers) < n:
            batch = [Watcher(web_port) for _ in range(min(50, n - len(watchers)))]
            for w in batch:
                register(w)
            watchers += batch
            pump(lambda b=batch: all(w.started and w.seq for w in b))
        pump(lambda: True, quiet=0.3)
        times = []
        cpu0 = host_cpu()
        updates = 0
        for _ in range(REPS):
            seq = max(p.state["seq"] for p in players)
            if players[0].state["view"]["outcome"] is not None:
                owner.send({"type": "start", "table": 1})
                pump(lambda s=seq, ws=watchers: all(w.seq > s for w in ws), quiet=0.2)
                updates += 1
                continue
            actor = next(p for p in players if p.state["seq"] == seq and p.state["legal"])
            t0 = time.perf_counter()
            actor.send({"type": "action", "table": 1, "seq": seq,
                        "action": actor.state["legal"][0]})
            pump(lambda s=seq, ws=watchers: all(w.seq > s for w in ws)
                 and all(p.state["seq"] > s for p in players))
            times.append(max(w.seq_at for w in watchers) - t0)
            updates += 1
            pump(lambda: True, quiet=0.05)
        cpu = host_cpu() - cpu0
        results[str(n)] = {
            "median_ms": round(statistics.median(times) * 1e3, 2),
            "max_ms": round(max(times) * 1e3, 2),
            "host_cpu_ms_per_update": round(cpu / max(1, updates) * 1e3, 2),
            "samples": len(times),
        }
    last = results[str(SIZES[-1])]["median_ms"]
    print(json.dumps({"bench": "web", "players": 4, "watchers": results,
                      "target_ms": 100, "target_met": last < 100}), flush=True)


def host_main() -> None:
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.host import HostConfig, HostService

    config = HostConfig(port=0, bind="127.0.0.1", name="bench", bot_delay=0.0, web_port=0,
                        max_connections=4000, max_per_address=4000, rate=1e6, burst=1e6)
    host = HostService(config, reactor)
    host.startService()
    host.create_table("web", "jamaica", {"players": 4})
    raise SystemExit(serve_until_child_exits(reactor, __file__, "--clients", host.port,
                                             host.web.port))


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--clients":
        clients_main(int(sys.argv[2]), int(sys.argv[3]))
    else:
        host_main()
