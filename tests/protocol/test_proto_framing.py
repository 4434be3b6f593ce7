"""Framing: header checks before buffering, chunking, hostile input, encoding."""

from __future__ import annotations

import itertools

import msgpack
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from protocol import (
    MAX_FRAME,
    Connection,
    FrameDecoder,
    LocalProtocolError,
    RemoteProtocolError,
    Role,
    encode_frame,
    messages,
)
from protocol.framing import (
    encode_frame_entries,
    pack_array_head,
    pack_entries,
    pack_map_head,
    pack_value,
    unpack_body,
)

from .examples import EXAMPLES
from .strategies import plain_data


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


STREAM = b"".join(encode_frame(m.to_wire()) for m in EXAMPLES.values())
EXPECTED = [m.to_wire() for m in EXAMPLES.values()]


def drain(decoder: FrameDecoder) -> list[dict]:
    out = []
    while (f := decoder.next_frame()) is not None:
        out.append(f)
    return out


def test_frame_layout_is_big_endian_length_then_msgpack_map():
    data = encode_frame({"type": "ping", "nonce": 5})
    body = msgpack.packb({"type": "ping", "nonce": 5})
    assert data == len(body).to_bytes(4, "big") + body
    assert data.hex() == "0000001282a474797065a470696e67a56e6f6e636505"


def test_whole_stream_in_one_chunk():
    decoder = FrameDecoder()
    decoder.receive_data(STREAM)
    assert decoder.pending == len(EXPECTED)
    assert drain(decoder) == EXPECTED
    assert decoder.buffered == 0


def test_byte_by_byte_gives_the_same_frames():
    decoder = FrameDecoder()
    got = []
    for byte in STREAM:
        decoder.receive_data(bytes([byte]))
        got.extend(drain(decoder))
    assert got == EXPECTED


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(STREAM)), max_size=30))
def test_random_chunkings_give_the_same_frames(cuts):
    points = sorted(set(cuts) | {0, len(STREAM)})
    decoder = FrameDecoder()
    got = []
    for a, b in itertools.pairwise(points):
        decoder.receive_data(memoryview(STREAM)[a:b])
        got.extend(drain(decoder))
        assert decoder.buffered <= 4 + MAX_FRAME
    assert got == EXPECTED


@pytest.mark.parametrize("size", [MAX_FRAME + 1, 2**31, 2**32 - 1])
def test_oversized_header_refused_before_any_body_is_buffered(size):
    decoder = FrameDecoder()
    with pytest.raises(RemoteProtocolError) as info:
        decoder.receive_data(size.to_bytes(4, "big"))
    assert info.value.code == "frame-too-large" and info.value.fatal
    assert decoder.buffered == 0
    # the decoder stays failed, and keeps nothing of what follows
    with pytest.raises(RemoteProtocolError):
        decoder.receive_data(b"x" * 100)
    with pytest.raises(RemoteProtocolError):
        decoder.next_frame()
    assert decoder.buffered == 0


def test_oversized_header_refused_even_split_and_followed_by_data():
    decoder = FrameDecoder()
    decoder.receive_data(b"\xff\xff")
    assert decoder.buffered == 2
    with pytest.raises(RemoteProtocolError, match="frame-too-large"):
        decoder.receive_data(b"\xff\xff" + b"\x00" * 5000)
    assert decoder.buffered == 0


def test_frame_of_exactly_max_size_is_accepted():
    body = msgpack.packb({"type": "chat", "pad": "x" * (MAX_FRAME - 20)})
    body = msgpack.packb({"type": "chat", "pad": "x" * (MAX_FRAME - 20 + MAX_FRAME - len(body))})
    assert len(body) == MAX_FRAME
    decoder = FrameDecoder()
    decoder.receive_data(frame(body)[:-1])
    assert decoder.next_frame() is None
    assert decoder.buffered == 4 + MAX_FRAME - 1  # its header, and all but one byte
    decoder.receive_data(frame(body)[-1:])
    assert decoder.next_frame()["type"] == "chat"


def test_custom_limit():
    decoder = FrameDecoder(max_frame=16)
    with pytest.raises(RemoteProtocolError, match="frame-too-large"):
        decoder.receive_data(encode_frame({"type": "chat", "text": "x" * 20}))


