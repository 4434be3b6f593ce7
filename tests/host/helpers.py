"""Test-side helpers: run coroutines on the reactor's loop, a minimal wire client, a host."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from twisted.internet import protocol as tprotocol
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

from protocol import Connection, FrameDecoder, Role, encode_frame, messages
from tests.twisted_loop import WAIT, loop, make_host, reactor, run, stop_host, wait

wait_deferred = wait
__all__ = ["WAIT", "loop", "make_host", "reactor", "run", "stop_host", "wait_deferred"]


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


async def connect(port: int, source: str | None = None) -> WireClient:
    """A client connected to 127.0.0.1:port (from the loopback address ``source``)."""
    client = WireClient()
    bind = None if source is None else (source, 0)
    endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port, bindAddress=bind)
    await wait_deferred(connectProtocol(endpoint, client))
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


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a reaped or dead child is gone). A
    process that ends while its /proc entry is read is gone too (ESRCH)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False
