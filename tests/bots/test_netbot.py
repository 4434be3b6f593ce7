"""Network bots and the client session, over real TCP on 127.0.0.1 against a real host."""
from __future__ import annotations

import asyncio
import random
import sys
from typing import ClassVar

import pytest
from twisted.internet import protocol as tprotocol
from twisted.internet.endpoints import TCP4ServerEndpoint

from cartagena_net.bots.netbot import NetBotError, NetBotResult, pick_table, play_bot
from cartagena_net.host import HostConfig, HostService
from client.net import HostError, SessionClosed, connect
from protocol import Connection, Role, messages
from tests.discovery.helpers import reactor, run, until, wait
from tests.netns import child_env


def make_host(**overrides) -> HostService:
    settings = {"port": 0, "bind": "127.0.0.1", "bot_delay": 0.0, "name": "bot test"}
    settings.update(overrides)
    host = HostService(HostConfig(**settings), reactor)
    host.startService()
    return host


def test_pick_table():
    tables = [
        {"id": 1, "status": "playing", "seats": [{"seat": 0, "name": None, "bot": None}]},
        {"id": 2, "status": "waiting", "seats": [{"seat": 0, "name": "ann", "bot": None}]},
        {"id": 3, "status": "waiting", "seats": [{"seat": 0, "name": None, "bot": "greedy"},
                                                 {"seat": 1, "name": None, "bot": None}]},
    ]
    assert pick_table(tables, None) == 3
    assert pick_table(tables, 2) is None
    assert pick_table(tables, 3) == 3


def test_network_bot_plays_two_games_to_the_end():
    host = make_host()
    try:
        tid = host.create_table("den", "jamaica", {"players": 3}, bots=2, bot_kind="random")
        result = run(wait(play_bot(reactor, "127.0.0.1", host.port, kind="greedy", games=2,
                                   name="netbot", rng=random.Random(3)), timeout=120))
    finally:
        run(wait(host.stopService()))
    assert isinstance(result, NetBotResult)
    # the second game starts at the next seat: the netbot moved from seat 0 to seat 2
    assert result.table == tid and result.seat == 2
    assert result.games == 2 and len(result.outcomes) == 2
    assert result.actions > 0
    assert all(o["winner"] in (0, 1, 2) for o in result.outcomes)


def test_two_network_bots_fill_a_table_and_play():
    host = make_host()
    try:
        tid = host.create_table("den", "ravensburger", {"players": 3}, bots=1)

        async def go():
            first = play_bot(reactor, "127.0.0.1", host.port, kind="random", table=tid)
            await asyncio.sleep(0.3)
            second = play_bot(reactor, "127.0.0.1", host.port, kind="greedy", table=tid)
            return await wait(first, 120), await wait(second, 120)

        a, b = run(go())
    finally:
        run(wait(host.stopService()))
    assert {a.seat, b.seat} == {0, 1}
    assert a.outcomes == b.outcomes and a.games == b.games == 1


def test_network_bot_reports_no_free_seat():
    host = make_host()
    try:
        host.create_table("full", "jamaica", {"players": 2}, bots=2)
        with pytest.raises(NetBotError, match="no table has a free seat"):
            run(wait(play_bot(reactor, "127.0.0.1", host.port)))
        with pytest.raises(NetBotError, match="no table 9"):
            run(wait(play_bot(reactor, "127.0.0.1", host.port, table=9)))
    finally:
        run(wait(host.stopService()))


def test_connect_handshake_and_wrong_password():
    host = make_host(password="sesame")
    try:
        with pytest.raises(HostError) as info:
            run(wait(connect(reactor, "127.0.0.1", host.port, "ann")))
        assert info.value.code
        session, welcome = run(wait(connect(reactor, "127.0.0.1", host.port, "ann",
                                            password="sesame")))
        assert isinstance(welcome, messages.Welcome) and welcome.version == 1
        got: list = []
        session.on_message = got.append  # the queued lobby is delivered now
        assert any(isinstance(m, messages.Lobby) for m in got)
        closed: list[str] = []
        session.on_close = closed.append
        session.close("leaving")
        run(until(lambda: closed))
        with pytest.raises(SessionClosed):
            session.send(messages.Ping(nonce=1))
    finally:
        run(wait(host.stopService()))


