"""Test-side helpers: run coroutines on the reactor's loop, a minimal wire client, a host."""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from twisted.internet import protocol as tprotocol
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from cartagena_net.host import HostConfig, HostService
from cartagena_net.loop import install_reactor
from protocol import Connection, FrameDecoder, Role, encode_frame, messages

reactor = install_reactor()
WAIT = 30.0


def loop() -> asyncio.AbstractEventLoop:
    return reactor._asyncioEventloop


def run(coro: Coroutine[Any, Any, Any], timeout: float = 120.0) -> Any:
    """Run a coroutine on the reactor's asyncio loop (the reactor itself never 'runs')."""
    return loop().run_until_complete(asyncio.wait_for(coro, timeout))


async def wait_deferred(d: Deferred, timeout: float = WAIT) -> Any:
    return await asyncio.wait_for(d.asFuture(loop()), timeout)


async def sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


def make_host(**overrides: Any) -> HostService:
    """A started host on 127.0.0.1 with an ephemeral port; bots act at once."""
    settings: dict[str, Any] = {"port": 0, "bind": "127.0.0.1", "bot_delay": 0.0,
                                "name": "test host", "lobby_delay": 0.01}
    settings.update(overrides)
    host = HostService(HostConfig(**settings), reactor)
    host.startService()
    return host


async def stop_host(host: HostService) -> None:
    await wait_deferred(host.stopService())


class WireClient(tprotocol.Protocol):
    """A minimal protocol/-only client that queues every message it receives."""

    def __init__(self) -> None:
        self.conn = Connection(Role.CLIENT)
        self.raw = bytearray()
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.seen: list[Any] = []
        self.lost: asyncio.Future[str] = loop().create_future()
        self.decode_error: Exception | None = None

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        try:
            self.conn.receive_data(data)
            while True:
                msg = self.conn.next_event()
                if msg is None:
                    break
                if isinstance(msg, messages.Ping):
                    self.send(messages.Pong(nonce=msg.nonce))
                self.seen.append(msg)
                self.inbox.put_nowait(msg)
        except Exception as exc:  # noqa: BLE001 - recorded for the test to assert on
            self.decode_error = exc

    def connectionLost(self, reason: Any = tprotocol.connectionDone) -> None:
        if not self.lost.done():
            self.lost.set_result(reason.getErrorMessage())

    def send(self, msg: Any) -> None:
        self.transport.write(self.conn.send(msg))

    def send_raw(self, data: bytes) -> None:
        self.transport.write(data)

    def send_map(self, d: dict[str, Any]) -> None:
        """Send any map as a frame, bypassing the client-side checks."""
        self.transport.write(encode_frame(d))

    async def expect(
        self, cls: type, pred: Callable[[Any], bool] | None = None, timeout: float = WAIT
    ) -> Any:
        """The next message of type ``cls`` (matching ``pred``); others are skipped."""
        async def find() -> Any:
            while True:
                msg = await self.inbox.get()
                if isinstance(msg, cls) and (pred is None or pred(msg)):
                    return msg
        return await asyncio.wait_for(find(), timeout)

    async def closed(self, timeout: float = WAIT) -> str:
        return await asyncio.wait_for(asyncio.shield(self.lost), timeout)

    def frames(self) -> list[dict[str, Any]]:
        """Every frame received, decoded again from the raw byte stream."""
        dec = FrameDecoder()
        dec.receive_data(bytes(self.raw))
        out = []
        while (f := dec.next_frame()) is not None:
            out.append(f)
        return out

    def close(self) -> None:
        self.transport.abortConnection()


async def connect(port: int) -> WireClient:
    client = WireClient()
    await wait_deferred(connectProtocol(TCP4ClientEndpoint(reactor, "127.0.0.1", port), client))
    return client


async def join(port: int, name: str, role: str = "player", token: str | None = None,
               password: str | None = None) -> tuple[WireClient, Any]:
    """Connect and say hello; return the client and the welcome."""
    client = await connect(port)
    client.send(messages.Hello(versions=(1,), name=name, role=role, token=token,
                               password=password))
    welcome = await client.expect(messages.Welcome)
    return client, welcome


async def seat_players(port: int, table: int, names: list[str]) -> list[tuple[WireClient, int, str]]:
    """Connect one client per name and seat it at ``table``: (client, seat, token)."""
    out = []
    for name in names:
        c, _ = await join(port, name)
        c.send(messages.JoinTable(table=table))
        j = await c.expect(messages.Joined)
        out.append((c, j.seat, j.token))
    return out


async def state_at(client: WireClient, seq: int | None = None, timeout: float = WAIT) -> Any:
    """The next ``state`` (with sequence number ``seq`` when given)."""
    return await client.expect(
        messages.State, None if seq is None else (lambda m: m.seq == seq), timeout
    )
