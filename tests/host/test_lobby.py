"""Lobby and tables: create, join by colour, owner powers, leaving, bots, play again."""
from __future__ import annotations

from protocol import messages

from .helpers import join, make_host, run, state_at, stop_host


def _table(lobby, tid):
    return next(t for t in lobby.tables if t["id"] == tid)


def test_create_join_leave_bots_start_and_play_again():
    async def scenario() -> None:
        host = make_host()
        try:
            watcher, _ = await join(host.port, "watcher")  # stays in the lobby
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="ann's", rules="jamaica", options={"players": 3}))
            j = await ann.expect(messages.Joined)
            tid = j.table
            assert j.seat == 0 and j.token
            lobby = await watcher.expect(messages.Lobby, lambda m: any(
                t["id"] == tid and t["seats"][0]["name"] == "ann" for t in m.tables))
            t = _table(lobby, tid)
            assert (t["owner"], t["status"], t["name"]) == (0, "waiting", "ann's")
            colors = [s["color"] for s in t["seats"]]
            bob, _ = await join(host.port, "bob")
            bob.send(messages.JoinTable(table=tid, color=colors[2], name="Bobby"))
            assert (await bob.expect(messages.Joined)).seat == 2
            cid, _ = await join(host.port, "cid")
            cid.send(messages.JoinTable(table=tid, seat=2))
            assert (await cid.expect(messages.Error)).code == "table-full"
            cid.send(messages.JoinTable(table=tid, color="chartreuse"))
            assert (await cid.expect(messages.Error)).code == "bad-seat"
            # only the owner adds bots or starts
            bob.send(messages.AddBot(table=tid, kind="random"))
            assert (await bob.expect(messages.Error)).code == "not-owner"
            ann.send(messages.Start(table=tid))
            assert (await ann.expect(messages.Error)).code == "seats-empty"
            ann.send(messages.AddBot(table=tid, kind="random"))
            await watcher.expect(messages.Lobby, lambda m: _table(m, tid)["seats"][1]["bot"])
            ann.send(messages.RemoveBot(table=tid, seat=1))
            await watcher.expect(
                messages.Lobby, lambda m: _table(m, tid)["seats"][1]["name"] is None)
            # the owner leaves before the start: ownership passes to bob, ann's seat is free
            ann.send(messages.Leave(table=tid))
            lobby = await watcher.expect(messages.Lobby, lambda m: _table(m, tid)["owner"] == 2)
            assert _table(lobby, tid)["seats"][0]["name"] is None
            assert _table(lobby, tid)["seats"][2]["name"] == "Bobby"
            bob.send(messages.AddBot(table=tid, seat=0, kind="random"))
            bob.send(messages.AddBot(table=tid, seat=1, kind="greedy"))
            bob.send(messages.Start(table=tid))
            table = host.lobby.tables[tid]
            # bob plays against two bots to the end (bots act at once in tests)
            while True:
                s = await state_at(bob)
                if s.view["outcome"] is not None:
                    break
                if s.legal:
                    bob.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            assert table.status == "finished"
            lobby = await watcher.expect(
                messages.Lobby, lambda m: _table(m, tid)["status"] == "finished")
            first_seq = s.seq
            # play again: a fresh game, sequence numbers keep growing, and the start
            # player rotates: everyone moves up one seat and keeps a colour
            colors = [x.color for x in table.seats]
            bob.send(messages.Start(table=tid))
            moved = await bob.expect(messages.Joined)
            assert (moved.table, moved.seat) == (tid, 1)
            s = await state_at(bob, first_seq + 1)
            assert s.view["outcome"] is None and s.view["seats"][2]["pirates"] == [0] * 6
            assert [x.name for x in table.seats] == ["Calico Jack", "Bobby", "Anne Bonny"]
            assert [x["color"] for x in s.view["seats"]] == colors[1:] + colors[:1]
            assert s.view["turn"] == 0 and table.seats[0].name == "Calico Jack"
            for c in (watcher, ann, bob, cid):
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_bad_rules_and_options_are_refused():
    async def scenario() -> None:
        host = make_host()
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="x", rules="checkers", options={}))
            err = await ann.expect(messages.Error)
            assert err.code == "bad-rules" and "checkers" in err.message
            ann.send(messages.CreateTable(name="x", rules="jamaica", options={"players": 40}))
            assert (await ann.expect(messages.Error)).code == "bad-rules"
            assert not host.lobby.tables
            ann.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_connected_is_true_for_a_present_human_or_a_bot_and_false_for_a_free_seat():
    """docs/protocol.md 4.4: ``connected`` for each kind of seat, as the lobby lists it."""
    async def scenario() -> None:
        host = make_host()
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="t", rules="jamaica", options={"players": 3}))
            tid = (await ann.expect(messages.Joined)).table
            ann.send(messages.AddBot(table=tid, seat=1, kind="random"))
            lobby = await ann.expect(messages.Lobby, lambda m: _table(m, tid)["seats"][1]["bot"])
            seats = _table(lobby, tid)["seats"]
            assert [(s["name"] is not None, s["bot"], s["connected"]) for s in seats] == [
                (True, None, True), (True, "random", True), (False, None, False)]
        finally:
            await stop_host(host)

    run(scenario())
