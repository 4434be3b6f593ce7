"""Crash safety: journals on disk before broadcast; --resume restores every table exactly."""
from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

from cartagena_net.host.journal import list_journals, read_journal
from cartagena_net.host.passwords import verify_password
from protocol import messages

from .helpers import join, make_host, run, seat_players, state_at, stop_host

ROOT = Path(__file__).resolve().parents[2]


def test_resume_restores_tables_exactly_in_process(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        tid = host.create_table("t", "jamaica", {"players": 3}, bots=2, bot_kind="random")
        other = host.create_table("waiting", "tortuga", {"players": 2}, password="pw")
        ((ann, seat, tok),) = await seat_players(host.port, tid, ["ann"])
        ann.send(messages.Start(table=tid))
        s = await state_at(ann)
        while not s.legal:
            s = await state_at(ann)
        ann.send(messages.Action(table=tid, seq=s.seq, action=s.legal[-1]))
        s2 = await state_at(ann, s.seq + 1)
        before = host.lobby.tables[tid]
        # the accepted action was on disk before ann could see its result
        records, _ = read_journal(before.journal.path)
        assert records[-1]["t"] == "act" and records[-1]["seq"] == s2.seq
        assert stat.S_IMODE(os.stat(tmp_state).st_mode) == 0o700
        for _, path in list_journals(tmp_state):
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        bob, _ = await join(host.port, "bob")
        bob.send(messages.JoinTable(table=other, password="pw"))
        bob_tok = (await bob.expect(messages.Joined)).token
        ann.close()
        await stop_host(host)
        err = await bob.expect(messages.Error)
        assert (err.code, err.fatal) == ("shutting-down", True)
        await bob.closed()

        again = make_host(state_dir=str(tmp_state), resume=True)
        try:
            after = again.lobby.tables[tid]
            assert after.state == before.state  # pirates, hands, stock order, turn...
            assert after.state.record() == before.state.record()
            assert (after.seq, after.status, after.owner) == (before.seq, "playing", before.owner)
            assert [s.public() for s in after.seats][1:] == [s.public() for s in before.seats][1:]
            assert after.seats[seat].token == tok and after.seats[seat].conn is None
            waiting = again.lobby.tables[other]
            assert (waiting.rules, waiting.status) == ("tortuga", "waiting")
            assert verify_password("pw", waiting.password.hash)
            assert (waiting.seats[0].name, waiting.seats[0].token) == ("bob", bob_tok)
            back, welcome = await join(again.port, "ann", token=tok)
            assert welcome.resumed == {"table": tid, "seat": seat}
            fresh = await state_at(back, s2.seq)
            assert fresh.view == s2.view and fresh.legal == s2.legal
            back.send(messages.Action(table=tid, seq=fresh.seq, action=fresh.legal[0]))
            await state_at(back, fresh.seq + 1)
            back.close()
        finally:
            await stop_host(again)

    run(scenario())


# ``python -m cartagena_net host`` once every subcommand module exists; until then the
# same ``cmd_host`` parser and ``run`` without the other subcommands.
_HOST_ONLY = (
    "import argparse, sys; from cartagena_net import cmd_host; "
    "p = argparse.ArgumentParser(); cmd_host.add_arguments(p); "
    "sys.exit(cmd_host.run(p.parse_args(sys.argv[2:])))"
)


def _host_command() -> list[str]:
    from cartagena_net.cli import COMMANDS

    if all((ROOT / "cartagena_net" / f"cmd_{name}.py").exists() for name in COMMANDS):
        return [sys.executable, "-m", "cartagena_net", "host"]
    return [sys.executable, "-c", _HOST_ONLY, "host"]


def _spawn(state_dir: Path, *extra: str, stderr: int = subprocess.DEVNULL,
           ) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [*_host_command(), "--headless", "--port", "0",
         "--bind", "127.0.0.1", "--discovery", "off", "--state-dir", str(state_dir),
         "--bot-delay", "0", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr, text=True,
    )
    line = proc.stdout.readline()
    assert "listening on port" in line, line
    return proc, int(line.rsplit(" ", 1)[1])


def test_kill_9_then_resume_in_a_subprocess(tmp_state):
    proc, port = _spawn(tmp_state, "--players", "2", "--name", "crashy")
    proc2 = None
    try:
        async def before_crash():
            players = await seat_players(port, 1, ["ann", "bob"])
            players[0][0].send(messages.Start(table=1))
            last = {}
            seq = None
            for _ in range(7):  # play a few actions, whoever is to act
                states = {}
                for c, seat, _ in players:
                    states[seat] = await state_at(c, seq)
                seq = next(iter(states.values())).seq
                mover = next(seat for seat, st in states.items() if st.legal)
                c = next(c for c, seat, _ in players if seat == mover)
                c.send(messages.Action(table=1, seq=seq, action=states[mover].legal[0]))
                seq += 1
            for c, seat, _ in players:
                last[seat] = await state_at(c, seq)
            return players, last

        players, last = run(before_crash())
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        for c, _, _ in players:
            c.close()
        proc2, port2 = _spawn(tmp_state, "--resume")

        async def after_resume():
            for c, seat, tok in players:
                back, welcome = await join(port2, "again", token=tok)
                assert welcome.resumed == {"table": 1, "seat": seat}
                fresh = await state_at(back)
                assert fresh.seq == last[seat].seq
                assert fresh.view == last[seat].view  # same pirates, own hand, stock size
                assert fresh.legal == last[seat].legal
                back.close()
            await asyncio.sleep(0)

        run(after_resume())
    finally:
        for p in (proc, proc2):
            if p is not None and p.poll() is None:
                p.terminate()
                p.wait(timeout=30)
