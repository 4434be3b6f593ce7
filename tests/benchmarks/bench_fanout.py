"""One action delivered to 4 players and N spectators (N = 10, 100, 1000).

This process runs the host on the asyncio reactor; a child process holds every client
as a raw non-blocking socket (so the host's time is measured on its own core). For
each N the child plays REPS actions and times from sending the action until the last
of the 4 + N sockets has received the resulting ``state`` frame.

Prints one JSON line with, per N, the median and worst time (ms). Target: under 50 ms
at N = 1000.
"""
from __future__ import annotations

import json
import os
import selectors
import socket
import statistics
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.harness import serve_until_child_exits
from tests.benchmarks.rawframes import read_frames

SIZES = tuple(int(x) for x in os.environ.get("BENCH_SIZES", "10,100,1000").split(","))
REPS = int(os.environ.get("BENCH_REPS", "15"))


class Peer:
    """One raw client socket with a frame reader."""

    def __init__(self, port: int, name: str, spectate: bool) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.name = name
        self.spectate = spectate
        self.buf = bytearray()
        self.seat: int | None = None
        self.welcomed = self.joined = False
        self.state: dict | None = None
        self.state_at = 0.0
        self.send({"type": "hello", "versions": [1], "name": name,
                   "role": "spectator" if spectate else "player"})

    def send(self, d: dict) -> None:
        body = msgpack.packb(d)
        self.sock.setblocking(True)
        self.sock.sendall(len(body).to_bytes(4, "big") + body)
        self.sock.setblocking(False)

    def read(self, now: float) -> None:
        for msg in read_frames(self.sock, self.buf, self.name):
            self.handle(msg, now)

    def handle(self, msg: dict, now: float) -> None:
        kind = msg["type"]
        if kind == "welcome":
            self.welcomed = True
        elif kind == "joined":
            self.joined, self.seat = True, msg["seat"]
        elif kind == "state":
            self.state, self.state_at = msg, now
        elif kind == "ping":
            self.send({"type": "pong", "nonce": msg["nonce"]})
        elif kind == "error":
            raise RuntimeError(f"{self.name}: {msg}")


class Clients:
    def __init__(self, port: int) -> None:
        self.port = port
        self.sel = selectors.DefaultSelector()
        self.peers: list[Peer] = []

    def add(self, name: str, spectate: bool) -> Peer:
        p = Peer(self.port, name, spectate)
        self.sel.register(p.sock, selectors.EVENT_READ, p)
        self.peers.append(p)
        return p

    def pump(self, done, timeout: float = 60.0, quiet: float | None = None) -> None:
        deadline = time.perf_counter() + timeout
        last = time.perf_counter()
        while True:
            if quiet is None and done():
                return
            now = time.perf_counter()
            if now > deadline:
                raise TimeoutError("clients waited too long")
            events = self.sel.select(0.05)
            now = time.perf_counter()
            for key, _ in events:
                key.data.read(now)
            if events:
                last = now
            elif quiet is not None and now - last >= quiet and done():
                return


def clients_main(port: int) -> None:
    c = Clients(port)
    players = [c.add(f"p{i}", False) for i in range(4)]
    c.pump(lambda: all(p.welcomed for p in players))
    for p in players:
        p.send({"type": "join_table", "table": 1, "spectate": False})
        c.pump(lambda p=p: p.joined)
    owner = min(players, key=lambda p: p.seat)
    owner.send({"type": "start", "table": 1})
    c.pump(lambda: all(p.state is not None for p in players))
    results = {}
    spectators: list[Peer] = []
    for n in SIZES:
        new = [c.add(f"s{i}", True) for i in range(len(spectators), n)]
        c.pump(lambda new=new: all(s.welcomed for s in new))
        for s in new:
            s.send({"type": "join_table", "table": 1, "spectate": True})
        spectators += new
        c.pump(lambda ss=spectators: all(s.joined and s.state is not None for s in ss),
               quiet=0.3)
        times = []
        for _ in range(REPS):
            seq = max(p.state["seq"] for p in players)
            if players[0].state["view"]["outcome"] is not None:
                owner.send({"type": "start", "table": 1})
                c.pump(lambda s=seq: all(p.state["seq"] > s for p in c.peers), quiet=0.2)
                continue
            actor = next(p for p in players if p.state["seq"] == seq and p.state["legal"])
            t0 = time.perf_counter()
            actor.send({"type": "action", "table": 1, "seq": seq,
                        "action": actor.state["legal"][0]})
            c.pump(lambda s=seq: all(p.state["seq"] > s for p in c.peers))
            times.append(max(p.state_at for p in c.peers) - t0)
            c.pump(lambda: True, quiet=0.05)
        results[str(n)] = {
            "median_ms": round(statistics.median(times) * 1e3, 2),
            "max_ms": round(max(times) * 1e3, 2),
            "samples": len(times),
        }
    last = results[str(SIZES[-1])]["median_ms"]
    print(json.dumps({"bench": "fanout", "players": 4, "spectators": results,
                      "target_ms": 50, "target_met": last < 50}), flush=True)


def host_main() -> None:
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.host import HostConfig, HostService

    config = HostConfig(port=0, bind="127.0.0.1", name="bench", bot_delay=0.0,
                        max_connections=4000, max_per_address=4000, rate=1e6, burst=1e6)
    host = HostService(config, reactor)
    host.startService()
    host.create_table("fanout", "jamaica", {"players": 4})
    raise SystemExit(serve_until_child_exits(reactor, __file__, "--clients", host.port))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--clients":
        clients_main(int(sys.argv[2]))
    else:
        host_main()
