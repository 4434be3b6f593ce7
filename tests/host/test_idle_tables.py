"""A bots-only game that a client left, with nobody watching, pauses at once (its bots stop
thinking), resumes when someone watches, and is removed after the grace period; its
journal is kept aside, never deleted."""
from __future__ import annotations

import asyncio

from cartagena_net.host.journal import journal_path
from protocol import messages
from tests.twisted_loop import until

from .helpers import join, make_host, run, stop_host

OPTIONS = {"players": 3, "segments": 2, "pirates": 4}


async def _bots_game(host):
    """A client's table: its creator at seat 0 and two greedy bots, started."""
    ann, _ = await join(host.port, "ann")
    ann.send(messages.CreateTable(name="bots", rules="jamaica", options=OPTIONS))
    tid = (await ann.expect(messages.Joined)).table
    for _ in range(2):
        ann.send(messages.AddBot(table=tid, kind="greedy"))
    table = host.lobby.tables[tid]
    await until(lambda: all(s.occupied for s in table.seats), "bots seated")
    ann.send(messages.Start(table=tid))
    await ann.expect(messages.State)
    return ann, tid, table


def test_an_unwatched_bots_only_game_pauses_resumes_and_goes(tmp_path):
    host = make_host(takeover=0.05, idle_table_grace=1.5, state_dir=str(tmp_path / "s"))

    async def go():
        ann, tid, table = await _bots_game(host)
        ann.close()  # the creator leaves its bots alone: nobody plays or watches
        await until(lambda: table.paused, "paused")
        seq = table.seq
        await asyncio.sleep(0.6)  # more than the takeover: a bot stands in, yet nothing moves
        assert table.seq == seq and table.paused and tid in host.lobby.tables
        watcher, _ = await join(host.port, "tv", role="spectator")
        watcher.send(messages.JoinTable(table=tid, spectate=True))
        await watcher.expect(messages.Joined)
        await until(lambda: table.seq > seq + 3, "the bots play while watched")
        assert not table.paused
        watcher.close()
        await until(lambda: table.paused, "paused again")
        paused_at = table.seq
        await until(lambda: tid not in host.lobby.tables, "removed after the grace",
                    timeout=10)
        assert table.seq == paused_at
        folder = journal_path(tmp_path / "s", tid).parent
        assert not journal_path(tmp_path / "s", tid).exists()
        assert list(folder.glob(f"table-{tid}.journal.abandoned-*"))  # kept aside

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_a_watched_or_played_table_never_pauses():
    host = make_host(takeover=None, idle_table_grace=0.2)

    async def go():
        ann, tid, table = await _bots_game(host)
        await asyncio.sleep(0.5)  # the player is seated and connected: no pause, no removal
        assert not table.paused and tid in host.lobby.tables
        # The host's own tables (made without a client) are the host's to keep.
        own = host.lobby.tables[host.create_table("own", "jamaica", OPTIONS, bots=3,
                                                  bot_kind="greedy")]
        own.start(None)
        await until(lambda: own.seq > 3, "the host's own bots play")
        assert not own.paused
        ann.close()

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_tables_nobody_uses_never_hold_the_hosts_last_slots():
    """A client fills the host's table cap with bots-only games and leaves: they pause,
    and a new player's create_table still succeeds, the game paused longest making room
    (its record kept); the address that made them still counts them against its own cap
    after it left."""
    host = make_host(takeover=0.05, idle_table_grace=300, max_tables=3,
                     max_tables_per_address=3)

    async def go():
        made = []
        for _ in range(3):
            ann, tid, table = await _bots_game(host)
            ann.close()
            await until(lambda t=table: t.paused, "paused")
            made.append(tid)
        # The creator's address holds its three tables although it left.
        back, _ = await join(host.port, "ann")
        back.send(messages.CreateTable(name="more", rules="jamaica", options=OPTIONS))
        refused = await back.expect(messages.Error)
        assert refused.code == "too-many-tables" and "127.0.0.1" in refused.message
        assert sorted(host.lobby.tables) == made
        # Another address: the host is full of paused tables, the oldest makes room.
        host.config.max_tables_per_address = 16
        bob, _ = await join(host.port, "bob")
        bob.send(messages.CreateTable(name="real", rules="jamaica", options=OPTIONS))
        joined = await bob.expect(messages.Joined)
        assert made[0] not in host.lobby.tables and joined.table in host.lobby.tables
        assert sorted(host.lobby.tables) == [*made[1:], joined.table]
        bob.close()
        back.close()

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))
