"""A host that runs all week keeps, of the games it has held, only what a person would
name: the open tables (and the engine's Game each plays), the action tables of the
newest boards, the evening's scores, the newest records it lists. Game after game on one
host, nothing of a finished table stays behind (issue 62; the long run:
tests/benchmarks/bench_long_evening.py).
"""
from __future__ import annotations

import collections
import gc
import json
import subprocess
import sys
import weakref

import pytest

from cartagena_net.engine.game import Game
from cartagena_net.engine.state import State
from cartagena_net.records import build
from cartagena_net.records import store as record_store
from cartagena_net.records.format import player
from cartagena_net.web import games as web_games
from tests.records.test_format import bot_game
from tests.twisted_loop import make_host, run, stop_host, until

# Every preset, and options that make other boards and other rules' caches.
MIXES = [
    ("jamaica", {"players": 2, "segments": 2}),
    ("tortuga", {"players": 3, "segments": 2}),
    ("hispaniola", {"players": 2, "segments": 2}),
    ("ravensburger", {"players": 2, "segments": 2}),
    ("ravensburger-advanced", {"players": 3, "segments": 2}),
    ("studiogiochi-2017", {"players": 2, "segments": 2, "magic": True}),
    ("studiogiochi-2017", {"players": 3, "segments": 2, "filibusters": True,
                           "morgan": "also"}),
    ("web-2008", {"players": 2, "segments": 2}),
]


def held(host, cls: type) -> list:
    """The objects of ``cls`` the host still reaches: from its lobby, web, scoreboard,
    reviewer, pool, connections... (everything but this test's own references)."""
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, cls)]


async def play_twice_and_remove(host, rules: str, options: dict, games: list,
                                tables: list) -> None:
    """A table of greedy bots plays a game and plays again (every seat moves up: another
    Game), then goes; weak references to its Games and to it are added to the lists."""
    tid = host.create_table("evening", rules, options, bots=options["players"],
                            bot_kind="greedy")
    table = host.lobby.tables[tid]
    for _ in range(2):
        table.start(None)
        games.append(weakref.ref(table.game))
        await until(lambda t=table: t.status == "finished", "the game's end", timeout=120)
    tables.append(weakref.ref(table))
    host.remove_table(table)
    del table


def test_a_finished_table_leaves_nothing_behind_and_its_game_goes_with_it(tmp_path):
    """Two games at each of eight tables (every preset, play again moving the seats'
    colours: another Game each time), each table removed when its games are over: the
    tables, their states and the engine's Games are all gone; the host keeps no Game but
    those of its open tables (their action tables are the engine's, a bounded few). Before,
    it kept each set of rules, options and colours it had ever played (up to 64 Games,
    each with its action tables: megabytes a board)."""
    host = make_host(state_dir=str(tmp_path / "state"), records_dir=str(tmp_path / "rec"),
                     reviews=False, live_chances=False, bot_workers=0)
    try:
        gone: list[weakref.ref] = []
        games: list[weakref.ref] = []
        states = len(held(host, State))  # this process's own, before
        before = {id(g) for g in held(host, Game)}  # other tests' (their modules keep some)

        async def play() -> None:
            for rules, options in MIXES:
                await play_twice_and_remove(host, rules, options, games, gone)

        run(play(), timeout=600)
        # the evening's scores stay, every game of it (a game played again within the
        # second the last one started has a record id of its own): one win each
        assert sum(r["wins"] for r in host.evening._counts.values()) == 2 * len(MIXES)
        gc.collect()
        assert len(games) == 16 and len({id(g) for g in games}) > len(MIXES)
        assert [r for r in gone if r() is not None] == []
        assert [r for r in games if r() is not None] == []
        assert len(host._games) == 0  # no table open: no Game
        assert len(host.lobby.tables) == 0
        assert [g for g in held(host, Game) if id(g) not in before] == []
        assert len(held(host, State)) <= states
    finally:
        run(stop_host(host))


def test_tables_that_play_the_same_rules_share_one_game_while_they_are_open(tmp_path):
    host = make_host(state_dir=None, records_dir=None, reviews=False, live_chances=False,
                     bot_workers=0)
    try:
        a = host.lobby.tables[host.create_table("a", "jamaica", {"players": 3})]
        b = host.lobby.tables[host.create_table("b", "jamaica", {"players": 3})]
        assert a.game is b.game
        first = weakref.ref(a.game)
        host.remove_table(a)
        assert host.game_for("jamaica", {"players": 3}) is b.game
        host.remove_table(b)
        del a, b
        gc.collect()
        assert first() is None
        assert len(host._games) == 0
    finally:
        run(stop_host(host))


def _record(state, host_id: str, n: int) -> dict:
    game = state.game
    return json.loads(json.dumps(build(
        state, record_id=f"20261124T2{n:05d}Z-{host_id[:8]}-{n}",
        players=[player(s, game.colors[s], f"p{s}") for s in range(game.players)],
        started=f"2026-11-24T2{n // 3600 % 4}:{n // 60 % 60:02d}:{n % 60:02d}Z",
        ended="2026-11-25T01:00:00Z", end="won")))


