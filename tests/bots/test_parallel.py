"""One bot decision on several cores (root parallelization): the merge of the shares'
root statistics, helpers that die or are late left out while the decision still answers
on time, one worker answering exactly as the serial search, a person's table and the
pool's other jobs first, and seeded games that play the same again."""
from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from cartagena_net.bots import ismcts, pool
from cartagena_net.bots.ismcts import SearchResult, merge, search, spread
from cartagena_net.bots.kinds import make_bot
from cartagena_net.bots.match import play_game
from cartagena_net.engine import make_game, view
from cartagena_net.host.thinker import BOTS, HUMAN, REVIEW, Thinker
from tests.twisted_loop import make_host, reactor, run, stop_host, until, wait

SHORT = {"players": 2, "segments": 3, "pirates": 3}


def _position(players: int = 4, seed: int = 3, moves: int = 30):
    state = make_game("jamaica", players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over and len(state.legal_actions()) > 1
    return state


def _args(config: dict, seed: int = 11, players: int = 4) -> tuple:
    state = _position(players)
    legal = [str(a) for a in state.legal_actions()]
    return (view(state, state.actor), legal, {}, config, seed)


def _started_at(value: int) -> tuple[int, float]:
    return value, time.time()


# -- the merge -------------------------------------------------------------------------


def test_the_merge_adds_up_visits_and_rewards_of_each_root_action():
    legal = ["a", "b", "c"]
    one = SearchResult("a", 30, 0.2, {"a": 20, "b": 10}, {"a": 0.5, "b": 0.25})
    two = SearchResult("b", 40, 0.3, {"a": 5, "b": 30, "c": 5}, {"a": 0.2, "b": 0.6, "c": 0.1})
    m = merge(legal, [one, two])
    assert m.visits == {"a": 25, "b": 40, "c": 5}
    assert m.means["a"] == pytest.approx((20 * 0.5 + 5 * 0.2) / 25)
    assert m.means["b"] == pytest.approx((10 * 0.25 + 30 * 0.6) / 40)
    assert m.iterations == 70 and m.seconds == 0.3
    assert m.action == "b"  # the merged root's most visited, not either share's answer
    assert merge(legal, [one]) is one
    with pytest.raises(ValueError):
        merge(legal, [])


def test_shares_take_three_quarters_of_a_counted_search_each_with_its_own_seed():
    args = _args({"iterations": 1001, "think": 5.0})
    shares = spread(args, 3)
    assert [s[3]["iterations"] for s in shares] == [751, 751, 751]  # SPREAD_SHARE
    assert [s[3]["iterations"] for s in spread(args, 2)] == [751, 751]
    assert spread(args, 1)[0][3]["iterations"] == 1001
    seeds = [s[4] for s in shares]
    assert seeds[0] == 11 and len(set(seeds)) == 3
    # Every share sees what the serial job sees, no more: the seat's view (engine.view),
    # its legal strings and the cards it saw drawn in the open.
    assert all(s[0] is args[0] and s[1] == args[1] and s[2] == args[2] for s in shares)
    timed = spread(_args({"think": 0.3}), 2)
    assert all(s[3].get("iterations") is None and s[3]["think"] == 0.3 for s in timed)


def test_with_one_worker_the_answer_is_the_serial_search_s():
    args = _args({"iterations": 600, "think": 60.0})
    serial = search(*args)
    for result in (search(*spread(args, 1)[0]), pool.spread_search(args, 1)):
        assert (result.action, result.visits, result.means) == \
            (serial.action, serial.visits, serial.means)
    bot = make_bot("ismcts", random.Random(4), workers=1, iterations=600, think=60.0)
    twin = make_bot("ismcts", random.Random(4), iterations=600, think=60.0)
    v, legal = args[0], args[1]
    assert bot.choose(v, legal) == twin.choose(v, legal)
    assert bot.last.visits == twin.last.visits


# -- helpers without a host ----------------------------------------------------------


@pytest.fixture
def helpers():
    h = pool.Helpers()
    yield h
    h.stop()


def test_two_workers_statistics_add_up(helpers):
    args = _args({"iterations": 2000, "think": 60.0})
    got = helpers.decide(args, 2)
    assert helpers.lost == 0 and len(helpers.pool) == 1
    share0 = search(*spread(args, 2)[0])  # this process's share, replayed
    assert sum(got.visits.values()) == got.iterations > share0.iterations
    assert all(got.visits[a] >= share0.visits.get(a, 0) for a in got.visits)
    assert got.action in args[1]


def test_a_first_decision_waits_for_its_new_helper_and_searches_with_it(helpers):
    """A fresh interpreter takes some tenths of a second to start. A timed decision that
    began its own share at once would find its helper's share past the deadline and
    leave it out: the first decision of a process would be searched by one share."""
    args = _args({"think": 0.4})
    got = helpers.decide(args, 2)
    # Its share answered in time (a late one would still be on its job, stopped).
    assert helpers.lost == 0 and len(helpers.pool) == 1 and not helpers.starting
    assert helpers.pool[0].job is None
    assert got.iterations == sum(got.visits.values()) and got.action in args[1]


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="SIGSTOP is POSIX's")
def test_a_helper_that_never_comes_up_is_waited_for_once(helpers, monkeypatch):
    monkeypatch.setattr(pool, "READY_WAIT", 1.0)
    helpers.warm(2)
    (helper,) = helpers.pool
    os.kill(helper.pid, signal.SIGSTOP)  # stuck before it is up
    try:
        args = _args({"iterations": 300, "think": 2.0})
        t0 = time.time()
        got = helpers.decide(args, 2)
        first = time.time() - t0
        t0 = time.time()
        again = helpers.decide(args, 2)
        second = time.time() - t0
    finally:
        os.kill(helper.pid, signal.SIGCONT)
    # Each decided alone (the helper never took a share), the first after its wait for
    # the helper, the second at once: a helper past its wait is not waited for again.
    assert got.iterations <= 300 and again.iterations <= 300 and helpers.lost == 0
    assert first < 1.0 + 1.5 and second < 0.9, (first, second)


