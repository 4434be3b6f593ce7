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


def at_table(host: HostService, table: int, spectate: bool = False,
             address: str = "10.0.0.1") -> tuple[HostConnection, StringTransport]:
    """A welcomed connection that joined ``table`` (a seat, or watching)."""
    conn, transport = connect(host, address)
    hello(conn)
    conn.dataReceived(encode_frame(messages.JoinTable(table=table, spectate=spectate).to_wire()))
    return conn, transport


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


def test_a_trickled_frame_is_dropped_at_the_frame_deadline():
    """A welcomed client sending one byte every 4 s never completes a message: only
    complete messages count, and a frame must be whole 5 s after its first byte."""
    clock = Clock()
    host = make(clock)
    conn, transport = connect(host)
    hello(conn)
    frame = encode_frame(messages.Ping(nonce=3).to_wire())
    for i, byte in enumerate(frame[:2]):
        conn.dataReceived(bytes([byte]))
        assert not transport.disconnecting, i
        clock.advance(4)
    # 8 s after the frame's first byte (5 s deadline): gone, with a clear reason
    frames = received(transport)
    assert frames[-1]["code"] == "idle-timeout" and frames[-1]["fatal"] is True
    assert "incomplete" in frames[-1]["message"] and transport.disconnecting


def test_a_frame_trickled_byte_by_byte_is_dropped_5_s_after_its_first_byte():
    """Byte by byte, a second apart: the clock runs from the header's first byte, not
    again from the body's (between the two, the frame once read as no frame at all)."""
    clock = Clock()
    host = make(clock)
    conn, transport = connect(host)
    hello(conn)
    frame = encode_frame(messages.Ping(nonce=3).to_wire())
    sent = 0
    for byte in frame[:-1]:
        if transport.disconnecting:
            break
        conn.dataReceived(bytes([byte]))
        sent += 1
        clock.advance(1)
    assert transport.disconnecting and received(transport)[-1]["code"] == "idle-timeout"
    assert sent == 5  # at 0 .. 4 s; gone at 5 s


def test_complete_messages_restart_the_frame_clock():
    clock = Clock()
    host = make(clock)
    conn, transport = connect(host)
    hello(conn)
    ping = encode_frame(messages.Ping(nonce=1).to_wire())
    # each chunk completes a frame and starts the next one: every frame is whole in 4 s
    conn.dataReceived(ping[:3])
    for _ in range(10):
        clock.advance(4)
        conn.dataReceived(ping[3:] + ping[:3])
    assert not transport.disconnecting
    assert sum(1 for f in received(transport) if f["type"] == "pong") == 10
    clock.advance(5)
    assert transport.disconnecting and received(transport)[-1]["code"] == "idle-timeout"


def test_partial_bytes_are_not_activity_for_the_idle_timeout():
    """With a generous frame deadline, bytes that never make a message still do not
    keep the connection: it goes at the idle timeout, counted from the last message."""
    clock = Clock()
    host = make(clock, handshake_timeout=1000, ping_interval=15, idle_timeout=45)
    conn, transport = connect(host)
    hello(conn)
    body = b"\x00\x00\x10\x00" + b"\x80" * 100  # a 4 KiB frame that never ends
    for byte in body:
        conn.dataReceived(bytes([byte]))
        clock.advance(1)
        if transport.disconnecting:
            break
    frames = received(transport)
    assert transport.disconnecting and frames[-1]["code"] == "idle-timeout"
    assert "nothing heard" in frames[-1]["message"]
    assert clock.seconds() <= 45 + 15 + 1


def test_a_client_error_is_logged_not_answered_and_a_fatal_one_closes():
    clock = Clock()
    host = make(clock)
    conn, transport = connect(host)
    hello(conn)
    transport.clear()
    conn.dataReceived(encode_frame(messages.Error(code="oops", message="m").to_wire()))
    assert transport.value() == b"" and not transport.disconnecting
    conn.dataReceived(encode_frame(messages.Error(code="bye", fatal=True).to_wire()))
    assert transport.value() == b"" and transport.disconnecting


def test_a_frame_cut_by_a_slow_password_check_gets_a_full_deadline_after_it():
    clock = Clock()
    host = make(clock, password="pw", guess_free=1, guess_delay=10)
    guesser, t1 = connect(host, "10.0.0.7")
    hello(guesser, password="wrong")  # the free failure: answered at once
    assert received(t1)[-1]["code"] == "bad-password" and t1.disconnecting
    conn, transport = connect(host, "10.0.0.7")
    ping = encode_frame(messages.Ping(nonce=4).to_wire())
    conn.dataReceived(encode_frame(messages.Hello(name="ann", password="pw").to_wire())
                      + ping[:3])
    assert received(transport) == []  # this address's checks now wait 10 s
    clock.advance(10)
    assert [f["type"] for f in received(transport)][:2] == ["welcome", "lobby"]
    clock.advance(4)  # the cut frame's 5 s run from the end of the wait
    conn.dataReceived(ping[3:])
    assert received(transport)[-1]["type"] == "pong" and not transport.disconnecting
