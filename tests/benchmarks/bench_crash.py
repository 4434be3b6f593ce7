"""kill -9 / --resume cycles of a real ``cartagena host`` with clients that reconnect at once.

A headless host (127.0.0.1, --discovery off, a --state-dir) hosts one 2-player table
on a small board (segments=1, pirates=6) where games draw many cards, so reshuffles
are frequent. Two raw-socket players play without pause (retreats first, then they
race home after two reshuffles; then "play again"). At a random moment the host is
killed with SIGKILL; it is started again with --resume and both players come back at
once with their seat tokens.

A restore is exact when every seat is sent back exactly the state it last saw (seq,
view, legal), or, if an action was in flight when the host died and had been
journaled, every seat is one seq further on and the state shows that action.

Prints one JSON line: cycles, exact restores, games finished, reshuffles, time.
BENCH_CYCLES (default 100) sets the number of cycles; BENCH_SEED the randomness.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.userdirs import private_env

CYCLES = int(os.environ.get("BENCH_CYCLES", "100"))
SEED = int(os.environ.get("BENCH_SEED", "1"))
KILL_AFTER = (0.02, 0.6)  # seconds of play before the kill, uniformly


def spawn(state_dir: Path, resume: bool, log: Any) -> tuple[subprocess.Popen, int]:
    cmd = [sys.executable, "-m", "cartagena_net", "host", "--headless", "--port", "0",
           "--bind", "127.0.0.1", "--discovery", "off", "--state-dir", str(state_dir),
           "--players", "2", "-o", "segments=1", "-o", "pirates=6", "--no-game-log",
           "--rate-limit", "100000"]
    if resume:
        cmd.append("--resume")
    # its records and host id beside its journals, not among the user's own
    env = private_env(state_dir.parent / "user",
                      PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
                            env=env)
    line = proc.stdout.readline()
    if "listening on port" not in line:
        proc.kill()
        raise RuntimeError(f"host did not start: {line!r}")
    return proc, int(line.rsplit(" ", 1)[1])


class Seat:
    """One player on a blocking socket: its token and the last state it was sent."""

    def __init__(self, port: int, name: str, token: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.token = token
        self.seat: int | None = None
        self.latest: dict[str, Any] | None = None
        self.owner: int | None = None  # table 1's owner seat, from the latest lobby
        self.send({"type": "hello", "versions": [1], "name": name, "role": "player",
                   "token": token})
        welcome = self.expect("welcome")
        if token is not None:
            self.seat = welcome["resumed"]["seat"]

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg)
        self.sock.sendall(len(body).to_bytes(4, "big") + body)

    def recv(self) -> dict[str, Any]:
        while True:
            if len(self.buf) >= 4:
                size = int.from_bytes(self.buf[:4], "big")
                if len(self.buf) >= 4 + size:
                    msg = msgpack.unpackb(bytes(self.buf[4 : 4 + size]), raw=False)
                    del self.buf[: 4 + size]
                    if msg.get("type") == "ping":
                        self.send({"type": "pong", "nonce": msg["nonce"]})
                        continue
                    return msg
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk

    def expect(self, kind: str) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if msg.get("type") == "joined":  # "play again" moves every seat up by one
                self.seat = msg["seat"]
            elif msg.get("type") == "lobby":
                self.owner = next((t["owner"] for t in msg["tables"] if t["id"] == 1), None)
            if msg.get("type") == kind:
                if kind == "state":
                    self.latest = msg
                return msg
            if msg.get("type") == "error" and msg.get("code") not in (
                    "stale", "not-your-turn", "not-owner", "already-started"):
                raise RuntimeError(f"host error: {msg}")

    def state_after(self, seq: int) -> dict[str, Any]:
        while True:
            msg = self.expect("state")
            if msg["seq"] > seq:
                return msg

    def close(self) -> None:
        self.sock.close()


def choose(legal: list[str], rng: random.Random, race: bool) -> str:
    if race:
        return next((a for a in legal if a.startswith("advance")), legal[0])
    draws = [a for a in legal if a.startswith(("retreat", "draw"))]
    return rng.choice(draws) if draws and rng.random() < 0.9 else rng.choice(legal)


def main() -> None:
    rng = random.Random(SEED)
    work = Path(tempfile.mkdtemp(prefix="bench-crash-"))
    state_dir = work / "state"
    log = open(work / "host.log", "w")  # noqa: SIM115 - kept open for every host
    stats = {"exact": 0, "in_flight": 0, "mismatch": 0, "finished": 0, "reshuffles": 0,
             "actions": 0}
    t0 = time.perf_counter()
    proc, port = spawn(state_dir, False, log)
    seats = [Seat(port, "ann"), Seat(port, "bob")]
    for s in seats:
        s.send({"type": "join_table", "table": 1, "spectate": False})
        joined = s.expect("joined")
        s.seat, s.token = joined["seat"], joined["token"]
    seats[0].send({"type": "start", "table": 1})
    for s in seats:
        s.expect("state")
    game = {"reshuffles": 0}
    try:
        for _ in range(CYCLES):
            killer = threading.Timer(rng.uniform(*KILL_AFTER), os.kill, (proc.pid, signal.SIGKILL))
            killer.start()
            in_flight = play(seats, rng, stats, game)
            killer.join()
            proc.wait(timeout=30)
            for s in seats:
                s.close()
            proc, port = spawn(state_dir, True, log)
            back = [Seat(port, "ann", seats[0].token), Seat(port, "bob", seats[1].token)]
            # Player by player (not by seat number: a kill during "play again" may come
            # after one player was told of its new seat and before the other was).
            fresh = {i: b.expect("state") for i, b in enumerate(back)}
            last = {i: s.latest for i, s in enumerate(seats)}
            verdict = _verdict(fresh, last, in_flight)
            stats[verdict] += 1
            if verdict == "in_flight" and in_flight is not None and in_flight[2] == "start":
                stats["finished"] += 1
                game["reshuffles"] = 0
            elif verdict == "mismatch":
                print(json.dumps({"mismatch": {"fresh": fresh, "last": last,
                                               "in_flight": in_flight and in_flight[1:]}},
                                 default=str), file=sys.stderr)
            seats = sorted(back, key=lambda b: b.seat)  # each resumed with its own token
        play(seats, rng, stats, game, to_the_end=True)  # the last game ends too
        if seats[0].latest["view"]["outcome"] is None:
            raise RuntimeError("the last game did not end")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        log.close()
    elapsed = time.perf_counter() - t0
    host_log = (work / "host.log").read_text()
    result = {
        "bench": "crash",
        "cycles": CYCLES,
        "exact_restores": stats["exact"] + stats["in_flight"],
        "restored_as_last_seen": stats["exact"],
        "restored_with_in_flight_action": stats["in_flight"],
        "mismatches": stats["mismatch"],
        "games_finished": stats["finished"],
        "reshuffles": stats["reshuffles"],
        "actions": stats["actions"],
        "tracebacks_in_host_log": host_log.count("Traceback"),
        "seconds": round(elapsed, 1),
    }
    result["target_met"] = (result["exact_restores"] == CYCLES and result["mismatches"] == 0
                            and result["tracebacks_in_host_log"] == 0)
    shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result))


def play(seats: list[Seat], rng: random.Random, stats: dict[str, int], game: dict[str, int],
         to_the_end: bool = False) -> tuple[Seat, int, str] | None:
    """Play without pause until the host dies (or, ``to_the_end``, the game ends).

    Returns what was in flight when the connection broke: (seat, seq, action) or None.
    """
    in_flight: tuple[Seat, int, str] | None = None
    try:
        while True:
            newest = max(s.latest["seq"] for s in seats)
            if seats[0].latest["view"]["outcome"] is not None:
                if to_the_end:
                    stats["finished"] += 1
                    return None
                # The owner's seat moved with "play again" and the (coalesced) lobby that
                # says so may not have come yet: every seat asks, the owner's ask counts.
                owner = next((s for s in seats if s.seat == seats[0].owner), seats[0])
                in_flight = (owner, newest, "start")
                owner.send({"type": "start", "table": 1})
                for s in seats:
                    if s is not owner:
                        s.send({"type": "start", "table": 1})
                for s in seats:
                    s.state_after(newest)
                seats.sort(key=lambda s: s.seat)
                stats["finished"] += 1
                game["reshuffles"] = 0
                in_flight = None
                continue
            mover = next(s for s in seats if s.latest["legal"])
            action = choose(mover.latest["legal"], rng, game["reshuffles"] >= 2)
            in_flight = (mover, newest, action)
            mover.send({"type": "action", "table": 1, "seq": newest, "action": action})
            for s in seats:
                msg = s.state_after(newest)
                if s is mover:
                    n = sum(1 for e in msg["events"] if e["type"] == "reshuffle")
                    game["reshuffles"] += n
                    stats["reshuffles"] += n
            in_flight = None
            stats["actions"] += 1
    except (ConnectionError, OSError):
        return in_flight


def _verdict(fresh: dict, last: dict, in_flight: tuple[Any, int, str] | None) -> str:
    """"exact": every seat got back what it last saw; "in_flight": the action in flight
    was journaled before the kill, so seats that had not seen its result are one seq on
    and see it; else "mismatch"."""
    if len({f["seq"] for f in fresh.values()}) != 1:
        return "mismatch"
    key = ("seq", "view", "legal")
    if all([fresh[k][x] for x in key] == [last[k][x] for x in key] for k in fresh):
        return "exact"
    if in_flight is None:
        return "mismatch"
    mover, seq, action = in_flight
    for k in fresh:
        if [fresh[k][x] for x in key] == [last[k][x] for x in key]:
            continue
        if not (last[k]["seq"] == seq and fresh[k]["seq"] == seq + 1):
            return "mismatch"
        if action == "start":
            if fresh[k]["view"]["outcome"] is not None:
                return "mismatch"
        elif not any(e["type"] == action.split()[0] and e.get("seat") == mover.seat
                     for e in fresh[k]["events"]):
            return "mismatch"
    return "in_flight"


if __name__ == "__main__":
    main()
