"""Hostile text in every field a client sends, to a host with a game on: each request is
answered by a documented, non-fatal error or done; nothing is logged as a failure."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from protocol import encode_frame, messages
from tests.protocol.test_fuzz_text import hostile_text, unicode_number

from .test_connection_limits import at_table, make, received

#: Codes a seated, welcomed client may get for a bad request (none is fatal).
ANSWERS = {"bad-field", "unknown-type", "not-allowed", "wrong-table", "no-such-table",
           "bad-action", "illegal-action", "not-your-turn", "stale", "bad-rules",
           "bad-password", "bad-seat", "table-full", "already-started", "not-owner",
           "too-many-tables", "no-spectators", "seats-empty", "not-started"}

TEXT_FIELDS = {
    "action": ["action"],
    "chat": ["text", "sender"],
    "create_table": ["name", "rules", "password"],
    "join_table": ["name", "color", "password"],
    "add_bot": ["kind"],
    "hello": ["name", "token", "password", "role"],
}
request = st.sampled_from(sorted(TEXT_FIELDS)).flatmap(lambda t: st.tuples(
    st.just(t), st.dictionaries(st.sampled_from(TEXT_FIELDS[t]), hostile_text, min_size=1)))
action_text = st.sampled_from(["advance {} skull", "retreat {}", "morgan 1 {}",
                               "ADVANCE {} KEY", "discard {}"]).flatmap(
    lambda t: (unicode_number | hostile_text).map(t.format)) | hostile_text


def _game():
    clock = Clock()
    host = make(clock, rate=1e9, burst=1e9)
    tid = host.create_table("t", "jamaica", {"players": 2})
    players = [at_table(host, tid) for _ in range(2)]
    players[0][0].dataReceived(encode_frame(messages.Start(table=tid).to_wire()))
    return host, tid, players


def _failures(events):
    return [e for e in events if e.get("log_failure") is not None
            or e.get("log_level") is not None and e["log_level"].name in ("error", "critical")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(request, min_size=1, max_size=6), st.lists(action_text, max_size=6))
def test_hostile_text_gets_documented_answers_and_no_failure(requests, actions):
    events: list[dict] = []
    globalLogPublisher.addObserver(events.append)
    try:
        host, tid, players = _game()
        table = host.lobby.tables[tid]
        before = (table.seq, table.state.record())
        for text in actions:
            if table.state.actor is None:
                break
            actor_conn, actor_t = players[table.state.actor]
            actor_t.clear()
            actor_conn.dataReceived(encode_frame(
                {"type": "action", "table": tid, "seq": table.seq, "action": text}))
            answers = received(actor_t)
            if table.seq == before[0]:  # refused: one non-fatal error, nothing changed
                assert [(a["type"], a["fatal"], a["code"] in ("bad-action", "illegal-action"))
                        for a in answers] == [("error", False, True)], (text, answers)
                assert table.state.record() == before[1]
            else:
                assert all(a["type"] == "state" for a in answers)
                before = (table.seq, table.state.record())
        other_conn, other_t = players[0]
        for kind, fields in requests:
            other_t.clear()
            wire = {"type": kind, "table": tid, "seq": table.seq, "versions": [1], **fields}
            other_conn.dataReceived(encode_frame(wire))
            for a in received(other_t):
                if a["type"] == "error":
                    assert a["code"] in ANSWERS and not a["fatal"], (kind, fields, a)
        assert not any(t.disconnecting for _, t in players)
    finally:
        globalLogPublisher.removeObserver(events.append)
    assert not _failures(events), _failures(events)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="0123456789²①٣३３", min_size=1, max_size=4))
def test_only_ascii_digits_name_a_journal(tmp_path_factory, digits):
    from cartagena_net.host.journal import highest_journal_id, list_journals

    state = tmp_path_factory.mktemp("state")
    (state / f"table-{digits}.journal").write_text("")
    (state / f"table-{digits}.journal.bad-1").write_text("")
    found = list_journals(state)
    if digits.isascii():
        assert found == [(int(digits), state / f"table-{digits}.journal")]
        assert highest_journal_id(state) == int(digits)
    else:
        assert found == [] and highest_journal_id(state) == 0


HOST_WITH_PASSWORDS: list = []


@settings(max_examples=200, deadline=None)
@given(hostile_text | st.none() | st.sampled_from(["pw", "tp", "p\u0077"]),
       st.text(max_size=20))
def test_web_password_checks_answer_or_refuse_any_text(offered, address):
    from cartagena_net.host.errors import HostError

    if not HOST_WITH_PASSWORDS:  # one host (a scrypt hash costs ~40 ms)
        host = make(Clock(), password="pw", guess_free=10**9)
        HOST_WITH_PASSWORDS.append((host, host.create_table("t", "jamaica", {}, password="tp")))
    host, tid = HOST_WITH_PASSWORDS[0]
    for check, right in ((host.check_password, "pw"),
                         (host.lobby.tables[tid].check_password, "tp")):
        try:
            check(offered, address)
        except HostError as exc:
            assert exc.code == "bad-password" and offered != right
        else:
            assert offered == right
