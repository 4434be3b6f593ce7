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
