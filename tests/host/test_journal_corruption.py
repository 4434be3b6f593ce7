"""Damaged journals: each case is logged clearly, its file kept, and games play on."""
from __future__ import annotations

import os
import random

import pytest

from cartagena_net.host.journal import encode_record, journal_path, read_journal
from protocol import messages
from tests.twisted_loop import until

from .crashkit import LONG_GAMES, Player, captured_logs, choose, grep, play_to_end
from .helpers import join, make_host, run, seat_players, stop_host


async def _game_on_disk(tmp_state, actions=40):
    """A 2-player game journaled in ``tmp_state``: snapshots by journal length.

    The deal is seeded, so the game reaches its reshuffle before it could end, every run.
    """
    host = make_host(state_dir=str(tmp_state), seed=7)
    tid = host.create_table("t", "jamaica", LONG_GAMES["jamaica"])
    players = await seat_players(host.port, tid, ["ann", "bob"])
    table = host.lobby.tables[tid]
    table.start(None)
    path = table.journal.path
    rng = random.Random(11)
    snaps = {}
    done = 0
    while done < actions or len(table.state.chance) < 3:  # until a reshuffle, at least
        legal = [str(a) for a in table.state.legal_actions()]
        table.play.apply(table.state.actor, choose(legal, rng, False))
        snaps[len(read_journal(path).records)] = (table.state.copy(), table.seq)
        done += 1
    assert not table.state.is_over
    await stop_host(host)
    for c, _, _ in players:
        c.close()
    return tid, path, [(seat, tok) for _, seat, tok in players], snaps


async def _play_on(port, tid, seats):
    """Both players come back with their tokens and play to the end."""
    players = []
    for seat, tok in seats:
        c, welcome = await join(port, "back", token=tok)
        assert welcome.resumed == {"table": tid, "seat": seat}
        players.append(Player(c, seat, tok))
    end = await play_to_end(players, tid, random.Random(2), min_reshuffles=1)
    assert end.view["outcome"] is not None
    for p in players:
        p.client.close()


def _append(path, data):
    path.write_bytes(path.read_bytes() + data)


def _bad_copies(path):
    return sorted(p for p in path.parent.iterdir() if p.name.startswith(path.name + ".bad-"))


def test_a_damaged_record_in_the_middle_restores_up_to_it_and_keeps_the_original(tmp_state):
    async def scenario() -> None:
        tid, path, seats, snaps = await _game_on_disk(tmp_state)
        lines = path.read_bytes().splitlines(keepends=True)
        k = len(lines) // 2
        damaged = bytearray(lines[k - 1])
        damaged[-3] ^= 0x04  # one bit of record k
        data = b"".join(lines[: k - 1]) + bytes(damaged) + b"".join(lines[k:])
        path.write_bytes(data)
        last_seq = snaps[len(lines)][1]
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            (kept,) = _bad_copies(path)
            assert kept.read_bytes() == data  # the original, every later record included
            line = grep(logs, str(path), f"record {k}:", "checksum mismatch", str(kept))
            assert line and f"up to record {k - 1}" in line[0]
            table = host.lobby.tables[tid]
            assert table.state == snaps[k - 1][0]
            # What was lost, as a fact: how many actions came back, how many did not
            # (every line from record k on is an action here), where the file is kept.
            kept_actions = len(table.state.history)
            total = len(snaps[len(lines)][0].history)
            assert table.journal_damage.to_data() == {
                "kind": "journal-shortened", "table": tid, "line": k, "cause": "damaged",
                "why": "checksum mismatch (the record was damaged)", "kept": kept_actions,
                "lost": total - kept_actions, "kept_as": str(kept)}
            assert f"the game comes back at action {kept_actions}; " \
                   f"{total - kept_actions} actions after it are lost" in line[0]
            assert host.journal_damage == []
            # every seat and watcher is sent it with the table (lobby: its notices)
            assert table.lobby_entry()["notices"] == [table.journal_damage.to_data()]
            assert table.seq > last_seq  # never goes back below what players saw
            again = read_journal(path)
            assert len(again.records) == k and not again.bad
            assert again.records[-1] == {"t": "seq", "seq": table.seq}
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


