"""Action-to-state round trips on loopback, beside a raw Int32StringReceiver msgpack echo.

A child process runs the host (no journal) and an echo server on one Twisted reactor.
This process is the client, with blocking sockets: two seated players alternate
actions; each round trip is from sending an ``action`` to receiving the sender's
``state``. The echo round trip sends a msgpack frame of the median ``state`` size,
which the server decodes, encodes again and returns. The two are measured in turn, 100
rounds of each, so that a change in the machine's load falls on both.

Prints one JSON line: p50/p99 (microseconds) of both, and the ratios of the p50s and of
the p99s. Target: host p50 within 1.9x the echo p50 (the house's second pass, issue 56:
the round trip an action's whole Python path costs, from the frame's decoding to the
acting seat's view, legal list and frame), host p99 within 3x the echo p99.

Beside them, the host's stack alone: ``ping`` to ``pong`` round trips of the first player
(framing, message checks, connection state, rate limit, dispatch, encoding, the write;
no game), in turn with echoes of a frame of the ``pong``'s size (``stack_p50_us``,
``small_echo_p50_us``, ``stack_p50_ratio``): what of the action's round trip is the
stack's and what the game's. Not a target.

``--ismcts-tables N``: the host also runs N tables of 4 ``ismcts`` bots (normal level,
no delay, a new game whenever one ends) that think in the host's worker processes while
the client measures, its rounds paced 5 ms apart (as a player's are). The same paced
rounds are first measured with those tables idle (``idle_bots_p50_us/p99``: what the
machine itself adds). Target then: host p99 under 5 ms while the bots think. The line
also gives the bot actions played meanwhile (so the bots were really thinking).

``--reviews N``: the host reviews N finished games (4-player jamaica records of greedy
bots) in its workers while the client measures, paced and compared with a baseline in the
same way; the line gives the positions reviewed by the end (``review_positions``). Target:
host p99 under 5 ms while it reviews. Both options may be given together.
"""
from __future__ import annotations

import json
import os
import shutil
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
BLOCK = 100  # host rounds, then as many echo rounds, in turn (without --ismcts-tables)
P50_TARGET = 1.9  # host p50 over echo p50
P99_TARGET = 3.0  # host p99 over echo p99
BOT_P99_TARGET_US = 5000.0
PACE = 0.005  # seconds between rounds while bots think


def option(name: str) -> int:
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return 0


def bot_tables() -> int:
    return option("--ismcts-tables")


def finished_records(n: int) -> list[dict]:
    """``n`` records of 4-player jamaica games of greedy bots, played to their end."""
    import random

    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.engine import make_game, view
    from cartagena_net.records import build
    from cartagena_net.records.format import player

    out = []
    for g in range(n):
        game = make_game("jamaica", players=4)
        state = game.new_state(seed=g)
        bots = [make_bot("greedy", random.Random(g * 8 + s)) for s in range(4)]
        while not state.is_over:
            legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
            state.apply(bots[state.actor].choose(view(state, state.actor), legal))
        out.append(build(state, record_id=f"20260101T0000{g:02d}Z-bench000-{g + 1}",
                         players=[player(s, game.colors[s], f"p{s}") for s in range(4)],
                         started="2026-01-01T00:00:00Z", ended="2026-01-01T00:30:00Z",
                         end="won"))
    return out


