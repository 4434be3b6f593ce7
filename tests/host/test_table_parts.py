"""A table's parts on their own, with fakes for the rest of the table (no host, no
network): the game's owner and its lifecycle, the viewers' broadcast and the bots'
turn. The real engine deals and applies; the frames sent are decoded by the protocol's
own decoder."""
from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from twisted.internet.task import Clock

from cartagena_net.engine import make_game, view
from cartagena_net.host import gamerec
from cartagena_net.host.errors import HostError
from cartagena_net.host.game import TRANSITIONS, LifecycleError, Status, Step, TableGame
from cartagena_net.host.play import legal
from cartagena_net.host.seats import Seat
from cartagena_net.host.tablebots import TableBots
from cartagena_net.host.viewers import Viewers
from protocol import FrameDecoder, encode_frame


def dealt(players: int = 3, seed: int = 5) -> Any:
    return gamerec.new_state(make_game("jamaica", players=players), random.Random(seed))


# -- the game's owner ------------------------------------------------------------------

def test_a_game_goes_from_waiting_through_playing_to_finished_and_again():
    game = TableGame()
    assert game.status is Status.WAITING and game.seq == 0 and game.state is None
    state = dealt()
    game.start(state, len(state.chance), 12.5)
    assert (game.status, game.seq, game.started_at) == (Status.PLAYING, 1, 12.5)
    assert (game.chance_seen, game.actions_seen, game.sent_events) == (len(state.chance), 0, 0)
    with pytest.raises(LifecycleError):
        game.start(dealt(), 0, None)  # a game on cannot be dealt again
    moves = 0
    while not state.is_over:
        seat = state.actor
        state.apply(str(state.legal_actions()[0]))
        moves += 1
        ended = game.acted(seat, len(state.chance))
        assert ended == state.is_over
        assert game.seq == 1 + moves and game.actions_seen == moves
        assert game.kept[1][-1] == (seat, len(state.chance))
    assert game.status is Status.FINISHED and len(game.kept[1]) == moves
    with pytest.raises(LifecycleError):
        game.acted(0, len(state.chance))  # nothing acts in a finished game
    again = dealt(seed=6)
    game.start(again, len(again.chance), None)
    assert (game.status, game.seq, game.actions_seen) == (Status.PLAYING, moves + 2, 0)
    assert game.kept == (len(again.chance), [])  # the new game's course alone


def test_every_step_not_in_the_table_is_refused():
    for status in Status:
        for step in Step:
            game = TableGame()
            game.status = status
            allowed = (status, step) in TRANSITIONS
            assert game.allows(step) == allowed
            if step is Step.FAULT:
                if allowed:
                    game.fault()
                    assert game.faulted and game.status is TRANSITIONS[(status, step)]
                else:
                    with pytest.raises(LifecycleError):
                        game.fault()
                    assert not game.faulted and game.status is status


def test_a_restored_game_counts_its_events_as_sent_and_moves_seq_past_lost_records():
    state = dealt()
    for _ in range(3):
        state.apply(str(state.legal_actions()[0]))
    game = TableGame()
    game.restore(9, state, actions=3, chances=len(state.chance), started_at=1.0)
    assert (game.status, game.seq, game.actions_seen) == (Status.PLAYING, 9, 3)
    assert game.sent_events == state.event_count
    assert game.kept is None  # its record replays the game: its course was not kept
    game.skip(4)
    assert game.seq == 13
    with pytest.raises(LifecycleError):
        game.restore(1)  # a journal is read into a table once
    waiting = TableGame()
    waiting.restore(7)  # seats only: no game had started
    assert (waiting.status, waiting.seq, waiting.state) == (Status.WAITING, 7, None)


# -- the viewers, alone ----------------------------------------------------------------

class FakeConn:
    def __init__(self) -> None:
        self.decoder = FrameDecoder()

    def write_state(self, table: int, data: bytes) -> None:
        self.decoder.receive_data(data)

    def frames(self) -> list[dict[str, Any]]:
        out = []
        while (frame := self.decoder.next_frame()) is not None:
            out.append(frame)
        return out


class FakeCoach:
    def __init__(self) -> None:
        self.chances = self.chances_seq = None
        self.curve: list[dict[str, Any]] = []
        self.calls: list[str] = []

    def follow(self, shared: dict[str, Any] | None = None) -> None:
        self.calls.append("follow")

    def turn(self) -> None:
        self.calls.append("turn")


def fake_table(players: int = 3) -> SimpleNamespace:
    match = TableGame()
    state = dealt(players)
    match.start(state, len(state.chance), None)
    host = SimpleNamespace(config=SimpleNamespace(log_events=False),
                           encode_wire=lambda wire: encode_frame(wire, check=False),
                           lobby_changed=lambda table: None, web=None)
    return SimpleNamespace(host=host, id=4, allow_spectators=True, match=match,
                           seats=[Seat(i, c) for i, c in enumerate(state.game.colors[:players])],
                           spectators=set(), coach=FakeCoach(), player_chances=False,
                           remove_if_vacant=lambda: False)


