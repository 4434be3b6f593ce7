"""Browser seats: from a guest's action request to the update at every other seat.

A child process runs the host (no journal, web on). One 5-player jamaica table holds 4
browser seats (play streams over real HTTP, acting with ``POST /play/send``) and one
terminal client over TCP; WATCHERS browsers watch it on ``/table/1/events``. Each round,
the browser seat to act posts an action; the time until the new state has reached every
other browser seat's stream and the terminal client is one sample (and the terminal
client plays its own turns at once, unmeasured). Meanwhile every watcher's stream is read
(and counted) by this process, as the browsers would.

The reference, in the same run: a raw HTTP round trip to the same web server
(``GET /tables.json``), p50. Prints one JSON line: p50/p99 of the seat-to-seats time,
the reference, their ratio, the watchers still connected at the end. Target: p99 under
50 ms. BENCH_ROUNDS (default 300), BENCH_WATCHERS (default 1000).
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_latency import pct

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "300"))
WATCHERS = int(os.environ.get("BENCH_WATCHERS", "1000"))
TARGET_P99_MS = 50.0


def serve() -> None:
    """Child: the host with its web server; print both ports."""
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from cartagena_net.host import HostConfig, HostService

    host = HostService(HostConfig(
        port=0, bind="127.0.0.1", web_port=0, bot_delay=0.0, rate=1e6, burst=1e6,
        max_connections=WATCHERS + 100, max_per_address=WATCHERS + 100, name="bench",
        handshake_timeout=30.0, web_max_buffer=1 << 22), reactor)
    host.startService()
    host.create_table("bench", "jamaica", {"players": 5})
    print(json.dumps({"host": host.port, "web": host.web.port}), flush=True)
    reactor.run()


class Events:
    """A text/event-stream read as it comes (chunked), its events parsed."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader
        self.buf = b""
        self.body = b""

    async def next(self) -> tuple[str, dict]:
        while True:
            while b"\n\n" in self.body:
                block, self.body = self.body.split(b"\n\n", 1)
                name, data = "", None
                for line in block.split(b"\n"):
                    if line.startswith(b"event: "):
                        name = line[7:].decode()
                    elif line.startswith(b"data: "):
                        data = json.loads(line[6:])
                if name:
                    return name, data
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise ConnectionError("the stream ended")
            self.buf += chunk
            while True:  # de-chunk
                end = self.buf.find(b"\r\n")
                if end < 0:
                    break
                size = int(self.buf[:end].split(b";")[0] or b"0", 16)
                if len(self.buf) < end + 2 + size + 2:
                    break
                self.body += self.buf[end + 2:end + 2 + size]
                self.buf = self.buf[end + 2 + size + 2:]