def test_the_web_list_of_games_reads_only_the_newest_records_once(tmp_path, monkeypatch):
    """``/games.json`` at a host's thousandth game costs what it cost at its tenth: only
    the newest ``LIST_MAX`` files are looked at, and each is read once (the lines listed
    last time are kept, bounded by the list). Before, every record of the folder was
    read, and read again, for every listing."""
    host_id = "0123456789abcdef"
    folder = tmp_path / "records"
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=3)
    total = web_games.LIST_MAX + 5
    for n in range(1, total + 1):
        record_store.write(folder, _record(state, host_id, n))
    record_store.write(folder, _record(state, "fedcba9876543210", 7))  # another host's
    reads: list[str] = []
    real_read = record_store.read

    def counting_read(path):
        reads.append(str(path))
        return real_read(path)

    monkeypatch.setattr(record_store, "read", counting_read)
    known: dict = {}
    listed = json.loads(web_games.build_list(str(folder), host_id, known))
    assert len(reads) == web_games.LIST_MAX
    assert listed["more"] == 5
    ids = [g["id"] for g in listed["games"]]
    assert ids == [f"20261124T2{n:05d}Z-{host_id[:8]}-{n}" for n in range(total, 5, -1)]
    assert len(known) == web_games.LIST_MAX

    reads.clear()
    assert json.loads(web_games.build_list(str(folder), host_id, known)) == listed
    assert reads == []  # nothing new: nothing read

    record_store.write(folder, _record(state, host_id, total + 1))
    again = json.loads(web_games.build_list(str(folder), host_id, known))
    assert len(reads) == 1 and reads[0].endswith(f"-{total + 1}.json")
    assert again["more"] == 6 and again["games"][0]["id"].endswith(f"-{total + 1}")
    assert len(again["games"]) == web_games.LIST_MAX == len(known)


def test_the_list_of_games_keeps_the_newest_names_as_records_are_written(tmp_path,
                                                                        monkeypatch):
    """The folder is read for the list once (and again every ``RESCAN`` seconds), then
    the names of the records the host writes are added to what was read: a list at a
    host's ten thousandth game reads no more of the folder than at its tenth. A record
    written while the folder is read is not lost, nor counted twice; one that replaces
    a record of the same id is not counted again."""
    host_id = "0123456789abcdef"
    folder = tmp_path / "records"
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=3)
    for n in range(1, web_games.LIST_MAX + 3):
        record_store.write(folder, _record(state, host_id, n))
    scans = []
    real_newest = record_store.newest_names

    def counting(*args, **kwargs):
        scans.append(args)
        return real_newest(*args, **kwargs)

    monkeypatch.setattr(record_store, "newest_names", counting)
    newest = web_games.Newest()
    assert newest.due(0.0)
    newest.reading(0.0)
    assert not newest.due(10_000.0)  # one read at a time
    found = web_games.read_newest(str(folder), host_id)
    written = [_record(state, host_id, n) for n in range(web_games.LIST_MAX + 3, 400)]
    record_store.write(folder, written[0])
    newest.written(f"{written[0]['id']}.json")  # while the folder was read: after it
    newest.read(*found)
    assert (len(newest.names), newest.count) == (web_games.LIST_MAX, web_games.LIST_MAX + 3)
    for rec in written[1:]:
        record_store.write(folder, rec)
        newest.written(f"{rec['id']}.json")
    newest.written(f"{written[-1]['id']}.json")  # the same record written again
    assert len(scans) == 1
    kept = json.loads(web_games.build_list(str(folder), host_id, {},
                                           (list(newest.names), newest.count)))
    assert len(scans) == 1  # the list was made without reading the folder
    assert kept == json.loads(web_games.build_list(str(folder), host_id, {}))
    assert kept["more"] == 399 - web_games.LIST_MAX
    assert kept["games"][0]["id"] == written[-1]["id"]
    assert not newest.due(web_games.RESCAN - 1) and newest.due(web_games.RESCAN)


def _ours() -> collections.Counter:
    """This process's objects of the host's and the engine's own classes, by class,
    as they are now: nothing collected first (garbage waiting for the collector counts).
    The bounded caches docs/architecture.md names are emptied first (the previews'
    boards: 64 at most, kept for the bots that come; the newest boards' action tables,
    12 at most, kept for the games that come)."""
    from cartagena_net.engine import actions, preview

    preview._board.cache_clear()
    actions._TABLES.clear()
    out: collections.Counter = collections.Counter()
    for o in gc.get_objects():
        module = type(o).__dict__.get("__module__")  # a class's own (not a property's)
        if isinstance(module, str) and module.startswith("cartagena_net."):
            out[f"{module}.{type(o).__qualname__}"] += 1
    return out


