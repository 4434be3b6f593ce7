"""A full disk under the state dir (a real tmpfs the test mounts): an action
that cannot be journaled is refused with ``journal-failed``, nothing changes or is sent,
and once the disk takes writes again the game goes on to its end and restores exactly."""
from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from protocol import messages
from tests.twisted_loop import until

from .crashkit import Player, choose
from .helpers import join, make_host, run, seat_players, stop_host

OPTIONS = {"players": 2}  # the whole board: a game long enough to fill a page


@contextlib.contextmanager
def tmpfs(size: str = "512k"):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    where = Path(tempfile.mkdtemp(prefix="cartagena-tmpfs-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                   check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def fill(where: Path) -> Path:
    """Write until the file system is full; the filler file."""
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    return filler


async def _setup(host):
    ann, _ = await join(host.port, "ann")
    ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
    joined = await ann.expect(messages.Joined)
    tid = joined.table
    (bob, seat, token), = await seat_players(host.port, tid, ["bob"])
    ann.send(messages.Start(table=tid))
    players = [Player(ann, joined.seat, joined.token), Player(bob, seat, token)]
    for p in players:
        while p.latest is None:
            await p.pump()
    return tid, players


async def _act(host, tid, players, rng, finish: bool = True) -> messages.Error | None:
    """The actor plays one action; the refusal, if any."""
    table = host.lobby.tables[tid]
    assert not table.state.is_over, "the game ended before the disk refused anything"
    p = next(q for q in players if q.seat == table.state.actor)
    for q in players:
        q.drain()
        while q.latest.seq < table.seq:
            await q.pump()
    seq = table.seq
    p.client.send(messages.Action(table=tid, seq=seq, action=choose(list(p.latest.legal),
                                                                      rng, finish)))
    while True:
        msg = await asyncio.wait_for(p.client.inbox.get(), 30)
        if isinstance(msg, messages.Error):
            return msg
        if isinstance(msg, messages.State):
            p.take(msg)
            if msg.seq > seq:
                return None


def test_an_action_that_cannot_be_journaled_is_refused_and_the_game_goes_on():
    with tmpfs() as where:
        state_dir = where / "state"
        host = make_host(state_dir=str(state_dir))

        async def go():
            tid, players = await _setup(host)
            table = host.lobby.tables[tid]
            rng = random.Random(5)
            for _ in range(6):
                assert await _act(host, tid, players, rng) is None
            filler = fill(where)
            # The journal's last page may still hold a few records: play (retreats, a
            # long game) until the disk refuses one.
            for _ in range(300):
                before, seq = table.state.copy(), table.seq
                sent = [len(p.client.frames()) for p in players]
                error = await _act(host, tid, players, rng, finish=False)
                if error is not None:
                    break
            assert not table.state.is_over
            for _ in range(3):  # refused, again and again, and nothing changes
                assert error is not None and error.code == "journal-failed", error
                assert "disk" in error.message
                assert table.state == before and table.seq == seq
                error = await _act(host, tid, players, rng, finish=False)
            # The other player was sent nothing: no state moved.
            other = next(p for p in players if p.seat != table.state.actor)
            assert not any(f.get("type") == "state" for f in other.client.frames()[sent[other.seat]:])
            filler.unlink()
            for _ in range(3000):  # the disk takes writes: the game goes on to its end
                if table.state.is_over:
                    break
                assert await _act(host, tid, players, rng) is None
            assert table.state.is_over
            return tid, table.state.copy(), table.seq, players

        try:
            tid, final, final_seq, players = run(go(), timeout=240)
        finally:
            run(stop_host(host))  # as a crash would: the players are still seated
        for p in players:
            p.client.close()
        again = make_host(state_dir=str(state_dir), resume=True)  # nothing acknowledged lost
        try:
            table = again.lobby.tables[tid]
            assert table.state == final and table.seq == final_seq
        finally:
            run(stop_host(again))


def test_a_game_cannot_start_unjournaled():
    with tmpfs() as where:
        host = make_host(state_dir=str(where / "state"))

        async def go():
            ann, _ = await join(host.port, "ann")
            ann.send(messages.CreateTable(name="t", rules="jamaica", options=OPTIONS))
            tid = (await ann.expect(messages.Joined)).table
            ann.send(messages.AddBot(table=tid, kind="greedy"))
            await until(lambda: host.lobby.tables[tid].seats[1].controller is not None)
            filler = fill(where)
            ann.send(messages.Start(table=tid))
            error = await ann.expect(messages.Error)
            assert error.code == "journal-failed"
            assert host.lobby.tables[tid].status == "waiting"
            filler.unlink()
            ann.send(messages.Start(table=tid))
            await ann.expect(messages.State)
            assert host.lobby.tables[tid].status == "playing"
            ann.close()

        try:
            run(go(), timeout=120)
        finally:
            run(stop_host(host))
