"""A full 4-player game over real TCP between protocol/-only clients."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from cartagena_net.engine import SPECTATOR, view
from protocol import messages

from .helpers import join, make_host, run, stop_host


def hands_in(obj: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every (seat, hand) pair anywhere in a decoded frame (drawn cards count as hands)."""
    if isinstance(obj, dict):
        if "hand" in obj and "seat" in obj:
            out.append((obj["seat"], obj["hand"]))
        if "cards" in obj and "seat" in obj and obj.get("type") != "discard":
            out.append((obj["seat"], obj["cards"]))
        for v in obj.values():
            hands_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            hands_in(v, out)
    return out


async def play_until_over(clients: list[Any], seats: list[int], rng: random.Random) -> Any:
    """Each client acts when its state lists legal actions; return the final view."""
    latest: dict[int, Any] = {}
    while True:
        # the most recent state each client has (skipping lobby messages)
        for c, seat in zip(clients, seats):
            while not c.inbox.empty():
                msg = c.inbox.get_nowait()
                if isinstance(msg, messages.State):
                    latest[seat] = msg
                else:
                    assert not isinstance(msg, messages.Error), f"seat {seat}: {msg}"
        top = max((m.seq for m in latest.values()), default=-1)
        current = [m for m in latest.values() if m.seq == top]
        if current and current[0].view["outcome"] is not None and len(current) == len(seats):
            return current[0]
        for c, seat in zip(clients, seats):
            m = latest.get(seat)
            if m is not None and m.seq == top and m.legal:
                c.send(messages.Action(table=m.table, seq=m.seq, action=rng.choice(m.legal)))
                latest.pop(seat)
        await _any_message(clients)


async def _any_message(clients: list[Any]) -> None:
    for _ in range(10000):
        if any(not c.inbox.empty() for c in clients):
            return
        await asyncio.sleep(0.003)
    pytest.fail("no message for 30 s")


def test_four_players_play_a_full_game_and_never_see_other_hands():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 4})
            clients, seats, tokens = [], [], []
            for name in ("ann", "bob", "cid", "dee"):
                c, _ = await join(host.port, name)
                c.send(messages.JoinTable(table=tid))
                j = await c.expect(messages.Joined)
                assert j.token and j.seat is not None
                clients.append(c)
                seats.append(j.seat)
                tokens.append(j.token)
            assert sorted(seats) == [0, 1, 2, 3] and len(set(tokens)) == 4
            # only the owner (first to sit) may start
            clients[1].send(messages.Start(table=tid))
            err = await clients[1].expect(messages.Error)
            assert err.code == "not-owner"
            clients[0].send(messages.Start(table=tid))
            final = await play_until_over(clients, seats, random.Random(3))
            table = host.lobby.tables[tid]
            assert table.status == "finished" and table.state.is_over
            public = view(table.state, SPECTATOR)
            assert final.view["outcome"] == public["outcome"]
            assert [s["pirates"] for s in final.view["seats"]] == [
                s["pirates"] for s in public["seats"]]
            for c, seat in zip(clients, seats):
                frames = c.frames()
                assert any(f["type"] == "state" for f in frames)
                pairs = hands_in(frames, [])
                assert any(s == seat and h is not None for s, h in pairs)
                leaked = [(s, h) for s, h in pairs if s != seat and h is not None]
                assert not leaked, f"seat {seat} received other hands: {leaked[:3]}"
                assert not any(tok.encode() in bytes(c.raw) for tok in tokens
                               if tok != tokens[seats.index(seat)])
            for c in clients:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())