def serve() -> None:
    """Child: the host and the echo server on one reactor; print both ports."""
    from cartagena_net.cli.loop import install_reactor

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
    tables = []
    for i in range(bot_tables()):
        tid = host.create_table(f"bots {i}", "jamaica", {"players": 4}, bots=4,
                                bot_kind="ismcts")
        tables.append(host.lobby.tables[tid])
    reviews = finished_records(option("--reviews"))
    if tables or reviews:
        from twisted.internet.task import LoopingCall

        trigger = Path(os.environ["BENCH_TRIGGER"])
        folder = Path(os.environ["BENCH_TRIGGER"]).parent / "records"

        def again() -> None:
            # The bots start when the client has measured the baseline (trigger file),
            # and play a new game whenever one ends; the reviews start then too.
            if trigger.exists():
                for t in tables:
                    if t.status != "playing":
                        t.start(None)
                while reviews:
                    host.reviewer.add(str(folder), reviews.pop(0))
                (folder.parent / "positions").write_text(str(host.reviewer.positions))

        LoopingCall(again).start(0.05, now=False)
    print(json.dumps({"host": host.port, "echo": echo.getHost().port,
                      "bot_tables": [t.id for t in tables], "reviews": bool(reviews)}),
          flush=True)
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


def watch_tables(port: int, table_ids: list[int]) -> list[list]:
    """A spectator socket at each table: ``[socket, latest seq seen]`` each."""
    watchers = []
    for tid in table_ids:
        w = socket.create_connection(("127.0.0.1", port))
        send(w, {"type": "hello", "versions": [1], "name": f"watch{tid}",
                 "role": "spectator"})
        expect(w, "welcome")
        send(w, {"type": "join_table", "table": tid, "spectate": True})
        expect(w, "joined")
        watchers.append([w, 0])
    return watchers


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bot_actions(sock: socket.socket) -> int:
    """The latest ``seq`` among the states a spectator socket has received so far."""
    seq = 0
    sock.setblocking(False)
    buf = b""
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            buf += chunk
    except BlockingIOError:
        pass
    sock.setblocking(True)
    while len(buf) >= 4:
        size = int.from_bytes(buf[:4], "big")
        if len(buf) < 4 + size:
            break
        msg = msgpack.unpackb(buf[4:4 + size], raw=False)
        buf = buf[4 + size:]
        if msg.get("type") == "state":
            seq = max(seq, msg["seq"])
    return seq


def measure(players: list, latest: dict, paced: bool,
            rounds: int = ROUNDS) -> tuple[list[float], list[int]]:
    """``rounds`` action-to-state round trips between the two seated players."""
    host_rtt: list[float] = []
    sizes: list[int] = []
    while len(host_rtt) < rounds:
        if paced:
            time.sleep(PACE)  # spread the rounds over seconds of bot thinking
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
    return host_rtt, sizes


def sized(frame_size: int) -> dict:
    """A map whose msgpack frame is about ``frame_size`` bytes (one long string)."""
    return {"type": "state", "pad": "x" * max(0, frame_size - 24)}


def echo_rounds(echo: socket.socket, message: dict, rounds: int) -> list[float]:
    """``rounds`` round trips of ``message``'s msgpack frame to the echo."""
    body = msgpack.packb(message)
    rtt: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        echo.sendall(len(body).to_bytes(4, "big") + body)
        size = int.from_bytes(_exact(echo, 4), "big")
        msgpack.unpackb(_exact(echo, size), raw=False)
        rtt.append(time.perf_counter() - t0)
    return rtt


def ping_rounds(sock: socket.socket, rounds: int) -> list[float]:
    """``rounds`` ping-to-pong round trips through the host's stack."""
    rtt: list[float] = []
    for i in range(rounds):
        t0 = time.perf_counter()
        send(sock, {"type": "ping", "nonce": i})
        expect(sock, "pong")
        rtt.append(time.perf_counter() - t0)
    return rtt


def _positions_reviewed(folder: Path) -> dict:
    """Reviews finished and positions reviewed so far, from the files the host wrote."""
    done = list((folder / "reviews").glob("*.json")) if folder.exists() else []
    counted = folder.parent / "positions"
    return {"reviews_finished": len(done),
            "positions": int(counted.read_text() or 0) if counted.exists() else 0}


