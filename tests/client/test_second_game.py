"""The second game of an evening in the terminal, over real TCP with the whole client app:
after Play again the log, the marks, the chances and the summary of a player and of a
watcher hold nothing of the first game. And the watch-only client's keys and the host's
refusals in plain words."""
from __future__ import annotations

import asyncio

from client.model import ClientModel
from client.render import render_screen, to_text
from tests.client.test_app import Client, play_to_the_end
from tests.twisted_loop import make_host, run, until
from tests.twisted_loop import stop_host as stop

SMALL = {"players": 2, "segments": 1, "pirates": 2}


def first_game_is_gone(model: ClientModel, seq_before: int, first_lines: list[str]) -> None:
    assert not model.game_over and model.view is not None
    log = [x for x in model.log if not x.startswith("<")]  # chat stays
    assert not any("wins!" in line for line in log), log
    assert log[:len(first_lines)] != first_lines  # the first game is not above the second
    assert len(log) <= len(model.history) + 1, (log, model.history)  # this game's alone
    assert all(p[0] > seq_before for p in model.chances.points), model.chances.points
    stats = model.game_stats()
    assert stats["turns"] <= 2 and stats["whole"], stats
    assert all(int(e.get("seq", seq_before + 1)) > seq_before for e in model.history)
    moved = model.last_moved()
    starts = {0}
    assert moved <= starts | {int(e["to"]) for e in model.history if "to" in e}


def test_after_play_again_the_terminal_shows_only_the_new_game(tmp_path) -> None:
    async def main() -> None:
        host = make_host()
        table = host.create_table("t", "ravensburger", SMALL, bots=1)
        c = Client(host.port, tmp_path, table=table, auto_start=True)
        w = Client(host.port, tmp_path / "w", name="watcher", spectate=True, table=table)
        await until(lambda: c.model.view, "the game")
        await until(lambda: w.model.view, "the watcher's game")
        await play_to_the_end(c)
        await until(lambda: w.model.game_over, "the watcher's end")
        await asyncio.sleep(0.5)  # the watcher's chances of the end, when they come
        seq_before = c.model.seq
        first_lines = [x for x in c.model.log if not x.startswith("<")]
        assert any("wins!" in x for x in first_lines)
        assert "wins!" in "\n".join(w.model.log)
        c.keys("p")  # play again
        await until(lambda: c.model.view and c.model.seq > seq_before and not c.model.game_over,
                    "the second game")
        await until(lambda: w.model.view and w.model.seq > seq_before
                    and not w.model.game_over, "the watcher's second game")
        await asyncio.sleep(0.3)  # any late message of the first game arrives meanwhile
        for model in (c.model, w.model):
            first_game_is_gone(model, seq_before, first_lines)
        for text in (c.screen(100, 32), w.screen(100, 32)):
            assert "wins!" not in text and "GAME OVER" not in text
            assert "Summary" not in text
        await play_to_the_end(c)
        await until(lambda: w.model.game_over, "the watcher's second end")
        stats = w.model.game_stats()
        assert stats["whole"]
        await c.finish()
        await w.finish()
        await stop(host)

    run(main())


def test_a_late_state_of_the_first_game_never_comes_back_over_the_second() -> None:
    m = ClientModel(name="w", spectate=True, watch_only=True)
    m.on_message({"type": "welcome", "host_id": "h"})
    m.on_message({"type": "joined", "table": 1, "seat": None})
    over = {"seats": [{"seat": 0, "color": "red", "pirates": [7]},
                      {"seat": 1, "color": "blue", "pirates": [2]}],
            "outcome": {"winner": 0, "ranking": [0, 1]}, "symbols": []}
    m.on_message({"type": "state", "table": 1, "seq": 9, "view": over,
                  "events": [{"type": "win", "seat": 0}], "lines": ["red wins!"],
                  "chances": [1.0, 0.0]})
    fresh = {"seats": [{"seat": 0, "color": "red", "pirates": [0]},
                       {"seat": 1, "color": "blue", "pirates": [0]}],
             "outcome": None, "symbols": []}
    m.on_message({"type": "state", "table": 1, "seq": 10, "view": fresh,
                  "events": [{"type": "turn", "seat": 0}], "lines": ["red's turn"]})
    assert m.chances.latest is None and "red wins!" not in m.log
    # the first game's last estimate, sent late with its own (older) state number
    m.on_message({"type": "state", "table": 1, "seq": 9, "view": over, "events": [],
                  "lines": [], "chances": [1.0, 0.0]})
    assert m.view == fresh and m.seq == 10 and m.chances.latest is None
    assert "red wins!" not in m.log


def test_a_watch_only_client_watches_with_enter_and_its_refusals_are_plain() -> None:
    m = ClientModel(name="w", spectate=True, watch_only=True)
    m.on_message({"type": "welcome", "host_id": "h"})
    tables = [{"id": 1, "name": "a", "status": "playing", "seats": []},
              {"id": 2, "name": "b", "status": "waiting", "seats": []}]
    m.on_message({"type": "lobby", "tables": tables})
    m.on_key("enter")
    assert m.take_outbox()[-1]["spectate"] is True
    m.on_message({"type": "joined", "table": 1, "seat": None})
    m.on_key("l")
    assert m.take_outbox() == [{"type": "leave", "table": 1}]
    assert m.spectate and m.table is None
    m.on_key("enter")
    assert m.take_outbox()[-1]["spectate"] is True
    m.on_message({"type": "error", "code": "not-allowed", "ref": "join_table",
                  "why": "spectator-only-watches", "args": None,
                  "message": "a spectator connection only watches: send join_table with "
                             "spectate true"})
    text = to_text(render_screen(m, 100, 30))
    assert "join_table" not in text and "spectate true" not in text
    assert "only watches" in text


