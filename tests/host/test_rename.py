"""`rename` (docs/protocol.md 4.19): the name a player gives after hello is the one the
host uses from then on: chat, the table it makes next, its seat while no game runs, the
next game's records; during a game the seat keeps the name it started with."""
from __future__ import annotations

from protocol import messages

from .helpers import join, make_host, run, stop_host


def test_a_new_name_is_used_for_chat_the_next_table_and_the_seat_before_the_game():
    async def scenario() -> None:
        host = make_host()
        try:
            watcher, _ = await join(host.port, "watcher")
            root, _ = await join(host.port, "root")
            root.send(messages.Rename(name="  Zelda  "))
            root.send(messages.Chat(text="ahoy"))
            chat = await watcher.expect(messages.Chat)
            assert chat.sender == "Zelda"
            root.send(messages.CreateTable(name="t", rules="jamaica", options={"players": 2}))
            tid = (await root.expect(messages.Joined)).table
            await watcher.expect(messages.Lobby, lambda m: any(
                t["id"] == tid and t["seats"][0]["name"] == "Zelda" for t in m.tables))
            # at the table, before the start: the seat takes the new name
            root.send(messages.Rename(name="Link"))
            await watcher.expect(messages.Lobby, lambda m: any(
                t["id"] == tid and t["seats"][0]["name"] == "Link" for t in m.tables))
            root.send(messages.Rename(name="   "))  # empty: nothing changes
            root.send(messages.AddBot(table=tid, kind="random"))
            root.send(messages.Start(table=tid))
            await root.expect(messages.State)
            # during the game: the seat keeps its name, the chat says the new one
            root.send(messages.Rename(name="Ganon"))
            root.send(messages.Chat(text="gg", table=tid))
            assert (await root.expect(messages.Chat, lambda m: m.text == "gg")).sender == "Ganon"
            assert host.lobby.tables[tid].seats[0].name == "Link"
        finally:
            await stop_host(host)

    run(scenario())
