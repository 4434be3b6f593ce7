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