def test_a_torn_final_line_is_cut_and_the_game_restored_exactly(tmp_state):
    async def scenario() -> None:
        tid, path, seats, snaps = await _game_on_disk(tmp_state)
        size = path.stat().st_size
        n = len(read_journal(path).records)
        _append(path, encode_record({"t": "act", "seq": 999, "action": "end"})[:17])
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            assert grep(logs, str(path), "incomplete line", "cut off")
            assert path.stat().st_size == size and _bad_copies(path) == []
            table = host.lobby.tables[tid]
            assert (table.state, table.seq) == snaps[n]
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


def test_an_action_cut_short_at_the_end_is_lost_and_said_and_seq_goes_on(tmp_state):
    """The last action's record cut short (the system stopped mid-write: appends are
    fsynced every --journal-sync seconds, so the players may have seen it): the game
    comes back before it, says so, keeps the file, and seq never goes back."""
    async def scenario() -> None:
        tid, path, seats, snaps = await _game_on_disk(tmp_state)
        n = len(read_journal(path).records)
        data = path.read_bytes()
        last = data.splitlines(keepends=True)[-1]
        assert b'{"t":"act",' in last
        path.write_bytes(data[: len(data) - len(last) + 30])  # cut in its middle
        seen = snaps[n][1]
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            table = host.lobby.tables[tid]
            assert table.state == snaps[n - 1][0]
            damage = table.journal_damage.to_data()
            assert (damage["kind"], damage["line"], damage["lost"], damage["cause"]) == (
                "journal-shortened", n, 1, "damaged")
            assert grep(logs, str(path), f"record {n}:", "1 action after it is lost")
            assert table.seq > seen
            assert len(_bad_copies(path)) == 1
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


def test_a_damaged_point_of_the_chances_curve_is_passed_over(tmp_state):
    """A point of the live chances' curve is shown, never played: one damaged in the
    middle of a journal costs that point only, not the actions after it."""
    async def scenario() -> None:
        tid, path, seats, snaps = await _game_on_disk(tmp_state)
        lines = path.read_bytes().splitlines(keepends=True)
        n = len(lines)
        k = n // 3
        point = bytearray(encode_record({"t": "chances", "seq": 5, "turn": 2,
                                         "chances": [0.25, 0.75]}))
        point[-8] ^= 0x20  # one bit of its numbers: its checksum no longer fits
        path.write_bytes(b"".join(lines[:k]) + bytes(point) + b"".join(lines[k:]))
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            table = host.lobby.tables[tid]
            assert (table.state, table.seq) == snaps[n]
            assert table.journal_damage is None and _bad_copies(path) == []
            assert grep(logs, str(path), f"record {k + 1}:", "passed over")
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


@pytest.mark.parametrize("case", ["illegal action", "seq gap", "wrong seat"])
def test_a_wrong_action_record_is_reported_and_the_file_kept(tmp_state, case):
    """A checksummed record can still be wrong: an action the game refuses, records
    missing before it (its seq jumps), or a seat that was not the one to act. None is
    replayed silently: the table is restored up to it and the original file kept."""
    async def scenario() -> None:
        tid, path, seats, snaps = await _game_on_disk(tmp_state)
        n = len(read_journal(path).records)
        state, seq = snaps[n]
        legal = str(state.legal_actions()[0])
        rec, why = {
            "illegal action": ({"t": "act", "seq": seq + 1, "seat": state.actor,
                                "action": "advance 0 nonsense"},
                               "refuses action 'advance 0 nonsense'"),
            "seq gap": ({"t": "act", "seq": seq + 5, "seat": state.actor, "action": legal},
                        f"seq {seq + 5}"),
            "wrong seat": ({"t": "act", "seq": seq + 1, "seat": 1 - state.actor,
                            "action": legal}, f"seat {1 - state.actor}"),
        }[case]
        _append(path, encode_record(rec))
        original = path.read_bytes()
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            (kept,) = _bad_copies(path)
            assert kept.read_bytes() == original
            line = grep(logs, str(path), f"record {n + 1}:", why)
            assert line and f"up to record {n}" in line[0]
            assert not grep(logs, "Traceback")
            table = host.lobby.tables[tid]
            assert table.state == state and table.seq > seq
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


