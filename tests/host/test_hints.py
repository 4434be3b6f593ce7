"""Hints and live chances over real TCP: a seated player at a hints table asks and only
that seat gets the bot's move (one of its legal actions, with a reason), not played;
refused at a table without hints, to spectators and off turn; spectators' states carry
each seat's chances (null, then numbers summing to 1), the players' only when the owner
chose so; the lobby shows both settings; the record marks a move taken after a hint."""
from __future__ import annotations

import asyncio

from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host


async def _no_hint(client, timeout: float = 0.8) -> None:
    try:
        got = await client.expect(messages.Hint, timeout=timeout)
    except TimeoutError:
        return
    raise AssertionError(f"a hint reached another connection: {got}")


async def _chances(client, pred=lambda s: s.chances is not None, timeout: float = 60.0):
    return await client.expect(messages.State, lambda s: pred(s), timeout=timeout)


def test_a_seated_player_asks_and_only_that_seat_sees_the_bots_move(tmp_path):
    async def scenario() -> None:
        host = make_host(bot_workers=2, records_dir=str(tmp_path), reviews=False,
                         bot_think=0.3)
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="learn", rules="jamaica",
                                          options={"players": 3}, hints=True))
            joined = await ann.expect(messages.Joined)
            tid = joined.table
            lobby = await ann.expect(messages.Lobby, lambda m: any(
                t["id"] == tid and t["hints"] for t in m.tables))
            entry = next(t for t in lobby.tables if t["id"] == tid)
            assert entry["hints"] is True and entry["player_chances"] is False
            bob, _ = await join(host.port, "bob")
            bob.send(messages.JoinTable(table=tid))
            await bob.expect(messages.Joined)
            ann.send(messages.AddBot(table=tid, kind="greedy"))
            spec, _ = await join(host.port, "watcher", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await spec.expect(messages.Joined)
            ann.send(messages.Start(table=tid))
            first = await state_at(ann)
            assert first.chances is None  # a player's own screen: the owner did not choose
            # the spectator's states carry chances: nil at first, then numbers
            got = await _chances(spec)
            assert len(got.chances) == 3 and abs(sum(got.chances) - 1) < 1e-3
            actor = first.view["actor"]
            asker, other = (ann, bob) if actor == joined.seat else (bob, ann)
            state = first if asker is ann else await state_at(bob, first.seq)
            asker.send(messages.Hint(table=tid))
            hint = await asker.expect(messages.Hint, timeout=30)
            assert hint.seq == state.seq and hint.action in state.legal
            assert hint.reason and hint.why["kind"]
            await _no_hint(other)
            await _no_hint(spec, 0.1)
            table = host.lobby.tables[tid]
            assert table.seq == state.seq  # previewed, not played
            # off turn: nothing to decide; a spectator; both refused
            other.send(messages.Hint(table=tid))
            err = await other.expect(messages.Error)
            assert err.code == "not-your-turn" and err.ref == "hint" and not err.fatal
            spec.send_map({"type": "hint", "table": tid})
            err = await spec.expect(messages.Error)
            assert err.code == "not-allowed" and err.ref == "hint"
            # the asker plays the hinted move: the record marks it
            asker.send(messages.Action(table=tid, seq=state.seq, action=hint.action))
            await state_at(asker, state.seq + 1)
            assert table.coach.hinted_moves == [state.seq - first.seq]
        finally:
            await stop_host(host)

    run(scenario())


def test_hints_are_refused_at_a_table_without_them_and_players_see_chances_if_chosen():
    async def scenario() -> None:
        host = make_host(bot_workers=2)
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="plain", rules="jamaica",
                                          options={"players": 2}, player_chances=True))
            tid = (await ann.expect(messages.Joined)).table
            ann.send(messages.AddBot(table=tid, kind="greedy"))
            ann.send(messages.Start(table=tid))
            await state_at(ann)
            ann.send(messages.Hint(table=tid))
            err = await ann.expect(messages.Error)
            assert err.code == "not-allowed" and "hints" in err.message
            # the owner chose: the players see them too (made at once by the value
            # model, they may have come before the error)
            got = next((m for m in ann.seen if isinstance(m, messages.State)
                        and m.chances is not None), None) or await _chances(ann)
            assert len(got.chances) == 2 and abs(sum(got.chances) - 1) < 1e-3
        finally:
            await stop_host(host)

    run(scenario())


