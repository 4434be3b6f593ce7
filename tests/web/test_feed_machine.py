"""Watchers come and go while the game moves: every open watcher always gets the same
bytes for each update, in order, and a closed one leaves its table's feed."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.twisted_loop import make_host, run, stop_host, until
from tests.web.http import event_data, open_stream


class WebWatchers(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.host = make_host(web_port=0, bot_delay=3600.0,  # one state an action: no
                              live_chances=False)  # chances coming after it
        tid = self.host.create_table("machine", "jamaica", {"players": 3}, bots=3)
        self.table = self.host.lobby.tables[tid]
        self.table.start(None)
        self.streams: list = []

    @rule()
    def watch(self) -> None:
        async def go():
            s = await open_stream(self.host.web.port, f"/table/{self.table.id}/events")
            assert s.status == 200
            _, block = await s.event("table")
            assert event_data(block)["id"] == self.table.id
            _, block = await s.event("state")
            data = event_data(block)
            assert data["reset"] is True and data["seq"] == self.table.seq
            self.streams.append(s)
        run(go())

    @precondition(lambda self: self.streams)
    @rule(which=st.integers(0, 99))
    def leave(self, which: int) -> None:
        s = self.streams.pop(which % len(self.streams))
        s.close()
        run(until(lambda: len(self.host.web.feeds.tables.get(self.table.id, ())) == len(self.streams),
                  "the watcher leaves the feed"))

    @rule(pick=st.integers(0, 99))
    def act(self, pick: int) -> None:
        state = self.table.state
        if state.is_over:
            self.table.start(None)
            reset = True
        else:
            legal = state.legal_actions()
            self.table.play.apply(state.actor, str(legal[pick % len(legal)]))
            reset = False

        async def go():
            got = [(await s.event("state"))[1] for s in self.streams]
            assert len(set(got)) <= 1, "every watcher gets the same bytes"
            if got:
                data = event_data(got[0])
                assert data["seq"] == self.table.seq and data["reset"] is reset
                assert all(seat["hand"] is None for seat in data["view"]["seats"])
        run(go())

    @invariant()
    def counted(self) -> None:
        feed = self.host.web.feeds.tables.get(self.table.id)
        assert (len(feed) if feed else 0) <= len(self.streams)
        # The lobby counts the table's web watchers with its spectators, as they are now.
        assert self.table.lobby_entry()["spectators"] == (len(feed) if feed else 0)

    def teardown(self) -> None:
        for s in self.streams:
            s.close()
        run(stop_host(self.host))


WebWatchers.TestCase.settings = settings(max_examples=8, stateful_step_count=25,
                                         deadline=None,
                                         suppress_health_check=list(HealthCheck))
TestWebWatchers = WebWatchers.TestCase
