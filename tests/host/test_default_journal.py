"""Crash safety by default: a host started with no flags journals in its own folder of
the per-user state directory, and started again after a crash offers the game back.

The per-user directories are temporary ones (tests/conftest.py points XDG_STATE_HOME
and HOME at them for every test), so nothing here touches the real user's.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cartagena_net.host import homes
from cartagena_net.host.journal import list_journals, write_journal
from cartagena_net.host.unfinished import unfinished_games
from cartagena_net.portable.dirs import user_state_dir
from protocol import messages
from tests.portable import kill_hard, private_state_root

from .crashkit import Player, play_to_end
from .helpers import join, run, seat_players, state_at

ROOT = Path(__file__).resolve().parents[2]
HOST = [sys.executable, "-m", "cartagena_net", "host", "--headless", "--port", "0",
        "--bind", "127.0.0.1", "--discovery", "off", "--web", "off", "--bot-delay", "0",
        "--rate-limit", "100000", "-o", "segments=1"]


def _hello(proc: subprocess.Popen) -> tuple[int, Path]:
    """The port and journal folder a host prints on stdout."""
    line = proc.stdout.readline()
    assert "listening on port" in line, line
    journal = proc.stdout.readline()
    assert "journal in " in journal, journal
    return int(line.rsplit(" ", 1)[1]), Path(journal.split("journal in ", 1)[1].strip())


def _spawn(*extra: str, err: Path) -> tuple[subprocess.Popen, int, Path]:
    with open(err, "a") as stderr:
        proc = subprocess.Popen([*HOST, *extra], cwd=ROOT, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=stderr, text=True)
    port, folder = _hello(proc)
    return proc, port, folder


def _stop(*procs: subprocess.Popen | None) -> None:
    for p in procs:
        if p is not None and p.poll() is None:
            p.terminate()
            p.wait(timeout=30)
        if p is not None and getattr(p, "master_fd", None) is not None:
            os.close(p.master_fd)
            p.master_fd = None


def _spawn_in_a_terminal(*extra: str, err: Path, answer: bytes) -> tuple[subprocess.Popen, int]:
    """A host whose stdin and stdout are a pseudo-terminal: it asks; ``answer`` is typed."""
    pty = pytest.importorskip("pty", reason="needs a POSIX pseudo-terminal (pty) to "
                              "answer the host's question as a person at a terminal would")
    import select

    master, slave = pty.openpty()
    with open(err, "a") as stderr:
        proc = subprocess.Popen([*HOST, *extra], cwd=ROOT, stdin=slave, stdout=slave,
                                stderr=stderr, close_fds=True)
    os.close(slave)
    seen = b""
    answered = False
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:  # the host closed the terminal (it ended)
                    break
            if not answered and b"Resume? [Y/n]" in seen:
                os.write(master, answer)
                answered = True
            m = re.search(rb"listening on port (\d+)", seen)
            if m:
                proc.terminal = seen  # type: ignore[attr-defined]
                return proc, int(m.group(1))
        raise AssertionError(f"the host did not start: {seen!r}; {err.read_text()}")
    finally:
        # The terminal stays open while the host runs (it writes a line more at most,
        # which the pty's buffer holds); _stop closes it.
        proc.master_fd = master  # type: ignore[attr-defined]


async def _play_some(port: int, actions: int) -> list[Player]:
    seated = await seat_players(port, 1, ["ann", "bob"])
    seated[0][0].send(messages.Start(table=1))
    players = [Player(c, seat, tok) for c, seat, tok in seated]
    def after(state):  # stop once enough actions were played
        return state.seq >= actions + 1

    low = await play_to_end(players, 1, random.Random(3), stop=after)
    assert low.view["outcome"] is None
    for p in players:
        while p.latest.seq < low.seq:
            await p.pump()
    return players


async def _back_and_to_the_end(port: int, players: list[Player], host_id: str) -> None:
    back = []
    for p in players:
        client, welcome = await join(port, "again", token=p.token)
        assert welcome.host_id == host_id  # the same host: clients find their seats
        assert welcome.resumed == {"table": 1, "seat": p.seat}
        fresh = await state_at(client)
        assert (fresh.seq, fresh.view, fresh.legal) == (p.latest.seq, p.latest.view,
                                                         p.latest.legal)
        q = Player(client, p.seat, p.token)
        q.latest = fresh
        back.append(q)
    end = await play_to_end(back, 1, random.Random(4))
    assert end.view["outcome"] is not None
    for q in back:
        q.client.close()


def test_folders_of_a_slot_are_found_again_and_never_shared(tmp_path):
    base = tmp_path / "hosts"
    first, fd1 = homes.open_default_state_dir("host port 5", base=base)
    assert first.parent == base and (first / "host-id").read_text() == first.name
    assert re.fullmatch(r"[0-9a-f]{32}", first.name)
    assert (first / "slot").read_text().strip() == "host port 5"
    # held by a running host: a second one of the same slot gets a folder of its own
    second, fd2 = homes.open_default_state_dir("host port 5", base=base)
    assert second != first
    other, fd3 = homes.open_default_state_dir("play", base=base)
    assert other not in (first, second)
    for fd in (fd1, fd2, fd3):
        os.close(fd)  # the hosts end
    # the one holding an unfinished game is preferred, else the one used last
    again, fd = homes.open_default_state_dir("host port 5", base=base,
                                             prefer=lambda f: f == first)
    assert again == first
    os.close(fd)
    os.utime(second / "lock", (time.time() + 10, time.time() + 10))
    again, fd = homes.open_default_state_dir("host port 5", base=base)
    assert again == second
    os.close(fd)
    assert sorted(p.name for p in base.iterdir()) == sorted(
        p.name for p in (first, second, other))


def test_unfinished_games_are_found_and_finished_or_damaged_ones_are_not(tmp_path):
    from cartagena_net.engine import make_game

    game = make_game("jamaica", players=2, segments=1)
    state = game.new_state(seed=5)
    chance = [list(o) for o in state.chance]
    meta = {"t": "table", "id": 1, "name": "ann's", "rules": "jamaica",
            "options": {"players": 2, "segments": 1}}
    seats = {"t": "seats", "owner": 0, "seats": [
        {"name": "ann", "token": "x" * 32, "bot": None},
        {"name": "Blackbeard", "token": None, "bot": "greedy"}]}
    acts = []
    for seq in range(2, 6):
        seen = len(state.chance)
        text = str(state.legal_actions()[0])
        state.apply(text)
        rec = {"t": "act", "seq": seq, "seat": None, "action": text}
        if len(state.chance) > seen:
            rec["chance"] = [list(o) for o in state.chance[seen:]]
        acts.append(rec)
    write_journal(tmp_path / "table-1.journal",
                  [meta, seats, {"t": "game", "seq": 1, "chance": chance}, *acts])
    write_journal(tmp_path / "table-2.journal", [dict(meta, id=2), seats])  # no game
    (tmp_path / "table-3.journal").write_bytes(b"garbage\n")
    found, garbage = unfinished_games(tmp_path)
    # a journal no game can come back from is said, as a whole game lost
    assert garbage.table == 3 and garbage.damage is not None and garbage.damage.whole
    assert "table 3: journal record 1: a record in it is damaged" in garbage.describe()
    assert "the first record is unreadable" in garbage.damage.describe(detail=True)
    assert "nothing of it can come back" in garbage.describe()
    assert found.damage is None
    assert (found.table, found.actions, found.rules) == (1, 4, "jamaica")
    assert found.players == ["ann", "Blackbeard (greedy bot)"]
    assert "ann's" in found.describe() and "4 actions played" in found.describe()
    assert "x" * 32 not in found.describe()  # never a token


def test_a_host_with_no_flags_killed_mid_game_offers_it_back_and_it_plays_to_the_end(tmp_path):
    err = tmp_path / "host.err"
    proc, port, folder = _spawn("--players", "2", err=err)
    procs = [proc]
    try:
        assert folder.parent == user_state_dir() / "hosts"
        assert str(folder).startswith(private_state_root())  # the test's, not the user's
        host_id = (folder / "host-id").read_text().strip()
        players = run(_play_some(port, 8))
        kill_hard(proc.pid)
        proc.wait(timeout=30)
        for p in players:
            p.client.close()
        # Started again with no flags, at a terminal: it says what it found and asks.
        proc2, port2 = _spawn_in_a_terminal("--players", "2", err=err, answer=b"y\n")
        procs.append(proc2)
        run(_back_and_to_the_end(port2, players, host_id))
    finally:
        _stop(*procs)
    asked = proc2.terminal.decode()  # type: ignore[attr-defined]
    assert f"1 unfinished game in {folder}" in asked
    assert re.search(r"table 1 .*jamaica, ann, bob; \d+ actions? played, (ann|bob) to "
                     r"play", asked), asked
    text = err.read_text()
    assert "Traceback" not in text
    assert "restored table 1 (playing)" in text
    assert not [p for p in folder.iterdir() if p.name.startswith("archive-")]


def test_without_a_terminal_the_game_is_resumed_and_no_resume_archives_it(tmp_path):
    err = tmp_path / "host.err"
    proc, port, folder = _spawn("--players", "2", err=err)
    proc2 = proc3 = None
    try:
        host_id = (folder / "host-id").read_text().strip()
        players = run(_play_some(port, 4))
        kill_hard(proc.pid)
        proc.wait(timeout=30)
        for p in players:
            p.client.close()
        proc2, port2, folder2 = _spawn("--players", "2", err=err)  # stdin: not a terminal
        assert folder2 == folder
        text = err.read_text()
        assert "resuming (no terminal to ask" in text and "restored table 1" in text

        async def seated_again() -> None:
            for p in players:
                client, welcome = await join(port2, "again", token=p.token)
                assert welcome.host_id == host_id
                assert welcome.resumed == {"table": 1, "seat": p.seat}
                client.close()

        run(seated_again())
        kill_hard(proc2.pid)
        proc2.wait(timeout=30)
        before = {p.name: p.read_bytes() for p in folder.iterdir()
                  if p.name.startswith("table-")}
        proc3, _port3, folder3 = _spawn("--players", "2", "--no-resume", err=err)
        assert folder3 == folder
        (archive,) = [p for p in folder.iterdir() if p.name.startswith("archive-")]
        assert {p.name: p.read_bytes() for p in archive.iterdir()} == before  # kept whole
        assert [i for i, _ in list_journals(folder)] == [1]  # the first table, made afresh
    finally:
        _stop(proc, proc2, proc3)
    assert "Traceback" not in err.read_text()


def test_hosts_started_side_by_side_with_no_flags_journal_in_folders_of_their_own(tmp_path):
    err = tmp_path / "host.err"
    procs = []
    try:
        with open(err, "a") as stderr:
            for _ in range(3):
                procs.append(subprocess.Popen(HOST, cwd=ROOT, stdin=subprocess.DEVNULL,
                                              stdout=subprocess.PIPE, stderr=stderr,
                                              text=True))
        folders = [_hello(p)[1] for p in procs]
        assert len(set(folders)) == 3
        assert all(f.parent == user_state_dir() / "hosts" for f in folders)
    finally:
        _stop(*procs)
    assert "Traceback" not in err.read_text()


def test_no_journal_keeps_none_and_conflicting_flags_are_refused(tmp_path):
    done = subprocess.run([*HOST, "--no-journal", "--resume"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 2 and "--resume needs a journal" in done.stderr
    done = subprocess.run([*HOST, "--resume", "--no-resume"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 2 and "not allowed with" in done.stderr
    proc = subprocess.Popen([*HOST, "--no-journal"], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "listening on port" in line
    finally:
        proc.terminate()
        out, errors = proc.communicate(timeout=30)
    assert "journal in" not in out and "Traceback" not in errors
    assert not (user_state_dir() / "hosts").exists()
