"""Connection state machine: handshake, transitions, violations both ways."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import (
    PROTOCOL_VERSIONS,
    Connection,
    ConnState,
    LocalProtocolError,
    RemoteProtocolError,
    Role,
    choose_version,
    encode_frame,
)
from protocol import messages as m

from .examples import EXAMPLES

HS, LOBBY, TABLE, CLOSED = (ConnState.HANDSHAKE, ConnState.LOBBY, ConnState.TABLE,
                            ConnState.CLOSED)
ANYTIME = {"chat", "ping", "pong", "error", "bye"}
# Written out independently of protocol.connection.ALLOWED (docs/protocol.md).
MAY_SEND = {
    Role.CLIENT: {
        HS: {"hello", "error", "bye"},
        LOBBY: ANYTIME | {"create_table", "join_table", "rename"},
        TABLE: ANYTIME | {"leave", "add_bot", "remove_bot", "start", "action", "hint",
                          "rename"},
    },
    Role.HOST: {
        HS: {"welcome", "error", "bye"},
        LOBBY: ANYTIME | {"lobby", "joined"},
        TABLE: ANYTIME | {"lobby", "joined", "state", "hint"},
    },
}
HELLO = m.Hello(versions=(1,), name="ann")
WELCOME = m.Welcome(host_id="h", host_name="deck", server_version="0", version=1,
                    session="s")


def deliver(sender: Connection, receiver: Connection, msg: m.Message) -> m.Message:
    receiver.receive_data(sender.send(msg))
    got = receiver.next_event()
    assert got == msg
    return got


def pair(state: ConnState, seat: int | None = 0) -> tuple[Connection, Connection]:
    client, host = Connection(Role.CLIENT), Connection(Role.HOST)
    if state is HS:
        return client, host
    deliver(client, host, HELLO)
    deliver(host, client, WELCOME)
    if state is TABLE:
        deliver(client, host, m.JoinTable(table=3, spectate=seat is None))
        deliver(host, client, m.Joined(table=3, seat=seat, token="t"))
    assert client.state is host.state is state
    return client, host


def sender_in(role: Role, state: ConnState) -> Connection:
    client, host = pair(state)
    if state is HS and role is Role.HOST:
        deliver(client, host, HELLO)
    return client if role is Role.CLIENT else host


def receiver_in(role: Role, state: ConnState) -> Connection:
    client, host = pair(state)
    if state is HS and role is Role.CLIENT:
        deliver(client, host, HELLO)
    return client if role is Role.CLIENT else host


CASES = [(role, state, kind) for role in Role for state in (HS, LOBBY, TABLE)
         for kind in sorted(EXAMPLES)]


@pytest.mark.parametrize(("role", "state", "kind"), CASES)
def test_sending(role, state, kind):
    conn = sender_in(role, state)
    msg = EXAMPLES[kind]
    if kind in MAY_SEND[role][state]:
        data = conn.send(msg)
        assert data == encode_frame(msg.to_wire())
    else:
        with pytest.raises(LocalProtocolError) as info:
            conn.send(msg)
        assert info.value.code == "not-allowed"
        assert info.value.fatal is (state is HS)
        assert conn.state is state


@pytest.mark.parametrize(("role", "state", "kind"), CASES)
def test_receiving(role, state, kind):
    peer = Role.HOST if role is Role.CLIENT else Role.CLIENT
    conn = receiver_in(role, state)
    msg = EXAMPLES[kind]
    conn.receive_data(encode_frame(msg.to_wire()) + encode_frame({"type": "ping", "nonce": 9}))
    if kind in MAY_SEND[peer][state]:
        assert conn.next_event() == msg
    else:
        with pytest.raises(RemoteProtocolError) as info:
            conn.next_event()
        assert info.value.code == "not-allowed"
        assert info.value.ref == kind
        assert info.value.fatal is (state is HS)
        assert conn.state is state
        if state is not HS:  # not fatal: the next frame is still read
            assert conn.next_event() == m.Ping(nonce=9)


def test_full_session_byte_by_byte():
    client, host = Connection(Role.CLIENT), Connection(Role.HOST)
    script = [
        (client, HELLO), (host, WELCOME), (host, EXAMPLES["lobby"]),
        (client, m.CreateTable(name="t", rules="jamaica")), (host, m.Joined(3, 0, "tok")),
        (client, m.AddBot(table=3)), (client, m.Start(table=3)),
        (host, EXAMPLES["state"]), (client, m.Action(table=3, seq=5, action="end")),
        (client, m.Chat(text="gg", table=3)), (host, m.Ping(nonce=1)),
        (client, m.Pong(nonce=1)), (client, m.Leave(table=3)), (host, m.Lobby()),
        (client, m.Bye(reason="bye")),
    ]
    for sender, msg in script:
        receiver = host if sender is client else client
        data = sender.send(msg)
        got = []
        for byte in data:
            receiver.receive_data(bytes([byte]))
            while (e := receiver.next_event()) is not None:
                got.append(e)
        assert got == [msg]
        assert client.state is host.state
    assert client.state is CLOSED
    assert (client.table, client.seat) == (None, None)


def test_transitions_track_table_and_seat():
    client, host = pair(TABLE)
    assert (client.table, client.seat, host.table, host.seat) == (3, 0, 3, 0)
    assert not client.spectating
    deliver(host, client, m.Joined(table=4, seat=None))  # host moves the client
    assert client.state is host.state is TABLE
    assert client.table == host.table == 4 and client.spectating and host.spectating
    deliver(client, host, m.Leave(table=4))
    assert client.state is host.state is LOBBY
    assert client.table is None


def test_version_negotiation():
    assert choose_version([1]) == 1
    assert choose_version([3, 1, 2], supported=(1, 2)) == 2
    assert choose_version(iter([1, 5])) == 1
    with pytest.raises(RemoteProtocolError) as info:
        choose_version([2, 3])
    assert info.value.code == "no-common-version" and info.value.fatal
    assert PROTOCOL_VERSIONS == (1,)


def test_host_may_not_welcome_with_a_version_not_offered():
    client, host = pair(HS)
    deliver(client, host, m.Hello(versions=(1,)))
    with pytest.raises(LocalProtocolError) as info:
        host.send(m.Welcome(host_id="h", host_name="n", server_version="0", version=2,
                            session="s"))
    assert info.value.code == "no-common-version"


def test_client_refuses_a_version_it_did_not_offer():
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    client.receive_data(encode_frame({**WELCOME.to_wire(), "version": 7}))
    with pytest.raises(RemoteProtocolError) as info:
        client.next_event()
    assert info.value.code == "no-common-version" and info.value.fatal
    assert client.state is HS and client.version is None


def test_welcome_before_hello_and_second_hello():
    client, host = pair(HS)
    with pytest.raises(LocalProtocolError, match="not-allowed"):
        host.send(WELCOME)
    client2 = Connection(Role.CLIENT)
    client2.receive_data(encode_frame(WELCOME.to_wire()))
    with pytest.raises(RemoteProtocolError, match="not-allowed"):
        client2.next_event()
    deliver(client, host, HELLO)
    with pytest.raises(LocalProtocolError, match="already"):
        client.send(HELLO)
    host.receive_data(encode_frame(HELLO.to_wire()))
    with pytest.raises(RemoteProtocolError) as info:
        host.next_event()
    assert info.value.fatal
    assert host.hello == HELLO and client.hello == HELLO


def test_bad_message_during_handshake_is_fatal():
    host = Connection(Role.HOST)
    host.receive_data(encode_frame({"type": "hello", "versions": "one"}))
    with pytest.raises(RemoteProtocolError) as info:
        host.next_event()
    assert info.value.code == "bad-field" and info.value.fatal


def test_resume_puts_both_sides_at_the_table():
    client, host = pair(HS)
    deliver(client, host, m.Hello(token="t"))
    deliver(host, client, m.Welcome(host_id="h", host_name="n", server_version="0",
                                    version=1, session="s", resumed={"table": 5, "seat": 2}))
    assert client.state is host.state is TABLE
    assert (client.table, client.seat) == (5, 2)
    deliver(host, client, m.State(table=5, seq=9, view={}))
    deliver(client, host, m.Action(table=5, seq=9, action="end"))


def test_state_in_flight_after_leave_is_dropped():
    client, host = pair(TABLE)
    in_flight = host.send(m.State(table=3, seq=7, view={}))
    host.receive_data(client.send(m.Leave(table=3)))
    assert host.next_event() == m.Leave(table=3)
    client.receive_data(in_flight + host.send(m.Lobby()))
    assert client.next_event() == m.Lobby()
    assert client.state is LOBBY
    # without a pending leave, state in the lobby is a violation
    deliver(client, host, m.JoinTable(table=3))
    deliver(host, client, m.Joined(table=3, seat=0))
    client2, _ = pair(LOBBY)
    client2.receive_data(encode_frame(m.State(table=3, seq=1, view={}).to_wire()))
    with pytest.raises(RemoteProtocolError, match="not-allowed"):
        client2.next_event()


def test_wrong_table_both_ways():
    client, host = pair(TABLE)
    with pytest.raises(LocalProtocolError) as info:
        client.send(m.Action(table=4, seq=1, action="end"))
    assert info.value.code == "wrong-table"
    with pytest.raises(LocalProtocolError, match="wrong-table"):
        host.send(m.State(table=4, seq=1, view={}))
    for bad in (m.Action(table=4, seq=1, action="end"), m.Leave(table=4), m.Start(table=9)):
        host.receive_data(encode_frame(bad.to_wire()))
        with pytest.raises(RemoteProtocolError) as info:
            host.next_event()
        assert info.value.code == "wrong-table" and not info.value.fatal
    client.receive_data(encode_frame(m.State(table=4, seq=1, view={}).to_wire()))
    with pytest.raises(RemoteProtocolError, match="wrong-table"):
        client.next_event()
    assert client.state is host.state is TABLE and host.table == 3


def test_spectators_may_not_act():
    client, host = pair(TABLE, seat=None)
    assert client.spectating
    with pytest.raises(LocalProtocolError, match="not-allowed"):
        client.send(m.Action(table=3, seq=1, action="end"))
    host.receive_data(encode_frame(m.Action(table=3, seq=1, action="end").to_wire()))
    with pytest.raises(RemoteProtocolError, match="not-allowed"):
        host.next_event()
    deliver(client, host, m.Chat(text="nice move", table=3))
    deliver(client, host, m.Leave(table=3))


@pytest.mark.parametrize("closer", ["client", "host"])
def test_bye_closes_both_sides(closer):
    client, host = pair(LOBBY)
    a, b = (client, host) if closer == "client" else (host, client)
    a.receive_data(b.send(m.Chat(text="late")))  # crosses the bye
    deliver(a, b, m.Bye(reason="later"))
    assert a.state is b.state is CLOSED
    assert a.next_event() is None  # data after closing is dropped
    with pytest.raises(LocalProtocolError) as info:
        a.send(m.Ping())
    assert info.value.code == "closed"
    b.receive_data(b"\xff\xff\xff\xff")  # ignored once closed
    assert b.next_event() is None


def test_fatal_error_closes_non_fatal_does_not():
    client, host = pair(TABLE)
    deliver(host, client, m.Error(code="illegal-action", message="no", ref="action"))
    assert client.state is host.state is TABLE
    deliver(host, client, m.Error(code="shutting-down", message="bye", fatal=True))
    assert client.state is host.state is CLOSED


def test_fatal_error_in_handshake_closes():
    client, host = pair(HS)
    deliver(client, host, m.Hello(versions=(9,)))
    exc = pytest.raises(RemoteProtocolError, choose_version, host.hello.versions).value
    deliver(host, client, m.Error.from_exception(exc))
    assert client.state is host.state is CLOSED


def test_connection_lost_and_non_messages():
    client, _ = pair(LOBBY)
    with pytest.raises(LocalProtocolError):
        client.send({"type": "ping"})  # type: ignore[arg-type]
    client.connection_lost()
    assert client.state is CLOSED


def test_oversized_header_from_peer_raises_at_once():
    host = Connection(Role.HOST)
    with pytest.raises(RemoteProtocolError) as info:
        host.receive_data(b"\x7f\xff\xff\xff")
    assert info.value.code == "frame-too-large" and info.value.fatal


def test_fatal_receive_error_sticks_but_we_can_still_say_why():
    host = Connection(Role.HOST)
    host.receive_data(encode_frame({"type": "chat", "text": "too early"})
                      + encode_frame(HELLO.to_wire()))
    with pytest.raises(RemoteProtocolError) as first:
        host.next_event()
    assert first.value.fatal and first.value.code == "not-allowed"
    with pytest.raises(RemoteProtocolError) as again:
        host.next_event()  # the hello behind it is not processed
    assert again.value is first.value
    data = host.send(m.Error.from_exception(first.value))
    assert host.state is CLOSED
    client = Connection(Role.CLIENT)
    client.send(HELLO)
    client.receive_data(data)
    assert client.next_event().code == "not-allowed" and client.state is CLOSED


CANDIDATES = [
    *EXAMPLES.values(),
    m.Hello(versions=(1, 2), token="t"),
    m.Welcome(host_id="h", host_name="n", server_version="0", version=1, session="s",
              resumed={"table": 4, "seat": 1}),
    m.Welcome(host_id="h", host_name="n", server_version="0", version=2, session="s"),
    m.Joined(table=4, seat=None), m.Joined(table=3, seat=1),
    m.Leave(table=4), m.Action(table=4, seq=1, action="end"), m.Start(table=4),
    m.State(table=4, seq=1, view={}), m.Chat(text="lobby-wide"),
]
# bye and fatal errors end a session at once; tested above
CANDIDATES = [c for c in CANDIDATES if not isinstance(c, m.Bye)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(CANDIDATES)), max_size=25))
def test_whatever_one_side_may_send_the_other_accepts(steps):
    client, host = Connection(Role.CLIENT), Connection(Role.HOST)
    for from_client, msg in steps:
        sender, receiver = (client, host) if from_client else (host, client)
        before = (sender.state, sender.table, sender.seat)
        try:
            data = sender.send(msg)
        except LocalProtocolError:
            assert (sender.state, sender.table, sender.seat) == before
            continue
        receiver.receive_data(data)
        assert receiver.next_event() == msg
        assert receiver.next_event() is None
        assert (client.state, client.table, client.seat, client.version) == (
            host.state, host.table, host.seat, host.version)
