"""Every parser of inbound text, fuzzed: it returns a clean value or raises its documented
error, nothing else; and only ASCII digits are ever read as numbers."""
from __future__ import annotations

import argparse
import re
import unicodedata

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cartagena_net.cli.game_args import option_pair
from cartagena_net.cli.password_args import ENV, read_password
from cartagena_net.discovery import parse_target
from cartagena_net.engine import InvalidActionError, parse_action
from client.app import split_address
from protocol import (
    MAX_SECRET,
    PROTOCOL_VERSIONS,
    Connection,
    RemoteProtocolError,
    Role,
    choose_version,
    clean_secret,
    discovery,
    messages,
)
from protocol.fields import _CONTROL, Opt, Secret, Str, clean_text

#: Digits that are not ASCII: str.isdigit() or int() accept some of them.
UNICODE_DIGITS = "²³¹①⑳٣۳߃३৩੩૩୩௩౩೩൩๓໓༣၃៣᠓３𝟑🄂"
TRICKY = ["", " ", "0", "00000", "99999", "100000", "+3", "-1", "1_0", "0x1", " 7 ",
          "1e3", "∞", "NaN", "\x00", "\t", "\n", "\u202e", "\u2066", "ﬀ", "İ", "ß",
          "e\u0301", "advance", "ADVANCE", "skull*", "*", "**"]
pieces = st.sampled_from(TRICKY) | st.sampled_from(list(UNICODE_DIGITS)) | st.text(max_size=6)
hostile_text = st.lists(pieces, max_size=8).map(" ".join) | st.text(max_size=300)
unicode_number = st.text(alphabet=UNICODE_DIGITS + "0123456789", min_size=1, max_size=4).filter(
    lambda w: not w.isascii())


def _ascii_number(word: str) -> bool:
    return re.fullmatch(r"[0-9]+", word) is not None


# -- the engine's action notation (what `action.action` carries) ------------------------


@settings(max_examples=200)
@given(hostile_text)
def test_parse_action_returns_an_action_or_raises_invalid_action_error(text):
    try:
        action = parse_action(text)
    except InvalidActionError:
        return
    words = text.lower().split()
    numbers = {"advance": words[1:2], "retreat": words[1:2], "morgan": words[1:3]}
    assert all(_ascii_number(w) for w in numbers.get(action.kind, []))
    assert parse_action(str(action)) == action and str(action).isascii()


@given(st.sampled_from(["advance {} key", "retreat {}", "morgan {} 1", "morgan 1 {}"]),
       unicode_number)
def test_unicode_digits_are_never_numbers_in_actions(template, number):
    text = template.format(number)
    try:
        parse_action(text)
    except InvalidActionError:
        return
    raise AssertionError(f"{text!r} parsed")


# -- protocol: strings, passwords, versions, whole messages --------------------------------


@given(hostile_text, st.integers(min_value=0, max_value=600))
def test_clean_text_removes_every_control_character_and_caps(text, cap):
    out = clean_text(text, cap)
    assert len(out) <= cap and not _CONTROL.search(out)
    assert clean_text(out, cap) == out


@settings(max_examples=150)
@given(hostile_text | st.text(min_size=100, max_size=200))
def test_clean_secret_keeps_a_usable_password_exactly_or_refuses_it(text):
    try:
        out = clean_secret(text)
    except ValueError as exc:
        assert str(exc).startswith("a password")
        return
    if out is None:
        assert unicodedata.normalize("NFC", text) == ""
        return
    assert out == unicodedata.normalize("NFC", text)  # nothing removed, nothing cut
    assert 0 < len(out) <= MAX_SECRET and not _CONTROL.search(out)
    assert clean_secret(out) == out


@given(st.lists(st.one_of(st.integers(), st.booleans(), st.none(), hostile_text,
                          st.floats()), max_size=20))
def test_choose_version_picks_a_spoken_version_or_refuses(offered):
    try:
        v = choose_version(offered)
    except RemoteProtocolError as exc:
        assert (exc.code, exc.fatal) == ("no-common-version", True)
        return
    assert v in PROTOCOL_VERSIONS and v in offered


def _text_fields(cls):
    return [name for name, kind in cls.FIELDS.items()
            if isinstance(kind, (Str, Secret)) or (isinstance(kind, Opt)
                                                   and isinstance(kind.inner, (Str, Secret)))]


CLIENT_TYPES = sorted(messages.MESSAGE_TYPES)


