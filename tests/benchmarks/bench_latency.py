"""Action-to-state round trips on loopback, beside a raw Int32StringReceiver msgpack echo.

A child process runs the host (no journal) and an echo server on one Twisted reactor.
This process is the client, with blocking sockets: two seated players alternate
actions; each round trip is from sending an ``action`` to receiving the sender's
``state``. The echo round trip sends a msgpack frame of the median ``state`` size,
which the server decodes, encodes again and returns.

Prints one JSON line: p50/p99 (microseconds) of both, and the ratio of the p50s.
Target: host p50 within 2x the echo p50.
"""
from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "2000"))


def serve() -> None:
    """Child: the host and the echo server on one reactor; print both ports."""
    from cartagena_net.loop import install_reactor

    reactor = install_reactor()
    from twisted.internet import protocol
    from twisted.protocols.basic import Int32StringReceiver

    from cartagena_net.host import HostConfig, HostService

    class Echo(Int32StringReceiver):
        MAX_LENGTH = 1 << 20

        def stringReceived(self, data: bytes) -> None:
            self.sendString(msgpack.packb(msgpack.unpackb(data, raw=False)))

    factory = protocol.Factory.forProtocol(Echo)
    echo = reactor.listenTCP(0, factory, interface="127.0.0.1")
    host = HostService(HostConfig(port=0, bind="127.0.0.1", bot_delay=0.0, rate=1e6,
                                  burst=1e6, name="bench"), reactor)
    host.startService()
    host.create_table("bench", "jamaica", {"players": 2})
    print(json.dumps({"host": host.port, "echo": echo.getHost().port}), flush=True)
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import signal

        prof = cProfile.Profile()

        def dump(*_: object) -> None:
            prof.disable()
            prof.dump_stats(os.environ["BENCH_PROFILE"])
            os._exit(0)

        reactor.callWhenRunning(signal.signal, signal.SIGTERM, dump)
        prof.enable()
    reactor.run()


def send(sock: socket.socket, d: dict) -> None:
    body = msgpack.packb(d)
    sock.sendall(len(body).to_bytes(4, "big") + body)


def recv(sock: socket.socket) -> tuple[dict, int]:
    head = _exact(sock, 4)
    size = int.from_bytes(head, "big")
    return msgpack.unpackb(_exact(sock, size), raw=False), size


def _exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return bytes(buf)


def expect(sock: socket.socket, kind: str) -> tuple[dict, int]:
    while True:
        msg, size = recv(sock)
        if msg.get("type") == kind:
            return msg, size
        if msg.get("type") == "error":
            raise RuntimeError(msg)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    child = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
    try:
        ports = json.loads(child.stdout.readline())
        players = []
        for name in ("ann", "bob"):
            s = socket.create_connection(("127.0.0.1", ports["host"]))
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            send(s, {"type": "hello", "versions": [1], "name": name, "role": "player"})
            expect(s, "welcome")
            send(s, {"type": "join_table", "table": 1, "spectate": False})
            joined, _ = expect(s, "joined")
            players.append((s, joined["seat"]))
        host_rtt: list[float] = []
        sizes: list[int] = []
        latest: dict[int, dict] = {}
        send(players[0][0], {"type": "start", "table": 1})
        for s, seat in players:
            latest[seat] = expect(s, "state")[0]
        while len(host_rtt) < ROUNDS:
            seq = max(m["seq"] for m in latest.values())
            if latest[players[0][1]]["view"]["outcome"] is not None:
                send(players[0][0], {"type": "start", "table": 1})
                for s, seat in players:
                    latest[seat] = expect(s, "state")[0]
                continue
            s, seat = next((s, seat) for s, seat in players if latest[seat]["legal"])
            action = latest[seat]["legal"][len(host_rtt) % len(latest[seat]["legal"])]
            t0 = time.perf_counter()
            send(s, {"type": "action", "table": 1, "seq": seq, "action": action})
            msg, size = expect(s, "state")
            host_rtt.append(time.perf_counter() - t0)
            sizes.append(size)
            latest[seat] = msg
            for other, oseat in players:
                if other is not s:
                    latest[oseat] = expect(other, "state")[0]
        frame_size = int(statistics.median(sizes))
        echo = socket.create_connection(("127.0.0.1", ports["echo"]))
        echo.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        payload = {"type": "state", "pad": "x" * max(0, frame_size - 24)}
        body = msgpack.packb(payload)
        echo_rtt: list[float] = []
        for _ in range(ROUNDS):
            t0 = time.perf_counter()
            echo.sendall(len(body).to_bytes(4, "big") + body)
            size = int.from_bytes(_exact(echo, 4), "big")
            msgpack.unpackb(_exact(echo, size), raw=False)
            echo_rtt.append(time.perf_counter() - t0)
        us = 1e6
        result = {
            "bench": "latency",
            "rounds": ROUNDS,
            "state_frame_bytes": frame_size,
            "host_p50_us": round(pct(host_rtt, 0.5) * us, 1),
            "host_p99_us": round(pct(host_rtt, 0.99) * us, 1),
            "echo_p50_us": round(pct(echo_rtt, 0.5) * us, 1),
            "echo_p99_us": round(pct(echo_rtt, 0.99) * us, 1),
        }
        result["p50_ratio"] = round(result["host_p50_us"] / result["echo_p50_us"], 2)
        result["target_met"] = result["p50_ratio"] <= 2.0
        print(json.dumps(result))
    finally:
        child.terminate()
        child.wait(timeout=30)


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        main()
