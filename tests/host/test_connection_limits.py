"""Connection limits with StringTransport and a fake clock: deadline, idle, rate, caps."""
from __future__ import annotations

from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from cartagena_net.host import HostConfig, HostService
from cartagena_net.host.connection import HostConnection
from protocol import FrameDecoder, encode_frame, messages


def make(clock: Clock, **overrides) -> HostService:
    config = HostConfig(port=0, bind="127.0.0.1", name="unit", **overrides)
    host = HostService(config, clock)
    host.running = True
    return host


def connect(host: HostService, address: str = "10.0.0.5") -> tuple[HostConnection, StringTransport]:
    conn = HostConnection(host, address)
    transport = StringTransport()
    conn.makeConnection(transport)
    return conn, transport


def received(transport: StringTransport) -> list[dict]:
    dec = FrameDecoder()
    dec.receive_data(transport.value())
    out = []
    while (f := dec.next_frame()) is not None:
        out.append(f)
    return out


def hello(conn: HostConnection, **fields) -> None:
    msg = messages.Hello(versions=(1,), name="ann", **fields)
    conn.dataReceived(encode_frame(msg.to_wire()))


def test_handshake_deadline_drops_silent_connections():
    clock = Clock()
    host = make(clock)
    _conn, transport = connect(host)
    clock.advance(4.9)
    assert not transport.disconnecting
    clock.advance(0.2)
    frames = received(transport)
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "handshake-timeout"
    assert frames[-1]["fatal"] is True and transport.disconnecting


def test_hello_in_time_is_welcomed_and_not_dropped():
    clock = Clock()
    host = make(clock)
    conn, transport = connect(host)
    hello(conn)
    clock.advance(6)
    types = [f["type"] for f in received(transport)]
    assert types[:2] == ["welcome", "lobby"] and not transport.disconnecting


def test_idle_connection_is_pinged_then_dropped():
    clock = Clock()
    host = make(clock, ping_interval=10, idle_timeout=30)
    conn, transport = connect(host)
    hello(conn)
    clock.advance(10)
    pings = [f for f in received(transport) if f["type"] == "ping"]
    assert len(pings) == 1
    # answering keeps it alive
    conn.dataReceived(encode_frame(messages.Pong(nonce=pings[0]["nonce"]).to_wire()))
    clock.advance(25)
    assert not transport.disconnecting
    clock.advance(30)
    last = received(transport)[-1]
    assert last["code"] == "idle-timeout" and transport.disconnecting


def test_rate_limit_drops_a_flooding_connection():
    clock = Clock()
    host = make(clock, rate=5, burst=10)
    conn, transport = connect(host)
    hello(conn)
    ping = encode_frame(messages.Ping(nonce=1).to_wire())
    conn.dataReceived(ping * 8)
    assert not transport.disconnecting
    clock.advance(1.0)  # 5 more tokens: 7 available
    conn.dataReceived(ping * 20)
    frames = received(transport)
    assert sum(1 for f in frames if f["type"] == "pong") == 8 + 6
    assert frames[-1]["code"] == "rate-limited" and frames[-1]["fatal"]
    assert transport.disconnecting


def test_connection_caps_per_address_and_total():
    clock = Clock()
    host = make(clock, max_per_address=2, max_connections=3)
    a1, t1 = connect(host, "10.0.0.1")
    _a2, t2 = connect(host, "10.0.0.1")
    _a3, t3 = connect(host, "10.0.0.1")
    assert not t1.disconnecting and not t2.disconnecting and t3.disconnecting
    assert received(t3)[-1]["code"] == "server-full"
    _b1, u1 = connect(host, "10.0.0.2")
    _b2, u2 = connect(host, "10.0.0.3")
    assert not u1.disconnecting and u2.disconnecting
    a1.connectionLost()
    _c1, v1 = connect(host, "10.0.0.3")
    assert not v1.disconnecting and host.caps.total == 3


def test_a_dropped_connection_lets_go_of_timers():
    clock = Clock()
    host = make(clock)
    conn, _transport = connect(host)
    assert clock.getDelayedCalls()
    conn.connectionLost()
    assert not [c for c in clock.getDelayedCalls() if c.active()]


class SlowTransport(StringTransport):
    """A transport whose peer never reads: everything stays queued."""

    def __init__(self) -> None:
        super().__init__()
        self.dataBuffer = b""
        self.aborted = False

    def write(self, data: bytes) -> None:
        super().write(data)
        self.dataBuffer += data

    def abortConnection(self) -> None:
        self.aborted = True


def test_a_peer_that_never_reads_is_dropped_before_the_host_buffers_too_much():
    clock = Clock()
    host = make(clock, max_send_buffer=4096)
    conn = HostConnection(host, "10.0.0.9")
    transport = SlowTransport()
    conn.makeConnection(transport)
    hello(conn)
    assert not transport.aborted
    for _ in range(100):
        conn.write_shared(b"x" * 100)
        if transport.aborted:
            break
    assert transport.aborted and len(transport.dataBuffer) < 4096 + 2000