def test_no_live_chances_sends_none():
    async def scenario() -> None:
        host = make_host(bot_workers=2, live_chances=False)
        try:
            tid = host.create_table("bots", "jamaica", {"players": 2}, bots=2,
                                    bot_kind="greedy")
            spec, _ = await join(host.port, "watcher", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await spec.expect(messages.Joined)
            host.lobby.tables[tid].start(None)
            for _ in range(6):
                s = await spec.expect(messages.State)
                assert s.chances is None
        finally:
            await stop_host(host)

    run(scenario())


def test_a_client_of_today_plays_a_whole_game_with_chances_flowing():
    """Clients that know nothing of chances and hints decode every frame and play on to
    the end (greedy moves from their own views); the spectator's chances end certain
    for the winner."""
    import random

    from cartagena_net.bots.kinds import GreedyBot

    async def scenario() -> None:
        host = make_host(bot_workers=2)
        try:
            tid = host.create_table("t", "jamaica", {"players": 2}, player_chances=True)
            players = await seat_players(host.port, tid, ["ann", "bob"])
            spec, _ = await join(host.port, "watcher", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await spec.expect(messages.Joined)
            clients = [p[0] for p in players]
            clients[0].send(messages.Start(table=tid))
            bots = [GreedyBot(random.Random(s)) for s in range(2)]
            sent = -1
            for _ in range(20000):
                await asyncio.sleep(0.01)
                last = [[m for m in c.seen if isinstance(m, messages.State)] for c in clients]
                if not all(last):
                    continue
                now = [states[-1] for states in last]
                if now[0].view["outcome"] is not None:
                    break
                for c, st, bot in zip(clients, now, bots, strict=True):
                    if st.legal and st.seq > sent:
                        legal = [a for a in st.legal if a != "undo"]
                        c.send(messages.Action(table=tid, seq=st.seq,
                                               action=bot.choose(st.view, legal)))
                        sent = st.seq
            else:
                raise AssertionError("the game did not end")
            assert all(c.decode_error is None for c in [*clients, spec])
            assert not [m for c in clients for m in c.seen if isinstance(m, messages.Error)]
            winner = now[0].view["outcome"]["winner"]
            last = await _chances(spec, lambda st: st.chances is not None
                                  and st.view["outcome"] is not None
                                  and st.chances[winner] == 1.0)
            assert sum(last.chances) == 1.0
            seen = [m.chances for c in clients for m in c.seen if isinstance(m, messages.State)]
            assert any(ch is not None for ch in seen)  # the owner let the players see them
        finally:
            await stop_host(host)

    run(scenario(), timeout=300)


def test_a_resumed_table_keeps_its_hints_and_the_hinted_moves(tmp_path):
    """The journal keeps the owner's choices and which moves came after a hint: a host
    restored from it allows hints again, and its record will mark those moves."""
    state_dir = tmp_path / "state"

    async def scenario() -> None:
        host = make_host(state_dir=str(state_dir), bot_workers=2, bot_think=0.2)
        tid = host.create_table("learn", "jamaica", {"players": 2}, bots=1,
                                bot_kind="greedy", hints=True, player_chances=True)
        ((ann, _seat, _tok),) = await seat_players(host.port, tid, ["ann"])
        ann.send(messages.Start(table=tid))
        s = await state_at(ann)
        while not s.legal:
            s = await state_at(ann)
        ann.send(messages.Hint(table=tid))
        hint = await ann.expect(messages.Hint, timeout=30)
        ann.send(messages.Action(table=tid, seq=s.seq, action=hint.action))
        await state_at(ann, s.seq + 1)
        marked = list(host.lobby.tables[tid].coach.hinted_moves)
        assert len(marked) == 1
        ann.transport.loseConnection()
        await stop_host(host)

        again = make_host(state_dir=str(state_dir), resume=True, bot_workers=2)
        try:
            table = again.lobby.tables[tid]
            assert table.coach.hints and table.player_chances
            assert table.coach.hinted_moves == marked
            assert table.lobby_entry()["hints"] is True
        finally:
            await stop_host(again)

    run(scenario())


def test_a_resumed_table_shows_the_whole_curve_of_chances_again_and_plays_on(tmp_path):
    """The live chances' curve is journaled point by point: a host restarted from the
    journal gives a returning watcher the same curve and chances as before (not bars
    alone), the next estimates carry on from there, and the game plays to its end."""
    import random

    from cartagena_net.bots.kinds import GreedyBot

    state_dir = tmp_path / "state"

    async def act(clients, table, bot):
        """The seat to act (if its newest state is the table's) plays the bot's move."""
        for c in clients:
            st = [m for m in c.seen if isinstance(m, messages.State)]
            if st and st[-1].legal and st[-1].seq == table.seq:
                legal = [a for a in st[-1].legal if a != "undo"]
                c.send(messages.Action(table=table.id, seq=st[-1].seq,
                                       action=bot.choose(st[-1].view, legal)))
                await state_at(c, st[-1].seq + 1)

    async def watch(host, tid):
        spec, _ = await join(host.port, "watcher", role="spectator")
        spec.send(messages.JoinTable(table=tid, spectate=True))
        await spec.expect(messages.Joined)
        return spec

    async def scenario() -> None:
        host = make_host(state_dir=str(state_dir), bot_workers=2)
        tid = host.create_table("t", "jamaica", {"players": 2}, player_chances=True)
        players = await seat_players(host.port, tid, ["ann", "bob"])
        spec = await watch(host, tid)  # an audience: the chances are estimated
        clients = [p[0] for p in players]
        clients[0].send(messages.Start(table=tid))
        bot = GreedyBot(random.Random(1))
        table = host.lobby.tables[tid]
        for _ in range(2000):
            await asyncio.sleep(0.01)
            if len(table.coach.curve) >= 6:
                break
            await act(clients, table, bot)
        await asyncio.sleep(0.2)
        curve, chances = list(table.coach.curve), list(table.coach.chances)
        assert len(curve) >= 6
        full = table.full_state("spectator")
        assert full["curve"] == curve
        for c in [*clients, spec]:
            c.transport.loseConnection()
        await stop_host(host)

        again = make_host(state_dir=str(state_dir), resume=True, bot_workers=2)
        try:
            table = again.lobby.tables[tid]
            assert table.coach.curve == curve and table.coach.chances == chances
            assert table.full_state("spectator")["curve"] == curve
            spec = await watch(again, tid)
            first = await spec.expect(messages.State)
            assert list(first.chances) == chances  # the bars as they were, at once
            # both seats come back (their tokens) and play on to the end
            tokens = [p[2] for p in players]
            back = []
            for name, tok in zip(["ann", "bob"], tokens, strict=True):
                c, _ = await join(again.port, name, token=tok)
                back.append(c)
            for _ in range(20000):
                await asyncio.sleep(0.005)
                if table.match.state.is_over:
                    break
                await act(back, table, bot)
            else:
                raise AssertionError("the restored game did not end")
            await asyncio.sleep(0.2)
            grown = table.coach.curve
            assert grown[: len(curve)] == curve and len(grown) > len(curve)  # carried on
            assert grown[-1]["chances"][table.match.state.outcome.winner] == 1.0
        finally:
            await stop_host(again)

    run(scenario(), timeout=300)


def test_the_knowledge_followed_turn_by_turn_is_the_one_made_again_from_the_start():
    """What a spectator saw enter hidden hands (cards drawn from the face-up row) is
    followed after every broadcast while someone watches; a table nobody watched makes
    it again from the game's start when a first spectator comes: the same."""
    from cartagena_net.engine import SPECTATOR

    async def scenario() -> None:
        host = make_host(bot_workers=1)
        try:
            tid = host.create_table("row", "jamaica", {"players": 3, "row_size": 6}, bots=3,
                                    bot_kind="greedy")
            table = host.lobby.tables[tid]
            spec, _ = await join(host.port, "watcher", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await spec.expect(messages.Joined)
            table.start(None)
            for _ in range(40):
                await spec.expect(messages.State, lambda s: s.events)
            followed = table.coach.knowledge(SPECTATOR)
            assert not table.coach._stale and any(followed.values())
            table.coach._rebuild()
            assert table.coach.knowledge(SPECTATOR) == followed
            spec.send(messages.Leave(table=tid))  # nobody watches: nothing followed
            await asyncio.sleep(0.5)
            assert table.coach._stale or table.state.is_over
        finally:
            await stop_host(host)

    run(scenario())


def test_the_room_s_chances_know_who_plays_each_seat_from_the_lobby():
    """The host tells the value model who plays each seat, as its lobby lists them to
    everyone (a person: unknown; a random bot; a searching bot): the spectator's first
    chances are the model's with those kinds, and a searching bot is rated above the
    same seat with nobody saying who plays it."""
    from cartagena_net.bots import value

    async def scenario() -> None:
        host = make_host(bot_workers=1, bot_delay=30.0)  # nobody moves: the start
        try:
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="kinds", rules="jamaica",
                                          options={"players": 3}))
            tid = (await ann.expect(messages.Joined)).table
            ann.send(messages.AddBot(table=tid, kind="random"))
            ann.send(messages.AddBot(table=tid, kind="ismcts", level="hard"))
            lobby = await ann.expect(messages.Lobby, lambda m: any(
                t["id"] == tid and sum(s["bot"] is not None for s in t["seats"]) == 2
                for t in m.tables))
            seats = next(t for t in lobby.tables if t["id"] == tid)["seats"]
            kinds = [value.seat_kind(s) for s in seats]
            assert kinds == ["unknown", "random", "search"]
            spec, _ = await join(host.port, "watcher", role="spectator")
            spec.send(messages.JoinTable(table=tid, spectate=True))
            await spec.expect(messages.Joined)
            ann.send(messages.Start(table=tid))
            got = await _chances(spec)
            table = host.lobby.tables[tid]
            assert table.coach.kinds() == kinds
            assert got.seq == table.seq and len(table.coach.curve) == 1  # the start
            want = value.chances(got.view, {}, kinds=kinds)
            assert list(got.chances) == [round(p, 4) for p in want]
            blind = value.chances(got.view, {})
            assert got.chances[2] > blind[2] + 0.05 and got.chances[1] < blind[1] - 0.05
        finally:
            await stop_host(host)

    run(scenario())
