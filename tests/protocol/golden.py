"""Golden wire vectors shown in docs/protocol.md ("Examples").

Run ``python -m tests.protocol.golden`` to print that section from the code;
tests/protocol/test_proto_doc.py checks the document still matches.
"""

from __future__ import annotations

import json

from protocol import discovery, encode_frame
from protocol import messages as m

NONCE = bytes(range(16))

MESSAGES: dict[str, m.Message] = {
    "hello": m.Hello(versions=(1,), name="ann", role="player"),
    "welcome": m.Welcome(host_id="5f0c", host_name="deck", server_version="0.1.0",
                         version=1, session="s1"),
    "lobby": m.Lobby(tables=({
        "id": 1, "name": "harbour", "rules": "jamaica", "options": {"players": 2},
        "status": "waiting", "spectators": 0, "password": False, "owner": 0,
        "seats": [{"seat": 0, "name": "ann", "color": "red", "bot": None, "connected": True},
                  {"seat": 1, "name": None, "color": "blue", "bot": None,
                   "connected": False}],
    },), scores=({"player": "ann", "bot": False, "games": 1, "wins": 1, "places": [1]},)),
    "create_table": m.CreateTable(name="harbour", rules="jamaica", options={"players": 2}),
    "join_table": m.JoinTable(table=1, seat=None, spectate=False),
    "joined": m.Joined(table=1, seat=0, token="k7"),
    "leave": m.Leave(table=1),
    "add_bot": m.AddBot(table=1, seat=1, kind="ismcts", level="hard"),
    "remove_bot": m.RemoveBot(table=1, seat=1),
    "start": m.Start(table=1),
    "state": m.State(table=1, seq=4, view={"turn": 0, "actor": 0},
                     legal=("advance 0 key", "end"),
                     events=({"type": "turn", "seat": 0, "text": "red's turn"},),
                     lines=("red's turn",)),
    "action": m.Action(table=1, seq=4, action="advance 0 key"),
    "state_whole": m.State(
        table=1, seq=9,
        view={"story": "whole", "board": ["gun", "rum", "hook", None, "rum", "gun", "chest"],
              "boat": 8,
              "paths": [{"name": "underground passage", "first": 1, "last": 3},
                        {"name": "island path", "first": 5, "last": 7}],
              "sloop": {"pos": 4, "shore": "tortuga", "capacity": 3, "aboard": [1, 0]},
              "captain": 0, "free_sail": False},
        legal=("advance 4 rum", "sail", "end"),
        events=({"type": "sail", "seat": 0, "shore": "tortuga", "free": True,
                 "text": "red sails the sloop to Tortuga (the Captain's free sail)"},),
        lines=("red sails the sloop to Tortuga (the Captain's free sail)",)),
    "action_sail": m.Action(table=1, seq=9, action="sail"),
    "state_magic": m.State(
        table=1, seq=12,
        view={"turn": 0, "actor": 0, "stock": 48,
              "pending": [{"seat": 0, "kind": "take", "count": 1}],
              "magic": {"chests": [{"pos": 6, "closed": True}, {"pos": 12, "closed": False}],
                        "tiles_open": ["2"], "tiles_aside": 6,
                        "power": {"kind": "gun", "seat": 0, "card": "gun", "target": 1,
                                  "hand": ["rum", "hook*"]},
                        "known_stock": ["chest", "gun"],
                        "stock_known": [{"seat": 0, "count": 2}]}},
        legal=("take rum", "take hook*"),
        events=({"type": "power", "seat": 0, "card": "gun", "power": "gun", "target": 1,
                 "text": "red plays gun for its power: looks at blue's cards to take one"},),
        lines=("red plays gun for its power: looks at blue's cards to take one",)),
    "action_take": m.Action(table=1, seq=12, action="take hook*"),
    "hint": m.Hint(table=1),
    "hint_answer": m.Hint(table=1, seq=4, action="advance 0 key",
                          reason="this pirate jumps 9 spaces",
                          why={"kind": "jump", "spaces": 9, "pirates": 1}),
    "error": m.Error(code="stale", message="the game moved on: your move answered position "
                     "3, the game is at 4", fatal=False, ref="action", why="stale",
                     args={"seq": 3, "now": 4}),
    "chat": m.Chat(text="ahoy", table=1, sender="ann"),
    "rename": m.Rename(name="Zelda"),
    "ping": m.Ping(nonce=7),
    "pong": m.Pong(nonce=7),
    "bye": m.Bye(reason="the host ended the game", why="host-ended"),
}

ANNOUNCE = discovery.Announce(
    host_id="5f0c", instance="9a3e", name="deck", port=41672, version=1,
    tables=[{"id": 1, "name": "harbour", "rules": "jamaica", "seats": 2, "free": 1,
             "status": "waiting", "password": False}],
)

DATAGRAMS: dict[str, bytes] = {
    "probe": discovery.Probe(NONCE).encode()[:22],
    "announce": ANNOUNCE.encode(),
    "reply": discovery.reply_for(discovery.PROBE_SIZE, ANNOUNCE, NONCE) or b"",
}


def hexdump(data: bytes) -> str:
    """16 bytes a line: ``offset: hex bytes``."""
    return "\n".join(
        f"{i:04x}: " + " ".join(f"{b:02x}" for b in data[i : i + 16])
        for i in range(0, len(data), 16)
    )


def parse_hexdump(text: str) -> bytes:
    return b"".join(bytes.fromhex(line.split(":", 1)[1]) for line in text.splitlines()
                    if line.strip())


def render() -> str:
    out = []
    for name, msg in MESSAGES.items():
        out.append(f"#### `{name}`\n")
        out.append("```json\n" + json.dumps(msg.to_wire(), ensure_ascii=False) + "\n```\n")
        out.append("```hex\n" + hexdump(encode_frame(msg.to_wire())) + "\n```\n")
    wire = ANNOUNCE.to_wire()
    for name, data in DATAGRAMS.items():
        out.append(f"#### discovery `{name}`\n")
        if name == "announce":
            out.append("```json\n" + json.dumps(wire) + "\n```\n")
        out.append("```hex\n" + hexdump(data) + "\n```\n")
    return "\n".join(out)


if __name__ == "__main__":
    print(render())
