"""Screens as pure functions of hand-made views."""
from __future__ import annotations

import re

import pytest

from client.glyphs import UNICODE_GLYPHS, symbol_keys
from client.model import ClientModel
from client.render import render_screen, to_text, width_of
from tests.client.sample_views import (
    SYMBOLS,
    finished_view,
    jamaica_view,
    legal_for,
    tortuga_view,
)


def game_model(view, seat=0, legal=None, **kw) -> ClientModel:
    m = ClientModel(name="ann", **kw)
    m.host_label = "127.0.0.1:5000"
    m.on_message({"type": "joined", "table": 3, "seat": seat, "token": "tok"})
    m.on_message({"type": "state", "table": 3, "seq": 1, "view": view,
                  "legal": legal if legal is not None else legal_for(view),
                  "lines": ["red plays skull: start → 3"]})
    return m


def screen(m: ClientModel, w: int = 80, h: int = 24) -> str:
    return to_text(render_screen(m, w, h))


def board_cells(text: str) -> dict[int, str]:
    """Space number → the glyph and pirate letters drawn in its cell."""
    return {int(n): rest for n, rest in re.findall(r"(\d+)(\S[A-Z·.◆*]{3})", text)}


def test_board_shows_every_space_with_symbol_and_pirates_by_colour() -> None:
    v = jamaica_view(0)
    text = screen(game_model(v))
    cells = board_cells(text)
    assert sorted(cells) == list(range(1, 37))
    for i, sym in enumerate(v["board"]):
        assert cells[i + 1][0] == UNICODE_GLYPHS[sym]
    # space 3: one red and two blue pirates; black is "L" since blue took "B"
    assert cells[3][1:] == "RBB"
    assert cells[9][1:] == "RL·"
    assert cells[36][1:] == "···"
    assert "start: R×2 B×1" in text
    assert "boat: R×2 L×1" in text


def test_pirate_styles_carry_seat_colours() -> None:
    lines = render_screen(game_model(jamaica_view(0)), 80, 24)
    frags = [f for line in lines for f in line]
    assert ("bold fg:ansired", "R") in frags
    assert ("bold fg:ansibrightblue", "B") in frags


def test_hand_by_symbol_with_counts_and_keys() -> None:
    text = screen(game_model(jamaica_view(0)))
    hand = next(x for x in text.splitlines() if x.startswith("hand:"))
    keys = symbol_keys(SYMBOLS)
    assert f"☠{keys['skull']}×2" in hand
    assert f"†*{keys['dagger'].upper()}×1" in hand
    assert f"⚷{keys['key']}×1" in hand
    assert f"⚱{keys['bottle']}×0" in hand


def test_hidden_hands_are_never_shown() -> None:
    v = jamaica_view(0)
    text = screen(game_model(v))
    blue = next(x for x in text.splitlines() if "blue" in x and "cards" in x)
    black = next(x for x in text.splitlines() if "black" in x and "cards" in x)
    assert "4 cards" in blue and "7 cards" in black
    for line in (blue, black):
        assert not any(g in line for g in UNICODE_GLYPHS.values())


def test_public_hands_and_row_shown_when_present() -> None:
    text = screen(game_model(tortuga_view()))
    blue = next(x for x in text.splitlines() if "blue" in x and "cards" in x)
    assert "⚱2 ⌐2" in blue
    black = next(x for x in text.splitlines() if "black" in x and "cards" in x)
    assert "♔7" in black
    assert "row: † † ⚷ ♔" in text
    assert "row:" not in screen(game_model(jamaica_view(0)))


def test_discard_top_stock_turn_and_actions_left() -> None:
    m = game_model(jamaica_view(0))
    m.tables = [{"id": 3, "name": "t", "spectators": 2, "seats": []}]
    text = screen(m)
    assert "· 2 watching" in text
    assert "discard: ⌐ pistol" in text
    assert "stock: 61" in text
    assert "your turn · action 2 of 3 (2 left" in text