async def open_events(port: int, path: str) -> tuple[Events, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    await reader.readuntil(b"\r\n\r\n")
    return Events(reader), writer


class Seat:
    """A browser seat: its play stream and the POSTs of its page."""

    def __init__(self, port: int, name: str) -> None:
        self.port, self.name = port, name
        self.latest: dict | None = None
        self.arrived: dict[int, float] = {}
        self.cookie = ""

    async def open(self) -> None:
        self.events, self.writer = await open_events(self.port, "/play/events")
        _, self.session = await self.events.next()
        self.post_reader, self.post_writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def post(self, path: str, msg: dict) -> None:
        body = json.dumps(msg).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"X-Cartagena-Session: {self.session['id']}\r\n"
                f"X-Cartagena-Csrf: {self.session['csrf']}\r\n\r\n")
        self.post_writer.write(head.encode() + body)
        head = await self.post_reader.readuntil(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        await self.post_reader.readexactly(length)

    async def msg(self, kind: str) -> dict:
        while True:
            _, m = await self.events.next()
            if m.get("type") == "state":
                self.latest = m
                self.arrived.setdefault(m["seq"], time.perf_counter())
            if m.get("type") == "ping":
                await self.post("/play/send", {"type": "pong", "nonce": m["nonce"]})
            if m.get("type") == kind:
                return m

    async def pump(self) -> None:
        while True:
            await self.msg("never")


class Terminal:
    """The terminal client over TCP: plays its own turns at once, notes arrivals."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}

    async def open(self, port: int) -> int:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.send({"type": "hello", "versions": [1], "name": "term", "role": "player"})
        await self.expect("welcome")
        self.send({"type": "join_table", "table": 1, "spectate": False})
        return (await self.expect("joined"))["seat"]

    def send(self, msg: dict) -> None:
        body = msgpack.packb(msg)
        self.writer.write(len(body).to_bytes(4, "big") + body)

    async def recv(self) -> dict:
        size = int.from_bytes(await self.reader.readexactly(4), "big")
        return msgpack.unpackb(await self.reader.readexactly(size), raw=False)

    async def expect(self, kind: str) -> dict:
        while True:
            m = await self.recv()
            if m["type"] == kind:
                return m

    async def play(self) -> None:
        while True:
            m = await self.recv()
            if m["type"] == "ping":
                self.send({"type": "pong", "nonce": m["nonce"]})
            elif m["type"] == "state":
                self.arrived.setdefault(m["seq"], time.perf_counter())
                if m["view"]["outcome"] is not None:
                    self.send({"type": "start", "table": 1})
                elif m["legal"]:
                    legal = [a for a in m["legal"] if a != "undo"]
                    self.send({"type": "action", "table": 1, "seq": m["seq"],
                               "action": legal[-1]})


async def drain(events: Events, counts: list[int]) -> None:
    try:
        while True:
            chunk = await events.reader.read(1 << 16)
            if not chunk:
                return
            counts[0] += len(chunk)
    except (ConnectionError, OSError):
        return


async def measure(ports: dict) -> dict:
    web = ports["web"]
    term = Terminal()
    await term.open(ports["host"])  # the terminal client sits first: the table's owner
    seats = [Seat(web, f"guest{i}") for i in range(4)]
    for s in seats:
        await s.open()
        await s.post("/play/send", {"type": "hello", "versions": [1], "name": s.name,
                                    "role": "player"})
        await s.msg("welcome")
        await s.post("/play/send", {"type": "join_table", "table": 1, "spectate": False})
        await s.msg("joined")
    watchers, counts = [], [0]
    for _ in range(WATCHERS):
        events, writer = await open_events(web, "/table/1/events")
        watchers.append((asyncio.ensure_future(drain(events, counts)), writer))
    tasks = [asyncio.ensure_future(term.play())]
    term.send({"type": "start", "table": 1})
    pumps = [asyncio.ensure_future(s.pump()) for s in seats]
    samples: list[float] = []
    while len(samples) < ROUNDS:
        await asyncio.sleep(0.005)
        known = [s for s in seats if s.latest is not None]
        if not known:
            continue
        newest = max(s.latest["seq"] for s in known)
        mover = next((s for s in seats if s.latest and s.latest["seq"] == newest
                      and s.latest["legal"] and s.latest["view"]["outcome"] is None), None)
        if mover is None:
            continue
        legal = [a for a in mover.latest["legal"] if a != "undo"]
        t0 = time.perf_counter()
        await mover.post("/play/send", {"type": "action", "table": 1, "seq": newest,
                                        "action": legal[-1]})
        others = [s for s in seats if s is not mover]
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and not (
                all(newest + 1 in s.arrived for s in others) and newest + 1 in term.arrived):
            await asyncio.sleep(0.0005)
        arrivals = [s.arrived.get(newest + 1) for s in others] + [term.arrived.get(newest + 1)]
        if None in arrivals:
            continue
        samples.append(max(arrivals) - t0)
    # the reference: a raw HTTP round trip to the same server
    ref = []
    for _ in range(200):
        reader, writer = await asyncio.open_connection("127.0.0.1", web)
        t0 = time.perf_counter()
        writer.write(b"GET /tables.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        await reader.read()
        ref.append(time.perf_counter() - t0)
        writer.close()
    alive = sum(1 for task, _ in watchers if not task.done())
    for t in [*tasks, *pumps, *(task for task, _ in watchers)]:
        t.cancel()
    return {"samples": samples, "ref": ref, "watchers_alive": alive, "watched_bytes": counts[0]}


def main() -> None:
    child = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
    try:
        ports = json.loads(child.stdout.readline())
        got = asyncio.run(measure(ports))
        ms = 1000.0
        p50, p99 = pct(got["samples"], 0.5) * ms, pct(got["samples"], 0.99) * ms
        ref = pct(got["ref"], 0.5) * ms
        print(json.dumps({
            "bench": "web_seats", "rounds": len(got["samples"]), "browser_seats": 4,
            "terminal_seats": 1, "watchers": WATCHERS,
            "watchers_alive_at_end": got["watchers_alive"],
            "watched_mb": round(got["watched_bytes"] / 1e6, 1),
            "seat_to_seats_p50_ms": round(p50, 2), "seat_to_seats_p99_ms": round(p99, 2),
            "http_roundtrip_p50_ms": round(ref, 2), "p50_ratio": round(p50 / ref, 2),
            "target_p99_ms": TARGET_P99_MS, "target_met": p99 < TARGET_P99_MS,
        }))
    finally:
        child.terminate()
        child.wait(timeout=30)


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        main()