class FakeHost(tprotocol.Protocol):
    """Welcomes, pings, then sends ``after`` raw bytes; records what it receives."""

    instances: ClassVar[list[FakeHost]] = []
    after = b""

    def connectionMade(self):
        self.conn = Connection(Role.HOST)
        self.received = []
        FakeHost.instances.append(self)

    def dataReceived(self, data):
        self.conn.receive_data(data)
        while (msg := self.conn.next_event()) is not None:
            self.received.append(msg)
            if isinstance(msg, messages.Hello):
                out = self.conn.send(messages.Welcome(host_id="h", host_name="fake",
                                                      server_version="0", version=1,
                                                      session="s"))
                out += self.conn.send(messages.Ping(nonce=77))
                self.transport.write(out)
                reactor.callLater(0.2, self.transport.write, self.after)


def fake_host(after: bytes):
    FakeHost.instances = []
    factory = tprotocol.Factory.forProtocol(type("Fake", (FakeHost,), {"after": after}))
    return run(wait(TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(factory)))


def test_session_answers_ping_and_closes_on_protocol_error():
    port = fake_host(b"\xff\xff\xff\xff garbage")  # an impossible frame header
    try:
        closed: list[str] = []

        async def go():
            session, _ = await wait(connect(reactor, "127.0.0.1", port.getHost().port, "ann"))
            session.on_close = closed.append
            await until(lambda: closed)
            return session

        session = run(go())
        assert "protocol error" in closed[0]
        assert session.closed
        pongs = [m for m in FakeHost.instances[0].received if isinstance(m, messages.Pong)]
        assert [p.nonce for p in pongs] == [77]
    finally:
        run(wait(port.stopListening()))


def test_connect_times_out_without_welcome():
    class Silent(tprotocol.Protocol):
        pass

    port = run(wait(TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(
        tprotocol.Factory.forProtocol(Silent))))
    try:
        from twisted.internet.defer import TimeoutError as DeferredTimeout

        with pytest.raises(DeferredTimeout):
            run(wait(connect(reactor, "127.0.0.1", port.getHost().port, "ann", timeout=0.5)))
    finally:
        run(wait(port.stopListening()))


@pytest.mark.parametrize(("kind", "extra", "options"), [
    ("greedy", [], {"players": 2}),
    ("ismcts", ["--think", "0.05"], {"players": 2, "segments": 4}),
])
def test_cartagena_bot_command_plays_a_game(kind, extra, options):
    host = make_host()
    try:
        host.create_table("den", "jamaica", options, bots=1)

        async def go():
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "cartagena_net", "bot", f"127.0.0.1:{host.port}",
                "--kind", kind, *extra, "--seed", "1", env=child_env(),
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 150)
            return proc.returncode, out.decode(), err.decode()

        code, out, err = run(go(), timeout=180)
    finally:
        run(wait(host.stopService()))
    assert code == 0, err
    assert "played 1 game," in out and "Traceback" not in err


def test_a_network_ismcts_bot_keeps_its_trees_between_its_decisions(monkeypatch):
    """``cartagena bot --kind ismcts``: its searches run off the reactor thread, none
    fails, each answer is handed back to the bot (which keeps the tree below it) as it
    is sent, and its next decision in the same turn grows that tree; the game plays to
    its end."""
    from cartagena_net.bots.kinds import IsmctsBot

    grown: list[int] = []
    answered = IsmctsBot.answered

    def record(self, result):
        grown.append(-1 if result is None else result.reused)
        answered(self, result)

    monkeypatch.setattr(IsmctsBot, "answered", record)
    failures: list[BaseException] = []
    monkeypatch.setattr(IsmctsBot, "failed", lambda self, error: failures.append(error))
    # The searches run off the reactor thread (threads.deferToThread): here on a
    # thread pool of this test's own, started and stopped here (the reactor's own
    # pool is the client tests' session fixture's to start and stop).
    from twisted.internet import threads as twisted_threads
    from twisted.python.threadpool import ThreadPool

    pool = ThreadPool(1, 2, name="netbot-test")
    monkeypatch.setattr(twisted_threads, "deferToThread", lambda f, *a, **k: (
        twisted_threads.deferToThreadPool(reactor, pool, f, *a, **k)))
    pool.start()
    host = make_host()
    try:
        tid = host.create_table("den", "jamaica", {"players": 2, "segments": 3, "pirates": 3},
                                bots=1, bot_kind="greedy")
        result = run(wait(play_bot(reactor, "127.0.0.1", host.port, kind="ismcts", think=0.1,
                                   table=tid, rng=random.Random(5)), timeout=120))
    finally:
        run(wait(host.stopService()))
        pool.stop()
    assert result.games == 1 and result.outcomes[0]["winner"] in (0, 1)
    # No search failed: the host lists "undo" after a seat's first action, and a bot,
    # which never takes back, leaves it out (a search refuses a legal list with it).
    assert not failures
    assert grown and -1 not in grown  # every answer of a search came back to the bot
    assert any(n > 0 for n in grown), grown
