"""Reconnect with the seat token mid-turn; takeover by a bot while a player is away."""
from __future__ import annotations

import asyncio

from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host


def _lobby_seat(msg, tid, seat):
    table = next(t for t in msg.tables if t["id"] == tid)
    return table["seats"][seat]


def test_reconnect_mid_turn_restores_the_seat_with_a_full_view():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            (ann, a, a_tok), (bob, b, b_tok) = await seat_players(host.port, tid, ["ann", "bob"])
            ann.send(messages.Start(table=tid))
            table = host.lobby.tables[tid]
            s = await state_at(ann)
            first, other, seat = (ann, bob, a) if s.legal else (bob, ann, b)
            if first is bob:
                s = await state_at(bob, s.seq)
            mover_tok = a_tok if first is ann else b_tok
            # one action of a turn of up to three, then the connection drops
            first.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            mid = await state_at(first, s.seq + 1)
            assert mid.legal and mid.view["actions_taken"] == 1
            first.close()
            lobby = await other.expect(
                messages.Lobby, lambda m: not _lobby_seat(m, tid, seat)["connected"]
            )
            assert _lobby_seat(lobby, tid, seat)["name"] in ("ann", "bob")
            # the game waits: the other player cannot act for the absent one
            other.send(messages.Action(table=tid, seq=mid.seq, action="end"))
            err = await other.expect(messages.Error)
            assert err.code == "not-your-turn" and table.seq == mid.seq
            # a wrong token is refused, the right one restores the seat
            from .helpers import connect

            thief = await connect(host.port)
            thief.send(messages.Hello(versions=(1,), name="eve", token="x" * 32))
            assert (await thief.expect(messages.Error)).code == "bad-token"
            back, welcome = await join(host.port, "again", token=mover_tok)
            assert welcome.resumed is not None
            assert welcome.resumed == {"table": tid, "seat": seat}
            fresh = await state_at(back, mid.seq)
            assert fresh.view == {**mid.view}
            assert list(fresh.legal) == list(mid.legal)
            await other.expect(messages.Lobby, lambda m: _lobby_seat(m, tid, seat)["connected"])
            back.send(messages.Action(table=tid, seq=fresh.seq, action=fresh.legal[0]))
            await state_at(other, fresh.seq + 1)
            back.close()
            other.close()
            thief.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_takeover_bot_plays_an_absent_seat_until_the_player_returns():
    async def scenario() -> None:
        host = make_host(takeover=0.2)
        try:
            tid = host.create_table("t", "jamaica", {"players": 2}, bots=1, bot_kind="random")
            ((ann, seat, tok),) = await seat_players(host.port, tid, ["ann"])
            ann.send(messages.Start(table=tid))
            table = host.lobby.tables[tid]
            s = await state_at(ann)
            ann.close()
            # nobody human is connected: the takeover bot and the seat's bot play on
            for _ in range(400):
                if table.seq > s.seq + 6 or table.status == "finished":
                    break
                await asyncio.sleep(0.02)
            assert table.seq > s.seq + 6 or table.status == "finished"
            assert table.seats[seat].takeover_bot is not None or table.status == "finished"
            back, welcome = await join(host.port, "ann", token=tok)
            assert welcome.resumed["seat"] == seat
            assert table.seats[seat].takeover_bot is None
            fresh = await back.expect(messages.State)
            assert fresh.view["viewer"] == seat and fresh.view["seats"][seat]["hand"] is not None
            if table.status == "playing":
                # the seat is ann's again: the game now waits for her on her turn
                mine = fresh if fresh.legal else await back.expect(
                    messages.State, lambda m: bool(m.legal))
                await asyncio.sleep(0.3)
                assert table.seq == mine.seq and table.state.actor == seat
            back.close()
        finally:
            await stop_host(host)

    run(scenario())
