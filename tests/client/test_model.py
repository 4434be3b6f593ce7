"""Keys and host messages driving the client model (no network, no terminal)."""
from __future__ import annotations

import json
import random

import pytest

from cartagena_net.engine import make_game, view
from client.glyphs import RESERVED_KEYS, symbol_keys
from client.model import ClientModel
from client.render import render_screen, to_text
from tests.client.sample_views import SYMBOLS, jamaica_view, legal_for


def seated(v, legal, seat=0) -> ClientModel:
    m = ClientModel(name="ann")
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    m.on_message({"type": "joined", "table": 1, "seat": seat, "token": "secret"})
    m.on_message({"type": "state", "table": 1, "seq": 7, "view": v, "legal": legal,
                  "lines": []})
    return m


def test_symbol_keys_are_distinct_and_never_commands() -> None:
    for symbols in (SYMBOLS, ["rum", "key", "pistol", "hook", "lantern", "spyglass"],
                    ["gun", "rum", "lantern", "parrot", "hook", "chest"]):
        keys = symbol_keys(symbols)
        assert len(set(keys.values())) == len(symbols)
        assert not set(keys.values()) & RESERVED_KEYS


def test_only_legal_actions_are_sent() -> None:
    v = jamaica_view(0)
    m = seated(v, ["advance 0 skull", "end"])
    keys = symbol_keys(SYMBOLS)
    m.on_key("1")
    m.on_key(keys["key"])  # in hand but not legal here
    assert m.preview is None and m.status_error
    m.on_key("r")  # retreat from the start is never legal
    m.on_key("enter")
    assert m.take_outbox() == []
    m.on_key(keys["skull"])
    m.on_key("enter")
    m.on_key("e")
    assert [x["action"] for x in m.take_outbox()] == ["advance 0 skull", "end"]


def test_dark_card_with_capital_letter_and_retreat_preview() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    keys = symbol_keys(SYMBOLS)
    m.on_key("4")  # pirate at 9
    m.on_key(keys["dagger"].upper())
    assert m.preview.action == "advance 9 dagger*"
    m.on_key("escape")
    m.on_key("r")
    # behind 9: spaces 3 (3 pirates: skipped), 2 (1 pirate) -> lands on 2, draws 1
    assert m.preview.action == "retreat 9" and m.preview.landing == 2
    assert "draw 1" in m.preview.text
    m.on_key("enter")
    assert m.take_outbox()[0] == {"type": "action", "table": 1, "seq": 7,
                                  "action": "retreat 9"}


def test_arrows_cycle_own_pirates() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    assert m.sel_pos == 0
    seen = []
    for _ in range(4):
        m.on_key("right")
        seen.append(m.sel_pos)
    assert seen == [3, 9, 37, 0]
    m.on_key("left")
    assert m.sel_pos == 37


def test_not_my_turn_sends_nothing() -> None:
    v = jamaica_view(1)
    v["turn"] = v["actor"] = 0
    m = seated(v, [], seat=1)
    for key in ("1", "b", "enter", "e", "r", "w"):
        m.on_key(key)
    assert m.take_outbox() == []
    assert "waiting for" in to_text(render_screen(m, 80, 24))