@pytest.mark.parametrize(("body", "code"), [
    (b"", "bad-msgpack"),                                  # empty frame
    (b"\xc1", "bad-msgpack"),                              # never-used byte
    (b"\x81\xa1a", "bad-msgpack"),                         # truncated
    (b"\x80\x80", "bad-msgpack"),                          # two values
    (b"\xa3\xff\xfe\xfd", "bad-msgpack"),                  # invalid UTF-8
    (b"\x81\x01\x01", "not-a-map"),                        # int key
    (b"\x81\xa1a\x81\xc0\x01", "not-a-map"),                # nested nil key
    (b"\xd6\xff\x00\x00\x00\x01", "bad-msgpack"),          # timestamp ext
    (b"\x81\xa1a\xc7\x00\x05", "bad-msgpack"),             # empty ext
    (b"\x91" * 5000 + b"\xc0", "bad-msgpack"),             # nested too deep
    (b"\xdd\xff\xff\xff\xff", "bad-msgpack"),              # array claims 4G items
    (b"\x91\xc0", "not-a-map"),
    (b"\xa4type", "not-a-map"),
    (b"\x81\xc4\x01a\x01", "not-a-map"),                   # bytes key
])
def test_bad_bodies_are_fatal_remote_errors(body, code):
    decoder = FrameDecoder()
    with pytest.raises(RemoteProtocolError) as info:
        decoder.receive_data(frame(body) + encode_frame({"type": "ping"}))
        decoder.next_frame()
    assert info.value.code == code and info.value.fatal
    with pytest.raises(RemoteProtocolError):
        decoder.next_frame()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(min_value=1, max_value=64))
def test_arbitrary_bytes_yield_frames_or_remote_errors(data, step):
    decoder = FrameDecoder(max_frame=128)
    try:
        for i in range(0, len(data), step):
            decoder.receive_data(data[i : i + step])
            assert decoder.buffered <= 4 + 128
            while (f := decoder.next_frame()) is not None:
                assert isinstance(f, dict) and all(isinstance(k, str) for k in f)
    except RemoteProtocolError as exc:
        assert exc.code in {"frame-too-large", "bad-msgpack", "not-a-map"}
        assert decoder.buffered == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.binary(max_size=40).map(frame),
    st.sampled_from(list(EXAMPLES.values())).map(lambda m: encode_frame(m.to_wire())),
    st.builds(
        lambda t, d: frame(msgpack.packb({"type": t, **d})),
        st.sampled_from(sorted(messages.MESSAGE_TYPES)) | st.text(max_size=4),
        st.dictionaries(st.sampled_from(["table", "seq", "seat", "nonce", "view", "x"]),
                        st.integers(min_value=-(2**63), max_value=2**64 - 1)
                        | st.text(max_size=4) | st.none(), max_size=4)),
    st.binary(max_size=8),
), max_size=8))
def test_arbitrary_input_to_a_connection_yields_messages_or_remote_errors(parts):
    for role in (Role.HOST, Role.CLIENT):
        conn = Connection(role)
        try:
            for part in parts:
                conn.receive_data(part)
                while True:
                    try:
                        msg = conn.next_event()
                    except RemoteProtocolError as exc:
                        if exc.fatal:
                            raise
                        continue
                    if msg is None:
                        break
                    assert isinstance(msg, messages.Message)
        except RemoteProtocolError as exc:
            assert exc.fatal


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1, [1, {"x": 2**70}]])
def test_int_out_of_msgpack_range_on_send(value):
    with pytest.raises(LocalProtocolError) as info:
        encode_frame({"type": "chat", "v": value})
    assert info.value.code == "bad-value"


def test_ints_at_msgpack_limits_encode():
    decoder = FrameDecoder()
    decoder.receive_data(encode_frame({"a": 2**64 - 1, "b": -(2**63)}))
    assert decoder.next_frame() == {"a": 2**64 - 1, "b": -(2**63)}


DEEP: list = [0]
for _ in range(70):
    DEEP = [DEEP]


@pytest.mark.parametrize("value", [
    {1: "int key"}, {"s": {1, 2}}, {"o": object()}, {"u": "\ud800"},
    {"deep": DEEP},
])
def test_unencodable_values_are_local_errors(value):
    with pytest.raises(LocalProtocolError) as info:
        encode_frame(value)
    assert info.value.code == "bad-value"


def test_top_level_must_be_a_map():
    with pytest.raises(LocalProtocolError):
        encode_frame([1, 2])  # type: ignore[arg-type]


def test_frame_too_large_on_send():
    with pytest.raises(LocalProtocolError) as info:
        encode_frame({"type": "chat", "text": "x" * MAX_FRAME})
    assert info.value.code == "frame-too-large"
    big = messages.State(table=1, seq=1, view={"k": ["y" * 900] * 100})
    with pytest.raises(LocalProtocolError, match="frame-too-large"):
        encode_frame(big.to_wire())


def _disjoint(*maps: dict) -> bool:
    keys = [k for m in maps for k in m]
    return len(keys) == len(set(keys))


def _keys(prefix: str, n: int) -> dict:
    return {f"{prefix}{i}": [i, {"x": str(i)}] for i in range(n)}


