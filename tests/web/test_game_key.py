"""What the web pages key a game's events, marks and chances by: the seq of the game's
first state, sent with every state to the TV page and the browser seats; a new one at
Play again, the same after the host is resumed."""
from __future__ import annotations

import asyncio

from cartagena_net.engine import SPECTATOR
from protocol import messages
from tests.host.helpers import make_host, run, seat_players, state_at, stop_host
from tests.web.http import event_data, open_stream


def test_every_game_at_a_table_has_its_own_key_and_the_seats_are_said_first():
    async def scenario() -> None:
        host = make_host(lobby_delay=5.0, web_port=0)  # pushed only when pushed at once
        try:
            tid = host.create_table("t", "jamaica", {"players": 2, "segments": 1,
                                                     "pirates": 1}, bots=1,
                                    bot_kind="greedy")
            ((ann, _seat, _tok),) = await seat_players(host.port, tid, ["ann"])
            table = host.lobby.tables[tid]
            ann.send(messages.Start(table=tid))
            s = await state_at(ann)
            first = table.game_seq
            assert first == s.seq > 0
            wire = table.full_state(SPECTATOR)
            assert wire["game"] == first
            while not s.view.get("outcome"):
                if s.legal:
                    ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
                s = await state_at(ann, s.seq + 1)
            while True:  # the lobby's news of the finished game, then Play again
                try:
                    await asyncio.wait_for(ann.expect(messages.Lobby), 0.2)
                except TimeoutError:
                    break
            tv = await open_stream(host.web.port, f"/table/{tid}/events")
            await tv.event("state")
            ann.send(messages.Start(table=tid))
            # The seats moved round: the lobby says so before the new game's first state,
            # without waiting for lobby_delay.
            seen = []
            while True:
                msg = await asyncio.wait_for(ann.inbox.get(), 30)
                seen.append(type(msg).__name__)
                if isinstance(msg, messages.State):
                    break
            assert "Lobby" in seen and seen.index("Lobby") < len(seen) - 1, seen
            assert table.game_seq == msg.seq > first
            assert table.full_state(SPECTATOR)["game"] == table.game_seq
            # The TV page too: the seats' new order, then the new game's first state.
            kinds = []
            while True:
                kind, block = await tv.event()
                kinds.append(kind)
                data = event_data(block)
                if kind == "table":
                    names = [seat["name"] for seat in data["seats"]]
                if kind == "state" and data["game"] == table.game_seq:
                    break
            assert "table" in kinds, kinds
            assert names == [s.name for s in table.seats] and names[1] == "ann", names
            assert data["reset"] is True and data["curve"] == [] and data["chances"] is None
            tv.close()
        finally:
            await stop_host(host)
    run(scenario())