def filibuster_state():
    game = make_game("studiogiochi-2017", players=3, filibusters=True, hand_limit=3)
    rng = random.Random(1)
    for seed in range(50):
        state = game.new_state(seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            if state.actor != state.turn:
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no discard owed in 50 games")


def test_discard_owed_out_of_turn_prompts_that_player() -> None:
    state = filibuster_state()
    seat = state.actor
    v = view(state, seat)
    legal = [str(a) for a in state.legal_actions()]
    m = seated(v, legal, seat=seat)
    text = to_text(render_screen(m, 80, 24))
    assert "You must discard" in text
    card = legal[0].split()[1]
    keys = symbol_keys(v["symbols"])
    key = keys[card.rstrip("*")]
    m.on_key(key.upper() if card.endswith("*") else key)
    m.on_key("enter")
    sent = m.take_outbox()
    assert sent and sent[0]["action"] in legal
    state.apply(sent[0]["action"])  # the engine accepts it
    # another seat sees who owes the decision
    other = (seat + 1) % 3
    m2 = seated(view(state, other), [], seat=other)
    m2.view["pending"] = [{"seat": seat, "kind": "discard", "count": 2}]
    assert "waiting for" in to_text(render_screen(m2, 80, 24))


def test_morgan_cycles_the_legal_pushes() -> None:
    game = make_game("studiogiochi-2017", players=2, morgan="instead")
    state = game.new_state(seed=3)
    rng = random.Random(2)
    while not any(a.kind == "morgan" for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.actor
    legal = [str(a) for a in state.legal_actions()]
    m = seated(view(state, seat), legal, seat=seat)
    m.on_key("m")
    assert m.mode == "morgan" and m.preview.action.startswith("morgan ")
    first = m.preview.action
    m.on_key("right")
    pushes = [a for a in legal if a.startswith("morgan ")]
    assert m.preview.action == pushes[1 % len(pushes)]
    m.on_key("left")
    assert m.preview.action == first
    m.on_key("enter")
    assert m.take_outbox()[0]["action"] == first


def test_quit_asks_during_a_running_game() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_key("q")
    assert m.overlay == "quit" and not m.exit_requested
    assert "Leave the running game?" in to_text(render_screen(m, 80, 24))
    m.on_key("n")
    assert m.overlay is None and not m.exit_requested
    m.on_key("c-c")
    m.on_key("y")
    assert m.exit_requested


def test_chat_line() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_key("c")
    for ch in "hi all":
        m.on_key(ch)
    assert "say: hi all" in to_text(render_screen(m, 80, 24))
    m.on_key("enter")
    assert m.take_outbox() == [{"type": "chat", "text": "hi all", "table": 1}]
    m.on_key("c")
    m.on_key("x")
    m.on_key("c-c")  # Ctrl-C first cancels the line, then asks
    assert m.input is None and m.overlay is None and m.take_outbox() == []
    m.on_message({"type": "chat", "table": 1, "text": "hello", "sender": "bob"})
    assert "<bob> hello" in to_text(render_screen(m, 80, 24))


def test_host_errors_go_to_the_status_line() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_message({"type": "error", "code": "stale", "message": "stale action", "fatal": False})
    lines = render_screen(m, 80, 24)
    assert to_text(lines).splitlines()[-1] == ("The game moved on before your move arrived: "
                                               "look again and retry.")


@pytest.mark.parametrize("code,message,want", [
    ("not-owner", "only the table's owner (the first to sit) may do that",
     "Only the table's owner can do that."),
    ("seats-empty", "1 seat(s) empty (blue): wait for players or add bots",
     "Cannot start yet: 1 seat(s) empty (blue): wait for players or add bots."),
    ("some-new-code", "a sentence from the host", "A sentence from the host."),
])
def test_error_codes_never_reach_the_player(code: str, message: str, want: str) -> None:
    """Defect 6: raw codes such as "seats-empty: ..." and "not-owner: ..." are not shown."""
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_message({"type": "error", "code": code, "message": message, "fatal": False})
    last = to_text(render_screen(m, 100, 24)).splitlines()[-1]
    assert last == want and f"{code}:" not in last


def test_reconnect_restores_seat_or_falls_back() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_disconnect("connection lost", will_retry=True)
    assert "reconnecting" in to_text(render_screen(m, 80, 24))
    m.on_message({"type": "welcome", "host_id": "h1", "resumed": {"table": 1, "seat": 0}})
    assert m.table == 1 and m.seat == 0 and m.screen == "game" and not m.reconnecting
    m.on_disconnect("connection lost", will_retry=True)
    m.on_message({"type": "welcome", "host_id": "h1", "resumed": None})
    assert m.table is None and m.screen == "lobby"


def test_lobby_create_form_and_owner_commands() -> None:
    m = ClientModel(name="ann", presets=["jamaica", "tortuga"])
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    m.on_message({"type": "lobby", "tables": []})
    m.on_key("o")
    assert m.color == "red"
    m.on_key("t")
    m.on_key("right")  # rules -> tortuga
    m.on_key("down")
    m.on_key("left")  # players 4 -> 3
    m.on_key("down")
    m.on_key("right")  # one bot
    m.on_key("down")
    m.on_key("down")
    for ch in "segments=2":
        m.on_key(ch)
    m.on_key("enter")
    assert m.take_outbox() == [{"type": "create_table", "name": "table", "rules": "tortuga",
                                "options": {"segments": 2, "players": 3}}]
    m.on_message({"type": "joined", "table": 4, "seat": 0, "token": "t"})
    assert m.take_outbox() == [{"type": "add_bot", "table": 4, "seat": None, "kind": "ismcts"}]
    m.on_message({"type": "lobby", "tables": [{"id": 4, "name": "table", "rules": "tortuga",
                                               "status": "waiting", "owner": 0, "seats": [
        {"seat": 0, "name": "ann", "color": "red"},
        {"seat": 1, "name": "greedy bot", "color": "blue", "bot": "greedy"},
        {"seat": 2, "name": None, "color": "yellow"}]}]})
    text = to_text(render_screen(m, 80, 24))
    assert "you own this table" in text and "add a bot (the host's level)" in text
    assert "add an easy bot" in text
    m.on_key("down")
    m.on_key("x")
    m.on_key("s")
    m.on_key("l")
    assert m.take_outbox() == [{"type": "remove_bot", "table": 4, "seat": 1},
                               {"type": "start", "table": 4}, {"type": "leave", "table": 4}]
    assert m.table is None


def test_pirates_keep_their_numbers_and_the_selection_follows_the_move() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    before = list(m.my_positions())
    assert before == sorted(before)  # first seen: numbered by position
    m.on_key("3")  # pirate 3 (alone on its space)
    moved_from = before[2]
    i = v["seats"][0]["pirates"].index(moved_from)
    v["seats"][0]["pirates"][i] = 30
    m.on_message({"type": "state", "table": 1, "seq": 8, "view": v, "legal": legal_for(v),
                  "events": [{"type": "advance", "seat": 0, "from": moved_from, "to": 30,
                              "card": "skull"}], "lines": []})
    after = m.my_positions()
    assert after[2] == 30 and after[:2] + after[3:] == before[:2] + before[3:]
    assert m.sel == 2 and m.sel_pos == 30  # still pirate 3, the one just moved
    assert "[3]@30" in to_text(render_screen(m, 100, 30))


def test_a_fresh_client_shows_the_hosts_pirate_numbers():
    """A reconnect or a restore used to number the pirates afresh by place (4,5,6@start
    1@2 3@6 2@10 became 1,2,3@start 4@2 5@6 6@10): the host's numbers are shown as
    they are, and a number key where several share a place picks the one that moves."""
    v = jamaica_view(0)
    v["seats"][0]["pirates"] = [0, 0, 0, 2, 6, 10]
    v["seats"][0]["numbered"] = [2, 10, 6, 0, 0, 0]  # 4,5,6@start 1@2 3@6 2@10
    m = seated(v, legal_for(v))
    assert m.my_positions() == [2, 10, 6, 0, 0, 0]
    text = to_text(render_screen(m, 100, 30))
    line = next(x for x in text.splitlines() if x.startswith("pirates:"))
    assert "4,5,6@" in line and "1@2" in line.replace("[1]", "1") and "2@10" in line
    m.on_key("5")
    assert m.sel == 3  # pirate 4: the lowest-numbered at the start moves from it
    v2 = json.loads(json.dumps(v))
    v2["seats"][0]["pirates"] = [0, 0, 2, 4, 6, 10]
    v2["seats"][0]["numbered"] = [2, 10, 6, 4, 0, 0]
    m.on_message({"type": "state", "table": 1, "seq": 9, "view": v2, "legal": legal_for(v2),
                  "events": [{"type": "advance", "seat": 0, "from": 0, "to": 4,
                              "card": "skull"}], "lines": []})
    assert m.my_positions() == [2, 10, 6, 4, 0, 0] and m.sel == 3


def test_since_your_last_turn_and_the_last_moves_on_the_board() -> None:
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.history = [
        {"type": "turn", "seat": 0}, {"type": "advance", "seat": 0, "from": 0, "to": 3},
        {"type": "end", "seat": 0}, {"type": "turn", "seat": 1},
        {"type": "advance", "seat": 1, "from": 0, "to": 10},
        {"type": "advance", "seat": 1, "from": 10, "to": 12},
        {"type": "retreat", "seat": 1, "from": 18, "to": 9, "drawn": 1},
        {"type": "turn", "seat": 0},
    ]
    assert m.last_moved() == {12, 9}  # 10 was passed through: not highlighted
    text = to_text(render_screen(m, 100, 30))
    assert "since your last turn: blue start→10, 10→12, back 18→9 (+1 card)" in text


def test_since_your_last_turn_waits_for_your_first_turn() -> None:
    v = jamaica_view(1)
    m = seated(v, [], seat=1)
    m.history_whole = True  # the game seen from its first event
    m.history = [{"type": "turn", "seat": 0},
                 {"type": "advance", "seat": 0, "from": 0, "to": 3, "card": "skull"},
                 {"type": "end", "seat": 0}, {"type": "turn", "seat": 1}]
    assert "since your last turn" not in to_text(render_screen(m, 100, 30))
    m.history += [{"type": "advance", "seat": 1, "from": 0, "to": 5, "card": "key"},
                  {"type": "end", "seat": 1}, {"type": "turn", "seat": 0},
                  {"type": "advance", "seat": 0, "from": 0, "to": 7, "card": "hat"},
                  {"type": "end", "seat": 0}, {"type": "turn", "seat": 1}]
    assert "since your last turn: red start→7" in to_text(render_screen(m, 100, 30))


def test_watchers_see_the_last_turns_moves_underlined() -> None:
    v = jamaica_view(0)
    m = ClientModel(name="eve", spectate=True)
    m.on_message({"type": "joined", "table": 1, "seat": None})
    m.on_message({"type": "state", "table": 1, "seq": 3, "view": v, "legal": [], "lines": []})
    m.history = [
        {"type": "turn", "seat": 0}, {"type": "advance", "seat": 0, "from": 0, "to": 3},
        {"type": "turn", "seat": 1}, {"type": "advance", "seat": 1, "from": 0, "to": 10},
        {"type": "turn", "seat": 2}, {"type": "advance", "seat": 2, "from": 0, "to": 12},
    ]
    assert m.last_moved() == {10, 12}
    assert "since your last turn" not in to_text(render_screen(m, 100, 30))


def test_the_owner_adds_a_bot_of_each_level_by_key_and_seats_say_their_levels() -> None:
    """b: the host's level (no level sent, as before levels); e: easy (the greedy bot);
    N, H: a normal and a hard searching bot; B: random. The key bar and the ? help list
    them, and a seat says its bot's level in words."""
    from client.keys import screen_keys
    from client.modes.lobby import BOT_KEYS

    m = ClientModel(name="ann", presets=["jamaica"])
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    table = {"id": 4, "name": "table", "rules": "jamaica", "status": "waiting", "owner": 0,
             "seats": [{"seat": 0, "name": "ann", "color": "red"},
                       {"seat": 1, "name": "Anne", "color": "blue", "bot": "ismcts",
                        "connected": True, "level": "hard"},
                       {"seat": 2, "name": "Mary", "color": "green", "bot": "ismcts",
                        "connected": True, "level": "normal"},
                       {"seat": 3, "name": None, "color": "yellow"}]}
    m.on_message({"type": "lobby", "tables": [table]})
    m.on_message({"type": "joined", "table": 4, "seat": 0, "token": "t"})
    m.take_outbox()
    for key in "beNHB":
        m.on_key(key)
    assert m.take_outbox() == [
        {"type": "add_bot", "table": 4, "seat": None, "kind": "ismcts"},
        {"type": "add_bot", "table": 4, "seat": None, "kind": "greedy"},
        {"type": "add_bot", "table": 4, "seat": None, "kind": "ismcts", "level": "normal"},
        {"type": "add_bot", "table": 4, "seat": None, "kind": "ismcts", "level": "hard"},
        {"type": "add_bot", "table": 4, "seat": None, "kind": "random"},
    ]
    keys = dict(screen_keys(m, now=False))
    assert {k: keys[k] for k in BOT_KEYS} == {
        "b": "add a bot (the host's level)", "e": "add an easy bot", "N": "add a normal bot",
        "H": "add a hard bot", "B": "add a random bot"}
    text = to_text(render_screen(m, 120, 30))
    assert "Anne (thinking bot, hard)" in text and "Mary (thinking bot, normal)" in text
    assert "add a hard bot" in text and "ismcts" not in text
    m.on_key("?")
    help_text = to_text(render_screen(m, 120, 40))
    assert "add a normal bot" in help_text and "add a hard bot" in help_text
    # someone else's table: the level keys are the owner's, and say so
    table["owner"] = 3
    m.on_message({"type": "lobby", "tables": [table]})
    m.on_key("escape")
    m.on_key("H")
    assert m.take_outbox() == [] and "owner" in m.status


def test_the_new_table_forms_bots_offer_each_level() -> None:
    from client.uistate import BOT_KINDS

    assert BOT_KINDS == ("ismcts", "easy", "normal", "hard", "random")
    m = ClientModel(name="ann", presets=["jamaica"])
    m.on_message({"type": "welcome", "host_id": "h1", "host_name": "box"})
    m.on_message({"type": "lobby", "tables": []})
    m.on_key("t")
    m.on_key("down")
    m.on_key("down")
    m.on_key("right")  # one bot
    while m.form.FIELDS[m.form.row] != "bot_kind":
        m.on_key("down")
    seen = []
    for _ in BOT_KINDS:
        m.on_key("right")
        seen.append((m.form.bot_kind, to_text(render_screen(m, 100, 30))))
    assert [k for k, _t in seen] == ["easy", "normal", "hard", "random", "ismcts"]
    assert "◂ hard ▸" in seen[2][1] and "◂ normal ▸" in seen[1][1]
    m.on_key("left")  # random
    m.on_key("left")  # hard
    m.on_key("enter")
    m.take_outbox()
    m.on_message({"type": "joined", "table": 4, "seat": 0, "token": "t"})
    assert m.take_outbox() == [{"type": "add_bot", "table": 4, "seat": None,
                                "kind": "ismcts", "level": "hard"}]
