"""A browser seat's stream never carries a card hidden from that seat.

Two tables play the same public game with a browser guest at seat 0; the second has
every card hidden from the guest dealt again (the other hands and the stock order). While
another seat plays cards and draws from the stock, every byte of the guest's play
streams must be the same (but the table's number): the guest's views come from the
engine's view for its seat alone, and what the bridge adds (move previews) only from it.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cartagena_net.engine import view
from protocol import messages
from tests.host.helpers import join
from tests.records.test_format import MIXES
from tests.twisted_loop import make_host, run, stop_host, until
from tests.web.test_leak import plan, redeal
from tests.web.test_seats import Guest


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
                a.play.apply(0, "end" if "end" in legal else legal[0])
                await guests[0].msg("state")
            b.match.state = a.state.copy(events=True)  # b's game made a's (a test's poke)
            redeal(b.state, {0, a.state.actor}, random.Random(seed))
            b.match.seq, b.match.sent_events = a.seq, a.sent_events
            for g in guests:
                g.blocks.clear()
            for action in plan(a.state):
                for t in tables:
                    t.play.apply(t.state.actor, action)
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


@pytest.mark.parametrize(("rules", "options"), MIXES,
                         ids=[f"{r}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for r, o in MIXES])
def test_every_view_a_guest_gets_is_the_engines_view_for_its_seat(rules, options):
    """In every preset and option mix, a browser seat and a terminal seat play a game
    (seeded random moves); each state the guest's stream carries (but the bridge's
    previews, checked against the engine's preview of that view) is exactly the
    engine's view for the guest's seat at that moment: the one filter, nothing more."""
    from cartagena_net.web.seats import previews

    host = make_host(web_port=0, bot_delay=3600.0)

    async def go():
        ann, _ = await join(host.port, "ann")
        ann.send(messages.CreateTable(name="t", rules=rules, options=options))
        tid = (await ann.expect(messages.Joined)).table
        guest = await Guest(host.web.port).open()
        await guest.send({"type": "hello", "versions": [1], "name": "zoe", "role": "player"})
        await guest.msg("welcome")
        await guest.send({"type": "join_table", "table": tid, "spectate": False})
        seat = (await guest.msg("joined"))["seat"]
        table = host.lobby.tables[tid]
        if len(table.seats) > 2:
            for _ in range(len(table.seats) - 2):
                ann.send(messages.AddBot(table=tid, kind="random"))
            await until(lambda: all(s.occupied for s in table.seats), "bots seated")
        ann.send(messages.Start(table=tid))
        rng = random.Random(len(rules) + len(options))
        checked = 0
        for _ in range(400):
            state = await guest.msg("state")
            if state["seq"] != table.seq:
                continue  # an older state: the table moved on since
            expected = json.loads(json.dumps(view(table.state, seat)))
            got = dict(state["view"])
            assert got == expected, (rules, options, state["seq"])
            assert state.get("previews", {}) == (previews(got, state["legal"])
                                                 if state["legal"] else {})
            checked += 1
            if table.state.is_over:
                break
            actor = table.state.actor
            legal = [str(a) for a in table.state.legal_actions() if str(a) != "undo"]
            table.play.apply(actor, rng.choice(legal))  # whoever acts: the seat's own move
        assert checked > 20
        guest.close()
        ann.close()

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))