def test_spectator_is_marked_and_has_no_action_input() -> None:
    v = jamaica_view("spectator")
    m = ClientModel(name="eve", spectate=True)
    m.on_message({"type": "joined", "table": 3, "seat": None, "token": None})
    m.on_message({"type": "state", "table": 3, "seq": 1, "view": v, "legal": [], "lines": []})
    text = screen(m)
    assert "SPECTATING" in text
    assert "hand:" not in text
    assert "play card" not in text
    m.on_key("s")
    m.on_key("enter")
    assert m.take_outbox() == []


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 50), (60, 20)])
@pytest.mark.parametrize("ascii_only", [False, True])
def test_screens_fit_the_terminal(size, ascii_only) -> None:
    w, h = size
    views = [jamaica_view(0), tortuga_view(), finished_view(0)]
    big = jamaica_view(0)
    big["board"] = (SYMBOLS * 8)[:48]
    big["boat"] = 49
    big["seats"] += [{"seat": 3, "color": "green", "pirates": [0] * 6, "hand_size": 3,
                      "hand": None},
                     {"seat": 4, "color": "purple", "pirates": [48] * 6, "hand_size": 9,
                      "hand": None}]
    views.append(big)
    for v in views:
        m = game_model(v, ascii_only=ascii_only)
        m.add_log([f"event number {i} " * 3 for i in range(50)])
        lines = render_screen(m, w, h)
        assert len(lines) == h
        assert all(width_of(line) <= w for line in lines)
        text = to_text(lines)
        if ascii_only:
            assert all(ord(c) < 128 for c in text), text
    # at 80x24 the whole board and the hand still show
    text = screen(game_model(big), 80, 24)
    assert sorted(board_cells(text)) == list(range(1, 49))
    assert "hand:" in text


def test_a_tiny_terminal_says_what_it_needs_instead_of_a_cut_board() -> None:
    m = game_model(jamaica_view(0))
    m.on_key("3")
    m.on_key(symbol_keys(SYMBOLS)["skull"])
    text = screen(m, 80, 12)
    assert len(text.splitlines()) == 12
    need = re.search(r"window too small \(need (\d+)x(\d+)", text)
    assert need and "play skull" not in text
    w, h = int(need.group(1)), int(need.group(2))
    fits = screen(m, w, h)  # exactly the size asked for shows the whole game
    assert "window too small" not in fits and "play skull: 3 → 8" in fits
    assert "window too small (need 60x" in screen(m, 50, 40)


def test_more_room_gives_a_side_log() -> None:
    m = game_model(jamaica_view(0))
    m.add_log([f"line {i}" for i in range(40)])
    narrow = screen(m, 80, 24)
    wide = screen(m, 160, 50)
    assert "log & chat" in wide and "log & chat" not in narrow
    assert sum(1 for x in wide.splitlines() if "line " in x) > sum(
        1 for x in narrow.splitlines() if "line " in x)


def test_preview_shows_landing_before_confirm() -> None:
    m = game_model(jamaica_view(0))
    m.on_key("3")  # third pirate: the one at space 3
    assert m.sel_pos == 3
    m.on_key(symbol_keys(SYMBOLS)["skull"])
    assert m.preview is not None and m.take_outbox() == []
    # next free skull after 3 (spaces holding a skull: 1, 8, 15, ...; 8 is empty)
    assert m.preview.landing == 8
    assert "play skull: 3 → 8" in screen(m)
    assert board_cells(screen(m))[8] == "☠◆··"
    m.on_key("enter")
    assert m.take_outbox() == [{"type": "action", "table": 3, "seq": 1,
                                "action": "advance 3 skull"}]


def test_end_screen_shows_ranking_and_play_again() -> None:
    m = game_model(finished_view(0), legal=[])
    m.tables = [{"id": 3, "name": "t", "owner": 0, "status": "finished", "seats": [
        {"seat": 0, "name": "ann", "color": "red"}, {"seat": 1, "name": "bob", "color": "blue"},
        {"seat": 2, "name": "cy", "color": "black"}]}]
    text = screen(m)
    assert "GAME OVER" in text and "Winner: cy" in text
    assert "1. cy (black)  2. ann (red)  3. bob (blue)" in text
    assert "play again" in text
    m.on_key("p")
    assert m.take_outbox() == [{"type": "start", "table": 3}]
    m.tables[0]["owner"] = 1
    assert "play again" not in screen(m)
    # a screen that came in after the start says what its summary counts
    assert "counted from the moves this screen saw" not in screen(m, 100, 40)
    m.history_whole = False
    assert "counted from the moves this screen saw" in screen(m, 100, 40)
    m.history_whole = True
    # bob leaves the finished table, then dan sits in his seat: the result is still bob's
    m.tables[0]["seats"][1] = {"seat": 1, "name": None, "color": "blue"}
    assert "3. bob (blue)" in screen(m)
    m.tables[0]["seats"][1] = {"seat": 1, "name": "dan", "color": "blue"}
    assert "3. bob (blue)" in screen(m) and "dan" not in screen(m)
    # the next game: who sits there now
    m.on_message({"type": "state", "table": 3, "seq": 9, "view": jamaica_view(0),
                  "legal": [], "events": [], "lines": []})
    assert m.seat_name(1) == "dan"


