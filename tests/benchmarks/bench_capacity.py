"""K concurrent tables of 4 bot clients over TCP: total actions per second and host RSS.

The host runs as ``cartagena host --headless --no-game-log`` in a subprocess (its RSS
and CPU time read from /proc). This process holds 4 * K raw sockets: the first client of each table creates
it, three more join, the owner starts (and starts again when a game ends); each client
plays a random legal action as soon as its ``state`` lists any. After all tables play,
actions are counted for DURATION seconds.

Prints one JSON line. Target: K = 100, >= 3000 actions/s in total, <= 100 KB RSS per
table; issue 31's: <= 65 us of host CPU per action; issue 56's: ``ratio`` <= 1.75
(``ratio_target``).

``reference_cpu_us_per_action`` is measured in the same run, after the host: a minimal
Twisted server on the same asyncio reactor (``--reference-serve``) with the same 4 * K
clients, which for each action frame it reads encodes and writes one state-sized map
(a real seat's ``state`` of a mid-game, prepared in advance) to each of the table's four
clients: the framing, msgpack and the four sends a host cannot do without, and no game.
``ratio`` is the host's CPU per action over it (a busier or slower machine moves both).
``eager_reference_cpu_us_per_action``: the same server writing each frame to its socket
at once when nothing waits before it (``cartagena_net.host.eager.write_now``, as the
host does) instead of through Twisted's write buffer: the floor under a host's CPU per
action on this reactor, all of it framing, msgpack and the kernel's work for the sends.
"""
from __future__ import annotations

import json
import os
import random
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.rawframes import read_frames
from tests.userdirs import private_env

TABLES = int(os.environ.get("BENCH_TABLES", "100"))
DURATION = float(os.environ.get("BENCH_SECONDS", "10"))
RATIO_TARGET = 1.75  # host CPU per action over the reference's, in one run
# BENCH_JOURNAL_SYNC=0: fsync every action before answering it (the host's --journal-sync)
JOURNAL_SYNC = (["--journal-sync", os.environ["BENCH_JOURNAL_SYNC"]]
                if os.environ.get("BENCH_JOURNAL_SYNC") else [])


def host_command() -> list[str]:
    if os.environ.get("BENCH_HOST_SCRIPT"):  # e.g. a profiling wrapper
        return [sys.executable, os.environ["BENCH_HOST_SCRIPT"], "host"]
    return [sys.executable, "-m", "cartagena_net", "host"]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class Bot:
    """One raw client socket playing random legal actions."""

    def __init__(self, port: int, name: str, rng: random.Random) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.rng = rng
        self.buf = bytearray()
        self.out = bytearray()
        self.table: int | None = None
        self.seat: int | None = None
        self.owner = False
        self.welcomed = False
        self.seq = 0
        self.states = 0
        self.send({"type": "hello", "versions": [1], "name": name, "role": "player"})

    def send(self, d: dict) -> None:
        body = msgpack.packb(d)
        self.out += len(body).to_bytes(4, "big") + body
        self.flush()

    def flush(self) -> None:
        while self.out:
            try:
                n = self.sock.send(self.out)
            except BlockingIOError:
                return
            del self.out[:n]

    def read(self) -> None:
        for msg in read_frames(self.sock, self.buf, "client"):
            self.handle(msg)

    def handle(self, msg: dict) -> None:
        kind = msg["type"]
        if kind == "welcome":
            self.welcomed = True
        elif kind == "joined":
            self.table, self.seat = msg["table"], msg["seat"]
        elif kind == "state":
            self.states += 1
            self.seq = msg["seq"]
            if msg["legal"]:
                self.send({"type": "action", "table": self.table, "seq": msg["seq"],
                           "action": self.rng.choice(msg["legal"])})
            elif self.owner and msg["view"]["outcome"] is not None:
                self.send({"type": "start", "table": self.table})
        elif kind == "ping":
            self.send({"type": "pong", "nonce": msg["nonce"]})
        elif kind == "error" and msg.get("fatal"):
            raise RuntimeError(f"host error: {msg}")