def main() -> None:
    import tempfile

    trigger = Path(tempfile.mkdtemp(prefix="bench-latency-")) / "bots-go"
    env = dict(os.environ, BENCH_TRIGGER=str(trigger))
    child = subprocess.Popen([sys.executable, __file__, "--serve", *sys.argv[1:]],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        ports = json.loads(child.stdout.readline())
        watchers = watch_tables(ports["host"], ports["bot_tables"])
        players = []
        for name in ("ann", "bob"):
            s = socket.create_connection(("127.0.0.1", ports["host"]))
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            send(s, {"type": "hello", "versions": [1], "name": name, "role": "player"})
            expect(s, "welcome")
            send(s, {"type": "join_table", "table": 1, "spectate": False})
            joined, _ = expect(s, "joined")
            players.append((s, joined["seat"]))
        latest: dict[int, dict] = {}
        send(players[0][0], {"type": "start", "table": 1})
        for s, seat in players:
            latest[seat] = expect(s, "state")[0]
        baseline: list[float] = []
        busy = bool(watchers) or ports["reviews"]
        if busy:
            # The same paced rounds with the bot tables idle, then with them thinking.
            baseline, _ = measure(players, latest, paced=True)
            trigger.touch()
            time.sleep(2.0)  # the workers start and the bots are thinking
            for w in watchers:
                w[1] = bot_actions(w[0])
        echo = socket.create_connection(("127.0.0.1", ports["echo"]))
        echo.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        began = time.perf_counter()
        if busy:
            host_rtt, sizes = measure(players, latest, paced=True)
            measured_s = time.perf_counter() - began
            echo_rtt = echo_rounds(echo, sized(int(statistics.median(sizes))), ROUNDS)
        else:  # blocks of each in turn: a change in the machine's load falls on both
            host_rtt, sizes, echo_rtt = [], [], []
            while len(host_rtt) < ROUNDS:
                rtt, size = measure(players, latest, paced=False,
                                    rounds=min(BLOCK, ROUNDS - len(host_rtt)))
                host_rtt += rtt
                sizes += size
                echo_rtt += echo_rounds(echo, sized(int(statistics.median(sizes))), len(rtt))
            measured_s = time.perf_counter() - began
            stack_rtt, small_rtt = [], []
            while len(stack_rtt) < ROUNDS:
                stack_rtt += ping_rounds(players[0][0], BLOCK)
                small_rtt += echo_rounds(echo, {"type": "pong", "nonce": 0}, BLOCK)
        played = sum(bot_actions(w) - seq0 for w, seq0 in watchers)
        reviewed = _positions_reviewed(trigger.parent / "records")
        frame_size = int(statistics.median(sizes))
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
        result["p99_ratio"] = round(result["host_p99_us"] / result["echo_p99_us"], 2)
        result["target_met"] = (result["p50_ratio"] <= P50_TARGET
                                and result["p99_ratio"] <= P99_TARGET)
        if not busy:
            result["stack_p50_us"] = round(pct(stack_rtt, 0.5) * us, 1)
            result["small_echo_p50_us"] = round(pct(small_rtt, 0.5) * us, 1)
            result["stack_p50_ratio"] = round(result["stack_p50_us"]
                                              / result["small_echo_p50_us"], 2)
        if busy:
            result.update(mode="ismcts-tables" if not ports["reviews"] else
                          "reviews" if not watchers else "ismcts-tables+reviews",
                          ismcts_tables=len(watchers),
                          bot_actions_meanwhile=played, measured_s=round(measured_s, 1),
                          idle_bots_p50_us=round(pct(baseline, 0.5) * us, 1),
                          idle_bots_p99_us=round(pct(baseline, 0.99) * us, 1),
                          host_p99_target_us=BOT_P99_TARGET_US,
                          target_met=result["host_p99_us"] < BOT_P99_TARGET_US)
            if ports["reviews"]:
                result["review_positions"] = reviewed
        print(json.dumps(result))
    finally:
        child.terminate()
        child.wait(timeout=30)
        shutil.rmtree(trigger.parent, ignore_errors=True)  # the host's records, if any


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve()
    else:
        main()
