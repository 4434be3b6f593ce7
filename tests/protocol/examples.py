"""One representative instance of every message type (shared by the tests)."""

from __future__ import annotations

from protocol import messages as m

VIEW = {
    "rules": "jamaica",
    "board": ["skull", "key"],
    "boat": 3,
    "seats": [{"seat": 0, "color": "red", "pirates": [0, 1], "hand_size": 2,
               "hand": ["key", "skull*"]}],
    "outcome": None,
    "viewer": 0,
}

EXAMPLES: dict[str, m.Message] = {
    "hello": m.Hello(versions=(1,), name="ann", role="player", token=None, password="pw"),
    "welcome": m.Welcome(host_id="h-1", host_name="deck", server_version="0.1.0",
                         version=1, session="s-1"),
    "error": m.Error(code="illegal-action", message="not now", fatal=False, ref="action"),
    "lobby": m.Lobby(tables=({
        "id": 3, "name": "harbour", "rules": "jamaica", "options": {"players": 2},
        "status": "waiting", "spectators": 1, "password": False, "owner": 0,
        "seats": [{"seat": 0, "name": "ann", "color": "red", "bot": None, "connected": True},
                  {"seat": 1, "name": None, "color": "blue", "bot": "random",
                   "connected": False}],
    },)),
    "create_table": m.CreateTable(name="harbour", rules="jamaica", options={"players": 2}),
    "join_table": m.JoinTable(table=3, seat=None, spectate=False, name="ann"),
    "joined": m.Joined(table=3, seat=0, token="t-1"),
    "leave": m.Leave(table=3),
    "add_bot": m.AddBot(table=3, seat=1, kind="ismcts", level="normal"),
    "remove_bot": m.RemoveBot(table=3, seat=1),
    "start": m.Start(table=3),
    "action": m.Action(table=3, seq=5, action="advance 0 skull"),
    "state": m.State(table=3, seq=5, view=VIEW, legal=("end",),
                     events=({"type": "turn", "seat": 0, "text": "red's turn"},),
                     lines=("red's turn",), chances=(0.25, 0.75)),
    "hint": m.Hint(table=3, seq=5, action="end", reason="keeps the card you need next",
                   why={"kind": "keep", "card": "skull", "spaces": 4}),
    "chat": m.Chat(text="ahoy", table=3, sender="ann"),
    "rename": m.Rename(name="Zelda"),
    "ping": m.Ping(nonce=7),
    "pong": m.Pong(nonce=7),
    "bye": m.Bye(reason="done"),
}
