"""Discovery datagrams: layouts, round trips, hostile input, no amplification."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import LocalProtocolError, discovery

NONCE = bytes(range(16))


def announce(tables: int = 2, **kw) -> discovery.Announce:
    fields = {
        "host_id": "h-1", "instance": b"\x01" * 8, "name": "deck", "port": 41672,
        "version": 1,
        "tables": [{"id": i, "name": f"table {i}", "rules": "jamaica", "seats": 4,
                    "free": 2, "status": "waiting", "password": i % 2 == 1}
                   for i in range(tables)],
    }
    fields.update(kw)
    return discovery.Announce(**fields)


def test_constants():
    assert discovery.DISCOVERY_PORT == 41672 == discovery.DEFAULT_TCP_PORT
    assert discovery.PROBE_SIZE == 512
    assert discovery.MAGIC == b"CTGN"


def test_probe_layout_and_round_trip():
    data = discovery.Probe(NONCE).encode()
    assert len(data) == discovery.PROBE_SIZE
    assert data[:6] == b"CTGN\x01\x01"
    assert data[6:22] == NONCE
    assert data[22:] == bytes(490)
    assert discovery.decode_datagram(data) == discovery.Probe(NONCE)
    assert len(discovery.Probe().nonce) == 16
    assert discovery.Probe().nonce != discovery.Probe().nonce  # random


def test_probe_nonce_must_be_16_bytes():
    with pytest.raises(LocalProtocolError):
        discovery.Probe(b"short")


def test_announce_layout_and_round_trip():
    a = announce()
    data = a.encode()
    assert data[:6] == b"CTGN\x01\x02"
    body = msgpack.unpackb(data[6:], raw=False)
    assert list(body) == ["host_id", "instance", "name", "port", "version", "tables", "nonce"]
    assert body["nonce"] is None and body["instance"] == "01" * 8
    back = discovery.decode_datagram(data)
    assert back == a and back.kind == discovery.KIND_ANNOUNCE
    assert back.tables[1] == {"id": 1, "name": "table 1", "rules": "jamaica", "seats": 4,
                              "free": 2, "status": "waiting", "password": True}


def test_reply_echoes_the_nonce():
    probe = discovery.Probe(NONCE).encode()
    reply = discovery.reply_to(probe, announce())
    assert reply[:6] == b"CTGN\x01\x03"
    back = discovery.decode_datagram(reply)
    assert back.nonce == NONCE and back.kind == discovery.KIND_REPLY
    assert back.host_id == "h-1" and back.port == 41672
    assert discovery.reply_for(len(probe), announce(), NONCE) == reply
    assert discovery.reply_for(discovery.Probe(NONCE), announce()) == reply
    assert discovery.reply_to(b"CTGN\x01\x02" + bytes(506), announce()) is None


def test_payload_never_carries_an_address_or_a_password():
    body = msgpack.unpackb(announce(tables=3).encode()[6:], raw=False)
    assert set(body) == {"host_id", "instance", "name", "port", "version", "tables", "nonce"}
    for table in body["tables"]:
        assert set(table) == {"id", "name", "rules", "seats", "free", "status", "password"}
        assert isinstance(table["password"], bool)  # only whether one is needed
    leaky = discovery.Announce(host_id="h", instance="i", name="n", tables=[
        {"id": 1, "name": "t", "rules": "r", "password": True, "secret": "hunter2",
         "address": "10.0.0.1"}])
    assert b"hunter2" not in leaky.encode() and b"10.0.0.1" not in leaky.encode()


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.fixed_dictionaries({
        "id": st.integers(0, 2**32 - 1), "name": st.text(max_size=40),
        "rules": st.text(max_size=40), "seats": st.integers(0, 255),
        "free": st.integers(0, 255),
        "status": st.sampled_from(["waiting", "playing", "finished"]),
        "password": st.booleans()}), max_size=20),
    st.text(max_size=80), st.text(max_size=80),
    st.integers(min_value=0, max_value=700),
)
def test_reply_is_never_larger_than_the_probe(tables, name, host_id, probe_size):
    a = discovery.Announce(host_id=host_id, instance=NONCE, name=name, port=1, version=1,
                           tables=tables)
    reply = discovery.reply_for(probe_size, a, NONCE)
    if reply is None:
        assert probe_size < discovery.PROBE_SIZE
    else:
        assert len(reply) <= min(probe_size, discovery.PROBE_SIZE)
        back = discovery.decode_datagram(reply)
        assert back.nonce == NONCE
        assert list(back.tables) == list(a.tables[: len(back.tables)])  # a prefix
    full = discovery.reply_to(discovery.Probe(NONCE).encode(), a)
    assert full is not None and len(full) <= discovery.PROBE_SIZE
    assert len(a.encode()) <= discovery.MAX_ANNOUNCE


def test_announce_that_cannot_fit_is_refused_on_encode():
    with pytest.raises(LocalProtocolError):
        announce().encode(limit=20)
    assert discovery.reply_for(20, announce(), NONCE) is None


@pytest.mark.parametrize("data", [
    b"", b"CTGN", b"CTGN\x01", b"XTGN\x01\x01" + NONCE + bytes(490),
    b"CTGN\x02\x01" + NONCE + bytes(490),           # unknown version
    b"CTGN\x01\x09" + NONCE + bytes(490),           # unknown kind
    b"CTGN\x01\x01" + NONCE,                        # probe not padded
    b"CTGN\x01\x01" + NONCE + bytes(491),           # probe too long
    b"CTGN\x01\x02\xc1",                            # bad msgpack
    b"CTGN\x01\x02\x91\x01",                        # not a map
    b"CTGN\x01\x02\x80",                            # fields missing
    b"CTGN\x01\x02" + bytes(2000),                  # oversized datagram
])
def test_malformed_datagrams_are_dropped(data):
    assert discovery.decode_datagram(data) is None


def test_kind_and_nonce_must_agree():
    body = announce().encode()[6:]
    assert discovery.decode_datagram(b"CTGN\x01\x03" + body) is None  # reply without nonce
    reply = discovery.reply_for(512, announce(), NONCE)
    assert discovery.decode_datagram(b"CTGN\x01\x02" + reply[6:]) is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600) | st.binary(max_size=600).map(lambda b: b"CTGN\x01" + b))
def test_arbitrary_datagrams_never_raise(data):
    result = discovery.decode_datagram(data)
    assert result is None or isinstance(result, (discovery.Probe, discovery.Announce))


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["host_id", "instance", "name", "port", "version",
                                        "tables", "nonce", "x"]),
                       st.none() | st.integers(-5, 70000) | st.text(max_size=5)
                       | st.binary(max_size=17) | st.lists(st.integers(-(2**63), 2**63), max_size=2)),
       st.sampled_from([2, 3]))
def test_arbitrary_announce_maps_never_raise(body, kind):
    data = b"CTGN\x01" + bytes([kind]) + msgpack.packb(body)
    result = discovery.decode_datagram(data)
    assert result is None or isinstance(result, discovery.Announce)