def test_help_overlay_lists_keys() -> None:
    m = game_model(jamaica_view(0))
    m.on_key("?")
    text = screen(m)
    assert "Help" in text and "retreat" in text and "☠ skull" in text
    m.on_key("x")
    assert m.overlay is None


def test_lobby_and_browser_screens() -> None:
    m = ClientModel(name="ann")
    m.screen = "lobby"
    m.host_label = "10.0.0.1:41672"
    m.on_message({"type": "lobby", "tables": [
        {"id": 1, "name": "fun", "rules": "tortuga", "options": {"players": 3},
         "status": "waiting", "spectators": 2, "password": False, "owner": 0,
         "seats": [{"seat": 0, "name": "bob", "color": "red", "bot": None, "connected": True},
                   {"seat": 1, "name": "Mary Read", "color": "blue", "bot": "greedy",
                    "connected": True},
                   {"seat": 2, "name": None, "color": "yellow", "bot": None,
                    "connected": False}]}]})
    text = screen(m)
    assert "1: fun" in text and "tortuga" in text and "3 players" in text and "players=3" not in text
    assert "red: bob ★" in text and "blue: Mary Read (greedy bot)" in text
    assert "yellow: —" in text
    m.on_key("enter")
    assert m.take_outbox() == [{"type": "join_table", "table": 1, "seat": None,
                                "spectate": False, "name": "ann"}]


def test_a_person_reads_seats_counted_from_one() -> None:
    """The wire counts seats from 0; every screen counts them from 1, as the screen
    reader's "Seat 1, red" does: the waiting room's "you: ann, seat 1" and the status
    line "seated at table 1, seat 1" for the first seat."""
    m = ClientModel(name="ann")
    m.screen = "lobby"
    m.on_message({"type": "lobby", "tables": [
        {"id": 1, "name": "fun", "rules": "jamaica", "options": {"players": 2},
         "status": "waiting", "spectators": 0, "password": False, "owner": 0,
         "seats": [{"seat": 0, "name": "ann", "color": "red", "bot": None, "connected": True},
                   {"seat": 1, "name": None, "color": "blue", "bot": None,
                    "connected": False}]}]})
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "t"})
    text = screen(m)
    assert "ann, seat 1" in text and "seat 0" not in text
    assert m.status == "seated at table 1, seat 1"


@pytest.mark.parametrize("width,height,path,side", [
    (80, 24, False, False), (100, 40, True, False), (110, 34, True, False),
    (160, 50, True, True), (118, 30, False, True),
])
def test_each_size_uses_its_room(width, height, path, side) -> None:
    """A board that looks like one where there is room; the log fills the free rows."""
    m = game_model(jamaica_view(0))
    m.log = [f"line {i}" for i in range(300)]
    text = screen(m, width, height)
    lines = text.splitlines()
    assert len(lines) == height and all(width_of([("", x)]) <= width for x in lines)
    assert "window too small" not in text
    winding = [x for x in lines if re.search(r"\[\s*\d+ \S [A-Z·] [A-Z·] [A-Z·]\]───", x)]
    if path:
        # six rows of six spaces, running left to right, then right to left
        assert len(winding) == 6
        first = [int(n) for n in re.findall(r"\[\s*(\d+) ", winding[0])]
        second = [int(n) for n in re.findall(r"\[\s*(\d+) ", winding[1])]
        assert first == [1, 2, 3, 4, 5, 6] and second == [12, 11, 10, 9, 8, 7]
        assert lines.index(next(x for x in lines if "⚑ start" in x)) < lines.index(winding[0])
        assert lines.index(next(x for x in lines if "⛴ boat" in x)) > lines.index(winding[-1])
    else:
        assert not winding and sorted(board_cells(text)) == list(range(1, 37))
    if side:
        assert "log & chat" in text and "line 299" in text
    else:
        # the log takes every row between the key bar and the status line
        body = lines[:-1]
        assert body[-1].strip() == "line 299" and all(x.strip() for x in body)


def test_the_whole_log_scrolls_back_to_the_start() -> None:
    m = game_model(jamaica_view(0))
    m.log = [f"line {i}" for i in range(300)]
    m.on_key("pageup")
    text = screen(m, 80, 24)
    assert "line 289" in text and "line 299" not in text and "newer below" in text
    m.on_key("home")
    assert "line 0" in screen(m, 80, 24).splitlines()[-3:][0] or "line 0" in screen(m, 80, 24)
    # its top is the game's start only where this screen saw the start (a screen that
    # came in, or came back after a host's restart, holds the recent moves alone)
    m.history_whole = False
    assert "earlier moves are not kept on this screen" in screen(m, 80, 24)
    assert "the start of the game" not in screen(m, 80, 24)
    m.history_whole = True
    assert "the start of the game" in screen(m, 80, 24)
    m.on_key("end")
    m.on_key("tab")  # the whole log on the full screen, also at 80x24
    full = screen(m, 80, 24)
    assert "Log of this game" in full and sum("line " in x for x in full.splitlines()) >= 20
    m.on_key("up")
    assert "line 298" in screen(m, 80, 24) and "line 299" not in screen(m, 80, 24)
    m.on_key("x")
    assert m.overlay is None and m.log_scroll == 0


