"""Golden frames: seeded games played through a host, every ``state`` frame each seat and
a spectator receives pinned byte for byte (as digests), so that a change in how the host
builds, caches or encodes a view (its events' sentences, the seats' pirate numbers, the
spliced parts of a seat's frame) cannot change a single byte a client reads.

Regenerate (after an intended change in what a viewer is sent only) with:
``python -m tests.host.test_frames_golden``.
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import msgpack
import pytest
from twisted.internet.task import Clock

from cartagena_net.engine import SPECTATOR
from cartagena_net.host.play import legal as legal_actions
from protocol import encode_frame, messages

from .test_connection_limits import at_table, make

GOLDEN = Path(__file__).parent / "golden" / "frames.json"
CASES = {
    "jamaica-4p": ("jamaica", {"players": 4}, 11),
    "tortuga-3p": ("tortuga", {"players": 3}, 12),
    "hispaniola-2p": ("hispaniola", {"players": 2}, 13),
    "studiogiochi-morgan-filibusters-3p": (
        "studiogiochi-2017", {"players": 3, "morgan": "also", "filibusters": True}, 14),
    "studiogiochi-magic-4p": ("studiogiochi-2017", {"players": 4, "magic": True}, 15),
    "studiogiochi-whole-magic-2p": (
        "studiogiochi-2017", {"players": 2, "story": "whole", "magic": True,
                              "morgan": "island", "filibusters": True}, 16),
}
MAX_ACTIONS = 1500
FULL_EVERY = 40  # a reconnect's and the web's full state, every so many actions


def state_frames(data: bytes) -> list[bytes]:
    """The raw bodies of the ``state`` frames in ``data`` (length-prefixed frames)."""
    out = []
    at = 0
    while at < len(data):
        n = int.from_bytes(data[at:at + 4], "big")
        body = data[at + 4:at + 4 + n]
        at += 4 + n
        if msgpack.unpackb(body, raw=False)["type"] == "state":
            out.append(body)
    return out


def playthrough(name: str) -> dict:
    rules, options, seed = CASES[name]
    host = make(Clock(), rate=1e9, burst=1e9, seed=seed, live_chances=False,
                bot_workers=0)
    tid = host.create_table("t", rules, options)
    conns = [at_table(host, tid) for _ in range(options["players"])]
    conns.append(at_table(host, tid, spectate=True))
    for _, t in conns:
        t.clear()
    conns[0][0].dataReceived(encode_frame(messages.Start(table=tid).to_wire()))
    table = host.lobby.tables[tid]
    viewers = [*range(options["players"]), SPECTATOR]
    rng = random.Random(seed)
    steps = []

    def digest_sent() -> str:
        h = hashlib.sha256()
        for _, t in conns:
            frames = state_frames(t.value())
            assert frames
            for body in frames:
                h.update(len(body).to_bytes(4, "big") + body)
            t.clear()
        return h.hexdigest()[:16]

    steps.append({"action": "start", "frames": digest_sent()})
    while not table.state.is_over and len(steps) <= MAX_ACTIONS:
        action = rng.choice(legal_actions(table.state, table.state.actor))
        conns[table.state.actor][0].dataReceived(encode_frame(messages.Action(
            table=tid, seq=table.seq, action=action).to_wire()))
        step = {"action": action, "frames": digest_sent()}
        if len(steps) % FULL_EVERY == 0:
            h = hashlib.sha256()
            for v in viewers:
                h.update(host.encode_wire(table.viewers.full_state(v)))
            web = table.viewers.full_state(SPECTATOR, web=True)
            h.update(json.dumps(web).encode())
            step["full"] = h.hexdigest()[:16]
        steps.append(step)
    assert table.state.is_over
    return {"case": name, "steps": steps}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_frame_of_a_seeded_game_matches_golden(name):
    expected = json.loads(GOLDEN.read_text())[name]
    actual = playthrough(name)
    assert len(actual["steps"]) == len(expected["steps"])
    for i, (a, e) in enumerate(zip(actual["steps"], expected["steps"], strict=True)):
        assert a == e, f"step {i} differs"


if __name__ == "__main__":
    from cartagena_net.cli.loop import install_reactor

    install_reactor()
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps({case: playthrough(case) for case in CASES}, indent=0)
                      + "\n")
    print("wrote", GOLDEN)
