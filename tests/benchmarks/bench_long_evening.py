"""A host that runs all evening: memory, descriptors, threads and answer times after
game upon game (issue 62).

One host (``cartagena host --headless``: journals, records, the bot's reviews, live
chances and the web view all on, as a café would run it) in a child process that dies
with this one. This process plays whole games on it over raw TCP as fast as it can,
``--tables`` tables at a time, over every preset and a mix of options: each table is
created by a scripted client (random legal moves; the club's 40 regulars take turns),
sometimes with a second one, its other seats filled with random, greedy and searching
bots; spectators join by TCP and by the web view's event stream and leave (some with
``leave``, some by dropping the connection); most tables play again once or twice before
their players leave (some leave, some just close), so the table goes.

The host's RSS (``/proc/PID/status`` VmRSS), open descriptors and threads are sampled
every second. Every few seconds the records' index (``/games.json``, read fresh) and
the evening's scoreboard (a new connection's ``hello`` until its ``lobby``, which carries
the scores) are timed. At the end: the host's child processes (its bot workers: none
may be left from a finished table) and its journal folder (only the open tables' journals).

Prints one JSON line: ``games``, ``rss_warm_kb`` (at the end of the first quarter of the
run), ``rss_end_kb``, their ``ratio`` (target: at most 1.05 over a 10-minute run),
``kb_per_100_games`` after warm-up (a straight line fitted through the samples),
descriptors and threads at the warm-up and at the end (clients connected) and with no
client connected before the first game and after the last (the bot pool's workers, their
pipes and reader threads, start with the first search), the index and scoreboard answer
times early and late, the child processes, the journals against the open tables.

    python3 tests/benchmarks/bench_long_evening.py              # 10 minutes
    python3 tests/benchmarks/bench_long_evening.py --quick      # about a minute
    python3 tests/benchmarks/bench_long_evening.py --tree /tmp/other-checkout

What made the host grow (issue 62), found with a wrapper (``BENCH_HOST_SCRIPT``) that
printed pymalloc's arenas (``sys._debugmallocstats``), glibc's heap (``mallinfo2``) and
the cyclic garbage found by a collection (``gc.DEBUG_SAVEALL``) every few hundred games:
Python's live objects stayed flat (65,000 tracked, 26.5 MB in pymalloc's blocks) while
its arenas went from 28 to 35 and their free blocks from 1 to 4 MB. A table and the
engine's Game it plays hold each other through cycles, so a table that went (and a
Game a play again left) waited for the collector's oldest generation: 20,000 to 57,000
small objects, several tables' worth, freed at once, their pages by then shared with
objects that stay. The host now collects at the reactor's next turn after a table goes
(``host/sweeper.py``; then glibc's ``malloc_trim``; half a second after, as at first,
gave 1.062 where at once gave 1.029, 1.020, 1.084 and 1.078), a ``Game`` holds no
cycle (it goes with its last table), reads a record into a buffer its
size (``read(1 << 25)`` took 32 MB each time), and lists ``/games.json`` from the
folder's newest names alone. Then the same wrapper (gc counts by type, pymalloc's arenas
and glibc's ``mallinfo2`` every 500 games) found the evening's scores growing with the
games (a tuple and an id a game: now rows by five minutes), a 2017 board's action tables
making every space's advances for every hand (now only where asked), and glibc's free
heap growing (now tuned by ``sweeper.tune_allocator``). A census of the collector's
objects by type at the peaks of live blocks found each table's ``Game`` building its own
action tables (thousands of ``Action``s and tuples of them a game): they are now one
set for the games on boards of the same kinds and length (``actions.action_tables``).
At the new highs of live blocks after that, a finished game's record was being made: a
dict a move, encoded whole twice (Python's JSON encoder holds a small string for each
piece until it is done); it is now made and written a move at a time
(``records.format.encode``). docs/architecture.md ("What a host keeps") has the figures.

``--tree DIR`` runs the host of another checkout (a before figure); ``BENCH_HOST_SCRIPT``
a wrapper in place of ``python -m cartagena_net`` (e.g. one that takes tracemalloc
snapshots), sent SIGUSR1 after every ``BENCH_SIGNAL_EVERY`` games when that is set;
``BENCH_SAMPLES=FILE`` writes every sample (seconds, games, RSS in KB, descriptors,
threads) to FILE, one JSON list a line.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.benchmarks.rawframes import read_frames
from tests.userdirs import private_env

# Every preset, and the options a club would mix (each checked by the engine first).
MIXES: list[tuple[str, dict[str, Any]]] = [
    ("jamaica", {"players": 4}),
    ("jamaica", {"players": 2, "segments": 3}),
    ("jamaica", {"players": 3, "morgan": "also", "segments": 4}),
    ("tortuga", {"players": 3, "segments": 4}),
    ("hispaniola", {"players": 4, "segments": 3}),
    ("ravensburger", {"players": 3}),
    ("ravensburger-advanced", {"players": 2, "segments": 4}),
    ("studiogiochi-2017", {"players": 4, "segments": 4}),
    ("studiogiochi-2017", {"players": 3, "magic": True, "segments": 4}),
    ("studiogiochi-2017", {"players": 3, "filibusters": True, "morgan": "instead",
                           "segments": 4}),
    ("studiogiochi-2017", {"players": 2, "story": "island", "segments": 4}),
    ("studiogiochi-2017", {"players": 3, "story": "whole", "segments": 4,
                           "island_segments": 3, "morgan": "island"}),
    ("studiogiochi-2017", {"players": 2, "story": "whole", "magic": True, "segments": 4,
                           "island_segments": 3}),
    ("web-2008", {"players": 6, "segments": 3}),
    ("web-2008", {"players": 2, "pirates": 3}),
]
BOT_KINDS = ("random", "greedy", "greedy", "greedy", "ismcts")
# A club's regulars: who plays tonight (each a row of the evening's scoreboard).
PEOPLE = [f"regular{k}" for k in range(40)]
STUCK = 90.0  # seconds without a state before a table is given up (counted, never hidden)


def rss_kb(pid: int) -> int:
    return _status(pid, "VmRSS")


def threads(pid: int) -> int:
    return _status(pid, "Threads")


def _status(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {key}")


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


TCP_STATES = {"01": "established", "06": "time-wait", "07": "closed", "08": "close-wait",
              "0A": "listening", "04": "fin-wait-1", "05": "fin-wait-2", "09": "last-ack"}


def _tcp_states() -> dict[str, str]:
    """Socket inode -> its TCP state (/proc/net/tcp and tcp6), for telling a listening
    socket from a connection the host still holds and from one its peer has closed."""
    out: dict[str, str] = {}
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if len(f) > 9:
                out[f[9]] = TCP_STATES.get(f[3], f[3])
    return out


def descriptor_kinds(pid: int) -> dict[str, int]:
    """What the host's descriptors are: sockets, pipes, epoll and other kernel objects,
    and files by kind (a journal, a record, the log, a library)."""
    kinds: dict[str, int] = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            kinds_of = _tcp_states()
            inode = target[8:-1]
            if inode in kinds_of:
                kind = "tcp " + kinds_of[inode]
                kinds[kind] = kinds.get(kind, 0) + 1
                continue
        kind = re.sub(r"[:\[].*", "", target) if not target.startswith("/") else (
            "journal" if target.endswith(".journal") else
            "record" if ".json" in target else
            "/dev" if target.startswith("/dev/") else Path(target).suffix or "file")
        kinds[kind] = kinds.get(kind, 0) + 1
    return dict(sorted(kinds.items()))


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry))
    return out


# The host's process: on Linux the kernel kills it (SIGKILL) when this benchmark dies,
# however it dies (PR_SET_PDEATHSIG, set in the child itself before the host starts);
# then ``python -m cartagena_net ARGS`` or the script ``BENCH_HOST_SCRIPT``.
LAUNCH = """import signal, sys
if sys.platform.startswith("linux"):
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
script = sys.argv.pop(1)
if script == "-m":
    from cartagena_net.cli import main
    sys.exit(main())
