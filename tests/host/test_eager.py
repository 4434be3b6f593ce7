"""Eager writes (``host/eager.py``) on a real socket: sent at once while nothing waits,
queued behind whatever waits, and the bytes still waiting told to the caller, which
drops a peer that does not read by that count."""
from __future__ import annotations

import socket

from twisted.internet.testing import StringTransport

from cartagena_net.host.eager import pending_bytes, write_now


class Queueing:
    """The parts of a Twisted TCP transport that ``write_now`` reads, over a real
    socket: what the kernel does not take waits in ``_tempDataBuffer``."""

    def __init__(self, sock: socket.socket) -> None:
        self.socket = sock
        self.dataBuffer = b""
        self._tempDataBuffer: list[bytes] = []
        self._tempDataLen = 0
        self.connected = True
        self.disconnecting = False

    def write(self, data: bytes) -> None:
        self._tempDataBuffer.append(bytes(data))
        self._tempDataLen += len(data)


def test_a_write_the_kernel_takes_whole_waits_for_nothing_and_nothing_is_pending():
    a, b = socket.socketpair()
    with a, b:
        a.setblocking(False)
        transport = Queueing(a)
        assert write_now(transport, b"frame one") == 0
        assert b.recv(100) == b"frame one"
        assert transport._tempDataBuffer == []


def test_what_the_kernel_refuses_waits_in_order_and_its_size_is_told():
    a, b = socket.socketpair()
    with a, b:
        a.setblocking(False)
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        transport = Queueing(a)
        chunk = bytes(range(256)) * 64  # 16 KiB
        sent = 0
        pending = 0
        while pending == 0:  # the peer reads nothing: the kernel's buffers fill up
            pending = write_now(transport, chunk)
            sent += 1
        assert 0 < pending <= len(chunk) and pending == pending_bytes(transport)
        # once something waits, every write queues behind it (never jumps ahead)
        assert write_now(transport, b"after") == pending + 5
        assert transport._tempDataBuffer[-1] == b"after"
        received = bytearray()
        b.setblocking(False)
        while True:
            try:
                data = b.recv(65536)
            except BlockingIOError:
                break
            received += data
        waiting = b"".join(transport._tempDataBuffer)
        assert bytes(received) + waiting == chunk * sent + b"after"


def test_a_transport_without_a_socket_is_written_to_as_usual():
    transport = StringTransport()
    assert write_now(transport, b"hello") == 0  # a test transport keeps no queue
    assert transport.value() == b"hello"


class Peer:
    """A connection as the outbox sees it: ``held`` and ``deliver``; it notes when each
    frame was delivered (``log``, shared by the peers of a test)."""

    def __init__(self, name: str, log: list) -> None:
        self.name = name
        self.held = False
        self.log = log

    def deliver(self, data: bytes) -> None:
        self.log.append((self.name, data))


class OnLoop:
    """A reactor on a real asyncio loop, as the outbox reads it."""

    def __init__(self, loop) -> None:
        self._asyncioEventloop = loop


def _round(loop, *steps) -> None:
    """Run ``steps`` as the ready handles of one round of ``loop`` (then the rounds
    after it until nothing is left)."""
    def last() -> None:
        steps[-1]()
        loop.stop()  # (the round ends; nothing else is made ready in it)

    for step in steps[:-1]:
        loop.call_soon(step)
    loop.call_soon(last)
    loop.run_forever()
    loop.call_soon(loop.stop)  # the next round: a flush the outbox asked for, if any
    loop.run_forever()


def test_frames_of_one_round_go_out_together_after_its_last_event_in_order():
    """Three tables' actions read in one round: their frames wait until the last of
    them is handled, then go out in the order they were written."""
    import asyncio

    from cartagena_net.host.eager import Outbox

    loop = asyncio.new_event_loop()
    try:
        log: list = []
        outbox = Outbox(OnLoop(loop))
        a, b = Peer("a", log), Peer("b", log)
        seen = []

        def table(n):
            def act():
                seen.append((n, len(log)))  # what had gone out when this one began
                outbox.send(a, b"%d-a" % n)
                outbox.send(b, b"%d-b" % n)
            return act

        _round(loop, table(1), table(2), table(3))
        assert seen == [(1, 0), (2, 0), (3, 0)]  # nothing went out before the last
        assert log == [("a", b"1-a"), ("b", b"1-b"), ("a", b"2-a"), ("b", b"2-b"),
                       ("a", b"3-a"), ("b", b"3-b")]
        assert not a.held and not b.held
    finally:
        loop.close()


def test_an_action_alone_in_its_round_is_answered_at_once():
    import asyncio

    from cartagena_net.host.eager import Outbox

    loop = asyncio.new_event_loop()
    try:
        log: list = []
        outbox = Outbox(OnLoop(loop))
        a = Peer("a", log)
        during = []

        def act():
            outbox.send(a, b"frame")
            during.append(list(log))

        _round(loop, act)
        assert during == [[("a", b"frame")]]
    finally:
        loop.close()


def test_what_a_connection_writes_itself_never_overtakes_its_held_frames():
    """A frame held for a connection goes out before anything it writes on its own (an
    error, a lobby message): it flushes the outbox first."""
    import asyncio

    from twisted.internet.task import Clock

    from cartagena_net.host.eager import Outbox

    from .test_connection_limits import connect, make

    loop = asyncio.new_event_loop()
    try:
        host = make(Clock())
        host.outbox = Outbox(OnLoop(loop))
        conn, transport = connect(host)
        transport.clear()

        def first():
            conn.write_shared(b"held frame")
            assert transport.value() == b"" and conn.held

        def second():
            conn.error("bad-field", "a refusal of its own")

        _round(loop, first, second, lambda: None)
        data = transport.value()
        assert data.startswith(b"held frame") and len(data) > len(b"held frame")
    finally:
        loop.close()