def test_helpers_warmed_ahead_are_up_by_the_first_decision(helpers):
    helpers.warm(3)
    assert len(helpers.pool) == 2 and len(helpers.starting) == 2  # started, not waited for
    helpers.warm(3)
    assert len(helpers.pool) == 2  # no more than a decision of 3 shares uses
    time.sleep(3)  # (long enough for two interpreters to start, even on a busy machine)
    t0 = time.time()
    got = helpers.decide(_args({"iterations": 900, "think": 60.0}), 3)
    took = time.time() - t0
    assert helpers.lost == 0 and not helpers.starting and got.iterations >= 3 * 600
    assert took < 3.0, took


def test_a_bot_on_several_workers_starts_its_helpers_as_it_is_made():
    pool.stop_helpers()
    make_bot("ismcts", random.Random(1), level="normal", workers=2)
    try:
        assert pool._HELPERS is not None and len(pool._HELPERS.pool) == 1
        assert pool._HELPERS.pool[0].proc.poll() is None
        make_bot("ismcts", random.Random(2), level="normal", workers=1)
        assert len(pool._HELPERS.pool) == 1  # one worker: no helper
    finally:
        pool.stop_helpers()


def test_a_helper_that_dies_is_left_out_and_the_decision_comes_in_time(helpers):
    helpers.decide(_args({"iterations": 300, "think": 60.0}), 2)  # the helper is up
    (helper,) = helpers.pool
    assert helpers.lost == 0
    args = _args({"think": 1.0})
    threading.Timer(0.3, os.kill, (helper.pid, signal.SIGKILL)).start()
    t0 = time.time()
    got = helpers.decide(args, 2)
    assert time.time() - t0 < 1.0 + pool.GRACE + 0.5
    assert helpers.lost == 1 and got.action in args[1]
    assert got.iterations == sum(got.visits.values())
    helpers.decide(_args({"iterations": 600, "think": 60.0}), 2)  # a new helper helps
    assert helpers.lost == 1 and helpers.pool and helpers.pool[0].pid != helper.pid


def test_a_late_helper_is_not_waited_for(helpers):
    helpers.decide(_args({"iterations": 300, "think": 60.0}), 2)  # the helper is up
    (helper,) = helpers.pool
    assert helpers.lost == 0
    os.kill(helper.pid, signal.SIGSTOP)  # it cannot answer in time
    try:
        t0 = time.time()
        got = helpers.decide(_args({"think": 0.5}), 2)
        took = time.time() - t0
    finally:
        os.kill(helper.pid, signal.SIGCONT)
    assert took < 0.5 + pool.GRACE + 0.5 and helpers.lost == 1
    assert got.action in _args({})[1]


# -- the host's pool -------------------------------------------------------------------


def _warm(thinker: Thinker, n: int) -> None:
    async def go():
        ds = [thinker.run(time.sleep, 0.3) for _ in range(n)]
        for d in ds:
            await wait(d)
    run(go())
    assert len(thinker.pids()) == n


