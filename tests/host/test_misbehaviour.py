"""Illegal, out-of-turn, stale, malformed, oversized and flooding input."""
from __future__ import annotations

import msgpack

from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host


def test_bad_actions_get_clear_errors_and_change_nothing():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            (ann, _, _), (bob, _, _) = await seat_players(host.port, tid, ["ann", "bob"])
            ann.send(messages.Start(table=tid))
            s = await state_at(ann)
            mover, waiter = (ann, bob) if s.legal else (bob, ann)
            s = s if s.legal else await state_at(bob, s.seq)
            table = host.lobby.tables[tid]
            before = (table.seq, table.state.record())
            cases = [
                (waiter, s.seq, s.legal[0], "not-your-turn"),
                (mover, s.seq - 1, s.legal[0], "stale"),
                (mover, s.seq, "fly to the moon", "bad-action"),
                (mover, s.seq, "retreat 0", "illegal-action"),
                (mover, s.seq, "advance 5 skull", "illegal-action"),
            ]
            for client, seq, text, code in cases:
                client.send(messages.Action(table=tid, seq=seq, action=text))
                err = await client.expect(messages.Error)
                assert (err.code, err.fatal, err.ref) == (code, False, "action"), err
                assert len(err.message) > 10
                assert (table.seq, table.state.record()) == before
            illegal = [c for c in cases if c[3] == "illegal-action"]
            assert illegal
            # the same connections go on playing normally
            mover.send(messages.Action(table=tid, seq=s.seq, action=s.legal[0]))
            await state_at(waiter, s.seq + 1)
            assert table.seq == s.seq + 1
            ann.close()
            bob.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_illegal_action_error_names_the_rule():
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("t", "jamaica", {"players": 2})
            players = await seat_players(host.port, tid, ["ann", "bob"])
            players[0][0].send(messages.Start(table=tid))
            table = host.lobby.tables[tid]
            s = await state_at(players[0][0])
            mover = players[table.state.actor][0]
            mover.send(messages.Action(table=tid, seq=s.seq, action="end"))
            err = await mover.expect(messages.Error)
            assert err.code == "illegal-action" and "end" in err.message.lower(), err.message
            for c, _, _ in players:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


async def _playing_pair(host):
    tid = host.create_table("t", "jamaica", {"players": 3})
    players = await seat_players(host.port, tid, ["ann", "bob", "cid"])
    players[0][0].send(messages.Start(table=tid))
    for c, _, _ in players:
        await state_at(c)
    return tid, players


def _assert_dropped_and_game_goes_on(host, tid, players, victim_index, expected_code):
    async def check():
        victim = players[victim_index][0]
        err = await victim.expect(messages.Error)
        assert err.fatal and err.code == expected_code, err
        await victim.closed()
        table = host.lobby.tables[tid]
        assert table.seats[players[victim_index][1]].conn is None
        before = table.seq
        actor = table.state.actor
        mover = next(c for c, seat, _ in players if seat == actor)
        if mover is victim:  # the game waits for the dropped seat; nothing changed
            assert table.status == "playing"
            return
        legal = [str(a) for a in table.state.legal_actions()]
        mover.send(messages.Action(table=tid, seq=before, action=legal[0]))
        other = next(c for i, (c, _, _) in enumerate(players) if i != victim_index)
        await state_at(other, before + 1)
    return check()


def test_malformed_frame_is_a_fatal_error_for_that_connection_only():
    async def scenario() -> None:
        host = make_host()
        try:
            tid, players = await _playing_pair(host)
            body = b"\xc1\xc1\xc1"  # 0xc1 is never valid msgpack
            players[2][0].send_raw(len(body).to_bytes(4, "big") + body)
            await _assert_dropped_and_game_goes_on(host, tid, players, 2, "bad-msgpack")
            for c, _, _ in players:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_oversized_frame_is_refused_from_its_header():
    async def scenario() -> None:
        host = make_host()
        try:
            tid, players = await _playing_pair(host)
            players[2][0].send_raw((10**8).to_bytes(4, "big") + b"x" * 1000)
            await _assert_dropped_and_game_goes_on(host, tid, players, 2, "frame-too-large")
            for c, _, _ in players:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_flooding_connection_is_rate_limited_and_dropped():
    async def scenario() -> None:
        host = make_host(rate=20.0, burst=40.0)
        try:
            tid, players = await _playing_pair(host)
            table = host.lobby.tables[tid]
            before = table.seq
            seq = table.seq
            frame = msgpack.packb({"type": "chat", "table": tid, "text": "spam"})
            flood = (len(frame).to_bytes(4, "big") + frame) * 500
            players[2][0].send_raw(flood)
            await _assert_dropped_and_game_goes_on(host, tid, players, 2, "rate-limited")
            assert table.seq in (before, before + 1) and seq == before
            for c, _, _ in players:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_unknown_and_bad_fields_are_non_fatal_and_the_connection_goes_on():
    async def scenario() -> None:
        host = make_host()
        try:
            c, _ = await join(host.port, "ann")
            c.send_map({"type": "teleport", "where": "boat"})
            err = await c.expect(messages.Error)
            assert err.code == "unknown-type" and not err.fatal
            c.send_map({"type": "join_table", "table": "one"})
            err = await c.expect(messages.Error)
            assert err.code == "bad-field" and not err.fatal
            c.send_map({"type": "join_table", "table": 99})
            err = await c.expect(messages.Error)
            assert err.code == "no-such-table" and "99" in err.message
            c.send(messages.Ping(nonce=7))
            assert (await c.expect(messages.Pong)).nonce == 7
            c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_wrong_password_and_bad_hello_are_fatal():
    async def scenario() -> None:
        host = make_host(password="s3cret")
        try:
            tid = host.create_table("t", "jamaica", {"players": 2}, password="t4ble")
            c, _ = await join(host.port, "ann", password="s3cret")
            c.send(messages.JoinTable(table=tid, password="nope"))
            err = await c.expect(messages.Error)
            assert err.code == "bad-password" and not err.fatal
            c.send(messages.JoinTable(table=tid, password="t4ble"))
            assert (await c.expect(messages.Joined)).seat == 0
            from .helpers import connect

            bad = await connect(host.port)
            bad.send(messages.Hello(versions=(1,), name="eve", password="guess"))
            err = await bad.expect(messages.Error)
            assert err.code == "bad-password" and err.fatal
            await bad.closed()
            old = await connect(host.port)
            old.send_map({"type": "hello", "versions": [9], "name": "x", "role": "player"})
            err = await old.expect(messages.Error)
            assert err.code == "no-common-version" and err.fatal
            await old.closed()
            summary = repr(host.summary())
            assert "s3cret" not in summary and "t4ble" not in summary
            assert host.lobby.tables[tid].seats[0].token not in summary
            c.close()
        finally:
            await stop_host(host)

    run(scenario())