def test_a_broadcast_sends_each_seat_its_own_view_then_calls_what_follows_it():
    table = fake_table()
    published: list[tuple[dict[str, Any], bool]] = []
    viewers = Viewers(table, watched=lambda: True,
                      publish=lambda wire, full: published.append((wire, full)))
    order: list[str] = []
    viewers.after_broadcast.extend((lambda: order.append("bots"),
                                    lambda: order.append("chances")))
    conns = [FakeConn() for _ in table.seats]
    for seat, conn in zip(table.seats, conns):
        seat.conn = conn
    spectator = FakeConn()
    table.spectators.add(spectator)
    state = table.match.state
    viewers.broadcast(full=True)
    assert order == ["bots", "chances"] and table.coach.calls == ["follow"]
    assert table.match.sent_events == state.event_count
    for i, conn in enumerate(conns):
        (frame,) = conn.frames()
        assert frame["seq"] == 1 and frame["table"] == 4
        assert frame["legal"] == legal(state, i)
        assert frame["view"]["seats"][i]["hand"] == view(state, i)["seats"][i]["hand"]
        others = [s["hand"] for j, s in enumerate(frame["view"]["seats"]) if j != i]
        assert all(hand is None for hand in others)  # nobody else's hand
    (seen,) = spectator.frames()
    assert seen["legal"] == [] and all(s["hand"] is None for s in seen["view"]["seats"])
    (wire, full), = published
    assert full and wire["view"] == seen["view"] and "chances_seq" in wire
    # the next action: only its events, the acting seat's frame first
    actor = state.actor
    state.apply(str(state.legal_actions()[0]))
    table.match.acted(actor, len(state.chance))
    before = table.match.sent_events
    viewers.broadcast(first=actor)
    assert order == ["bots", "chances"] * 2
    frame = conns[actor].frames()[0]
    assert frame["seq"] == 2 and len(frame["events"]) == state.event_count - before


def test_nothing_is_published_while_nobody_watches_on_the_web():
    table = fake_table()
    published: list[Any] = []
    viewers = Viewers(table, watched=lambda: False,
                      publish=lambda wire, full: published.append(wire))
    viewers.broadcast(full=True)
    viewers.chances_ready()
    assert published == []


# -- the bots, alone -------------------------------------------------------------------

class FirstBot:
    """A quick bot (no ``job``: played on the reactor thread) that takes the first action."""

    def choose(self, seen: dict[str, Any], actions: list[str]) -> str:
        assert "events" in seen and actions
        return actions[0]


def test_a_quick_bot_moves_after_the_delay_through_the_apply_it_was_given():
    table = fake_table(players=2)
    clock = Clock()
    table.host.reactor = clock
    table.host.config.bot_delay = 0.5
    table.paused, table.bot_fallbacks, table.rng = False, 0, random.Random(1)
    state = table.match.state
    bot_seat = table.seats[state.actor]
    bot_seat.bot_kind, bot_seat.bot = "first", FirstBot()
    played: list[tuple[int, str]] = []
    bots = TableBots(table, apply=lambda seat, text: played.append((seat, text)))
    bots.schedule()
    bots.schedule()  # one move on its way at a time
    clock.advance(0.4)
    assert played == []
    clock.advance(0.1)
    assert played == [(bot_seat.index, legal(state, bot_seat.index)[0])]
    assert not clock.getDelayedCalls()


def test_a_bot_whose_actions_are_all_refused_backs_off_and_tries_again():
    table = fake_table(players=2)
    clock = Clock()
    table.host.reactor = clock
    table.host.config.bot_delay = 0.5
    table.paused, table.bot_fallbacks, table.rng = False, 0, random.Random(1)
    seat = table.seats[table.match.state.actor]
    seat.bot_kind, seat.bot = "first", FirstBot()
    tries: list[str] = []

    def refuse(index: int, text: str) -> None:
        tries.append(text)
        raise HostError("illegal-action", "stale", seq=0, now=1)

    bots = TableBots(table, apply=refuse)
    bots.schedule()
    clock.advance(0.5)
    assert len(tries) == min(4, len(legal(table.match.state, seat.index)))
    (later,) = clock.getDelayedCalls()  # tried again, later: the table never stalls
    assert later.getTime() - clock.seconds() == pytest.approx(0.5 + 2.0)


def test_no_bot_moves_in_a_game_that_is_not_on():
    table = fake_table(players=2)
    table.host.reactor = Clock()
    table.host.config.bot_delay = 0.5
    table.paused = False
    seat = table.seats[table.match.state.actor]
    seat.bot_kind, seat.bot = "first", FirstBot()
    table.match.fault()
    bots = TableBots(table, apply=lambda seat, text: None)
    assert bots.to_move() is None
    bots.schedule()
    assert not table.host.reactor.getDelayedCalls()
