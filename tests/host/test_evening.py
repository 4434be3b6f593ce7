"""The evening's scoreboard (``lobby.scores``): this host's games that ended in the last
12 hours (counted out by the five minutes they ended in), kept as counts while games end
and the hours pass, and read back from the records a restarted host finds on disk."""
from __future__ import annotations

import random
import time
import tracemalloc

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from twisted.internet.task import Clock

from cartagena_net.engine import make_game
from cartagena_net.host import recorder
from cartagena_net.host.recorder import BUCKET, EVENING, Evening
from cartagena_net.records import build
from cartagena_net.records import store as record_store
from cartagena_net.records.format import player, scoreboard, utc_text

HOST_ID = "0123456789abcdef"

#: who sits at the games: people by name, bots by kind and level (two of one kind may
#: sit at one table)
PEOPLE = [player(0, "red", "ann"), player(0, "red", "bob"), player(0, "red", "cy"),
          player(0, "red", "greedy"),  # a person named like a bot kind: a row of their own
          player(0, "red", "Blackbeard", bot="greedy"),
          player(0, "red", "Anne Bonny", bot="ismcts", level="normal"),
          player(0, "red", "Calico Jack", bot="ismcts", level="hard")]


class FakeLobby:
    def __init__(self) -> None:
        self.changes = 0

    def changed(self) -> None:
        self.changes += 1


class FakeConfig:
    records_dir = None


class FakeHost:
    """What the scoreboard reads of its host: a clock, the lobby it tells, an id."""

    def __init__(self) -> None:
        self.reactor = Clock()
        self.reactor.advance(1_800_000_000)  # a Unix time in 2027
        self.lobby = FakeLobby()
        self.config = FakeConfig()
        self.host_id = HOST_ID


def expected_rows(records: list[dict]) -> list[dict]:
    """The lobby's rows from scratch: the records' whole scoreboard, as the lobby shows it."""
    return [{"player": r["player"][:32], "bot": r["bot"], "games": r["games"],
             "wins": r["wins"], "places": r["places"][:16]} for r in scoreboard(records)[:32]]


def a_game(game_id: str, rng: random.Random) -> dict:
    seats = rng.randint(2, 5)
    people = [dict(rng.choice(PEOPLE), seat=s) for s in range(seats)]
    ranking = list(range(seats))
    rng.shuffle(ranking)
    return {"id": game_id, "players": people,
            "outcome": {"winner": ranking[0], "ranking": ranking}}


