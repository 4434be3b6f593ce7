"""The web port's parts built alone: the guard's readers, the feeds with a fake clock and
fake tables, and a browser seat's framing, with no host and no socket."""
from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

from twisted.internet.task import Clock
from twisted.web.test.requesthelper import DummyRequest

from cartagena_net.web import guard
from cartagena_net.web.feeds import Feeds
from protocol.framing import encode_frame


def request(body: bytes = b"", cookies: dict[bytes, bytes] | None = None) -> DummyRequest:
    r = DummyRequest([b""])
    r.content = io.BytesIO(body)
    jar = dict(cookies or {})
    r.getCookie = jar.get  # (DummyRequest has no cookie jar)
    return r


def test_a_cookie_is_read_one_way_for_passwords_and_seats():
    assert guard.cookie(request(cookies={b"a": b"p%C3%A5ss%20word"}), "a") == "påss word"
    assert guard.cookie(request(cookies={b"a": b""}), "a") is None
    assert guard.cookie(request(), "a") is None
    assert guard.cookie(request(cookies={b"a": b"%0Aline"}), "a") is None  # a control char
    assert guard.cookie(request(cookies={b"a": b"%FF"}), "a") is None  # not UTF-8
    assert guard.cookie(request(cookies={b"a": "é".encode("latin-1")}), "a") is None


def test_a_body_is_json_once_or_says_why_not():
    assert guard.decode_body(request(b'{"type": "hello", "n": [1, {"a": 2}]}')) == {
        "type": "hello", "n": [1, {"a": 2}]}
    deep = b'{"a":' * 9 + b"1" + b"}" * 9
    assert "nests more than 8" in guard.decode_body(request(deep))
    assert guard.decode_body(request(b'{"a": "[[[[[[[[[[[["}')) == {"a": "[[[[[[[[[[[["}
    assert guard.decode_body(request(b"\xff{}")) == "the body must be UTF-8"
    for bad in (b"[1]", b"{", b'{"a": NaN}', b"", b"1"):
        assert guard.decode_body(request(bad)) == "the body must be one JSON object", bad


class FakeTable:
    def __init__(self, tid: int) -> None:
        self.id, self.seq, self.coach, self.state = tid, 1, None, None
        self.allow_spectators = True

    def lobby_entry(self) -> dict[str, Any]:
        return {"id": self.id}


class FakeRequest:
    """An open event stream: what the feed writes lands in ``got``."""

    finished = _disconnected = False
    chunked = False

    def __init__(self) -> None:
        self.got: list[bytes] = []
        self.channel = SimpleNamespace(transport=self)
        self.done: list[Any] = []

    def write(self, data: bytes) -> None:
        self.got.append(data)

    def writeSequence(self, seq: list[bytes]) -> None:
        self.got.extend(seq)

    def notifyFinish(self) -> Any:
        from twisted.internet.defer import Deferred

        d: Deferred = Deferred()
        self.done.append(d)
        return d

    def finish(self) -> None:
        self.finished = True

    def getClientAddress(self) -> Any:
        return SimpleNamespace(host="127.0.0.1")


def test_feeds_alone_coalesce_changes_count_watchers_and_say_a_table_is_gone():
    clock = Clock()
    tables = {1: FakeTable(1)}
    changed: list[int] = []
    config = SimpleNamespace(web_max_buffer=1 << 20, lobby_delay=0.1, web_keepalive=15.0)
    feeds = Feeds(clock, config, tables.get, lambda: {"tables": list(tables)},
                  lambda t: changed.append(t.id))
    feeds.start()
    watcher = FakeRequest()
    feeds.watch(watcher, 1)
    assert feeds.watchers(1) == 1 and changed == [1]
    assert b"event: table" in b"".join(watcher.got)
    lobby = FakeRequest()
    feeds.watch(lobby, None)
    assert b"event: lobby" in b"".join(lobby.got)
    for _ in range(5):  # five changes in one lobby delay: one push of each
        feeds.table_changed(tables[1])
    before = len(watcher.got), len(lobby.got)
    clock.advance(0.1)
    assert (len(watcher.got), len(lobby.got)) == (before[0] + 1, before[1] + 1)
    clock.advance(15.0)  # the keepalive comment
    assert watcher.got[-1].startswith(b":") and lobby.got[-1].startswith(b":")
    feeds.table_removed(1)
    assert b"event: gone" in watcher.got[-1] and watcher.finished
    assert not feeds.watching(1)
    feeds.stop()
    assert lobby.finished


def test_a_browser_seat_takes_the_host_s_frames_in_any_chunking():
    from cartagena_net.web.seats import BrowserSession

    sent: list[dict[str, Any]] = []
    session = BrowserSession.__new__(BrowserSession)  # its framing alone, no host
    from protocol.framing import FrameDecoder

    session.closed = False
    session._frames = FrameDecoder()
    session._send = sent.append  # type: ignore[method-assign]
    data = b"".join(encode_frame({"type": "ping", "n": i}) for i in range(3))
    for i in range(0, len(data), 5):
        session.outgoing(data[i:i + 5])
    assert sent == [{"type": "ping", "n": i} for i in range(3)]
