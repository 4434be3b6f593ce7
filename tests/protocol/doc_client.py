"""A minimal client written from docs/protocol.md alone (socket + msgpack).

It deliberately does not import ``protocol``: it is the check that the
document is enough to interoperate with the host.
"""

from __future__ import annotations

import socket
from typing import Any

import msgpack

MAX_FRAME = 65536

# Section 4: every field of every message the host sends.
HOST_FIELDS = {
    "welcome": {"host_id", "host_name", "server_version", "version", "session", "resumed"},
    "error": {"code", "message", "fatal", "ref", "why", "args"},
    "lobby": {"tables", "scores", "notices"},
    "joined": {"table", "seat", "token"},
    "state": {"table", "seq", "view", "legal", "events", "lines", "chances"},
    "hint": {"table", "seq", "action", "reason", "why"},
    "chat": {"table", "text", "sender"},
    "ping": {"nonce"},
    "pong": {"nonce"},
    "bye": {"reason", "why", "args"},
}
# Section 4.13: the fields of every event type ("?" = left out when hidden).
EVENT_FIELDS = {
    "advance": ({"seat", "from", "to", "card"}, set()),
    "retreat": ({"seat", "from", "to", "drawn"}, {"cards"}),
    "morgan": ({"seat", "owner", "from", "to", "drawn"}, {"cards"}),
    "draw": ({"seat", "drawn"}, {"cards"}),
    "discard": ({"seat", "card"}, set()),
    "owe": ({"seat", "count"}, set()),
    "row": ({"cards"}, set()),
    "reshuffle": ({"size"}, set()),
    "turn": ({"seat"}, set()),
    "end": ({"seat"}, set()),
    "win": ({"seat"}, set()),
    "sail": ({"seat", "shore", "free"}, set()),
    "captain": ({"seat"}, set()),
    "undo": ({"seat", "action"}, {"from", "to", "card", "shore"}),
}
TABLE_KEYS = {"id", "name", "rules", "options", "status", "spectators", "password",
              "owner", "seats", "hints", "player_chances", "notices"}
SEAT_KEYS = {"seat", "name", "color", "bot", "connected", "level"}
SCORE_KEYS = {"player", "bot", "games", "wins", "places"}


def check_state(msg: dict[str, Any], me: int | None) -> None:
    """A ``state`` as section 4.13 describes it, for receiver seat ``me`` (None: watcher)."""
    view = msg["view"]
    assert len(msg["lines"]) == len(msg["events"])
    pending = view["pending"]
    if view["outcome"] is None:
        assert view["actor"] == (pending[0]["seat"] if pending else view["turn"])
    else:
        assert view["actor"] is None
    assert bool(msg["legal"]) == (me is not None and view["actor"] == me)
    names = view["symbols"] + [s + "*" for s in view["symbols"]]
    for seat in view["seats"]:
        if seat["seat"] == me:
            assert seat["hand"] == sorted(seat["hand"], key=names.index)
            assert len(seat["hand"]) == seat["hand_size"]
    hidden = view["row"] is None and all(
        s["hand"] is None for s in view["seats"] if s["seat"] != me)
    for event, line in zip(msg["events"], msg["lines"]):
        required, optional = EVENT_FIELDS[event["type"]]
        assert required <= set(event) - {"type", "text"} <= required | optional, event
        assert event["text"] == line
        if "drawn" in event and hidden:
            # others' draws from a hidden stock are left out (not nil); own ones shown
            assert ("cards" in event) == (event["seat"] == me), (me, event)


class DocClient:
    """Blocking client: frames are a 4-byte big-endian length + one msgpack map."""

    def __init__(self, port: int, timeout: float = 20.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.received: list[dict[str, Any]] = []

    def hello(self, name: str, **fields: Any) -> dict[str, Any]:
        """Say hello (section 4.1); return the answer (``welcome`` or ``error``)."""
        self.send({"type": "hello", "versions": [1], "name": name, **fields})
        return self.recv_type("welcome", "error")

    def until(self, kind: str) -> list[dict[str, Any]]:
        """Every message up to and including the next one of ``kind``."""
        out = []
        while True:
            out.append(self.recv())
            if out[-1]["type"] == kind:
                return out

    def close(self) -> None:
        self.sock.close()

    def send(self, msg: dict[str, Any]) -> None:
        body = msgpack.packb(msg, use_bin_type=True)
        assert len(body) <= MAX_FRAME
        self.sock.sendall(len(body).to_bytes(4, "big") + body)

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError("connection closed")
            data += chunk
        return data

    def recv(self) -> dict[str, Any]:
        """The next message, checked against the document; pings are answered."""
        while True:
            size = int.from_bytes(self._read(4), "big")
            assert 1 <= size <= MAX_FRAME, size
            msg = msgpack.unpackb(self._read(size), raw=False, strict_map_key=True)
            assert isinstance(msg, dict) and all(isinstance(k, str) for k in msg)
            kind = msg["type"]
            assert set(msg) - {"type"} == HOST_FIELDS[kind], msg
            if kind == "lobby":
                for table in msg["tables"]:
                    assert set(table) == TABLE_KEYS
                    assert all(set(s) == SEAT_KEYS for s in table["seats"])
                assert all(set(r) == SCORE_KEYS for r in msg["scores"])
                assert all(isinstance(n.get("kind"), str) for n in msg["notices"])
            self.received.append(msg)
            if kind == "ping":
                self.send({"type": "pong", "nonce": msg["nonce"]})
                continue
            return msg

    def recv_type(self, *kinds: str) -> dict[str, Any]:
        """Skip messages until one of ``kinds`` (an unexpected fatal error fails)."""
        while True:
            msg = self.recv()
            if msg["type"] in kinds:
                return msg
            assert not (msg["type"] == "error" and msg["fatal"]), msg