# 100 random examples, not 300: each repeats the same encode-and-compare check on data
# of random shape (a third of them took 7 s), and the fixmap boundary is set up on
# purpose below: 15 and 16 entries, in the nested map and in the outer one.
@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.text(max_size=8), plain_data, max_size=20),
       st.dictionaries(st.text(max_size=8), plain_data, max_size=40),
       st.dictionaries(st.text(max_size=8), plain_data, max_size=20),
       st.dictionaries(st.text(max_size=8), plain_data, max_size=20),
       st.dictionaries(st.text(max_size=8), plain_data, max_size=20),
       st.text(max_size=8))
@example(_keys("o", 9), _keys("m", 5), _keys("h", 7), _keys("s", 8), {}, "k")  # 15 and 15
@example(_keys("o", 9), _keys("m", 6), _keys("h", 8), _keys("s", 8), {}, "k")  # 16 and 16
@example(_keys("o", 15), {}, _keys("h", 1), {}, _keys("r", 15), "k")  # 16 and 16
def test_a_nested_frame_decodes_as_the_whole_map(outer, more, head, second, rest, key):
    """A map with parts encoded once (the nested map's in two parts, and some of the
    outer map's; sizes either side of msgpack's 16-entry fixmap) decodes exactly as the
    same map encoded whole."""
    outer.pop(key, None)
    more = {k: v for k, v in more.items() if k != key and k not in outer}
    second = {k: v for k, v in second.items() if k not in head}
    rest = {k: v for k, v in rest.items() if k not in head and k not in second}
    assert _disjoint(head, rest) and _disjoint(head, second) and _disjoint(outer, more)
    data = encode_frame_entries(
        len(outer) + len(more) + 1, pack_entries(outer), pack_entries(more),
        pack_map_head(key, len(head) + len(second) + len(rest)), pack_entries(head),
        pack_entries(second), pack_entries(rest))
    whole = {**outer, **more, key: {**head, **second, **rest}}
    decoder = FrameDecoder()
    decoder.receive_data(data)
    got = drain(decoder)
    assert got == [whole]
    assert len(data) == len(encode_frame(whole))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=8), st.lists(plain_data, max_size=40))
def test_an_array_entry_of_items_encoded_apart_is_the_entry_encoded_whole(key, items):
    """A map entry whose array's items were encoded one by one (each the same in many
    frames) is byte for byte the entry encoded whole, on either side of msgpack's
    16-item fixarray."""
    assert b"".join((pack_array_head(key, len(items)), *map(pack_value, items))) == (
        pack_entries({key: items}))


def test_a_long_array_entry_has_the_long_headers():
    for n in (15, 16, 65535, 65536):
        items = list(range(n))
        assert b"".join((pack_array_head("k", n), *map(pack_value, items))) == (
            pack_entries({"k": items}))


def test_a_nested_frame_over_the_limit_is_refused_on_send():
    head = {"board": ["y" * 900] * 40}
    with pytest.raises(LocalProtocolError, match="frame-too-large"):
        encode_frame_entries(2, pack_entries({"type": "state"}), pack_map_head("view", 2),
                             pack_entries(head), pack_entries({"more": ["z" * 900] * 40}))
    with pytest.raises(LocalProtocolError, match="bad-value"):
        pack_entries({"x": object()})


def test_a_refused_value_leaves_the_next_frame_whole():
    """The encoder keeps one msgpack packer (per thread): a value it refuses half way
    leaves nothing behind in it for the next frame."""
    for bad in ({"a": [1, 2, object()]}, {"a": ["x" * 40, 2**70]}):
        with pytest.raises(LocalProtocolError, match="bad-value"):
            encode_frame(bad, check=False)
        good = {"type": "ping", "nonce": 7}
        assert encode_frame(good) == len(msgpack.packb(good)).to_bytes(4, "big") + msgpack.packb(good)


def test_frames_encoded_in_many_threads_at_once_are_each_whole():
    """Threads (a host's web and record threads beside its reactor) encode at once (one
    packer shared by all would mix their frames where msgpack packs in Python)."""
    import threading

    errors = []

    def encode(n: int) -> None:
        try:
            for i in range(2000):
                d = {"type": "chat", "text": "t" * ((n * 7 + i) % 300), "table": n}
                body = encode_frame(d)[4:]
                assert msgpack.unpackb(body) == d
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=encode, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


@pytest.mark.parametrize(("body", "words"), [
    (b"\xc1", "frame is not valid msgpack (a byte that starts no msgpack value)"),
    (b"\x91" * 3000 + b"\x01", "frame is not valid msgpack (nested too deep)"),
    (msgpack.packb(7), "frame holds an integer, not a map"),
    (msgpack.packb([1, 2]), "frame holds an array, not a map"),
    (msgpack.packb(None), "frame holds nil, not a map"),
])
def test_a_refused_frame_says_what_it_holds_in_words(body, words):
    with pytest.raises(RemoteProtocolError) as refused:
        unpack_body(body)
    assert refused.value.message == words
