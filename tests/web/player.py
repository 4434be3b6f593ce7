"""A blocking game-protocol client for browser tests: a person at a table, on a real
host subprocess, through ``protocol`` only (sans-IO over a plain socket)."""
from __future__ import annotations

import socket
import time
from typing import Any

from protocol import Connection, Role, messages

TIMEOUT = 30.0


class Refused(Exception):
    """The host answered with an ``error``."""


class Player:
    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.conn = Connection(Role.CLIENT)
        self.state: Any = None  # the latest ``state``
        self.send(messages.Hello(versions=(1,), name=name))
        self.expect(messages.Welcome)

    def send(self, msg: Any) -> None:
        self.sock.sendall(self.conn.send(msg))

    def expect(self, cls: type, pred: Any = None) -> Any:
        """The next message of type ``cls`` (matching ``pred``); others are skipped."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            msg = self.conn.next_event()
            if msg is None:
                data = self.sock.recv(1 << 16)
                if not data:
                    raise ConnectionError("the host closed the connection")
                self.conn.receive_data(data)
                continue
            if isinstance(msg, messages.Ping):
                self.send(messages.Pong(nonce=msg.nonce))
            if isinstance(msg, messages.State):
                self.state = msg
            if isinstance(msg, messages.Error):
                raise Refused(f"{msg.code}: {msg.message}")
            if isinstance(msg, cls) and (pred is None or pred(msg)):
                return msg
        raise TimeoutError(f"no {cls.__name__} from the host")

    def my_turn(self) -> Any:
        """Wait for a ``state`` that asks this player to act; return it."""
        return self.expect(messages.State, lambda m: bool(m.legal))

    def act(self, action: str) -> Any:
        """Send ``action`` on the latest state; return the state that follows."""
        seq = self.state.seq
        self.send(messages.Action(table=self.state.table, seq=seq, action=action))
        return self.expect(messages.State, lambda m: m.seq > seq)

    def close(self) -> None:
        self.sock.close()
