"""A bot's decision time at a table where a person plays, while 15 bots-only tables that
people watch play on the same host.

A child process runs the host: one 4-player jamaica table with one human seat (this
process, which plays at once whenever it may) and three ``ismcts`` bots at the normal
level; and 15 tables of four normal ``ismcts`` bots, each watched by a spectator of this
process (watched, so they play; unwatched they would pause). ``bot_delay`` is 0, so the
time from the state that hands the turn to a bot to the state after its action is the
bot's decision time.

First DECISIONS decisions are timed with the bots-only tables idle (the reference, in
the same run), then DECISIONS more while all 15 play. Prints one JSON line: p50, p99 and
the longest decision in both phases, the ratio of the p50s, the bots-only tables'
actions meanwhile (so they were really playing), and whether every decision stayed
within the normal level's bound (``cartagena_net.bots.kinds.LEVELS``).

With live chances (the default; ``--live-chances off`` for the comparison) every watched
table also has its chances estimated after each turn on the idle workers: the line says
how many ``state`` updates with chances the watchers got while the decisions were timed
(``chance_updates``), so the estimates really ran. The issue's figure is four watched
tables: ``BENCH_BOT_TABLES=4 python3 tests/benchmarks/bench_fairness.py``; with
``BENCH_BOTS_KIND=greedy`` the bots-only tables' bots do not search, so the pool's idle
moments go to the chances (with ismcts bots at bot_delay 0 the pool is never idle, and
the chances are skipped: they never take a worker a search could use).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_latency import expect, pct, recv, send, watch_tables

DECISIONS = int(os.environ.get("BENCH_DECISIONS", "40"))
BOT_TABLES = int(os.environ.get("BENCH_BOT_TABLES", "15"))
# The bots-only tables' bots: ismcts (searches on the pool, as people's bots) or greedy
# (no search: the pool is then left to the people's table's bots and the live chances).
BOTS_KIND = os.environ.get("BENCH_BOTS_KIND", "ismcts")
SLACK = 0.1  # seconds beyond the level's bound: the reactor's and the network's share


LIVE = "off" not in sys.argv[sys.argv.index("--live-chances") + 1:][:1] \
    if "--live-chances" in sys.argv else True


def serve(trigger: Path) -> None:
    """Child: the host; the human table and the bots-only tables; print the port."""
    from cartagena_net.cli.loop import install_reactor

    reactor = install_reactor()
    from twisted.internet.task import LoopingCall

    from cartagena_net.host import HostConfig, HostService

    host = HostService(HostConfig(port=0, bind="127.0.0.1", bot_delay=0.0, name="bench",
                                  live_chances=LIVE), reactor)
    host.startService()
    host.create_table("people", "jamaica", {"players": 4}, bots=3, bot_kind="ismcts")
    tables = [host.lobby.tables[host.create_table(f"bots {i}", "jamaica", {"players": 4},
                                                  bots=4, bot_kind=BOTS_KIND)]
              for i in range(BOT_TABLES)]

    def again() -> None:  # the bots-only tables play (new games too) once triggered
        if trigger.exists():
            for t in tables:
                if t.status != "playing":
                    t.start(None)

    LoopingCall(again).start(0.05, now=False)
    print(json.dumps({"host": host.port, "tables": [t.id for t in tables]}), flush=True)
    reactor.run()


def decisions(player: socket.socket, seat: int, watchers: list, n: int) -> list[float]:
    """Play at once on our turns; time ``n`` bot decisions (a bot's turn to its action)."""
    times: list[float] = []
    bot_turn_began: float | None = None
    while len(times) < n:
        msg, _ = recv(player)
        kind = msg.get("type")
        if kind == "error":
            raise RuntimeError(msg)
        if kind != "state":
            continue
        now = time.perf_counter()
        if bot_turn_began is not None:
            times.append(now - bot_turn_began)
            bot_turn_began = None
        for w in watchers:
            drain(w)  # keep the watchers' sockets drained
        view = msg["view"]
        if view["outcome"] is not None:
            send(player, {"type": "start", "table": 1})
            continue
        if msg["legal"]:
            action = next((a for a in msg["legal"] if a != "undo"), msg["legal"][0])
            send(player, {"type": "action", "table": 1, "seq": msg["seq"], "action": action})
        else:
            bot_turn_began = now
    return times


def drain(w: list) -> None:
    """Read what a watcher's socket holds: ``w`` is [socket, latest seq, buffer, states
    with chances]; a frame cut at the end of a read waits in the buffer for the rest."""
    sock = w[0]
    sock.setblocking(False)
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            w[2] += chunk
    except BlockingIOError:
        pass
    sock.setblocking(True)
    buf = w[2]
    while len(buf) >= 4:
        size = int.from_bytes(buf[:4], "big")
        if len(buf) < 4 + size:
            break
        msg = msgpack.unpackb(buf[4:4 + size], raw=False)
        buf = buf[4 + size:]
        if msg.get("type") == "state":
            w[1] = max(w[1], msg["seq"])
            w[3] += msg.get("chances") is not None
    w[2] = buf


def main() -> None:
    import tempfile

    from cartagena_net.bots.kinds import LEVELS

    bound = LEVELS["normal"][1]
    trigger = Path(tempfile.mkdtemp(prefix="bench-fairness-")) / "go"
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(trigger),
                              "--live-chances", "on" if LIVE else "off"],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        ports = json.loads(child.stdout.readline())
        watchers = [[w[0], w[1], b"", 0] for w in watch_tables(ports["host"], ports["tables"])]
        player = socket.create_connection(("127.0.0.1", ports["host"]))
        player.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        send(player, {"type": "hello", "versions": [1], "name": "ann", "role": "player"})
        expect(player, "welcome")
        send(player, {"type": "join_table", "table": 1, "spectate": False})
        seat = expect(player, "joined")[0]["seat"]
        send(player, {"type": "start", "table": 1})
        idle = decisions(player, seat, watchers, DECISIONS)
        trigger.touch()
        time.sleep(3.0)  # the bots-only tables are thinking
        for w in watchers:
            drain(w)
        before = sum(w[1] for w in watchers)
        chances_before = sum(w[3] for w in watchers)
        began = time.perf_counter()
        busy = decisions(player, seat, watchers, DECISIONS)
        measured = time.perf_counter() - began
        for w in watchers:
            drain(w)
        played = sum(w[1] for w in watchers) - before
        chance_updates = sum(w[3] for w in watchers) - chances_before
        result = {
            "bench": "fairness",
            "level": "normal",
            "level_bound_s": bound,
            "bots_only_tables": len(watchers),
            "bots_only_kind": BOTS_KIND,
            "decisions": DECISIONS,
            "idle_p50_s": round(pct(idle, 0.5), 3),
            "idle_p99_s": round(pct(idle, 0.99), 3),
            "idle_max_s": round(max(idle), 3),
            "busy_p50_s": round(pct(busy, 0.5), 3),
            "busy_p99_s": round(pct(busy, 0.99), 3),
            "busy_max_s": round(max(busy), 3),
            "p50_ratio": round(pct(busy, 0.5) / pct(idle, 0.5), 2),
            "bots_only_actions_meanwhile": played,
            "live_chances": LIVE,
            "chance_updates": chance_updates,
            "measured_s": round(measured, 1),
        }
        result["target_met"] = max(busy) <= bound + SLACK and played > 0
        print(json.dumps(result))
    finally:
        child.terminate()
        child.wait(timeout=30)


if __name__ == "__main__":
    if "--serve" in sys.argv:
        serve(Path(sys.argv[sys.argv.index("--serve") + 1]))
    else:
        main()
