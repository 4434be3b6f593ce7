"""What docs/protocol.md says about `state`, events and limits holds for the code.

The event table, the hand order, `turn` vs `actor`, Filibusters debts and the
limits table are read from the document and checked against the engine's views
(the very data a host sends) and the host's defaults.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cartagena_net.engine import SPECTATOR, make_game, view
from cartagena_net.host import HostConfig

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")


def doc_events() -> dict[str, tuple[set[str], set[str]]]:
    """``{type: (required fields, optional fields)}`` from the event table."""
    block = DOC.split("| event | fields | when |", 1)[1].split("\n\n", 1)[0]
    out = {}
    for kind, cell in re.findall(r"^\| `([a-z]+)` \| (.*?) \|", block, flags=re.MULTILINE):
        names = re.findall(r"`([a-z_]+)`(\??)", cell)
        out[kind] = ({n for n, q in names if not q}, {n for n, q in names if q})
    return out


EVENTS = doc_events()
GAMES = [
    ("jamaica", {"players": 3, "segments": 1}),                 # reshuffles come quickly
    ("tortuga", {"players": 3, "segments": 1}),                  # face-up row, open hands
    ("hispaniola", {"players": 2, "segments": 1}),               # row, hidden hands
    ("studiogiochi-2017", {"players": 4, "morgan": "also", "filibusters": True,
                           "hand_limit": 3, "segments": 1}),   # draw, owe, discard, morgan
    ("studiogiochi-2017", {"players": 3, "story": "whole"}),      # sail, captain, undo
]


def test_the_doc_lists_every_event_type():
    assert set(EVENTS) == {"advance", "retreat", "morgan", "draw", "discard", "owe", "row",
                           "reshuffle", "turn", "end", "win", "sail", "captain", "undo"}
    assert EVENTS["retreat"] == ({"seat", "from", "to", "drawn"}, {"cards"})


def _viewers(state):
    return [*range(len(state.hands)), SPECTATOR]


@pytest.mark.parametrize(("rules", "options"), GAMES)
def test_events_views_and_actors_are_as_documented(rules, options):
    game = make_game(rules, **options)
    rng = random.Random(rules)
    seen: set[str] = set()
    symbols_order = None
    for n in range(12):
        # some games draw a lot (reshuffles), others spend every card (draw as a turn)
        prefer = ("retreat", "morgan") if n % 2 else ("advance", "discard", "draw")
        state = game.new_state(seed=rng.getrandbits(32))
        steps = 0
        while not state.is_over and steps < 3000:
            before = state.event_count
            legal = state.legal_actions(undo=True)
            # turn vs actor: the first seat owing a decision, else the turn's seat
            pending = state.pending
            assert state.actor == (pending[0][0] if pending else state.turn)
            if pending:  # Filibusters: the debtor pays, one card kind per legal action
                assert all(str(a).startswith("discard ") for a in legal)
            liked = [a for a in legal if str(a).split()[0] in prefer]
            undo = [a for a in legal if str(a) == "undo"]
            if undo and rng.random() < 0.1:
                liked = undo
            state.apply(rng.choice(liked if liked and rng.random() < 0.8 else legal))
            steps += 1
            for viewer in _viewers(state):
                v = view(state, viewer, since=before)
                names = v["symbols"] + [s + "*" for s in v["symbols"]]
                symbols_order = names
                for seat in v["seats"]:
                    if seat["hand"] is not None:  # sorted by kind: symbols, then dark
                        assert seat["hand"] == sorted(seat["hand"], key=names.index)
                    else:
                        assert viewer == SPECTATOR or seat["seat"] != viewer
                assert v["actor"] == (None if v["outcome"] else
                                      (v["pending"][0]["seat"] if v["pending"] else v["turn"]))
                for e in v["events"]:
                    required, optional = EVENTS[e["type"]]
                    assert required <= set(e) - {"type", "text"} <= required | optional, e
                    assert isinstance(e["text"], str) and e["text"]
                    seen.add(e["type"])
                    if "drawn" in e:
                        own = viewer == e["seat"]
                        visible = own or game.hands_public or state.row is not None
                        # left out, not nil, when the receiver may not see them
                        assert ("cards" in e) == visible, (viewer, e)
                        if "cards" in e:
                            assert len(e["cards"]) == e["drawn"]
        if state.is_over:
            assert state.actor is None and not state.legal_actions()
    assert symbols_order
    expected = {"advance", "retreat", "turn", "end", "win"}
    if game.row_size:
        expected.add("row")
    else:
        expected.add("reshuffle")
    if game.filibusters:
        expected |= {"owe", "discard", "morgan", "draw"}
    if options.get("story") == "whole":
        expected = {"sail", "captain", "undo", "advance", "turn", "end", "win"}
    assert expected <= seen, expected - seen


def test_the_limits_table_gives_the_host_defaults():
    block = DOC.split("| limit | default | what happens |", 1)[1].split("\n\n", 1)[0]
    rows = dict(re.findall(r"^\| ([a-z ]+) \| ([^|]+) \|", block, flags=re.MULTILINE))
    c = HostConfig()
    assert rows["handshake deadline"].strip() == f"{c.handshake_timeout:g} s"
    assert rows["frame deadline"].strip() == f"{c.handshake_timeout:g} s"
    assert rows["ping"].strip() == f"every {c.ping_interval:g} s"
    assert rows["idle timeout"].strip() == f"{c.idle_timeout:g} s"
    assert rows["message rate"].strip() == f"{c.rate:g} per s, bursts of {c.burst:g}"
    # The default, then (in parentheses) the one of the platform whose loop holds fewer.
    from cartagena_net.portable.sockets import WINDOWS_MAX_CONNECTIONS
    assert rows["connections"].strip() == (
        f"{c.max_connections} ({WINDOWS_MAX_CONNECTIONS} on Windows, whose `select()` holds "
        f"512 sockets; see docs/platforms.md), {c.max_per_address} per address")
    assert rows["send buffer"].strip() == f"{c.max_send_buffer >> 20} MiB"
    assert rows["wrong passwords"].strip() == f"{c.guess_free} free per address"
    assert f"waits {c.guess_delay:g} s, doubling up to {c.guess_max_delay:g} s" in DOC
