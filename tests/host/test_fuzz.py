"""Random and hostile input against a host with a game on: nothing escapes, nothing changes."""
from __future__ import annotations

import random

import msgpack
import pytest
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from cartagena_net.engine import view
from cartagena_net.host.connection import HostConnection
from cartagena_net.host.play import legal as legal_actions
from protocol import FrameDecoder, encode_frame, messages

from .test_connection_limits import at_table, hello, make, received

TYPES = ["hello", "action", "start", "join_table", "leave", "add_bot", "remove_bot",
         "create_table", "chat", "ping", "pong", "state", "welcome", "lobby", "joined", "x"]


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.randrange(-(2**40), 2**40)
    if kind == 1:
        return "".join(rng.choice("ab \x00\x1b⚓é") for _ in range(rng.randrange(40)))
    if kind == 2:
        return rng.choice([None, True, False, 1, 0, -1, 2**32])
    if kind == 3:
        return rng.random()
    if kind == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(8)))
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["table", "seq", "action", "seat", "kind", "name"]):
            random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_frame(rng: random.Random, table: int, seq: int) -> bytes:
    roll = rng.random()
    if roll < 0.15:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
    d = {k: random_value(rng) for k in rng.sample(
        ["table", "seq", "action", "seat", "spectate", "kind", "name", "versions", "role"],
        rng.randrange(5))}
    d["type"] = rng.choice(TYPES)
    if rng.random() < 0.5:
        d.update(table=table, seq=seq)
    body = msgpack.packb(d, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def test_random_input_never_escapes_and_never_changes_the_game():
    clock = Clock()
    host = make(clock, rate=1e9, burst=1e9)
    tid = host.create_table("t", "jamaica", {"players": 2})
    players = [at_table(host, tid) for _ in ("ann", "bob")]
    players[0][0].dataReceived(encode_frame(messages.Start(table=tid).to_wire()))
    table = host.lobby.tables[tid]
    before = (table.seq, table.state.record())
    rng = random.Random(20261122)
    dropped = 0
    for round_ in range(300):
        conn = HostConnection(host, f"10.0.1.{round_ % 200}")
        t = StringTransport()
        conn.makeConnection(t)
        if rng.random() < 0.7:
            hello(conn, role=rng.choice(["player", "spectator"]))
        for _ in range(rng.randrange(1, 12)):
            data = random_frame(rng, tid, table.seq)
            cut = rng.randrange(len(data) + 1)
            conn.dataReceived(data[:cut])  # any chunking
            conn.dataReceived(data[cut:])
        frames = received(t)
        assert all(f["type"] in ("welcome", "lobby", "error", "joined", "state", "pong", "chat")
                   for f in frames)
        if t.disconnecting:
            dropped += 1
            assert frames and frames[-1]["type"] == "error" and frames[-1]["fatal"]
        conn.connectionLost()
    assert (table.seq, table.state.record()) == before
    assert all(not t.disconnecting for _, t in players)
    assert dropped > 0
    # the real players still play
    actor = table.state.actor
    legal = [str(a) for a in table.state.legal_actions()]
    players[actor][0].dataReceived(encode_frame(
        messages.Action(table=tid, seq=table.seq, action=legal[0]).to_wire()))
    assert table.seq == before[0] + 1


def test_spectators_share_one_encoding_per_update():
    clock = Clock()
    host = make(clock)
    tid = host.create_table("t", "jamaica", {"players": 2})
    conns = [at_table(host, tid, spectate=i >= 2) for i in range(6)]
    conns[0][0].dataReceived(encode_frame(messages.Start(table=tid).to_wire()))
    table = host.lobby.tables[tid]
    calls = []
    real = host.encode_wire

    def counting(wire):
        data = real(wire)
        calls.append((wire["view"]["viewer"], data))
        return data

    seat_frames = table.viewers.seat_frame  # the seats' frames: the common parts spliced in

    def counting_seat(seat, since, shared, parts):
        data = seat_frames(seat, since, shared, parts)
        calls.append((seat, data))
        return data

    host.encode_wire = counting
    table.viewers.seat_frame = counting_seat
    since = table.sent_events
    for _, t in conns:
        t.clear()
    actor = table.state.actor
    conns[actor][0].dataReceived(encode_frame(messages.Action(
        table=tid, seq=table.seq, action=str(table.state.legal_actions()[0])).to_wire()))
    assert sorted(str(v) for v, _ in calls) == ["0", "1", "spectator"]
    spectator_bytes = next(d for v, d in calls if v == "spectator")
    for _, t in conns[2:]:
        assert t.value() == spectator_bytes
    for seat in range(2):  # a seat's frame decodes to its whole view, the fixed part too
        decoder = FrameDecoder()
        decoder.receive_data(conns[seat][1].value())
        sent = decoder.next_frame()
        assert sent["type"] == "state" and decoder.next_frame() is None
        assert sent["view"] == view(table.state, seat)
        assert list(sent["view"]) == list(view(table.state, seat))
        # ... and to the whole message, as one built alone for that seat
        alone = table.viewers.state_wire(seat, since)
        assert sent == alone and sent["events"] and sent["lines"]
        assert bool(sent["legal"]) == (seat == table.state.actor)


@pytest.mark.parametrize(("rules", "options"), [
    ("jamaica", {"players": 4}),
    ("studiogiochi-2017", {"players": 3, "morgan": "also", "filibusters": True}),
    ("studiogiochi-2017", {"players": 4, "magic": True}),
    ("tortuga", {"players": 2}),
])
def test_every_seat_frame_of_a_whole_game_is_the_message_built_for_that_seat_alone(
        rules, options):
    """The seats' frames are put together from parts encoded once for all (the view's
    fixed and public parts, a list of events every seat it does not name reads alike):
    after every action of a whole game, with its draws, reshuffles, debts and powers,
    each seat's frame decodes to the message built for that seat alone, its own cards
    and events included."""
    clock = Clock()
    host = make(clock, rate=1e9, burst=1e9)  # the clock stands still: no rate to keep
    tid = host.create_table("t", rules, options)
    players = options["players"]
    conns = [at_table(host, tid) for _ in range(players)]
    conns[0][0].dataReceived(encode_frame(messages.Start(table=tid).to_wire()))
    table = host.lobby.tables[tid]
    rng = random.Random(len(rules) + players)
    actions = 0
    personal = 0
    while not table.state.is_over and actions < 3000:
        since = table.sent_events
        for _, t in conns:
            t.clear()
        legal = legal_actions(table.state, table.state.actor)
        conns[table.state.actor][0].dataReceived(encode_frame(messages.Action(
            table=tid, seq=table.seq, action=rng.choice(legal)).to_wire()))
        actions += 1
        for seat, (_, t) in enumerate(conns):
            decoder = FrameDecoder()
            decoder.receive_data(t.value())
            sent = decoder.next_frame()
            assert decoder.next_frame() is None
            alone = table.viewers.state_wire(seat, since)
            assert sent == alone
            personal += any("cards" in e for e in sent["events"])
    assert table.state.is_over and personal > 0
