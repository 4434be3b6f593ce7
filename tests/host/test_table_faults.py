"""An engine fault is a fault of one table: refused, logged, state kept, others go on."""
from __future__ import annotations

import random

from cartagena_net.engine import State
from protocol import messages
from tests.twisted_loop import until

from .crashkit import LONG_GAMES, Player, captured_logs, grep, play_to_end, reshuffles
from .helpers import join, make_host, run, seat_players, state_at, stop_host


def _half_applying_bug(monkeypatch, victim, fail_on=None):
    """Make ``State.apply`` change ``victim()``'s state half-way and then raise."""
    original = State.apply
    calls = {"n": 0}

    def broken(self, action, seat=None):
        if self is victim() and (fail_on is None or calls["n"] < fail_on):
            calls["n"] += 1
            self.stock.reverse()  # half-applied: the state is damaged before the raise
            self.pirates[self.turn][0] += 1
            raise RuntimeError("engine bug")
        return original(self, action, seat)

    monkeypatch.setattr(State, "apply", broken)
    return calls


def test_an_engine_fault_refuses_the_action_and_keeps_the_last_good_state(
        monkeypatch, tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        try:
            a = host.create_table("a", "jamaica", LONG_GAMES["jamaica"], bots=1,
                                  bot_kind="random")
            b = host.create_table("b", "jamaica", LONG_GAMES["jamaica"], bots=1,
                                  bot_kind="random")
            ((ann, _, tok),) = await seat_players(host.port, a, ["ann"])
            ((cat, _, _),) = await seat_players(host.port, b, ["cat"])
            ann.send(messages.Start(table=a))
            cat.send(messages.Start(table=b))
            table = host.lobby.tables[a]
            s = await state_at(ann)
            while not s.legal:
                s = await state_at(ann)
            good = table.state.copy(events=True)
            calls = _half_applying_bug(monkeypatch, lambda: table.state)
            with captured_logs() as logs:
                ann.send(messages.Action(table=a, seq=s.seq, action=s.legal[0]))
                err = await ann.expect(messages.Error)
            assert (err.code, err.fatal, err.ref) == ("table-fault", False, "action")
            assert "refused" in err.message and "unchanged" in err.message
            assert calls["n"] == 1
            assert table.state == good and table.seq == s.seq and not table.faulted
            line = grep(logs, "table 1", f"seq {s.seq}", repr(s.legal[0]), "engine fault")
            assert line and "RuntimeError: engine bug" in line[0]
            monkeypatch.undo()
            # the other table went on meanwhile, and this one goes on from its good state
            others = [Player(cat, 0, None)]
            ann_p = Player(ann, 0, tok)
            ann_p.latest = s
            await play_to_end(others, b, random.Random(1), min_reshuffles=1)
            end = await play_to_end([ann_p], a, random.Random(2), min_reshuffles=1)
            assert end.view["outcome"] is not None
            assert host.lobby.tables[a].status == "finished"
        finally:
            await stop_host(host)

    run(scenario())


def test_a_bot_seat_never_stalls_on_an_engine_fault(monkeypatch):
    async def scenario() -> None:
        host = make_host()
        try:
            tid = host.create_table("bots", "jamaica", LONG_GAMES["jamaica"], bots=2,
                                    bot_kind="greedy")
            table = host.lobby.tables[tid]
            # Five faults: the first move's four tries, then (after a 2 s back-off) one
            # more in the retry, whose next try plays. (Six cost a second back-off, 4 s.)
            calls = _half_applying_bug(monkeypatch, lambda: table.state, fail_on=5)
            with captured_logs() as logs:
                table.start(None)
                await until(lambda: table.status == "finished", "the bots' game ends",
                            timeout=60)
            assert calls["n"] == 5  # four tries, then a retry after a back-off
            assert len(grep(logs, "engine fault", f"table {tid}")) == 5
            assert grep(logs, "bot action", "refused")
            assert table.state.is_over and not table.faulted
        finally:
            await stop_host(host)

    run(scenario())


def test_a_bot_plays_on_from_a_restored_game_past_a_reshuffle_to_the_end(tmp_state):
    """Timed bot calls on a restored game (a takeover bot here) never stall it. The bot
    may win before anyone draws again (its pirates ahead leave no retreat, and it holds
    cards), even before the returning player's first state: such a game must still end
    cleanly, and the deal is tried again until one plays past a reshuffle after the
    restore."""
    async def scenario(state_dir: str) -> int:
        host = make_host(state_dir=state_dir)
        tid = host.create_table("t", "jamaica", LONG_GAMES["jamaica"])
        seated = await seat_players(host.port, tid, ["ann", "bob"])
        seated[0][0].send(messages.Start(table=tid))
        players = [Player(c, seat, tok) for c, seat, tok in seated]
        # Saved as bob (the bot after the restore) is to move: else ann could end the
        # game in the rest of her turn, and the bot would never have had a move to make.
        bob_seat = players[1].seat
        low = await play_to_end(players, tid, random.Random(4), min_reshuffles=10**6,
                                stop=lambda s: s.view["stock"] <= 2
                                and s.view["actor"] == bob_seat)
        assert low.view["outcome"] is None
        await stop_host(host)
        for p in players:
            p.client.close()
        with captured_logs() as logs:
            again = make_host(state_dir=state_dir, resume=True, takeover=0.0)
            try:
                ann = players[0]
                back, _ = await join(again.port, "ann", token=ann.token)
                p = Player(back, ann.seat, ann.token)
                await p.pump()
                # On a busy machine the bot may have played (even won) before ann's
                # first state: then that state already differs from the one saved.
                bob = players[1].seat
                saved, first = low.view, p.latest.view
                played_early = (
                    (first["seats"][bob]["pirates"], first["seats"][bob]["hand_size"])
                    != (saved["seats"][bob]["pirates"], saved["seats"][bob]["hand_size"])
                    or (first["outcome"] or {}).get("winner") == bob)
                p.events.clear()  # what happens after the restore only
                end = await play_to_end([p], tid, random.Random(5), min_reshuffles=1)
                assert end.view["outcome"] is not None
                shuffled = reshuffles(p.events)
                assert played_early or [e for e in p.events if e.get("seat") == bob
                                        and e["type"] in ("advance", "retreat", "end")]
                back.close()
            finally:
                await stop_host(again)
        assert grep(logs, "a bot plays")
        assert not grep(logs, "Traceback") and not grep(logs, "engine fault")
        return shuffled

    for attempt in range(6):
        if run(scenario(str(tmp_state / str(attempt)))) >= 1:
            break
    else:
        raise AssertionError("no restored game played past a reshuffle in 6 deals")
