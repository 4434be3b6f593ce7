"""Table slots are freed: empty and finished tables go, one address holds a few at most."""
from __future__ import annotations

import random

from cartagena_net.host.journal import journal_path, list_journals, read_journal
from protocol import messages
from tests.twisted_loop import until

from .crashkit import Player, captured_logs, grep, play_to_end
from .helpers import join, make_host, run, seat_players, stop_host

SHORT = {"players": 2, "segments": 1, "pirates": 1}


async def _create(client, name="t", options=None):
    client.send(messages.CreateTable(name=name, rules="jamaica", options=options or SHORT))
    return await client.expect((messages.Joined, messages.Error))


def test_an_empty_table_goes_with_its_journal_as_soon_as_it_empties(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        try:
            ann, _ = await join(host.port, "ann")
            watcher, _ = await join(host.port, "watcher")
            joined = await _create(ann)
            tid = joined.table
            path = journal_path(tmp_state, tid)
            assert path.exists()
            await watcher.expect(messages.Lobby, lambda m: [t["id"] for t in m.tables] == [tid])
            ann.send(messages.AddBot(table=tid, seat=1, kind="random"))
            await ann.expect(messages.Lobby, lambda m: m.tables[0]["seats"][1]["bot"])
            with captured_logs() as logs:
                ann.send(messages.Leave(table=tid))  # a bot does not keep a table
                await watcher.expect(messages.Lobby, lambda m: m.tables == ())
            assert tid not in host.lobby.tables and not path.exists()
            assert grep(logs, f"table {tid} removed")
            # a player whose connection drops before the start frees the table too
            joined = await _create(ann)
            assert joined.table != tid and journal_path(tmp_state, joined.table).exists()
            ann.close()
            await until(lambda: not host.lobby.tables, "the table is removed")
            assert list_journals(tmp_state) == []
            # the host's own tables (the first table of `cartagena host`) stay
            house = host.create_table("house", "jamaica", SHORT, bots=1, bot_kind="random")
            ((bob, _, _),) = await seat_players(host.port, house, ["bob"])
            bob.send(messages.Leave(table=house))
            await bob.expect(messages.Lobby, lambda m: m.tables[0]["seats"][0]["name"] is None)
            assert list(host.lobby.tables) == [house] and journal_path(tmp_state, house).exists()
            bob.close()
            watcher.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_a_finished_table_goes_when_its_last_human_leaves(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        try:
            ann, _ = await join(host.port, "ann")
            joined = await _create(ann)
            tid, s0, t0 = joined.table, joined.seat, joined.token
            ((bob, s1, t1),) = await seat_players(host.port, tid, ["bob"])
            ann.send(messages.Start(table=tid))
            players = [Player(ann, s0, t0), Player(bob, s1, t1)]
            await play_to_end(players, tid, random.Random(3))
            table = host.lobby.tables[tid]
            assert table.status == "finished"
            ann.send(messages.Leave(table=tid))
            await ann.expect(messages.Lobby)
            assert tid in host.lobby.tables  # bob still looks at the result
            bob.close()
            await until(lambda: tid not in host.lobby.tables, "the finished table goes")
            assert not journal_path(tmp_state, tid).exists()
            ann.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_one_address_holds_a_few_tables_at_most():
    async def scenario() -> None:
        host = make_host(max_tables_per_address=2)
        try:
            clients = [(await join(host.port, f"p{i}"))[0] for i in range(3)]
            first = await _create(clients[0])
            await _create(clients[1])
            err = await _create(clients[2])
            assert isinstance(err, messages.Error) and err.code == "too-many-tables"
            assert "127.0.0.1" in err.message and not err.fatal
            # the host's own tables do not count against an address
            host.create_table("host's", "jamaica", SHORT)
            clients[0].send(messages.Leave(table=first.table))
            await until(lambda: first.table not in host.lobby.tables, "the table goes")
            assert isinstance(await _create(clients[2]), messages.Joined)
            for c in clients:
                c.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_creating_and_leaving_tables_in_a_loop_never_uses_up_the_host(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state), max_tables=8)
        try:
            spammer, _ = await join(host.port, "spam")
            for _ in range(3 * host.config.max_tables):
                joined = await _create(spammer)
                assert isinstance(joined, messages.Joined), joined
                spammer.send(messages.Leave(table=joined.table))
            spammer.close()
            ann, _ = await join(host.port, "ann")
            joined = await _create(ann)
            assert isinstance(joined, messages.Joined)
            await until(lambda: list(host.lobby.tables) == [joined.table], "one table left")
            assert [p for _, p in list_journals(tmp_state)] == [journal_path(tmp_state,
                                                                              joined.table)]
            ann.close()
        finally:
            await stop_host(host)

    run(scenario())


def test_a_restore_skips_tables_nobody_sits_at(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        empty = [host.create_table(f"e{i}", "jamaica", SHORT, bots=i % 2, bot_kind="random")
                 for i in range(3)]
        kept = host.create_table("kept", "jamaica", SHORT)
        ((bob, seat, tok),) = await seat_players(host.port, kept, ["bob"])
        await stop_host(host)
        bob.close()
        with captured_logs() as logs:
            again = make_host(state_dir=str(tmp_state), resume=True)
        try:
            assert list(again.lobby.tables) == [kept]
            assert [i for i, _ in list_journals(tmp_state)] == [kept]
            assert all(grep(logs, f"table {i} holds nobody") for i in empty)
            back, welcome = await join(again.port, "bob", token=tok)
            assert welcome.resumed == {"table": kept, "seat": seat}
            back.close()
        finally:
            await stop_host(again)

    run(scenario())


def test_starting_without_resume_archives_old_journals_and_never_reuses_their_ids(tmp_state):
    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state))
        tid = host.create_table("old", "jamaica", SHORT)
        ((bob, _, _),) = await seat_players(host.port, tid, ["bob"])
        await stop_host(host)
        bob.close()
        foreign = tmp_state / "table-41.journal"
        foreign.write_bytes(b"not mine\n")
        before = {p.name: p.read_bytes() for p in tmp_state.iterdir() if "journal" in p.name}
        with captured_logs() as logs:
            again = make_host(state_dir=str(tmp_state))
        try:
            folders = [p for p in tmp_state.iterdir() if p.name.startswith("archive-")]
            assert len(folders) == 1 and again.archived == (folders[0], 2)
            assert {p.name: p.read_bytes() for p in folders[0].iterdir()} == before
            line = grep(logs, str(folders[0]), "--resume")
            assert line and "2 journal file(s)" in line[0]
            assert list_journals(tmp_state) == [] and again.lobby.tables == {}
            new = again.create_table("new", "jamaica", SHORT)
            assert read_journal(journal_path(tmp_state, new)).records[0]["name"] == "new"
        finally:
            await stop_host(again)

    run(scenario())


def test_new_table_ids_skip_every_journal_file_present(tmp_state):
    tmp_state.mkdir(mode=0o700)
    (tmp_state / "table-5.journal.bad-20260101T000000Z").write_bytes(b"kept aside\n")

    async def scenario() -> None:
        host = make_host(state_dir=str(tmp_state), resume=True)
        try:
            assert host.create_table("t", "jamaica", SHORT) == 6
            journal_path(tmp_state, 7).write_bytes(b"appeared meanwhile\n")
            assert host.create_table("u", "jamaica", SHORT) == 8
            assert journal_path(tmp_state, 7).read_bytes() == b"appeared meanwhile\n"
        finally:
            await stop_host(host)

    run(scenario())