CASES = {
    "empty": (b"", "file: it is empty (the file is empty)"),
    "garbage": (os.urandom(300).replace(b"\n", b"") + b"\n" + os.urandom(50),
                "record 1: a record in it is damaged (the first record is unreadable"),
    "corrupt first line": (None, ("record 1: a record in it is damaged (the first record is "
                                 "unreadable: checksum mismatch")),
    "torn only": (b'0badc0de {"t":"tab', ("record 1: it is empty (it holds only an "
                                         "incomplete line")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_journal_with_no_table_in_it_is_moved_aside_and_logged(tmp_state, case):
    async def scenario() -> None:
        tid, path, seats, _ = await _game_on_disk(tmp_state, actions=5)
        content, expected = CASES[case]
        bad = journal_path(tmp_state, 9)
        if content is None:
            content = bytearray(path.read_bytes())
            content[12] ^= 0x20
            content = bytes(content)
        bad.write_bytes(content)
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            (aside,) = _bad_copies(bad)
            assert aside.read_bytes() == content and not bad.exists()
            line = grep(logs, "cannot restore table 9", str(bad), expected, str(aside))
            assert line, "\n".join(logs)
            (lost,) = host.journal_damage  # the whole game, said as a fact
            assert lost.whole and lost.table == 9 and lost.kept == 0
            assert lost.kept_as == str(aside) and lost.to_data()["kind"] == "journal-lost"
            # Everyone who connects is told, as data its client words (lobby.notices).
            eve, _ = await join(host.port, "eve")
            lobby = await until(lambda: [m for m in eve.seen
                                         if isinstance(m, messages.Lobby) and m.notices],
                                "the lobby's notice")
            (notice,) = lobby[-1].notices
            assert notice == {k: v for k, v in lost.to_data().items()}
            assert notice["kind"] == "journal-lost" and notice["table"] == 9
            eve.close()
            if case == "corrupt first line":  # a copy of table 1's: its actions still read
                acts = sum(r["t"] == "act" for r in read_journal(path).records)
                assert lost.lost == acts and f"the whole game is lost ({acts} actions)" in line[0]
            assert not grep(logs, "Traceback")
            assert sorted(host.lobby.tables) == [tid]  # the good journal is restored
            assert host.create_table("new", "jamaica", {"players": 2}) == 10
            await _play_on(host.port, tid, seats)
        finally:
            await stop_host(host)

    run(scenario())


def test_a_journal_whose_rules_are_unusable_is_moved_aside(tmp_state):
    async def scenario() -> None:
        tmp_state.mkdir(mode=0o700)
        bad = journal_path(tmp_state, 3)
        bad.write_bytes(encode_record({"t": "table", "id": 3, "name": "x",
                                       "rules": "checkers", "options": {}}))
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            (aside,) = _bad_copies(bad)
            assert grep(logs, "cannot restore table 3", "record 1", "table record is unusable",
                        "checkers", str(aside))
            tid = host.create_table("t", "jamaica", {"players": 2})
            assert tid == 4
            ann, _ = await join(host.port, "ann")
            ann.send(messages.JoinTable(table=tid))
            assert (await ann.expect(messages.Joined)).seat == 0
            ann.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_a_journal_that_is_a_folder_is_said_without_a_trace(tmp_state):
    """A journal's name taken by a folder (or a file the host may not read): that
    table's game is lost and said so, as for any unreadable journal, with no
    traceback in the log, and the host serves on."""
    async def scenario() -> None:
        tid, path, _seats, _snaps = await _game_on_disk(tmp_state)
        path.unlink()
        path.mkdir()
        with captured_logs() as logs:
            host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            assert tid not in host.lobby.tables
            (damage,) = host.journal_damage
            assert (damage.table, damage.whole, damage.cause) == (tid, True, "fault")
            assert grep(logs, "cannot restore table", "IsADirectoryError")
            assert not grep(logs, "Traceback")
            c, welcome = await join(host.port, "new")  # the host serves on
            assert welcome.resumed is None
            c.close()
        finally:
            await stop_host(host)

    run(scenario())