@settings(max_examples=200)
@given(st.sampled_from(CLIENT_TYPES).flatmap(lambda t: st.tuples(
    st.just(t),
    st.dictionaries(st.sampled_from(_text_fields(messages.MESSAGE_TYPES[t]) or ["type"]),
                    hostile_text, max_size=4),
    st.dictionaries(st.sampled_from(["table", "seq", "seat", "nonce", "versions"]),
                    hostile_text | st.integers(min_value=-5, max_value=2**33), max_size=3),
)))
def test_text_in_any_field_decodes_clean_or_is_bad_field(case):
    kind, texts, others = case
    wire = {"type": kind, **others, **texts}
    try:
        msg = messages.decode(wire)
    except RemoteProtocolError as exc:
        # "type" itself is text too: a mangled one is an unknown type
        assert exc.code in ("bad-field", "unknown-type") and not exc.fatal
        return
    for name, field in msg.FIELDS.items():
        value = getattr(msg, name)
        inner = field.inner if isinstance(field, Opt) else field
        if isinstance(inner, Str) and value is not None:
            assert len(value) <= inner.cap and not _CONTROL.search(value)
        if isinstance(inner, Secret) and value is not None:
            assert clean_secret(value) == value
        if name in ("table", "seq", "seat", "nonce") and value is not None:
            assert isinstance(value, int) and not isinstance(value, bool)


@settings(max_examples=150)
@given(st.dictionaries(hostile_text, hostile_text | st.integers(-(2**63), 2**64 - 1),
                       max_size=6),
       st.sampled_from(CLIENT_TYPES))
def test_a_host_connection_reads_hostile_text_frames_without_surprises(fields, kind):
    conn = Connection(Role.HOST)
    hello = msgpack.packb({"type": "hello", "versions": [1], "name": "x"})
    body = msgpack.packb({**fields, "type": kind})
    for frame in (hello, body):
        conn.receive_data(len(frame).to_bytes(4, "big") + frame)
    try:
        while conn.next_event() is not None:
            pass
    except RemoteProtocolError as exc:
        assert exc.code in ("bad-field", "unknown-type", "not-allowed", "wrong-table",
                            "no-common-version")


@given(hostile_text, hostile_text, hostile_text)
def test_announcements_with_hostile_text_decode_or_are_dropped(name, host_id, rules):
    body = {"host_id": host_id, "instance": "i", "name": name, "port": 41672, "version": 1,
            "tables": [{"id": 1, "name": name, "rules": rules, "seats": 2, "free": 1,
                        "status": "waiting", "password": False}], "nonce": None}
    data = discovery.MAGIC + bytes([1, 2]) + msgpack.packb(body)
    out = discovery.decode_datagram(data)
    if out is not None:
        assert not _CONTROL.search(out.name) and len(out.name) <= 64


# -- command line and configuration text --------------------------------------------------


@given(hostile_text)
def test_a_password_from_the_environment_is_usable_or_refused(text):
    try:
        out = read_password(argparse.Namespace(), {ENV: text})
    except ValueError as exc:
        assert str(exc).startswith(f"${ENV}")
        return
    assert out is None or clean_secret(out) == out


@given(hostile_text)
def test_option_pairs_parse_or_are_refused(text):
    try:
        key, _value = option_pair(text)
    except argparse.ArgumentTypeError:
        return
    assert key and "=" not in key


@settings(deadline=None)
@given(hostile_text, st.sampled_from([":", ""]), hostile_text | unicode_number)
def test_addresses_take_only_ascii_port_numbers(host, sep, port):
    text = f"{host}{sep}{port}"
    for parse in (split_address, parse_target):
        try:
            _, number = parse(text)
        except ValueError:
            continue
        assert 0 < number < 65536
        tail = text.strip().rsplit(":", 1)[-1] if text.strip().count(":") == 1 else ""
        if tail:
            assert _ascii_number(tail), (parse.__name__, text)


@pytest.mark.parametrize("text", ["[:;", "[::1", "[::1]x", "[::1]:", "[::1]:x", "[]"])
def test_a_bracketed_address_must_be_whole(text):
    """An IPv6 address in brackets is refused unless it is closed and followed by nothing
    or a port: '[:;' was taken as the host ':;' on the default port."""
    with pytest.raises(ValueError):
        split_address(text)


@settings(max_examples=200)
@given(st.sampled_from(["players", "segments", "pirates", "morgan", "board", "colors",
                        "nonsense"]), hostile_text | st.integers() | st.booleans())
def test_game_options_from_a_client_are_accepted_or_refused_cleanly(key, value):
    from cartagena_net.host.errors import HostError
    from cartagena_net.host.service import HostService

    try:
        HostService.game_for(FakeHost(), "jamaica", {key: value})
    except HostError as exc:
        assert exc.code == "bad-rules"


class FakeHost:
    """What HostService.game_for needs of its host: a cache of games."""

    def __init__(self) -> None:
        self._games = {}
