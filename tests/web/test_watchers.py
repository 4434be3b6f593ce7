"""Web watchers in the lobby's spectator count, and tables that go away while watched
(real host, real HTTP and a real game-protocol client on 127.0.0.1)."""
from __future__ import annotations

from protocol import messages
from tests.host.helpers import join
from tests.twisted_loop import run, stop_host, until
from tests.web.http import event_data, fetch, open_stream
from tests.web.test_http import bot_table, web_host


def counted(tid: int, n: int):
    """A lobby message where table ``tid`` has ``n`` spectators."""
    return lambda m: any(t["id"] == tid and t["spectators"] == n for t in m.tables)


def test_web_watchers_are_counted_with_the_spectators():
    async def go():
        host = web_host()
        tid = bot_table(host)
        port = host.web.port
        try:
            lobby, _ = await join(host.port, "ann")
            await lobby.expect(messages.Lobby, counted(tid, 0))
            streams = [await open_stream(port, f"/table/{tid}/events") for _ in range(2)]
            for n, s in enumerate(streams, 1):
                _, block = await s.event("table")
                assert event_data(block)["spectators"] == n  # its first event counts it
                await s.event("state")
            await lobby.expect(messages.Lobby, counted(tid, 2))
            listed = event_data(b"data: " + (await fetch(port, "/tables.json")).body)
            assert listed["tables"][0]["spectators"] == 2
            # The lobby's own stream is no table's watcher: it changes nothing.
            lobby_stream = await open_stream(port, "/events")
            _, block = await lobby_stream.event("lobby")
            assert event_data(block)["tables"][0]["spectators"] == 2
            # A terminal spectator and the browsers add up; the page's table event says so.
            spec, _ = await join(host.port, "bob", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await lobby.expect(messages.Lobby, counted(tid, 3))
            _, block = await streams[0].event("table")
            while event_data(block)["spectators"] != 3:
                _, block = await streams[0].event("table")
            streams.pop().close()
            await lobby.expect(messages.Lobby, counted(tid, 2))
            spec.close()
            await lobby.expect(messages.Lobby, counted(tid, 1))
            streams.pop().close()
            await lobby.expect(messages.Lobby, counted(tid, 0))
            assert tid not in host.web.feeds.tables
            lobby_stream.close()
            lobby.close()
        finally:
            await stop_host(host)
    run(go())


def test_a_removed_table_tells_its_watchers_and_is_404_after():
    async def go():
        host = web_host()
        other = bot_table(host)
        port = host.web.port
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="ann's", rules="jamaica", options={"players": 2}))
            tid = (await ann.expect(messages.Joined)).table
            gone = [await open_stream(port, f"/table/{tid}/events") for _ in range(3)]
            stays = await open_stream(port, f"/table/{other}/events")
            for s in gone:
                _, block = await s.event("table")
                assert event_data(block)["id"] == tid
            await stays.event("state")
            lobby_stream = await open_stream(port, "/events")
            await lobby_stream.event("lobby")
            # Ann leaves her table before any game: nobody is left, the host removes it
            # (browsers watching do not keep a table).
            ann.send(messages.Leave(table=tid))
            for s in gone:
                _, block = await s.event("gone")
                assert event_data(block) == {"id": tid, "text": f"table {tid} is gone"}
                assert b"event:" not in await s.read_to_end()  # one gone event, then the end
                s.close()
            assert tid not in host.lobby.tables and tid not in host.web.feeds.tables
            _, block = await lobby_stream.event("lobby")
            while tid in [t["id"] for t in event_data(block)["tables"]]:
                _, block = await lobby_stream.event("lobby")
            assert [t["id"] for t in event_data(block)["tables"]] == [other]
            host.web.table_removed(tid)  # again: nothing happens
            # The page of a table that is gone: 404, an HTML page that links to the list.
            page = await fetch(port, f"/table/{tid}")
            assert page.status == 404 and page.header("content-type").startswith("text/html")
            assert b'href="/"' in page.body and b"not on this host" in page.body
            for method in ("GET", "HEAD"):
                r = await fetch(port, f"/table/{tid}/events", method)
                assert r.status == 404 and r.header("x-cartagena-refused") == "no-such-table"
            # The other table's watchers go on.
            t2 = host.lobby.tables[other]
            t2.play.apply(t2.state.actor, str(t2.state.legal_actions()[0]))
            data = event_data((await stays.event("state"))[1])
            while data["seq"] < t2.seq:  # (a state may bring only the chances made after it)
                data = event_data((await stays.event("state"))[1])
            assert data["seq"] == t2.seq
            stays.close()
            lobby_stream.close()
            ann.close()
            await until(lambda: host.caps.total == 0, "every connection is released")
        finally:
            await stop_host(host)
    run(go())