def test_a_table_that_goes_is_freed_at_once_not_when_the_collector_gets_to_it(tmp_path):
    """A table and the engine's Game it plays hold each other through cycles, so nothing
    of them is freed by reference counting when the table goes: before, they waited for
    the collector's oldest generation, several tables' worth at a time (the peaks that
    made a host's memory grow game after game, issue 62). The host now collects shortly
    after a table goes. With the collector's own runs off, as between two of its rare
    full collections: each table, its Games (play again with other colours: another) and
    every object of the host's and the engine's classes it made are gone within a second
    of the table's removal."""
    host = make_host(state_dir=str(tmp_path / "state"), records_dir=str(tmp_path / "rec"),
                     reviews=False, live_chances=False, bot_workers=0)
    refs: list[weakref.ref] = []
    counts: list[collections.Counter] = []

    async def one_table(rules: str, options: dict) -> None:
        await play_twice_and_remove(host, rules, options, refs, refs)
        await until(lambda: all(r() is None for r in refs), "the table freed",
                    timeout=host.sweeper.after + 2)
        counts.append(_ours())

    async def play() -> None:
        await one_table(*MIXES[0])  # the first: what is imported and made once
        for rules, options in MIXES[1:4]:
            await one_table(rules, options)

    gc.collect()
    gc.disable()
    try:
        run(play(), timeout=600)
    finally:
        gc.enable()
        run(stop_host(host))
    assert host.sweeper.collections >= 4
    first = counts[0]
    grown = {k: (first[k], n) for c in counts[1:] for k, n in c.items() if n > first[k]}
    assert grown == {}, f"objects left behind by tables gone: {grown}"


# glibc's own count of its heap and mapped blocks (mallinfo2)
MALLINFO = """import ctypes, json, socket, sys
class Info(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info
"""
MAPPED = MALLINFO + """
if sys.argv[1] == "tuned":
    from cartagena_net.host.sweeper import tune_allocator
    assert tune_allocator()
big = bytearray(4 << 20)
del big  # a 4 MB buffer freed: glibc's default now keeps blocks up to 4 MB in its heap
before = libc.mallinfo2().hblks
block = bytearray(1 << 20)  # a large buffer: a record read, a frame, a JSON text
print(json.dumps(libc.mallinfo2().hblks - before))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(
    __import__("os"), "confstr") or "glibc" not in (
    __import__("os").confstr("CS_GNU_LIBC_VERSION") or ""), reason="glibc's allocator only")
def test_a_hosts_large_buffers_are_mapped_on_their_own_and_given_back():
    """The host's command tunes glibc (``sweeper.tune_allocator``): after a 4 MB buffer
    was freed, a 1 MB one is still mapped on its own (given back to the system when
    freed), not cut from the heap, where glibc's default puts it (its threshold, 128 KB
    at first, rises to the size of each mapped block freed, up to 32 MB) and where one
    live block can pin the pages around it."""
    def mapped(how: str) -> int:
        out = subprocess.run([sys.executable, "-c", MAPPED, how], capture_output=True,
                             text=True, timeout=60, check=True)
        return json.loads(out.stdout)

    assert mapped("default") == 0
    assert mapped("tuned") == 1


READS = MALLINFO + """
from cartagena_net.host.sweeper import tune_allocator
assert tune_allocator()
a, b = socket.socketpair()
held, mapped = [], 0
for _ in range(20):
    while libc.mallinfo2().keepcost > 8192:  # the heap's free top used up, in pieces
        held.append(ctypes.create_string_buffer(min(libc.mallinfo2().keepcost - 4096, 32768)))
    a.send(bytes(60))
    before = libc.mallinfo2().hblks
    held.append(b.recv(65536))  # as Twisted reads a connection: 64 KiB at most
    mapped += libc.mallinfo2().hblks - before
print(json.dumps(mapped))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or not hasattr(
    __import__("os"), "confstr") or "glibc" not in (
    __import__("os").confstr("CS_GNU_LIBC_VERSION") or ""), reason="glibc's allocator only")
def test_a_tuned_hosts_socket_reads_are_cut_from_the_heap():
    """Twisted reads a connection into a new 64 KiB buffer, cut down to what came: under
    the host's tuning that buffer comes from the heap. Mapped on its own (a threshold of
    64 KiB), every frame read cost a fresh mapping, its shrinking and its unmapping,
    with a page fault: about 15 us a read on this machine, the host's every action."""
    out = subprocess.run([sys.executable, "-c", READS], capture_output=True, text=True,
                         timeout=60, check=True)
    assert json.loads(out.stdout) == 0


def test_the_sweeper_collects_at_the_reactors_next_turn_once_for_the_tables_of_that_turn():
    """What a table held is collected before the games that go on put new objects beside
    it (half a second later, they had: docs/architecture.md): at the reactor's next turn,
    one collection for every table that went in the turn before."""
    from twisted.internet.task import Clock

    from cartagena_net.host.sweeper import Sweeper

    clock = Clock()
    sweeper = Sweeper(clock)
    sweeper.soon()
    sweeper.soon()  # a second table in the same turn
    assert sweeper.collections == 0  # nothing during the turn the tables went in
    clock.advance(0)
    assert sweeper.collections == 1
    sweeper.soon()
    clock.advance(0)
    assert sweeper.collections == 2
    assert clock.getDelayedCalls() == []