def test_a_watcher_goes_back_to_its_table_on_any_new_connection() -> None:
    """r after the host said bye (no reconnecting flag): the table it watched, at once."""
    m = ClientModel(name="w", spectate=True, watch_only=True)
    m.on_message({"type": "welcome", "host_id": "h"})
    m.on_message({"type": "lobby", "tables": [{"id": 3, "name": "a", "status": "playing",
                                               "seats": []}]})
    assert m.take_outbox()[-1]["table"] == 3
    m.on_message({"type": "joined", "table": 3, "seat": None})
    m.on_message({"type": "bye", "reason": "the host ended the game", "why": "host-ended"})
    assert m.gone
    m.on_key("r")
    assert m.take_outbox() == [{"type": "_reconnect"}]
    m.gone = None  # what the link does on r
    m.on_message({"type": "welcome", "host_id": "h"})
    sent = m.take_outbox()
    assert sent == [{"type": "join_table", "table": 3, "seat": None, "spectate": True,
                     "name": "w"}]
    m.on_message({"type": "lobby", "tables": [{"id": 3, "name": "a", "status": "playing",
                                               "seats": []}]})
    assert m.take_outbox() == []  # no second join while the first is on its way
    m.on_message({"type": "joined", "table": 3, "seat": None})
    assert m.table == 3 and m.spectate


def test_the_new_table_form_offers_every_table_setting_the_web_form_offers() -> None:
    """The web form's settings: rules, players, every engine option, hints, players see
    the chances; and a password. From the same data (the engine's options table)."""
    from cartagena_net.engine import OPTIONS
    from client.app import rules_catalogue

    m = ClientModel(name="ann")
    rules_catalogue(m)
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    m.on_message({"type": "lobby", "tables": []})
    m.on_key("t")
    f = m.form
    assert {r[4:] for r in f.FIELDS if r.startswith("opt:")} == set(OPTIONS) - {"players"}
    assert {"hints", "chances", "password"} <= set(f.FIELDS)

    def go(row: str) -> None:
        while f.FIELDS[f.row] != row:
            m.on_key("down")

    go("hints")
    m.on_key("right")
    go("chances")
    m.on_key("space")
    go("password")
    for ch in "arr":
        m.on_key(ch)
    text = to_text(render_screen(m, 100, 32))
    assert "•••" in text and "arr" not in text
    go("opt:magic")
    assert "rules' value: no" in to_text(render_screen(m, 100, 32))
    m.on_key("right")  # magic: yes
    go("opt:segments")
    for ch in "3":
        m.on_key(ch)
    go("opt:morgan")
    m.on_key("right")
    m.on_key("right")  # off -> instead
    m.on_key("enter")
    sent = m.take_outbox()
    assert sent == [{"type": "create_table", "name": "table", "rules": m.presets[0],
                     "options": {"magic": True, "segments": 3, "morgan": "instead",
                                 "players": 4},
                     "hints": True, "player_chances": True, "password": "arr"}]


def test_at_100x32_the_board_keeps_its_shape_for_the_terminal_size() -> None:
    """A Black Magic Woman game seen from seat 0 at 100x32: the winding path or the strip
    is chosen once for the size, never switched within a turn; a new size chooses anew."""
    import random

    from cartagena_net.engine import make_game, view

    def shape(text: str) -> str:
        return "winding" if "]───[" in text else "strip"

    game = make_game("studiogiochi-2017", players=3, magic=True)
    state = game.new_state(seed=0)
    m = ClientModel(name="ann")
    m.on_message({"type": "welcome", "host_id": "h"})
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "t"})
    rng = random.Random(0)
    shapes = []
    seq = 1
    while not state.is_over and seq < 300:
        legal = [str(a) for a in state.legal_actions()] if state.actor == 0 else []
        m.on_message({"type": "state", "table": 1, "seq": seq, "view": view(state, 0),
                      "legal": legal, "events": [], "lines": []})
        shapes.append(shape(to_text(render_screen(m, 100, 32))))
        state.apply(rng.choice(state.legal_actions()))
        seq += 1
    assert len(shapes) > 50 and len(set(shapes)) == 1, shapes
    assert shape(to_text(render_screen(m, 100, 60))) == "winding"  # a taller terminal


def test_the_replays_bot_comment_is_wrapped_in_plain_words_at_100_columns() -> None:
    import json
    import random

    from cartagena_net.engine import make_game
    from cartagena_net.records import build
    from cartagena_net.records.format import player
    from client.replay import ReplayViewer

    game = make_game("jamaica", players=2, segments=2)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    rec = json.loads(json.dumps(build(
        state, record_id="20261126T100000Z-abcdef12-1",
        players=[player(s, game.colors[s], "a rather long player name") for s in range(2)],
        started="2026-11-26T10:00:00Z", ended="2026-11-26T10:20:00Z", end="won")))
    moves = rec["moves"]
    k = next(i for i, mv in enumerate(moves) if str(mv).startswith("advance")
             or (isinstance(mv, dict) and str(mv.get("action", "")).startswith("advance")))
    played = moves[k] if isinstance(moves[k], str) else moves[k]["action"]
    review = {"positions": [{"chances": [0.5, 0.5]} for _ in range(len(moves) + 1)],
              "moves": [{"seat": 0, "played": "end", "best": None, "loss": None}
                        for _ in moves], "turning": [k]}
    review["moves"][k] = {"seat": 0, "played": played, "best": "retreat 3", "loss": 0.25}
    replay = ReplayViewer(rec, review=review)
    replay.go(k + 1)
    text = replay.screen_text(100, 40)
    flat = " ".join(text.split())
    assert "the bot: back from 3 (-25" in flat and "a turning point (t/T)" in flat, text
    assert "advance " not in text and "retreat 3" not in text
