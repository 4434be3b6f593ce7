"""The fuzzing of test_fuzz.py, over TCP against `cartagena host`: its log shows no
traceback, the game is untouched by strangers and its players play on."""
from __future__ import annotations

import asyncio
import random
import subprocess

from protocol import messages
from tests.portable import stop_politely

from .helpers import connect, run, seat_players, state_at
from .test_fuzz import random_frame
from .test_resume import _spawn

HOSTILE_ACTIONS = ["advance ² key", "retreat ①", "morgan ⁵ 1", "advance ٣ skull",
                   "advance 0 ３", "ADVANCE 0 KRAKEN", "discard", "end end", "\x00", "",
                   "morgan 1 99999999999", "advance 99999 key", "retreat -1", "draw 1"]


def test_no_traceback_in_the_host_log_under_fuzzing(tmp_path):
    proc, port = _spawn(tmp_path / "state", "--players", "2", "--rate-limit", "100000",
                        "--name", "fuzzed", stderr=subprocess.PIPE)
    try:
        async def fuzz() -> None:
            rng = random.Random(8)
            players = await seat_players(port, 1, ["ann", "bob"])
            players[0][0].send(messages.Start(table=1))
            by_seat = {seat: c for c, seat, _ in players}
            first = await state_at(players[0][0])
            seq = first.seq
            mover = by_seat[first.view["actor"]]
            state = first if mover is players[0][0] else await state_at(mover, seq)
            strangers = []
            for round_ in range(150):
                c = await connect(port)
                strangers.append(c)
                if rng.random() < 0.7:
                    c.send_map({"type": "hello", "versions": [1], "name": f"f{round_}",
                                "role": rng.choice(["player", "spectator"])})
                for _ in range(rng.randrange(1, 12)):
                    data = random_frame(rng, 1, seq)
                    cut = rng.randrange(len(data) + 1)
                    c.send_raw(data[:cut])
                    c.send_raw(data[cut:])
                c.transport.loseConnection()
                if round_ % 10 == 0:
                    # the player to act sends hostile text with the right seq
                    mover.send_map({"type": "action", "table": 1, "seq": seq,
                                    "action": rng.choice(HOSTILE_ACTIONS)})
                    err = await mover.expect(messages.Error)
                    assert err.code in ("bad-action", "illegal-action") and not err.fatal
            await asyncio.gather(*(c.closed() for c in strangers))
            # nothing a stranger sent changed the game: the players play on
            mover.send(messages.Action(table=1, seq=seq, action=state.legal[0]))
            after = await state_at(mover, seq + 1)
            assert after.seq == seq + 1
            for c, _, _ in players:
                assert not c.lost.done()
                c.close()

        run(fuzz())
    finally:
        stop_politely(proc)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert "dropping" in err  # the fuzzing reached the host
    assert "Traceback" not in err, err[err.find("Traceback") - 300:][:3000]
    assert "internal error" not in err
