"""A small raw HTTP/1.1 client on the test loop (asyncio streams), for the web view's
HTTP-level tests: every byte the host sends is seen as sent (chunked bodies decoded)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.twisted_loop import WAIT


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes = b""

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())


def request_bytes(method: str, path: str, cookies: dict[str, str] | None = None,
                  version: str = "HTTP/1.1", extra: str = "") -> bytes:
    lines = [f"{method} {path} {version}", "Host: 127.0.0.1", "Connection: close"]
    if cookies:
        lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode("latin-1")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    return status, headers


async def fetch(port: int, path: str = "/", method: str = "GET",
                cookies: dict[str, str] | None = None, body: bytes = b"") -> Response:
    """One request on its own connection; the body read to the end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        extra = f"Content-Length: {len(body)}\r\n" if body else ""
        writer.write(request_bytes(method, path, cookies, extra=extra) + body)
        status, headers = await read_head(reader)
        if method == "HEAD":
            return Response(status, headers)
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            dec = Chunks()
            while not dec.done:
                data = await asyncio.wait_for(reader.read(65536), WAIT)
                if not data:
                    break
                body += dec.feed(data)
            return Response(status, headers, body)
        body = await asyncio.wait_for(reader.read(), WAIT)
        return Response(status, headers, body)
    finally:
        writer.close()


class Chunks:
    """Decodes a chunked body as it arrives."""

    def __init__(self) -> None:
        self.buf = b""
        self.done = False

    def feed(self, data: bytes) -> bytes:
        self.buf += data
        out = b""
        while True:
            end = self.buf.find(b"\r\n")
            if end < 0:
                return out
            size = int(self.buf[:end].split(b";")[0], 16)
            if size == 0:
                self.done = True
                return out
            if len(self.buf) < end + 2 + size + 2:
                return out
            out += self.buf[end + 2 : end + 2 + size]
            self.buf = self.buf[end + 2 + size + 2 :]


@dataclass
class Stream:
    """An open ``text/event-stream``: its events as they come, and their raw bytes."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int
    headers: dict[str, str]
    raw: bytes = b""
    pending: bytes = b""
    chunks: Chunks = field(default_factory=Chunks)

    async def event(self, kind: str | None = None, timeout: float = WAIT) -> tuple[str, bytes]:
        """The next event (of ``kind``): its name and its exact bytes on the wire."""
        async def next_one() -> tuple[str, bytes]:
            while True:
                while b"\n\n" in self.pending:
                    block, self.pending = self.pending.split(b"\n\n", 1)
                    name = "message"
                    for line in block.split(b"\n"):
                        if line.startswith(b"event: "):
                            name = line[7:].decode()
                    if block.startswith(b":"):
                        continue  # a comment (keep-alive)
                    if kind is None or name == kind:
                        return name, block + b"\n\n"
                data = await self.reader.read(65536)
                if not data:
                    raise ConnectionError("the stream ended")
                body = self.chunks.feed(data)
                self.raw += body
                self.pending += body
        return await asyncio.wait_for(next_one(), timeout)

    async def read_to_end(self, timeout: float = WAIT) -> bytes:
        """Read the body to its last chunk (or the connection's end); what came after the
        events already read. The stream must have ended with its last chunk."""
        rest = b""
        while not self.chunks.done:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                break
            rest += self.chunks.feed(data)
        assert self.chunks.done, "the stream ended with its last chunk"
        return rest

    def close(self) -> None:
        self.writer.close()


async def open_stream(port: int, path: str, cookies: dict[str, str] | None = None,
                      rcvbuf: int | None = None) -> Stream:
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(request_bytes("GET", path, cookies))
    status, headers = await read_head(reader)
    return Stream(reader, writer, status, headers)


def event_data(block: bytes) -> Any:
    import json

    for line in block.split(b"\n"):
        if line.startswith(b"data: "):
            return json.loads(line[6:])
    return None