def test_a_person_s_decision_spreads_over_the_idle_workers():
    thinker = Thinker(reactor, workers=2)
    try:
        _warm(thinker, 2)
        args = _args({"iterations": 2000, "think": 60.0})
        got = run(wait(thinker.run(search, *args, priority=HUMAN)))
        assert thinker.spread == 1 and thinker.shares_lost == 0
        share0 = search(*spread(args, 2)[0])
        assert sum(got.visits.values()) == got.iterations > share0.iterations
        for priority in (BOTS, REVIEW):  # never more than one worker for these
            alone = run(wait(thinker.run(search, *args, priority=priority)))
            assert thinker.spread == 1
            assert alone.visits == search(*args).visits
    finally:
        thinker.shutdown()


def test_a_waiting_job_takes_a_helper_s_worker_at_once():
    """Fair shares: a job the pool would start (here a bots-only table's, then a person's
    at another table) does not wait for a spread decision's helper, which stops early
    and still counts."""
    thinker = Thinker(reactor, workers=2)
    try:
        _warm(thinker, 2)

        async def go():
            decision = thinker.run(search, *_args({"think": 3.0}), priority=HUMAN)
            await until(lambda: thinker.spread == 1)
            asked = time.time()
            other = thinker.run(_started_at, 7, priority=BOTS)
            value, began = await wait(other)
            assert value == 7 and began - asked < 1.0  # not after the decision's 3 s
            got = await wait(decision)
            assert thinker.shares_lost == 0 and got.iterations == sum(got.visits.values())
            # And a person's table: a new spread decision, then a person's job.
            decision = thinker.run(search, *_args({"think": 3.0}), priority=HUMAN)
            await until(lambda: thinker.spread == 2)
            asked = time.time()
            _, began = await wait(thinker.run(_started_at, 8, priority=HUMAN))
            assert began - asked < 1.0
            await wait(decision)
        run(go(), timeout=60)
    finally:
        thinker.shutdown()


def test_a_helper_late_or_dead_in_the_host_is_left_out_and_the_decision_comes_in_time():
    thinker = Thinker(reactor, workers=2)
    try:
        _warm(thinker, 2)

        async def go():
            t0 = time.time()
            decision = thinker.run(search, *_args({"think": 1.0}), priority=HUMAN)
            deadline = t0 + 1.0
            await until(lambda: thinker.spread == 1)
            helper = next(w for w in thinker._pool if w.job is not None and w.job.helper)
            os.kill(helper.pid, signal.SIGSTOP)  # late: it never answers in time
            got = await wait(decision)
            assert time.time() < deadline + 0.5 + 0.5  # by the deadline and its grace
            assert thinker.shares_lost == 1 and got.action in _args({})[1]
            os.kill(helper.pid, signal.SIGKILL)
            await until(lambda: helper.pid not in thinker.pids())
            # The next decision: the dead one is gone, a new worker helps.
            got = await wait(thinker.run(search, *_args({"iterations": 600, "think": 60.0})))
            assert thinker.spread == 2 and got.iterations == sum(got.visits.values())
        run(go(), timeout=60)
    finally:
        thinker.shutdown()


