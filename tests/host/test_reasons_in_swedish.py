"""A host's refusals and its bye reach a Swedish client as data it words itself: a seat
taken, a wrong table password, an illegal move and the host stopping, provoked over real
TCP, each an ``error``/``bye`` with a ``why`` of the reasons' table whose English
``message`` is that template filled with its ``args``; a Swedish terminal client's
status line says each in Swedish (no English word), an English one as the host wrote it."""
from __future__ import annotations

import re
from typing import Any

from cartagena_net.engine.reasons import REASONS, fields, reason_text
from cartagena_net.i18n import language, set_language
from client.model import ClientModel
from protocol import messages
from tests.client.test_tmux_swedish import english_left
from tests.host.helpers import join, make_host, run, stop_host
from tests.twisted_loop import until


def _status(msg: dict[str, Any], lang: str) -> str:
    before = language()
    set_language(lang)
    try:
        m = ClientModel(name="ann")
        m.host_label = "127.0.0.1:41672"
        m.on_message(msg)
        return m.status
    finally:
        set_language(before)


async def _provoke() -> list[dict[str, Any]]:
    host = make_host(guess_free=10**9)
    open_table = host.create_table("bordet", "jamaica", {"players": 2})
    locked = host.create_table("hemligt", "jamaica", {"players": 2}, password="pw")
    port = host.port
    got: list[dict[str, Any]] = []
    a, _ = await join(port, "ann")
    b, _ = await join(port, "bob")
    c, _ = await join(port, "cid")
    a.send(messages.JoinTable(table=open_table, seat=0))
    await a.expect(messages.Joined)
    b.send(messages.JoinTable(table=open_table, seat=0))  # taken
    got.append((await b.expect(messages.Error)).to_wire())
    c.send(messages.JoinTable(table=locked, password="wrong"))
    got.append((await c.expect(messages.Error)).to_wire())
    b.send(messages.JoinTable(table=open_table, seat=1))
    await b.expect(messages.Joined)
    a.send(messages.Start(table=open_table))
    state = await a.expect(messages.State)
    mover = a if state.view["actor"] == 0 else b
    mover.send(messages.Action(table=open_table, seq=state.seq, action="retreat 0"))
    got.append((await mover.expect(messages.Error)).to_wire())
    a.send(messages.AddBot(table=open_table, seat=1, kind="greedy"))  # the player is here
    got.append((await a.expect(messages.Error)).to_wire())
    await stop_host(host)
    got.append((await a.expect(messages.Bye)).to_wire())
    await until(lambda: c.lost.done(), "the host closed")
    return got


def test_refusals_and_bye_carry_their_reason_and_a_swedish_client_words_them():
    got = run(_provoke())
    whys = [m["why"] for m in got]
    assert whys == ["seat-taken", "table-password-wrong", "retreat-from-start", "player-here",
                    "host-ended"]
    for m in got:
        assert m["why"] in REASONS and set(m["args"] or {}) == fields(m["why"]), m
        line = m["message"] if m["type"] == "error" else m["reason"]
        assert line == reason_text(m["why"], m["args"]), m  # the host's line: the template
    seat, retreat = got[0], got[2]
    assert seat["args"] == {"seat": 0, "color": "red"}
    assert retreat["code"] == "illegal-action" and retreat["args"] == {"place": "start"}

    said = {m["why"]: _status(m, "sv") for m in got}
    assert said["seat-taken"] == "ingen ledig plats: plats 0 (röd) är upptagen"
    assert said["table-password-wrong"] == "fel eller saknat lösenord"
    assert said["retreat-from-start"] == \
        "inte tillåtet: en pirat vid start kan inte flytta bakåt"
    assert said["player-here"] == "blå är här: en bot kan bara ersätta en frånvarande spelare"
    assert said["host-ended"] == "värden avslutade partiet"
    for why, text in said.items():
        assert english_left(text) == [], (why, text)
    # An English client reads the host's own words; one of before (no why) too.
    assert _status(seat, "en") == "no free seat: seat 0 (red) is taken"
    old = {k: v for k, v in retreat.items() if k not in ("why", "args")}
    assert _status(old, "sv") == "inte tillåtet: a pirate at the start cannot retreat"
    assert _status({**retreat, "why": "a-reason-of-tomorrow"}, "sv") == \
        "inte tillåtet: a pirate at the start cannot retreat"


async def _bad_rules() -> tuple[list[dict[str, Any]], Any]:
    host = make_host(guess_free=10**9)
    a, _ = await join(host.port, "ann")
    got = []
    for rules, options in (("jamaica", {"players": 9}), ("nope", {}),
                           ("jamaica", {"segments": "x"}), ("jamaica", {"fog": True}),
                           ("studiogiochi-2017", {"story": "whole", "segments": 2})):
        a.send(messages.CreateTable(name="bordet", rules=rules, options=options))
        got.append((await a.expect(messages.Error)).to_wire())
    a.send(messages.CreateTable(name="bordet", rules="jamaica", options={"players": 3}))
    joined = await a.expect(messages.Joined)  # refused requests lost nothing
    await stop_host(host)
    return got, joined


def test_rules_a_game_cannot_be_made_with_come_as_the_engines_reason():
    """A create_table the engine refuses: ``bad-rules`` with the engine's own reason as
    ``why``/``args`` (the option names and values as sent), ``message`` its English line
    for a client of before; a Swedish client says it in Swedish."""
    from cartagena_net.engine import OPTIONS, PRESETS

    got, joined = run(_bad_rules())
    assert joined.seat == 0
    assert [m["code"] for m in got] == ["bad-rules"] * 5
    assert [m["why"] for m in got] == ["preset-players", "unknown-rules", "option-number-not",
                                       "unknown-option", "whole-segments"]
    for m in got:
        assert set(m["args"] or {}) == fields(m["why"]), m
        assert m["message"] == reason_text(m["why"], m["args"]), m
    assert got[0]["args"] == {"preset": "jamaica", "lo": 2, "hi": 5}
    assert got[0]["message"] == "jamaica is for 2 to 5 players"
    assert got[2]["args"] == {"option": "segments", "value": "'x'"}
    said = [_status(m, "sv") for m in got]
    assert said[0] == "de reglerna eller alternativen är ogiltiga: jamaica är för 2 till 5 spelare"
    assert said[2] == ("de reglerna eller alternativen är ogiltiga: alternativet segments tar "
                       "ett heltal, inte 'x'")
    assert said[3].startswith("de reglerna eller alternativen är ogiltiga: okänt alternativ "
                              "'fog'; alternativ: players, pirates")
    assert "kräver 3 eller fler segment på varje väg" in said[4]
    for text in said:  # the option names, their values and presets are the notation
        notation = re.sub(r"\S+=\S+", " ", text)
        assert english_left(notation, names=(*OPTIONS, *PRESETS)) == [], text
    assert _status(got[0], "en") == ("those rules or options are not valid: jamaica is for 2 "
                                     "to 5 players")
    old = {k: v for k, v in got[0].items() if k not in ("why", "args")}  # a host of before
    assert _status(old, "sv") == ("de reglerna eller alternativen är ogiltiga: jamaica is for "
                                  "2 to 5 players")
