"""No table waits for ever: the owner lets a bot stand in for an absent player, and
removes an empty seat before the start. Real TCP on 127.0.0.1, played to the end."""
from __future__ import annotations

import asyncio

from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host

SMALL = {"players": 2, "segments": 1, "pirates": 1}


def _seat(msg, tid, seat):
    return next(t for t in msg.tables if t["id"] == tid)["seats"][seat]


async def play_on(table, players, turn_of=None) -> None:
    """Each seat's own client answers its turns with the first legal action; bots and
    stand-ins play the others. Until the end of the game (or of ``turn_of``'s turn)."""
    while not table.state.is_over and (turn_of is None or table.state.turn == turn_of):
        seat = table.state.actor
        c = players.get(seat)
        if c is None or table.seats[seat].conn is None or table.seats[seat].controller:
            await asyncio.sleep(0.01)
            continue
        seq = table.seq
        c.send(messages.Action(table=table.id, seq=seq, action=str(
            table.state.legal_actions()[0])))
        while table.seq == seq:
            await asyncio.sleep(0.01)


def test_a_bot_stands_in_for_an_absent_player_until_they_return():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", SMALL)
            (ann, a, _), (bob, b, b_tok) = await seat_players(host.port, tid, ["ann", "bob"])
            ann.send(messages.Start(table=tid))
            await state_at(ann)
            bob.close()
            await ann.expect(messages.Lobby, lambda m: not _seat(m, tid, b)["connected"])
            # only the owner may hand the seat over; a bot kind must be known
            ann.send(messages.AddBot(table=tid, seat=b, kind="nonsense"))
            assert (await ann.expect(messages.Error)).code == "bad-field"
            ann.send(messages.AddBot(table=tid, seat=a, kind="greedy"))
            assert (await ann.expect(messages.Error)).code == "bad-seat"  # ann is here
            ann.send(messages.AddBot(table=tid, seat=b, kind="greedy"))
            lobby = await ann.expect(messages.Lobby, lambda m: _seat(m, tid, b)["bot"])
            seat = _seat(lobby, tid, b)
            assert (seat["name"], seat["bot"], seat["connected"]) == ("bob", "greedy", False)
            table = host.lobby.tables[tid]
            # the game goes on: the stand-in plays bob's turns
            turns = 0
            while turns < 2 and not table.state.is_over:
                seat_before = table.state.turn
                await play_on(table, {a: ann}, turn_of=seat_before)
                turns += 1
            # the owner takes the bot off again: the seat waits for bob
            if not table.state.is_over:
                ann.send(messages.RemoveBot(table=tid, seat=b))
                await ann.expect(messages.Lobby, lambda m: not _seat(m, tid, b)["bot"])
                ann.send(messages.AddBot(table=tid, seat=b, kind="greedy"))
                await ann.expect(messages.Lobby, lambda m: _seat(m, tid, b)["bot"])
            # bob returns: the stand-in steps aside, bob plays on to the end
            bob2, welcome = await join(host.port, "bob", token=b_tok)
            assert welcome.resumed == {"table": tid, "seat": b}
            await ann.expect(messages.Lobby, lambda m: _seat(m, tid, b)["connected"]
                             and not _seat(m, tid, b)["bot"])
            assert table.seats[b].takeover_bot is None
            await play_on(table, {a: ann, b: bob2})
            assert table.state.is_over and table.status == "finished"
        finally:
            await stop_host(host)

    run(scenario())


def test_the_owner_removes_an_empty_seat_and_three_friends_start():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 4, "segments": 1,
                                                     "pirates": 1})
            (ann, _, _), = await seat_players(host.port, tid, ["ann"])
            bob, _ = await join(host.port, "bob")
            bob.send(messages.JoinTable(table=tid, seat=2))
            await bob.expect(messages.Joined)
            carl, _ = await join(host.port, "carl")
            carl.send(messages.JoinTable(table=tid, seat=3))
            await carl.expect(messages.Joined)
            ann.send(messages.Start(table=tid))
            assert (await ann.expect(messages.Error)).code == "seats-empty"
            bob.send(messages.RemoveBot(table=tid, seat=1))
            assert (await bob.expect(messages.Error)).code == "not-owner"
            ann.send(messages.RemoveBot(table=tid, seat=1))  # the empty blue seat goes
            lobby = await ann.expect(
                messages.Lobby, lambda m: len(next(t for t in m.tables if t["id"] == tid)
                                              ["seats"]) == 3)
            seats = next(t for t in lobby.tables if t["id"] == tid)["seats"]
            assert [(s["seat"], s["name"], s["color"]) for s in seats] == [
                (0, "ann", "red"), (1, "bob", "yellow"), (2, "carl", "green")]
            # players whose seat number changed are told (docs/protocol.md 4.7, 4.10)
            for who, seat in ((bob, 1), (carl, 2)):
                moved = await who.expect(messages.Joined)
                assert (moved.table, moved.seat) == (tid, seat)
            ann.send(messages.RemoveBot(table=tid, seat=1))  # bob sits there: refused
            assert (await ann.expect(messages.Error)).code == "bad-seat"
            ann.send(messages.Start(table=tid))
            s = await state_at(ann)
            assert [x["color"] for x in s.view["seats"]] == ["red", "yellow", "green"]
            await play_on(host.lobby.tables[tid], {0: ann, 1: bob, 2: carl})
            assert host.lobby.tables[tid].status == "finished"
            # two seats is the least a table has
            two = host.create_table("two", "jamaica", {"players": 2})
            (dan, _, _), = await seat_players(host.port, two, ["dan"])
            dan.send(messages.RemoveBot(table=two, seat=1))
            assert (await dan.expect(messages.Error)).code == "bad-seat"
        finally:
            await stop_host(host)

    run(scenario())


def test_an_unknown_bot_kind_is_refused_as_such_even_where_no_seat_is_free():
    """docs/protocol.md 4.9: a kind other than random, greedy or ismcts is bad-field,
    whatever the table (a full one used to answer table-full); a known kind at a full
    table is table-full; an ismcts bot sits and plays the game to its end."""
    async def scenario() -> None:
        host = make_host()  # (at --level easy, a bot without a level is the greedy one)
        try:
            tid = host.create_table("t", "jamaica", SMALL)
            (ann, a, _), = await seat_players(host.port, tid, ["ann"])
            ann.send(messages.AddBot(table=tid, kind="wizard"))
            assert (await ann.expect(messages.Error)).code == "bad-field"  # a free seat
            ann.send(messages.AddBot(table=tid, kind="ismcts"))
            lobby = await ann.expect(messages.Lobby, lambda m: _seat(m, tid, 1 - a)["bot"])
            assert _seat(lobby, tid, 1 - a)["bot"] == "ismcts"
            for kind, code in (("wizard", "bad-field"), ("ISMCTS", "bad-field"),
                               ("greedy", "table-full")):  # no seat is free now
                ann.send(messages.AddBot(table=tid, kind=kind))
                assert (await ann.expect(messages.Error)).code == code, kind
            table = host.lobby.tables[tid]
            assert [s.bot_kind for s in table.seats if s.bot is not None] == ["ismcts"]
            ann.send(messages.Start(table=tid))
            await state_at(ann)
            await play_on(table, {a: ann})
            assert table.state.is_over
        finally:
            await stop_host(host)

    run(scenario())
