"""A browser seat's stream never carries a card hidden from that seat.

Two tables play the same public game with a browser guest at seat 0; the second has
every card hidden from the guest dealt again (the other hands and the stock order). While
another seat plays cards and draws from the stock, every byte of the guest's play
streams must be the same (but the table's number): the guest's views come from the
engine's view for its seat alone, and what the bridge adds (move previews) only from it.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cartagena_net.engine import view
from tests.twisted_loop import make_host, run, stop_host
from tests.web.test_leak import plan
from tests.web.test_seats import Guest


def redeal(state, keep: set[int], rng: random.Random) -> None:
    """Deal again every card hidden from the seats of ``keep``: the other hands and the
    stock order."""
    seats = view(state, "spectator")["seats"]
    hands = [list(view(state, s["seat"])["seats"][s["seat"]]["hand"]) for s in seats]
    pool = [c for i, h in enumerate(hands) if i not in keep for c in h]
    pool += [state.game.card_names[k] for k in state.stock]
    rng.shuffle(pool)
    for i, h in enumerate(hands):
        if i not in keep:
            hands[i] = [pool.pop() for _ in h]
    turn, taken = state.turn, state.taken
    state.setup([list(p) for p in state.pirates], hands=hands, turn=turn)
    state.taken = taken
    rng.shuffle(state.stock)


def same_but_table(a: bytes, b: bytes, ids: tuple[int, int]) -> bool:
    return a.replace(b'"table":%d' % ids[0], b'"table":T') == b.replace(
        b'"table":%d' % ids[1], b'"table":T')


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_redealt_hidden_cards_do_not_change_a_byte_of_a_guests_stream(seed, players):
    async def go():
        host = make_host(web_port=0, bot_delay=3600.0)
        try:
            tables, guests = [], []
            for name in ("a", "b"):
                tid = host.create_table(name, "jamaica", {"players": players},
                                        bots=players - 1)
                guest = await Guest(host.web.port).open()
                await guest.send({"type": "hello", "versions": [1], "name": "zoe",
                                  "role": "player"})
                await guest.msg("welcome")
                await guest.send({"type": "join_table", "table": tid, "spectate": False})
                assert (await guest.msg("joined"))["seat"] == 0
                tables.append(host.lobby.tables[tid])
                guests.append(guest)
            a, b = tables
            a.start(None)
            b.start(None)
            for g in guests:
                await g.msg("state")
            while a.state.actor == 0:  # the guest's own turn first: one move, then end
                legal = [str(x) for x in a.state.legal_actions()]
                a.apply(0, "end" if "end" in legal else legal[0])
                await guests[0].msg("state")
            b.state = a.state.copy(events=True)
            redeal(b.state, {0, a.state.actor}, random.Random(seed))
            b.seq, b.sent_events = a.seq, a.sent_events
            for g in guests:
                g.blocks.clear()
            for action in plan(a.state):
                for t in tables:
                    t.apply(t.state.actor, action)
                for g in guests:
                    await g.msg("state")
            assert a.state.hands != b.state.hands or a.state.stock != b.state.stock
            states = [b"".join(block for kind, block in g.blocks if kind == "state")
                      for g in guests]  # (lobby pushes come whenever they come)
            assert states[0] and same_but_table(*states, (a.id, b.id))
            for g in guests:
                g.close()
        finally:
            await stop_host(host)
    run(go())