def test_a_decision_whose_shares_all_answer_after_its_deadline_takes_the_first_to_come():
    """Past the deadline and its grace no share has answered (a loaded machine starves
    the workers): the first share to answer decides; the decision never waits for a
    helper that does not answer (it once did, until the helper died)."""
    import asyncio

    thinker = Thinker(reactor, workers=2)
    try:
        _warm(thinker, 2)

        async def go():
            legal = _args({})[1]
            decision = thinker.run(search, *_args({"think": 0.3}), priority=HUMAN)
            await until(lambda: thinker.spread == 1)
            busy = [w for w in thinker._pool if w.job is not None]
            helper = next(w for w in busy if w.job.helper)
            first = next(w for w in busy if not w.job.helper)
            os.kill(first.pid, signal.SIGSTOP)
            os.kill(helper.pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(0.3 + 0.6)  # past the deadline and its grace
                assert not decision.called
                os.kill(first.pid, signal.SIGCONT)  # its search is overdue: it answers now
                got = await wait(decision, timeout=10)
                assert got.action in legal and thinker.shares_lost == 1
            finally:
                os.kill(helper.pid, signal.SIGKILL)
                os.kill(first.pid, signal.SIGCONT)
        run(go(), timeout=60)
    finally:
        thinker.shutdown()


def test_a_seeded_pool_counts_without_the_clock_and_never_spreads_with_one_worker():
    thinker = Thinker(reactor, workers=1, seeded=True)
    try:
        # A time far too short to count 500 iterations: a seeded host counts them all.
        args = _args({"iterations": 500, "think": 0.001, "deadline": time.time() + 0.001})
        got = run(wait(thinker.run(search, *args, priority=HUMAN)))
        again = search(*ismcts.without_clock(args))
        assert thinker.spread == 0
        assert (got.action, got.visits, got.means) == (again.action, again.visits, again.means)
    finally:
        thinker.shutdown()


# -- reproducible games ----------------------------------------------------------------


def test_a_seeded_game_against_a_deterministic_bot_plays_the_same_again():
    game = make_game("jamaica", **SHORT)

    def once():
        bots = [make_bot("ismcts", random.Random(5), workers=1, deterministic=True,
                         iterations=300),
                make_bot("greedy", random.Random(6))]
        return play_game(game, ["ismcts", "greedy"], 99, bots=bots)["history"]

    first = once()
    assert len(first) > 5 and first == once()


def test_a_seeded_host_with_one_worker_plays_a_bots_game_the_same_again():
    """``--seed`` and ``--workers 1``: the game against the normal level's bots is the
    same twice (a seeded host counts the searches without the clock)."""

    def once():
        host = make_host(bot_workers=1, seed=21)
        try:
            async def go():
                # a shorter board still (a 9-action game): each search counts all its
                # iterations, so the game is the same each time whatever its length
                tid = host.create_table("seeded", "jamaica",
                                        {**SHORT, "segments": 2, "pirates": 2}, bots=2,
                                        bot_kind="ismcts")
                table = host.lobby.tables[tid]
                table.start(None)
                await until(lambda: table.status == "finished", "the game is over",
                            timeout=240)
                return [str(a) for a in table.state.history]
            return run(go(), timeout=300)
        finally:
            run(stop_host(host))

    first = once()
    assert len(first) > 5 and first == once()


def test_the_workers_argument():
    import argparse

    from cartagena_net.cli.bot_args import (
        add_level_arguments,
        default_workers,
        worker_count,
    )
    from cartagena_net.portable.cores import usable_cores

    assert [default_workers(n) for n in (1, 2, 3, 4, 16)] == [1, 2, 2, 3, 15]
    assert default_workers() == default_workers(usable_cores())
    parser = argparse.ArgumentParser()
    add_level_arguments(parser)
    assert parser.parse_args([]).workers == default_workers()
    assert parser.parse_args(["--workers", "3"]).workers == 3
    for bad in ("0", "-1", "two", "\u0663", "1.5"):  # only ASCII digits are numbers
        with pytest.raises(argparse.ArgumentTypeError):
            worker_count(bad)


def test_a_bot_at_a_person_s_table_thinks_on_both_workers_and_the_game_ends():
    """Over TCP: a person against an ismcts bot at a host with two workers; the table asks
    the pool as it always did, the bot's decisions are spread, its trees are kept between
    its decisions, and the game ends."""
    from protocol import messages
    from tests.host.crashkit import Player, choose
    from tests.host.helpers import join

    host = make_host(bot_workers=2, bot_think=0.2)
    grown: list[int] = []  # the kept visits each of the bot's searches began with
    try:
        async def go():
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="t", rules="jamaica", options=SHORT))
            joined = await ann.expect(messages.Joined)
            tid = joined.table
            ann.send(messages.AddBot(table=tid, kind="ismcts"))
            table = host.lobby.tables[tid]
            await until(lambda: table.seats[1].controller is not None, "the bot seated")
            bot = table.seats[1].controller
            answered = bot.answered
            bot.answered = lambda r: (grown.append(r.reused), answered(r))
            ann.send(messages.Start(table=tid))
            await until(lambda: table.state is not None, "the game started")
            player = Player(ann, joined.seat, joined.token)
            rng = random.Random(2)
            for _ in range(500):
                await until(lambda: table.state.is_over or (
                    table.state.actor == player.seat and table.bots.thinking is None),
                    "the bot's answer", timeout=60)
                if table.state.is_over:
                    break
                player.drain()
                while player.latest is None or player.latest.seq < table.seq:
                    await player.pump()
                seq = table.seq
                ann.send(messages.Action(table=tid, seq=seq,
                                         action=choose(list(player.latest.legal), rng,
                                                       finish=True)))
                await until(lambda s=seq: table.seq > s, "the action applied")
            assert table.state.is_over
            return table
        table = run(go(), timeout=300)
        assert host.thinker.spread >= 1 and len(host.thinker.pids()) == 2
        assert table.bot_fallbacks == 0
        # Spread decisions keep each share's subtree below the merged answer, and the
        # bot's next decision in the same turn grows them.
        assert any(n > 0 for n in grown), grown
    finally:
        run(stop_host(host))
