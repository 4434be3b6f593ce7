"""The web stream never carries a card hidden from spectators.

Two tables play the same public game; the second has every hidden card dealt again
(the other seats' hands and the stock order). Every byte of their web streams' game
events must be the same: the first view, and each update while the seat to act plays
cards and draws from the stock.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cartagena_net.engine import SPECTATOR, view
from tests.twisted_loop import make_host, run, stop_host
from tests.web.http import event_data, open_stream


def redeal(state, keep: set[int], rng: random.Random) -> None:
    """Deal again every card hidden from the seats of ``keep``: the other hands and the
    stock order. The hands are dealt again until one of them really differs (a shuffle
    can deal a seat the same cards again), where a seat outside ``keep`` holds any."""
    seats = view(state, SPECTATOR)["seats"]
    hands = [list(view(state, s["seat"])["seats"][s["seat"]]["hand"]) for s in seats]
    hidden = [i for i in range(len(hands)) if i not in keep]
    pool = [c for i in hidden for c in hands[i]]
    pool += [state.game.card_names[k] for k in state.stock]
    before = [sorted(h) for h in hands]
    while True:
        rng.shuffle(pool)
        deal = list(pool)
        dealt = [h if i in keep else [deal.pop() for _ in h] for i, h in enumerate(hands)]
        if not any(hands[i] for i in hidden) or [sorted(h) for h in dealt] != before:
            break
    turn, taken = state.turn, state.taken
    state.setup([list(p) for p in state.pirates], hands=dealt, turn=turn)
    state.taken = taken
    rng.shuffle(state.stock)


def plan(state) -> list[str]:
    """The seat to act advances twice, then retreats the front pirate (a stock draw)."""
    seat = state.actor
    hand = view(state, seat)["seats"][seat]["hand"]
    acts = [f"advance 0 {hand[0]}", f"advance 0 {hand[1]}"]
    trial = state.copy()
    for a in acts:
        trial.apply(a)
    front = max(trial.pirates[seat])
    return [*acts, f"retreat {front}"]


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_redealt_hidden_cards_do_not_change_a_byte(seed, players):
    async def go():
        host = make_host(web_port=0, bot_delay=3600.0)
        try:
            tables = []
            for name in ("a", "b"):
                tid = host.create_table(name, "jamaica", {"players": players}, bots=players)
                host.lobby.tables[tid].start(None)
                tables.append(host.lobby.tables[tid])
            a, b = tables
            b.match.state = a.state.copy(events=True)  # b's game made a's (a test's poke)
            before = [list(h) for h in b.state.hands], list(b.state.stock)
            redeal(b.state, {a.state.actor}, random.Random(seed))
            assert ([list(h) for h in b.state.hands], list(b.state.stock)) != before
            b.match.seq, b.match.sent_events = a.seq, a.sent_events
            streams = [await open_stream(host.web.port, f"/table/{t.id}/events") for t in tables]
            first = [(await s.event("state"))[1] for s in streams]
            assert first[0] == first[1]
            assert all(seat["hand"] is None for seat in event_data(first[0])["view"]["seats"])
            said: list[dict] = []  # every event the streams told (a state may carry only
            for action in plan(a.state):  # the chances the value model made after it)
                for t in tables:
                    t.play.apply(t.state.actor, action)
                got = [(await s.event("state"))[1] for s in streams]
                assert got[0] == got[1], action
                said += event_data(got[0]).get("events") or []
            for _ in range(2 * len(plan(a.state)) + 4):  # the states still on their way
                if any(e["type"] == "retreat" for e in said):
                    break
                got = [(await s.event("state"))[1] for s in streams]
                assert got[0] == got[1]
                said += event_data(got[0]).get("events") or []
            drawn = [e for e in said if e["type"] == "retreat"]
            assert drawn and drawn[0]["drawn"] >= 1 and "cards" not in drawn[0]
            assert a.state.hands != b.state.hands  # the hidden cards really differ
            for s in streams:
                s.close()
        finally:
            await stop_host(host)
    run(go())