import runpy
runpy.run_path(script, run_name="__main__")
"""


class Client:
    """One raw connection: hello, then hands each message to its owner (a Table)."""

    def __init__(self, bench: Bench, owner: Any, name: str, role: str = "player") -> None:
        self.bench, self.owner, self.name = bench, owner, name
        self.sock = socket.create_connection(("127.0.0.1", bench.port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buf = bytearray()
        self.out = bytearray()
        self.closed = False
        self.states = 0
        self.seq = 0
        bench.sel.register(self.sock, selectors.EVENT_READ, self)
        self.send({"type": "hello", "versions": [1], "name": name, "role": role})

    def send(self, d: dict[str, Any]) -> None:
        if self.closed:
            return
        body = msgpack.packb(d)
        self.out += len(body).to_bytes(4, "big") + body
        while self.out:
            try:
                n = self.sock.send(self.out)
            except BlockingIOError:
                self.sock.setblocking(True)  # a benchmark client: wait for room
                continue
            except OSError:
                self.close()
                return
            del self.out[:n]
        self.sock.setblocking(False)

    def read(self) -> None:
        if self.closed:  # closed by another's message in the same select batch
            return
        try:
            frames = read_frames(self.sock, self.buf, self.name)
        except (ConnectionError, OSError) as exc:
            if os.environ.get("BENCH_DEBUG"):
                print("lost", self.name, self.states, repr(exc), file=sys.stderr)
            self.close()
            self.owner.lost(self)
            return
        for msg in frames:
            kind = msg.get("type")
            if kind == "ping":
                self.send({"type": "pong", "nonce": msg["nonce"]})
            elif kind == "error" and msg.get("fatal"):
                raise RuntimeError(f"{self.name}: host error {msg}")
            else:
                if kind == "state":
                    self.states += 1
                    self.seq = msg["seq"]
                self.owner.on_message(self, msg)
            if self.closed:
                return

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.bench.sel.unregister(self.sock)
        except (KeyError, ValueError):
            pass
        self.sock.close()


class WebWatcher:
    """A browser watching one table's event stream for a while, then gone."""

    def __init__(self, bench: Bench, owner: Any, table: int, until: float) -> None:
        self.bench, self.owner, self.until = bench, owner, until
        self.sock = socket.create_connection(("127.0.0.1", bench.web_port), timeout=10)
        self.sock.setblocking(False)
        self.closed = False
        self.got = 0
        bench.sel.register(self.sock, selectors.EVENT_READ, self)
        self.sock.sendall(f"GET /table/{table}/events HTTP/1.1\r\nHost: 127.0.0.1:"
                          f"{bench.web_port}\r\nAccept: text/event-stream\r\n\r\n".encode())

    def read(self) -> None:
        if self.closed:
            return
        try:
            data = self.sock.recv(1 << 16)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        self.got += len(data)
        if not data or time.monotonic() > self.until:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.bench.sel.unregister(self.sock)
            self.sock.close()


