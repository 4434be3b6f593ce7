"""A benchmark client's frame reader: plain non-blocking sockets, no protocol layer, so
the host's work is what gets measured."""
from __future__ import annotations

import socket

import msgpack


def read_frames(sock: socket.socket, buf: bytearray, who: str = "client") -> list[dict]:
    """Read all the socket has now into ``buf``; return the complete frames' maps."""
    while True:
        try:
            chunk = sock.recv(1 << 16)
        except BlockingIOError:
            break
        if not chunk:
            raise ConnectionError(f"{who}: closed by the host")
        buf += chunk
    frames = []
    while len(buf) >= 4:
        size = int.from_bytes(buf[:4], "big")
        if len(buf) < 4 + size:
            break
        frames.append(msgpack.unpackb(bytes(buf[4 : 4 + size]), raw=False))
        del buf[: 4 + size]
    return frames