def pump(sel: selectors.BaseSelector, done, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("waited too long")
        for key, _ in sel.select(0.05):
            key.data.read()


def state_templates() -> list[dict]:
    """Four seats' ``state`` maps of a mid-game 4-player jamaica position, as a host sends."""
    from cartagena_net.engine import make_game, view

    state = make_game("jamaica", players=4).new_state(seed=7)
    rng = random.Random(7)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    out = []
    for seat in range(4):
        v = view(state, seat, since=max(0, state.event_count - 3))
        events = v.pop("events")
        out.append({"type": "state", "table": 0, "seq": 0, "view": v,
                    "legal": [str(a) for a in state.legal_actions()] if seat == state.actor
                    else [], "events": events, "lines": [e["text"] for e in events]})
    return out


def reference_serve(eager: bool = False) -> None:
    """Child: the reference server (``eager``: writing as the host does); prints its
    port."""
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from twisted.internet import protocol
    from twisted.protocols.basic import Int32StringReceiver

    from cartagena_net.host.eager import write_now

    templates = state_templates()
    tables: dict[int, list] = {}
    seqs: dict[int, int] = {}

    class Fanout(Int32StringReceiver):
        MAX_LENGTH = 1 << 16

        def stringReceived(self, data: bytes) -> None:
            msg = msgpack.unpackb(data, raw=False)
            t = msg["table"]
            if msg.get("sit") is not None:
                tables.setdefault(t, [None] * 4)[msg["sit"]] = self
                seqs.setdefault(t, 0)
                if all(tables[t]):
                    self.fan_out(t)
                return
            self.fan_out(t)

        def fan_out(self, t: int) -> None:
            seqs[t] += 1
            seq = seqs[t]
            for seat, peer in enumerate(tables[t]):
                d = dict(templates[seat])
                d["table"], d["seq"], d["actor"] = t, seq, seq % 4
                body = msgpack.packb(d)
                if eager:
                    write_now(peer.transport, len(body).to_bytes(4, "big") + body)
                else:
                    peer.sendString(body)

    port = reactor.listenTCP(0, protocol.Factory.forProtocol(Fanout), interface="127.0.0.1")
    print(port.getHost().port, flush=True)
    reactor.run()


class RefClient:
    """One raw socket of the reference run: acts when a frame names its seat the actor."""

    def __init__(self, port: int, table: int, seat: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.table, self.seat = table, seat
        self.buf = bytearray()
        self.seq = 0
        self.send({"table": table, "sit": seat})

    def send(self, d: dict) -> None:
        body = msgpack.packb(d)
        self.sock.sendall(len(body).to_bytes(4, "big") + body)

    def read(self) -> None:
        for msg in read_frames(self.sock, self.buf, "reference client"):
            self.seq = msg["seq"]
            if msg["actor"] == self.seat:
                self.send({"table": self.table, "action": "advance 3 bottle"})


def reference(eager: bool = False) -> float:
    """The reference server's CPU microseconds per action, over DURATION."""
    proc = subprocess.Popen([sys.executable, __file__, "--reference-serve",
                             *(["--eager"] if eager else [])], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        sel = selectors.DefaultSelector()
        groups = []
        for t in range(TABLES):
            group = [RefClient(port, t, seat) for seat in range(4)]
            for c in group:
                sel.register(c.sock, selectors.EVENT_READ, c)
            groups.append(group)
        clients = [c for g in groups for c in g]
        pump(sel, lambda: all(c.seq for c in clients), 60)
        start = {g[0].table: max(c.seq for c in g) for g in groups}
        cpu0 = cpu_seconds(proc.pid)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < DURATION:
            for key, _ in sel.select(0.05):
                key.data.read()
        cpu = cpu_seconds(proc.pid) - cpu0
        actions = sum(max(c.seq for c in g) - start[g[0].table] for g in groups)
        for c in clients:
            c.sock.close()
        return cpu / max(1, actions) * 1e6
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    state = tempfile.mkdtemp(prefix="bench-capacity-")  # journals on, as a real host's
    # Its records (and every other per-user file) there too, not among the user's own.
    env = private_env(Path(state) / "user")
    proc = subprocess.Popen(
        [*host_command(), "--headless", "--port", "0", "--bind", "127.0.0.1",
         "--state-dir", state, "--no-resume", *JOURNAL_SYNC,
         "--discovery", "off", "--bot-delay", "0", "--players", "4", "--no-game-log",
         "--max-per-address", str(8 * TABLES + 16), "--max-connections", str(8 * TABLES + 16),
         "--max-tables-per-address", str(TABLES + 16)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )
    try:
        port = int(proc.stdout.readline().rsplit(" ", 1)[1])
        time.sleep(0.5)
        base = rss_kb(proc.pid)
        rng = random.Random(1)
        sel = selectors.DefaultSelector()
        bots: list[Bot] = []
        tables: list[list[Bot]] = []
        for t in range(TABLES):
            owner = Bot(port, f"t{t}a", rng)
            sel.register(owner.sock, selectors.EVENT_READ, owner)
            pump(sel, lambda o=owner: o.welcomed, 60)
            owner.owner = True
            owner.send({"type": "create_table", "name": f"bench {t}", "rules": "jamaica",
                        "options": {"players": 4}})
            pump(sel, lambda o=owner: o.table is not None, 60)
            group = [owner]
            for i in range(3):
                b = Bot(port, f"t{t}{'bcd'[i]}", rng)
                sel.register(b.sock, selectors.EVENT_READ, b)
                group.append(b)
            pump(sel, lambda g=group: all(b.welcomed for b in g), 60)
            for b in group[1:]:
                b.send({"type": "join_table", "table": owner.table, "spectate": False})
            pump(sel, lambda g=group: all(b.table is not None for b in g), 60)
            tables.append(group)
            bots += group
        for group in tables:
            group[0].send({"type": "start", "table": group[0].table})
        pump(sel, lambda: all(b.states for b in bots), 60)
        start_seq = {g[0].table: max(b.seq for b in g) for g in tables}
        cpu0, own0 = cpu_seconds(proc.pid), time.process_time()
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < DURATION:
            for key, _ in sel.select(0.05):
                key.data.read()
        elapsed = time.perf_counter() - t0
        host_cpu = cpu_seconds(proc.pid) - cpu0
        client_cpu = time.process_time() - own0
        end_seq = {g[0].table: max(b.seq for b in g) for g in tables}
        rss = rss_kb(proc.pid)
        actions = sum(end_seq[t] - start_seq[t] for t in end_seq)
        per_table = (rss - base) / TABLES
        result = {
            "bench": "capacity",
            "tables": TABLES,
            "clients": len(bots),
            "seconds": round(elapsed, 2),
            "actions": actions,
            "actions_per_s": round(actions / elapsed, 1),
            "host_rss_kb": rss,
            "host_rss_base_kb": base,
            "rss_per_table_kb": round(per_table, 1),
            "host_cpu_share": round(host_cpu / elapsed, 2),
            "clients_cpu_share": round(client_cpu / elapsed, 2),
            "host_cpu_us_per_action": round(host_cpu / max(1, actions) * 1e6, 1),
        }
        result["target_met"] = (
            TABLES >= 100 and result["actions_per_s"] >= 3000 and per_table <= 100
        )
        for b in bots:
            b.sock.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(state, ignore_errors=True)
    ref = reference()
    result["reference_cpu_us_per_action"] = round(ref, 1)
    result["ratio"] = round(result["host_cpu_us_per_action"] / ref, 2)
    floor = reference(eager=True)
    result["eager_reference_cpu_us_per_action"] = round(floor, 1)
    result["eager_ratio"] = round(result["host_cpu_us_per_action"] / floor, 2)
    result["target_cpu_us_per_action"] = 65
    result["ratio_target"] = RATIO_TARGET
    print(json.dumps(result))


if __name__ == "__main__":
    if "--reference-serve" in sys.argv:
        reference_serve(eager="--eager" in sys.argv)
    else:
        main()