class Table:
    """One table's life: created, seated, played (and played again), left."""

    def __init__(self, bench: Bench, number: int) -> None:
        self.bench = bench
        rng = bench.rng
        self.rules, self.options = MIXES[number % len(MIXES)]
        self.players = self.options.get("players", 4)
        self.humans = 1 if self.players == 2 or rng.random() < 0.6 else 2
        self.games_wanted = rng.choice((1, 2, 2, 3))
        self.hints = rng.random() < 0.3
        self.games = 0
        self.in_game = False
        self.table: int | None = None
        self.touched = time.monotonic()
        self.done = False
        self.spectators: list[tuple[Client, int]] = []  # (client, states to watch)
        self.watchers: list[WebWatcher] = []
        self.people = rng.sample(PEOPLE, 2)
        self.owner = Client(bench, self, self.people[0])
        self.others: list[Client] = []
        self.name = f"evening {number}"

    # -- messages ------------------------------------------------------------------

    def on_message(self, client: Client, msg: dict[str, Any]) -> None:
        self.touched = time.monotonic()
        kind = msg["type"]
        if kind == "welcome":
            if client is self.owner:
                self.owner.send({"type": "create_table", "name": self.name,
                                 "rules": self.rules, "options": self.options,
                                 "hints": self.hints,
                                 "player_chances": self.bench.rng.random() < 0.3})
            elif self.table is not None:
                spectate = any(client is s for s, _ in self.spectators)
                client.send({"type": "join_table", "table": self.table, "spectate": spectate})
        elif kind == "joined":
            if client is self.owner and self.table is None:
                self.table = msg["table"]
                if self.humans > 1:
                    self.others.append(Client(self.bench, self, self.people[1]))
                else:
                    self.fill_and_start()
            elif client in self.others and self.games == 0 and client.states == 0:
                self.fill_and_start()
        elif kind == "state":
            self.on_state(client, msg)
        elif kind == "bye":
            why = f"bye {msg.get('why')}"
            self.bench.errors[why] = self.bench.errors.get(why, 0) + 1
        elif kind == "error" and msg.get("code") not in ("stale",):
            self.bench.errors[msg.get("code", "?")] = self.bench.errors.get(
                msg.get("code", "?"), 0) + 1

    def fill_and_start(self) -> None:
        for _ in range(self.players - self.humans):
            self.owner.send({"type": "add_bot", "table": self.table,
                             "kind": self.bench.rng.choice(BOT_KINDS)})
        self.owner.send({"type": "start", "table": self.table})

    def on_state(self, client: Client, msg: dict[str, Any]) -> None:
        rng = self.bench.rng
        for spectator, left in list(self.spectators):
            if spectator is client and spectator.states >= left:
                self.spectators.remove((spectator, left))
                if rng.random() < 0.5:
                    spectator.send({"type": "leave", "table": self.table})
                spectator.close()
                return
        if any(client is s for s, _ in self.spectators):
            return
        legal = msg.get("legal") or []
        if legal:
            if self.hints and rng.random() < 0.02:
                client.send({"type": "hint", "table": self.table})
            client.send({"type": "action", "table": self.table, "seq": msg["seq"],
                         "action": rng.choice(legal)})
        view = msg.get("view") or {}
        if client is not self.owner:
            return
        if view.get("outcome") is None:
            self.in_game = True
        elif self.in_game:  # its first state with the outcome (more may follow)
            self.in_game = False
            self.game_over()
        if client.states % 40 == 1:
            self.audience()

    def audience(self) -> None:
        """Now and then a spectator (by TCP or the web's stream) comes for a while."""
        rng = self.bench.rng
        if self.done:  # a state that came in the batch that finished the table
            return
        if rng.random() < 0.5:
            watcher = Client(self.bench, self, f"{self.owner.name}s{rng.randrange(999)}",
                             role="spectator")
            self.spectators.append((watcher, rng.randrange(3, 40)))
        if self.bench.web_port and rng.random() < 0.3:
            self.watchers.append(WebWatcher(self.bench, self, self.table,
                                            time.monotonic() + rng.uniform(0.5, 5)))

    def game_over(self) -> None:
        self.games += 1
        self.bench.game_ended()
        if self.games < self.games_wanted and not self.bench.ending:
            self.owner.send({"type": "start", "table": self.table})  # play again
            return
        self.finish()

    def finish(self) -> None:
        """Everyone goes (some say ``leave``, some just drop the connection)."""
        rng = self.bench.rng
        for c in [self.owner, *self.others, *(s for s, _ in self.spectators)]:
            if rng.random() < 0.5:
                c.send({"type": "leave", "table": self.table})
            c.close()
        for w in self.watchers:
            w.close()
        self.done = True

    def lost(self, client: Client) -> None:
        if client is self.owner or client in self.others:
            self.bench.lost += 1
            self.finish()


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.sel = selectors.DefaultSelector()
        self.games = 0
        self.stuck = 0
        self.lost = 0
        self.errors: dict[str, int] = {}
        self.ending = False
        self.port = 0
        self.web_port = 0
        self.pid = 0
        self.tmp = Path(tempfile.mkdtemp(prefix="bench-evening-"))
        self.state_dir = self.tmp / "state"
        self.samples: list[tuple[float, int, int, int, int]] = []  # (t, games, rss, fds, thr)
        self.probes: list[tuple[int, float, float]] = []  # (games, index ms, scores ms)

    def game_ended(self) -> None:
        self.games += 1
        every = int(os.environ.get("BENCH_SIGNAL_EVERY", "0"))
        if every and self.games % every == 0 and self.pid:  # a wrapper's snapshot
            os.kill(self.pid, signal.SIGUSR1)

    # -- the host ----------------------------------------------------------------

    def start_host(self) -> subprocess.Popen:
        tree = Path(self.args.tree).resolve()
        env = private_env(self.tmp / "user", PYTHONPATH=str(tree))
        command = [sys.executable, "-c", LAUNCH, os.environ.get("BENCH_HOST_SCRIPT") or "-m"]
        self.out_path = self.tmp / "host.out"
        out = open(self.out_path, "wb")  # noqa: SIM115 - the child's, closed below
        err = (open(self.args.log, "wb") if self.args.log  # noqa: SIM115
               else subprocess.DEVNULL)
        proc = subprocess.Popen(
            [*command, "host", "--headless", "--port", "0", "--bind", "127.0.0.1",
             "--state-dir", str(self.state_dir), "--no-resume", "--discovery", "off",
             "--bot-delay", "0", "--no-game-log", "--think", str(self.args.think),
             "--web", "0", "--max-tables-per-address", "64", "--max-per-address", "256",
             "--rate-limit", "5000"],
            cwd=tree, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        out.close()
        if err is not subprocess.DEVNULL:
            err.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            text = self.out_path.read_text(errors="replace")
            port = re.search(r"listening on port (\d+)", text)
            web = re.search(r"web view at http://[^:/]+:(\d+)/", text)
            if port and web:
                self.port, self.web_port = int(port.group(1)), int(web.group(1))
                return proc
            if proc.poll() is not None:
                raise RuntimeError(f"the host did not start: {text}")
            time.sleep(0.1)
        raise RuntimeError("the host did not say its ports")

    # -- probes ---------------------------------------------------------------------

    def index_ms(self) -> float:
        """``/games.json``, the records' index, read fresh (its 3 s cache has passed)."""
        t0 = time.perf_counter()
        with socket.create_connection(("127.0.0.1", self.web_port), timeout=60) as s:
            s.sendall(f"GET /games.json HTTP/1.1\r\nHost: 127.0.0.1:{self.web_port}\r\n"
                      "Connection: close\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(1 << 16):
                data += chunk
        if b" 200 " not in data.split(b"\r\n", 1)[0]:
            raise RuntimeError(f"/games.json: {data[:200]!r}")
        return (time.perf_counter() - t0) * 1000

    def scores(self) -> tuple[float, list[int]]:
        """A new connection's ``hello`` until its ``lobby`` (the evening's scores in it):
        milliseconds, and the tables it lists."""
        t0 = time.perf_counter()
        with socket.create_connection(("127.0.0.1", self.port), timeout=60) as s:
            body = msgpack.packb({"type": "hello", "versions": [1], "name": "probe",
                                  "role": "spectator"})
            s.sendall(len(body).to_bytes(4, "big") + body)
            buf = bytearray()
            s.setblocking(False)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                for msg in read_frames(s, buf, "probe"):
                    if msg.get("type") == "lobby":
                        return ((time.perf_counter() - t0) * 1000,
                                sorted(t["id"] for t in msg["tables"]))
                time.sleep(0.0005)
        raise RuntimeError("no lobby")

    # -- the run --------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        proc = self.start_host()
        pid = self.pid = proc.pid
        try:
            return self._run(proc, pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            if not self.args.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)

    def _run(self, proc: subprocess.Popen, pid: int) -> dict[str, Any]:
        duration = self.args.minutes * 60
        time.sleep(1.0)
        self.idle_first = (descriptors(pid), threads(pid))  # before any game
        self.kinds_first = descriptor_kinds(pid)
        t0 = time.monotonic()
        tables: list[Table] = []
        number = 0
        next_sample = next_probe = t0
        children_max = 0
        while True:
            now = time.monotonic()
            elapsed = now - t0
            if elapsed >= duration:
                break
            if proc.poll() is not None:
                raise RuntimeError(f"the host died: {proc.returncode}")
            tables = [t for t in tables if not t.done]
            for t in tables:
                if now - t.touched > STUCK:
                    self.stuck += 1
                    t.finish()
            while len([t for t in tables if not t.done]) < self.args.tables:
                tables.append(Table(self, number))
                number += 1
            if now >= next_sample:
                self.samples.append((elapsed, self.games, rss_kb(pid), descriptors(pid),
                                     threads(pid)))
                children_max = max(children_max, len(children(pid)))
                next_sample += 1.0
            if now >= next_probe and self.games >= 1:
                self.probes.append((self.games, self.index_ms(), self.scores()[0]))
                next_probe = time.monotonic() + self.args.probe_every
            for key, _ in self.sel.select(0.05):
                key.data.read()
        # The end: every table left, then what the host still holds.
        self.ending = True
        for t in tables:
            t.finish()
        self.still_open = len(self.sel.get_map())  # left open by the driver: a driver bug
        for key in list(self.sel.get_map().values()):
            key.data.close()
        time.sleep(2.0)
        _, open_tables = self.scores()
        time.sleep(1.0)
        self.idle_last = (descriptors(pid), threads(pid))  # every client gone
        self.kinds_last = descriptor_kinds(pid)
        journals = sorted(int(m.group(1)) for p in self.state_dir.iterdir()
                          if (m := re.fullmatch(r"table-(\d+)\.journal", p.name)))
        return self.result(pid, open_tables, journals, children_max, duration)

    def result(self, pid: int, open_tables: list[int], journals: list[int],
               children_max: int, duration: float) -> dict[str, Any]:
        samples = self.samples
        if os.environ.get("BENCH_SAMPLES"):  # every sample, for a plot: t, games, rss, fds, threads
            with open(os.environ["BENCH_SAMPLES"], "w", encoding="utf-8") as out:
                out.writelines(json.dumps(s) + "\n" for s in samples)
        window = min(30.0, duration * 0.1)
        quarter = duration / 4

        def around(t_end: float) -> list[tuple]:
            return [s for s in samples if t_end - window <= s[0] <= t_end] or samples[-1:]

        warm = around(quarter)
        end = around(samples[-1][0])
        rss_warm = int(statistics.median(s[2] for s in warm))
        rss_end = int(statistics.median(s[2] for s in end))
        after = [s for s in samples if s[0] >= quarter]
        slope = 0.0
        if len(after) > 2 and after[-1][1] > after[0][1]:
            xs, ys = [s[1] for s in after], [s[2] for s in after]
            mx, my = statistics.fmean(xs), statistics.fmean(ys)
            var = sum((x - mx) ** 2 for x in xs)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else 0.0
        probes = self.probes
        early = [p for p in probes if p[0] >= 10][:3] or probes[:3]
        late = probes[-3:]

        def med(rows: list[tuple], i: int) -> float | None:
            return round(statistics.median(r[i] for r in rows), 1) if rows else None

        kids = children(pid)
        return {
            "bench": "long_evening",
            "minutes": self.args.minutes,
            "tables_at_once": self.args.tables,
            "games": self.games,
            "games_at_warm": warm[-1][1],
            "rss_start_kb": samples[0][2],
            "rss_warm_kb": rss_warm,
            "rss_end_kb": rss_end,
            "rss_max_kb": max(s[2] for s in samples),
            "ratio": round(rss_end / rss_warm, 3),
            "kb_per_100_games": round(slope * 100, 1),
            "fds_first": warm[-1][3], "fds_last": end[-1][3],
            "threads_first": warm[-1][4], "threads_last": end[-1][4],
            # with no client connected: before the first game, after the last
            "fds_idle_first": self.idle_first[0], "fds_idle_last": self.idle_last[0],
            "fds_idle_kinds_first": self.kinds_first, "fds_idle_kinds_last": self.kinds_last,
            "driver_still_open": self.still_open,
            "threads_idle_first": self.idle_first[1], "threads_idle_last": self.idle_last[1],
            "index_ms_early": med(early, 1), "index_ms_late": med(late, 1),
            "index_games_early": early[0][0] if early else None,
            "index_games_late": late[-1][0] if late else None,
            "scores_ms_early": med(early, 2), "scores_ms_late": med(late, 2),
            "children_last": len(kids), "children_max": children_max,
            "journals": journals, "open_tables": open_tables,
            "journals_only_open": set(journals) <= set(open_tables),
            "stuck": self.stuck, "lost": self.lost, "errors": self.errors,
            "target_ratio": 1.05,
            "target_met": rss_end / rss_warm <= 1.05,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="a one-minute run")
    parser.add_argument("--tables", type=int, default=3, help="tables played at once")
    parser.add_argument("--think", type=float, default=0.02,
                        help="seconds a searching bot thinks (the host's --think)")
    parser.add_argument("--probe-every", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=62)
    parser.add_argument("--tree", default=str(ROOT), help="the checkout whose host runs")
    parser.add_argument("--log", default=None, help="the host's log to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    if args.quick:
        args.minutes = 1.0
    print(json.dumps(Bench(args).run()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