def counted(ended: float, now: float) -> bool:
    """Whether a game that ended at ``ended`` is on the scoreboard at ``now``: until its
    five minutes turn 12 hours old."""
    return (ended // BUCKET + 1) * BUCKET + EVENING > now


class EveningMachine(RuleBasedStateMachine):
    """Games end, stopped games are recorded, hours pass: the rows are always those of
    the games whose five minutes ended in the last 12 hours, counted from scratch, and a
    timer is set exactly while some game is still counted."""

    @initialize()
    def start(self) -> None:
        self.host = FakeHost()
        self.evening = Evening(self.host)
        self.model: list[tuple[float, dict]] = []  # (ended, record)

    @rule(seed=st.integers(0, 2**16))
    def a_game_ends(self, seed: int) -> None:
        record = a_game(f"g{len(self.model)}", random.Random(seed))
        self.evening.add(record)
        self.model.append((self.host.reactor.seconds(), record))

    @rule(game=st.integers(0, 40))
    def a_stopped_game_is_recorded(self, game: int) -> None:
        """A spectator's record (no outcome) counts for nothing."""
        self.evening.add({"id": f"s{game}", "players": [PEOPLE[0], PEOPLE[1]],
                          "outcome": None})

    @rule(seconds=st.floats(0, 1.2 * EVENING))
    def time_passes(self, seconds: float) -> None:
        self.host.reactor.advance(seconds)

    @rule(seconds=st.floats(0, 2 * BUCKET))
    def minutes_pass(self, seconds: float) -> None:
        self.host.reactor.advance(seconds)

    @rule(before=st.booleans())
    def to_the_second_the_oldest_go(self, before: bool) -> None:
        """Right up to, or right at, the moment the oldest games counted go."""
        now = self.host.reactor.seconds()
        left = [ended for ended, _ in self.model if counted(ended, now)]
        if left:
            due = (min(left) // BUCKET + 1) * BUCKET + EVENING
            self.host.reactor.advance(max(0.0, due - now - (0.001 if before else 0.0)))

    def tonight(self) -> list[dict]:
        now = self.host.reactor.seconds()
        return [rec for ended, rec in self.model if counted(ended, now)]

    @invariant()
    def rows_are_tonights_games_counted_from_scratch(self) -> None:
        assert self.evening.rows == expected_rows(self.tonight())

    @invariant()
    def a_games_wins_sum_to_one(self) -> None:
        """Two seats of one kind at a table are one player in that game: each game
        counted adds one win, one first place, and one game to each player in it."""
        games = len(self.tonight())
        rows = self.evening._counts.values()
        assert sum(r["wins"] for r in rows) == games
        assert sum(r["places"][0] for r in rows if r["places"]) == games
        for r in rows:
            assert r["wins"] <= r["games"] <= games
            assert sum(r["places"]) == r["games"]

    @invariant()
    def a_timer_exactly_while_a_game_is_counted(self) -> None:
        now = self.host.reactor.seconds()
        left = [ended for ended, _ in self.model if counted(ended, now)]
        calls = self.host.reactor.getDelayedCalls()
        assert len(calls) == (1 if left else 0)
        if calls:
            assert calls[0].getTime() == (min(left) // BUCKET + 1) * BUCKET + EVENING


TestEvening = EveningMachine.TestCase
TestEvening.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)


def test_a_hosts_scoreboard_forgets_a_game_twelve_hours_after_its_five_minutes():
    host = FakeHost()
    start = host.reactor.seconds()  # a whole five minutes: 1,800,000,000 s
    assert start % BUCKET == 0
    evening = Evening(host)
    first, second = a_game("first", random.Random(1)), a_game("second", random.Random(2))
    evening.add(first)
    host.reactor.advance(EVENING - 60)
    evening.add(second)
    assert evening.rows == expected_rows([first, second])
    assert sum(r["games"] for r in evening.rows) == sum(
        len({(p.get("kind"), p.get("name") if p.get("kind") != "bot" else
              (p.get("bot"), p.get("level"))) for p in rec["players"]})
        for rec in (first, second))  # a player's seats in one game count once
    changes = host.lobby.changes
    host.reactor.advance(60 + BUCKET - 0.5)  # its five minutes are not yet 12 hours old
    assert evening.rows == expected_rows([first, second])
    host.reactor.advance(0.5)  # nothing else happens: the timer counts the first game out
    assert evening.rows == expected_rows([second])
    assert host.lobby.changes == changes + 1  # the lobby is sent again
    host.reactor.advance(EVENING)
    assert evening.rows == [] and not evening._counts and not host.reactor.getDelayedCalls()
    evening.add(a_game("third", random.Random(3)))
    evening.stop()  # the host stops: no timer left behind
    assert not host.reactor.getDelayedCalls()


def finished_record(started: float, ended: float, table: int, seed: int) -> dict:
    state = make_game("jamaica", players=2).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return build(state, record_id=recorder.record_id(started, HOST_ID, table),
                 players=[player(0, "red", "ann"), player(1, "blue", "bob")],
                 started=utc_text(started), ended=utc_text(ended), end="won")


def test_a_restarted_host_counts_the_games_that_ended_tonight_from_its_records(tmp_path):
    """Read back by when each game ended, not when it started: a game begun yesterday
    and resumed tonight counts; one that ended 13 hours ago does not; another host's
    records and files that are not records are left alone."""
    now = time.time()
    hour = 3600.0
    games = {
        "ended an hour ago": finished_record(now - 2 * hour, now - hour, 1, 1),
        "begun yesterday, ended tonight": finished_record(now - 20 * hour, now - 3 * hour, 2, 2),
        "ended 13 hours ago": finished_record(now - 14 * hour, now - 13 * hour, 3, 3),
    }
    for rec in games.values():
        record_store.write(tmp_path, rec)
    other = finished_record(now - hour, now - hour, 4, 4)
    other["id"] = other["id"].replace(HOST_ID[:8], "fedcba98")
    record_store.write(tmp_path, other)
    (tmp_path / f"{time.strftime('%Y%m%dT%H%M%SZ')}-{HOST_ID[:8]}-9.json").write_text("{")

    found = recorder._recent(str(tmp_path), HOST_ID, now - EVENING)
    assert sorted(rec["id"] for _, rec in found) == sorted(
        games[k]["id"] for k in ("ended an hour ago", "begun yesterday, ended tonight"))
    host = FakeHost()
    host.reactor.advance(now - host.reactor.seconds())
    evening = Evening(host)
    evening._loaded(found)
    assert evening.rows == expected_rows([rec for _, rec in found])
    assert evening.rows[0]["games"] == 2
    # the game that ended 3 hours ago goes 9 hours from now, the other one 2 hours later
    host.reactor.advance(9 * hour + BUCKET)
    assert evening.rows == expected_rows([games["ended an hour ago"]])
    host.reactor.advance(2 * hour)
    assert evening.rows == []


def test_a_game_that_ends_while_the_records_are_read_counts_once(tmp_path):
    """The thread that reads the records at start may find a game that ended since the
    host started, and was counted then: it is not counted twice. Then the ids go."""
    now = time.time()
    rec = finished_record(now - 600, now - 60, 1, 1)
    record_store.write(tmp_path, rec)
    host = FakeHost()
    host.reactor.advance(now - host.reactor.seconds())
    host.config.records_dir = str(tmp_path)
    evening = Evening(host)
    evening._early = set()  # as load() starts its thread
    evening.add(rec)  # the game ended, its record written, as the thread reads
    evening._loaded(recorder._recent(str(tmp_path), HOST_ID, now - EVENING))
    assert evening.rows == expected_rows([rec])
    assert evening._early is None
    evening.add(finished_record(now - 30, now, 2, 2))  # later games: no id kept
    assert evening._early is None and evening.rows[0]["games"] == 2


def test_the_scoreboard_keeps_of_each_game_only_what_it_counts():
    """The records the scoreboard is given are not kept (changing them later changes
    nothing), and games counted out go as they came in."""
    host = FakeHost()
    evening = Evening(host)
    records = [a_game(f"g{n}", random.Random(n)) for n in range(30)]
    for n, rec in enumerate(records):
        rec["moves"] = [{"action": "end"}] * 100
        evening.add(rec)
        if n == 14:
            host.reactor.advance(3600)  # the second half ends an hour later
    before = list(evening.rows)
    for rec in records:
        rec["players"][0]["name"] = "changed"
        rec["outcome"]["winner"] = None
        rec["outcome"]["ranking"].reverse()
    assert evening.rows == before == expected_rows(
        [a_game(f"g{n}", random.Random(n)) for n in range(30)])
    host.reactor.advance(EVENING - 3600 + BUCKET)  # the first half counted out whole
    assert evening.rows == expected_rows(
        [a_game(f"g{n}", random.Random(n)) for n in range(15, 30)])
    host.reactor.advance(3600)
    assert evening.rows == [] and not evening._buckets and not evening._counts


def test_a_thousand_games_cost_the_scoreboard_no_more_memory_than_ten():
    """A café's host plays game after game: what the scoreboard holds grows with the
    players and the five minutes of the evening, not with the games (issue 62)."""
    host = FakeHost()
    evening = Evening(host)
    rng = random.Random(5)
    tracemalloc.start()
    try:
        for n in range(10):
            evening.add(a_game(f"warm{n}", rng))
        warm = tracemalloc.get_traced_memory()[0]
        for n in range(1000):
            evening.add(a_game(f"20261128T2000{n:04d}Z-01234567-{n % 9}-{n}", rng))
            if n % 100 == 99:
                host.reactor.advance(60)  # a minute passes every hundred games
        grown = tracemalloc.get_traced_memory()[0] - warm
    finally:
        tracemalloc.stop()
    assert len(evening._buckets) == 2  # the games of nine minutes in two five minutes
    assert sum(r["games"] for r in evening.rows) >= 1010
    assert grown < 16_000, grown  # one entry a game (a tuple and its id) was 300 KB
