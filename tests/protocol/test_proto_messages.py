"""Messages: round trips, validation of every field kind, normalization."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    FrameDecoder,
    LocalProtocolError,
    RemoteProtocolError,
    encode_frame,
    messages,
)

from .examples import EXAMPLES
from .strategies import any_message

TABLE_TYPES = {
    "hello", "welcome", "error", "lobby", "create_table", "join_table", "joined",
    "leave", "add_bot", "remove_bot", "start", "action", "state", "hint", "chat", "ping",
    "pong", "bye", "rename",
}


def through_wire(msg: messages.Message) -> messages.Message:
    decoder = FrameDecoder()
    decoder.receive_data(encode_frame(msg.to_wire()))
    frame = decoder.next_frame()
    assert decoder.next_frame() is None
    return messages.decode(frame)


def test_every_documented_type_exists():
    assert set(messages.MESSAGE_TYPES) == TABLE_TYPES
    assert set(EXAMPLES) == TABLE_TYPES
    for kind, cls in messages.MESSAGE_TYPES.items():
        assert cls.TYPE == kind


@pytest.mark.parametrize("kind", sorted(TABLE_TYPES))
def test_example_round_trips_exactly(kind):
    msg = EXAMPLES[kind]
    back = through_wire(msg)
    assert type(back) is type(msg)
    assert back == msg
    assert back.to_wire() == msg.to_wire()
    assert msg.to_wire()["type"] == kind
    assert next(iter(msg.to_wire())) == "type"


@settings(max_examples=150, deadline=None)
@given(any_message)
def test_any_message_round_trips(msg):
    assert through_wire(msg) == msg
    assert type(msg).from_wire(msg.to_wire()) == msg


def test_sequences_are_tuples_and_wire_lists():
    msg = messages.State(table=1, seq=2, view={"a": (1, 2)}, legal=["end"],
                         events=[{"x": [1]}], lines=["l"])
    assert msg.legal == ("end",) and isinstance(msg.events, tuple)
    assert msg.view == {"a": [1, 2]}
    wire = msg.to_wire()
    assert wire["legal"] == ["end"] and isinstance(wire["events"], list)
    hello = messages.Hello(versions=[1, 2], name="x")
    assert hello.versions == (1, 2)
    assert hash(hello) == hash(messages.Hello(versions=(1, 2), name="x"))
    assert hash(messages.Action(table=1, seq=5, action="end"))


def test_keyword_construction_with_defaults():
    msg = messages.Action(table=1, seq=5, action="advance 0 skull")
    assert msg.to_wire() == {"type": "action", "table": 1, "seq": 5,
                             "action": "advance 0 skull"}
    join = messages.JoinTable(table=2)
    assert (join.seat, join.spectate, join.password) == (None, False, None)


def test_control_characters_stripped_and_strings_capped():
    name = "\x1b[31mann\x00\u202e" + "x" * 100
    local = messages.Hello(name=name)
    assert local.name == "[31mann" + "x" * 25
    assert len(local.name) == 32
    remote = messages.decode({"type": "hello", "versions": [1], "name": name,
                              "role": "player"})
    assert remote.name == local.name
    chat = messages.Chat(text="a\nb\tc\u2066d\x7fe\x85f" + "é" * 600)
    assert chat.text.startswith("abcdef") and len(chat.text) == 500


def test_strings_inside_view_and_events_are_cleaned():
    msg = messages.decode({"type": "state", "table": 0, "seq": 0,
                           "view": {"na\x07me": ["x\x1by", {"k": "v\x00"}]},
                           "events": [{"text": "t\x00" * 800}]})
    assert msg.view == {"name": ["xy", {"k": "v"}]}
    assert msg.events[0]["text"] == "t" * 800
    long = messages.State(table=0, seq=0, view={"s": "y" * 5000})
    assert len(long.view["s"]) == 1000


def test_unknown_extra_fields_are_ignored():
    msg = messages.decode({"type": "ping", "nonce": 3, "future": {"x": [1, b"z"]}})
    assert msg == messages.Ping(nonce=3)
    lobby = messages.decode({"type": "lobby", "tables": [
        {"id": 1, "name": "t", "rules": "r", "extra": 1,
         "seats": [{"seat": 0, "color": "red", "shiny": True}]}]})
    assert "extra" not in lobby.tables[0]
    assert lobby.tables[0]["seats"][0] == {"seat": 0, "name": None, "color": "red",
                                           "bot": None, "connected": False, "level": None}


def test_absent_or_nil_fields_take_their_defaults():
    assert messages.decode({"type": "join_table", "table": 4}) == messages.JoinTable(table=4)
    assert messages.decode({"type": "join_table", "table": 4, "spectate": None,
                            "seat": None}) == messages.JoinTable(table=4)
    assert messages.decode({"type": "bye"}) == messages.Bye(reason="")


def test_unknown_and_missing_type():
    with pytest.raises(RemoteProtocolError) as info:
        messages.decode({"type": "teleport\x00", "x": 1})
    assert info.value.code == "unknown-type" and not info.value.fatal
    assert info.value.ref == "teleport"
    for bad in ({}, {"type": 5}, {"type": None}):
        with pytest.raises(RemoteProtocolError) as info:
            messages.decode(bad)
        assert info.value.code == "bad-field"


@pytest.mark.parametrize("wire", [
    {"type": "action", "table": 1, "seq": 5},                       # missing
    {"type": "action", "table": True, "seq": 5, "action": "end"},   # bool is not int
    {"type": "action", "table": 1.0, "seq": 5, "action": "end"},    # float is not int
    {"type": "action", "table": -1, "seq": 5, "action": "end"},     # range
    {"type": "action", "table": 2**32, "seq": 5, "action": "end"},  # range
    {"type": "action", "table": 1, "seq": 5, "action": b"end"},     # bytes is not str
    {"type": "ping", "nonce": 2**32},
    {"type": "ping", "nonce": "7"},
    {"type": "join_table", "table": 1, "spectate": 1},              # int is not bool
    {"type": "join_table", "table": 1, "seat": 256},
    {"type": "hello", "versions": [], "name": "a", "role": "player"},
    {"type": "hello", "versions": [0], "name": "a", "role": "player"},
    {"type": "hello", "versions": list(range(1, 18)), "name": "a", "role": "player"},
    {"type": "hello", "versions": 1, "name": "a", "role": "player"},
    {"type": "hello", "versions": [1], "name": "a", "role": "admin"},
    {"type": "welcome", "host_id": "h", "host_name": "n", "server_version": "1",
     "version": 1, "session": "s", "resumed": {"table": 1}},
    {"type": "lobby", "tables": [{"id": 1, "name": "t", "rules": "r", "status": "lost"}]},
    {"type": "lobby", "tables": [{"id": 1, "name": "t", "rules": "r",
                                  "seats": [{"seat": 0}]}]},
    {"type": "lobby", "tables": "none"},
    {"type": "create_table", "name": "t", "rules": "r", "options": {"players": 2**40}},
    {"type": "create_table", "name": "t", "rules": "r", "options": {"players": [2]}},
    {"type": "create_table", "name": "t", "rules": "r", "options": [1]},
    {"type": "state", "table": 1, "seq": 1, "view": [1]},
    {"type": "state", "table": 1, "seq": 1, "view": {"a": b"bytes"}},
    {"type": "state", "table": 1, "seq": 1, "view": {"a": {b"k": 1}}},
    {"type": "state", "table": 1, "seq": 1, "view": {}, "legal": [1]},
    {"type": "state", "table": 1, "seq": 1, "view": {}, "events": ["x"]},
    {"type": "state", "table": 1, "seq": 1, "view": {}, "lines": "x"},
    {"type": "error", "code": "x", "message": "m", "fatal": "yes"},
])
def test_invalid_fields_are_remote_errors(wire):
    with pytest.raises(RemoteProtocolError) as info:
        messages.decode(wire)
    assert info.value.code == "bad-field"
    assert info.value.fatal is False
    assert info.value.ref == wire["type"]


def test_view_depth_is_bounded():
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["d"] = {}
        node = node["d"]
    with pytest.raises(RemoteProtocolError, match="nested deeper"):
        messages.decode({"type": "state", "table": 1, "seq": 1, "view": deep})


@pytest.mark.parametrize("build", [
    lambda: messages.Action(table=1, seq=2**40, action="end"),
    lambda: messages.Action(table="1", seq=1, action="end"),
    lambda: messages.Ping(nonce=-1),
    lambda: messages.Hello(versions=(), name="a"),
    lambda: messages.Hello(role="captain"),
    lambda: messages.Joined(table=1, seat=300),
    lambda: messages.State(table=1, seq=1, view={"x": {1, 2}}),
    lambda: messages.State(table=1, seq=1, view={"x": 2**70}),
    lambda: messages.Lobby(tables=[{"id": 1}]),
    lambda: messages.Error(code=None),
])
def test_invalid_fields_are_local_errors(build):
    with pytest.raises(LocalProtocolError) as info:
        build()
    assert info.value.code == "bad-field"


def test_nested_records_accepted_in_place_of_dicts():
    seat = messages.SeatInfo(seat=0, color="red", name="ann", connected=True)
    table = messages.TableInfo(id=1, name="t", rules="jamaica", seats=(seat,))
    by_record = messages.Lobby(tables=(table,))
    by_dict = messages.Lobby(tables=[{"id": 1, "name": "t", "rules": "jamaica",
                                      "seats": [{"seat": 0, "color": "red",
                                                 "name": "ann", "connected": True}]}])
    assert by_record == by_dict
    assert by_record.tables[0]["seats"][0]["name"] == "ann"
    welcome = messages.Welcome(host_id="h", host_name="n", server_version="1",
                               version=1, session="s", resumed=messages.Resumed(2, 1))
    assert welcome.resumed == {"table": 2, "seat": 1}
    assert through_wire(welcome) == welcome


def test_error_from_exception():
    exc = RemoteProtocolError("bad-field", "ping.nonce: wrong", fatal=False, ref="ping")
    msg = messages.Error.from_exception(exc)
    assert msg == messages.Error(code="bad-field", message="ping.nonce: wrong",
                                 fatal=False, ref="ping")


def test_state_carries_a_real_engine_view():
    from cartagena_net.engine import SPECTATOR, make_game, view

    state = make_game("jamaica", players=3).new_state(seed=3)
    for _ in range(6):
        state.apply(state.legal_actions()[0])
    for viewer in (0, SPECTATOR):
        v = view(state, viewer, since=0)
        events = v.pop("events")
        msg = messages.State(table=1, seq=6, view=v,
                             legal=[str(a) for a in state.legal_actions()],
                             events=events, lines=[e["text"] for e in events])
        assert through_wire(msg) == msg
        assert msg.view == msgpack.unpackb(msgpack.packb(v), raw=False)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=10), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.binary(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=8), max_size=6).map(
        lambda d: d) | st.sampled_from(sorted(TABLE_TYPES)).flatmap(
        lambda t: st.dictionaries(st.sampled_from(["table", "seq", "view", "nonce", "name",
                                                   "versions", "tables", "text", "code"]),
                                  st.integers() | st.text(max_size=3) | st.none(),
                                  max_size=5).map(lambda d: {**d, "type": t})))
def test_decode_of_arbitrary_maps_yields_message_or_remote_error(wire):
    try:
        msg = messages.decode(wire)
    except RemoteProtocolError as exc:
        assert exc.code in {"bad-field", "unknown-type"}
    else:
        assert isinstance(msg, messages.Message)


def test_deepest_allowed_view_still_encodes_and_decodes():
    deep: dict = {}
    node = deep
    for _ in range(31):
        node["d"] = {}
        node = node["d"]
    msg = messages.State(table=1, seq=1, view=deep)
    assert through_wire(msg) == msg


# -- a reason as data: error.why/args and bye.why/args (docs 4.3, 4.17) -------------------

@pytest.mark.parametrize("kind", ["error", "bye"])
def test_a_reason_as_data_goes_through_the_wire(kind):
    base = {"type": "error", "code": "table-full", "message": "seat 2 (blue) is taken"} \
        if kind == "error" else {"type": "bye", "reason": "the host ended the game"}
    args = {"seat": 2, "color": "blue", "again": False, "big": 2**62, "x\x07y": "a\u202eb"}
    got = through_wire(messages.decode({**base, "why": "seat-taken", "args": args}))
    assert got.why == "seat-taken"
    assert got.args == {"seat": 2, "color": "blue", "again": False, "big": 2**62, "xy": "ab"}
    # Absent or nil: no reason as data, as a host of before sends.
    old = messages.decode(base)
    assert old.why is None and old.args is None
    assert messages.decode({**base, "why": None, "args": None}) == old


@pytest.mark.parametrize("kind", ["error", "bye"])
@pytest.mark.parametrize("args", [
    {f"k{i}": i for i in range(9)},          # more than 8 fields
    {"n": 1.5}, {"n": None}, {"n": [1]}, {"n": {"a": 1}}, {"n": b"x"},
    {"n": 2**63}, {"n": -(2**63) - 1},
    {1: "x"},                                  # a key that is no string
    ["seat", 2], "seat 2", 7,                  # not a map at all
])
def test_a_reason_with_unusable_fields_is_bad_field(kind, args):
    base = {"type": "error", "code": "stale"} if kind == "error" else {"type": "bye"}
    with pytest.raises(RemoteProtocolError) as err:
        messages.decode({**base, "why": "stale", "args": args})
    assert err.value.code == "bad-field" and not err.value.fatal
    with pytest.raises(RemoteProtocolError) as err:
        messages.decode({**base, "why": 5})
    assert err.value.code == "bad-field"
    cls = messages.Error if kind == "error" else messages.Bye
    with pytest.raises(LocalProtocolError):
        cls(**({"code": "stale"} if kind == "error" else {}), why="stale", args=args)


def test_a_reason_key_is_capped_and_strings_in_its_fields_too():
    got = messages.decode({"type": "error", "code": "x", "why": "w" * 40,
                           "args": {"k" * 40: "v" * 300}})
    assert got.why == "w" * 32
    assert got.args == {"k" * 32: "v" * 200}
    assert set(messages.Error(code="x").to_wire()) == {
        "type", "code", "message", "fatal", "ref", "why", "args"}


def test_a_client_of_before_reads_an_error_with_a_reason():
    """What a client of before decodes with: the fields it knew, the rest ignored."""
    from typing import ClassVar

    from protocol.fields import Bool, Opt, Str

    class OldError(messages.Error):
        FIELDS: ClassVar = {"code": Str(32), "message": Str(500), "fatal": Bool(), "ref": Opt(Str(32))}

    sent = messages.Error(code="table-full", message="seat 2 (blue) is taken", ref="join_table",
                          why="seat-taken", args={"seat": 2, "color": "blue"})
    decoder = FrameDecoder()
    decoder.receive_data(encode_frame(sent.to_wire()))
    old = OldError.from_wire(decoder.next_frame())
    assert (old.code, old.message, old.ref) == ("table-full", "seat 2 (blue) is taken",
                                                "join_table")
    assert old.why is None and old.args is None  # never read: the fields it knew only


def test_add_bot_level_is_optional_and_strict():
    """``add_bot.level``: absent or nil from an older client is the host's level; only
    easy, normal or hard otherwise, in either direction."""
    old = messages.decode({"type": "add_bot", "table": 1, "seat": None, "kind": "ismcts"})
    assert old == messages.AddBot(table=1, kind="ismcts") and old.level is None
    for level in ("easy", "normal", "hard"):
        msg = messages.decode({"type": "add_bot", "table": 1, "kind": "ismcts", "level": level})
        assert msg.level == level and msg.to_wire()["level"] == level
    for bad in ("Hard", "expert", "", 2, True, ["hard"], "hard "):
        with pytest.raises(RemoteProtocolError) as caught:
            messages.decode({"type": "add_bot", "table": 1, "kind": "ismcts", "level": bad})
        assert caught.value.code == "bad-field"
        with pytest.raises(LocalProtocolError):
            messages.AddBot(table=1, kind="ismcts", level=bad)


def test_lobby_seat_level_is_strict():
    seat = {"seat": 1, "color": "blue", "name": "Anne", "bot": "ismcts", "connected": True}
    lobby = messages.decode({"type": "lobby", "tables": [
        {"id": 1, "name": "t", "rules": "r", "seats": [dict(seat, level="hard")]}]})
    assert lobby.tables[0]["seats"][0]["level"] == "hard"
    with pytest.raises(RemoteProtocolError):
        messages.decode({"type": "lobby", "tables": [
            {"id": 1, "name": "t", "rules": "r", "seats": [dict(seat, level="godlike")]}]})


@pytest.mark.parametrize(("wire", "said"), [
    ({"type": "action", "table": 1, "seq": 2}, "action.action: required"),
    ({"type": "action", "table": 1, "seq": True, "action": "end"},
     "action.seq: expected int, got bool"),
    ({"type": "action", "table": "1", "seq": 2, "action": "end"},
     "action.table: expected int, got str"),
    ({"type": "action", "table": 1, "seq": -1, "action": "end"},
     "action.seq: -1 not in 0..4294967295"),
    ({"type": "hello", "versions": [1], "name": "x", "role": "king"},
     "hello.role: 'king' is not one of ['player', 'spectator']"),
    ({"type": "lobby", "tables": [{"id": 1}]}, "lobby.tables[0].name: required"),
    ({"type": "lobby", "tables": [{"id": 1, "name": "a", "rules": "jamaica",
                                   "seats": [{}]}]},
     "lobby.tables[0].seats[0].seat: required"),
    ({"type": "state", "table": 1, "seq": 1, "view": {}, "legal": [], "events": [],
      "lines": [], "chances": [2.0]}, "state.chances[0]: 2.0 not in 0.0..1.0"),
])
def test_a_refused_field_is_named_by_its_path_in_the_message(wire, said):
    # The path of the field at fault, nested records and arrays included, and the
    # message refused as a whole (a record is built in one pass over its fields).
    with pytest.raises(RemoteProtocolError) as err:
        messages.decode(wire)
    assert err.value.code == "bad-field"
    assert str(err.value).endswith(said)
    assert err.value.ref == wire["type"]


def test_a_field_absent_or_nil_takes_its_default_and_a_record_compares_as_built():
    got = messages.decode({"type": "hello", "versions": [1], "name": None})
    assert got == messages.Hello(versions=(1,), name="", role="player")
    assert got.token is None and got.password is None
    assert hash(got) == hash(messages.Hello(versions=(1,), name="", role="player"))