@pytest.mark.parametrize("size", [(50, 30), (40, 10), (59, 24), (30, 60), (80, 10), (100, 8)])
def test_the_size_a_small_window_asks_for_really_draws(size) -> None:
    for preview in (False, True):
        m = game_model(jamaica_view(0))
        if preview:
            m.on_key("3")
            m.on_key(symbol_keys(SYMBOLS)["skull"])
        text = " ".join(screen(m, *size).split())  # the message wraps on narrow screens
        need = re.search(r"window too small \(need (\d+)x(\d+), have (\d+)x(\d+)\)", text)
        assert need, text
        w, h = int(need.group(1)), int(need.group(2))
        assert (int(need.group(3)), int(need.group(4))) == size
        assert w == max(size[0], 60)
        fits = screen(m, w, h)  # resized to the size named: the board draws
        assert "window too small" not in fits
        assert sorted(board_cells(fits)) == list(range(1, 37))
        assert "window too small" in screen(m, w, h - 1)  # and no less would do


@pytest.mark.parametrize("label", ["192.168.100.123:41672", "192.168.100.123:47999",
                                   "[fd00::1234:5678:9abc]:47999"])
@pytest.mark.parametrize("name", ["ann", "Annabelle Bonny", "x" * 32])
@pytest.mark.parametrize("rules", ["jamaica", "studiogiochi-2017", "ravensburger-advanced"])
def test_the_header_always_says_who_you_are(label, name, rules) -> None:
    v = jamaica_view(1)
    v["rules"] = rules
    m = game_model(v, seat=1, hosting=True)
    m.host_label, m.name = label, name
    m.web_url = "http://192.168.100.123:8080/"
    for width in (60, 80, 100):
        head = screen(m, width, 40).splitlines()[0]
        assert f"you: {name} (blue)" in head, head
        assert "table 3" in head or len(name) == 32
    head = screen(m, 80, 24).splitlines()[0]
    if len(name) < 20:  # room for where too: the address (its default port may go)
        assert label.removesuffix(":41672") in head


def test_the_lobby_shows_tonights_scoreboard() -> None:
    m = ClientModel(name="ann")
    m.screen = "lobby"
    m.on_message({"type": "lobby", "tables": [], "scores": [
        {"player": "ann", "bot": False, "games": 3, "wins": 2, "places": [2, 1]},
        {"player": "ismcts normal", "bot": True, "games": 3, "wins": 1, "places": [1, 2]}]})
    text = to_text(render_screen(m, 100, 30))
    assert "Tonight: ann 2 wins of 3 · thinking bot, normal 1 win of 3" in text
    assert "a bot's score: every seat of that kind and level, one player in each game" in " ".join(
        text.split())
    m.on_message({"type": "lobby", "tables": []})  # an older host: no scores
    assert "Tonight" not in to_text(render_screen(m, 100, 30))


def test_a_player_who_leaves_and_comes_back_is_said_on_every_screen() -> None:
    """During a game the lobby's seats say who left (``connected`` false), when a bot
    stands in (``bot`` set) and who came back: each said once, on the log and the status
    line (which the screen reader speaks)."""
    m = game_model(jamaica_view(0))

    def lobby(bob):
        m.on_message({"type": "lobby", "tables": [
            {"id": 3, "name": "t", "rules": "jamaica", "options": {"players": 2},
             "status": "playing", "spectators": 0, "password": False, "owner": 0,
             "seats": [{"seat": 0, "name": "ann", "color": "red", "bot": None,
                        "connected": True},
                       {"seat": 1, "name": "bob", "color": "blue", **bob}]}]})

    lobby({"bot": None, "connected": True})
    assert not any("bob" in x for x in m.log)
    lobby({"bot": None, "connected": False})
    assert m.log[-1] == "bob left the table: the seat waits for them" and m.status == m.log[-1]
    lobby({"bot": None, "connected": False})  # said once
    assert sum("left the table" in x for x in m.log) == 1
    lobby({"bot": "greedy", "connected": False})
    assert m.log[-1] == "a bot plays for bob until they come back"
    lobby({"bot": None, "connected": True})
    assert m.log[-1] == "bob is back" and "bob is back" in screen(m, 100, 32)
