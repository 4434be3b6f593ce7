"""Every key the help and the key bar name does what they say, in every preset.

Pure model and render tests: engine views of each preset, hand-picked legal lists.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cartagena_net.engine import PRESETS, make_game, view
from client.glyphs import RESERVED_KEYS, symbol_keys
from client.keys import screen_keys
from client.model import ClientModel
from client.render import render_screen, to_text

ROOT = Path(__file__).resolve().parents[2]
CASES = [(name, {}) for name in PRESETS] + [
    ("studiogiochi-2017", {"story": "whole", "morgan": "island"}),
    ("studiogiochi-2017", {"morgan": "also", "filibusters": True}),
    ("studiogiochi-2017", {"morgan": "instead"}),
]


def model_for(preset: str, options: dict, legal: list[str] | None = None, seat: int = 0,
              ascii_only: bool = False) -> ClientModel:
    game = make_game(preset, players=3, **options)
    state = game.new_state(seed=3)
    v = view(state, seat)
    m = ClientModel(name="ann", ascii_only=ascii_only)
    m.on_message({"type": "welcome", "host_id": "h", "host_name": "box"})
    m.on_message({"type": "joined", "table": 1, "seat": seat, "token": "t"})
    m.on_message({"type": "lobby", "tables": [{"id": 1, "name": "t", "rules": preset,
                                                "options": {}, "status": "playing",
                                                "spectators": 0, "password": False,
                                                "owner": 0, "seats": []}]})
    if legal is None:
        legal = [str(a) for a in state.legal_actions()] if state.actor == seat else []
    m.on_message({"type": "state", "table": 1, "seq": 5, "view": v, "legal": legal,
                  "lines": []})
    return m


def sent(m: ClientModel) -> list[str]:
    return [x.get("action", x["type"]) for x in m.take_outbox()]


def command_letters(pairs: list[tuple[str, str]]) -> set[str]:
    return {k for k, _ in pairs if len(k) == 1 and k.isalpha()}


@pytest.mark.parametrize("preset,options", CASES)
def test_help_keys_never_clash_with_cards_and_do_what_they_say(preset, options) -> None:
    """Defect 5: `l` is the lantern in 2014/2017; help never calls it "leave" in a game."""
    m = model_for(preset, options)
    cards = set(m.keys.values())
    pairs = screen_keys(m, now=False)
    letters = command_letters(pairs)
    assert not letters & cards, f"a command key is also a card: {letters & cards}"
    assert letters <= RESERVED_KEYS
    assert "l" not in letters
    text = to_text(render_screen(m.__class__(**{**m.__dict__, "overlay": "help"}), 100, 40))
    assert "leave" not in text
    for key, what in pairs:
        assert f"{key} {what}" in text.replace("\n", " ")
    for sym, key in m.keys.items():
        assert f"{key} " in text and sym in text

    # each command key, where its action is legal, does exactly what the help says
    pos = m.my_positions()[0]
    sym = next(iter(m.keys))
    legal = ["end", "draw", "undo", f"retreat {pos}", f"advance {pos} {sym}"]
    if options.get("morgan"):
        legal.append("morgan 1 0")
    if options.get("story") == "whole":
        legal.append("sail")
    m = model_for(preset, options, legal=legal)
    m.sel_pos = pos
    described = dict(screen_keys(m, now=False))
    m.on_key("e")
    assert sent(m) == ["end"] and "end" in described["e"]
    m.on_key("w")
    assert sent(m) == ["draw"] and "draw" in described["w"]
    m.on_key("z")
    assert sent(m) == ["undo"] and "undo" in described["z"]
    if "r" in described:
        m.on_key("r")
        assert m.preview and m.preview.action == f"retreat {pos}"
        m.on_key("escape")
    m.on_key(m.keys[sym])
    assert m.preview and m.preview.action == f"advance {pos} {sym}"
    m.on_key("enter")
    assert sent(m) == [f"advance {pos} {sym}"] and "confirm" in described["Enter"]
    if "f" in described:  # the sail, previewed first like every other move
        m.on_key("f")
        assert sent(m) == [] and m.preview and m.preview.action == "sail"
        assert "Cartagena → Tortuga" in m.preview.text and "Enter" in described["f"]
        m.on_key("enter")
        assert sent(m) == ["sail"] and "sail" in described["f"]
    if "m" in described:
        m.on_key("m")
        assert m.mode == "morgan"
        m.on_key("escape")
    m.on_key("c")
    assert m.input is not None and m.input.purpose == "chat"
    m.on_key("escape")
    m.on_key("q")
    assert m.overlay == "quit"
    m.on_key("n")
    m.on_key("?")
    assert m.overlay == "help"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_key_bar_shows_only_what_applies_now(preset) -> None:
    m = model_for(preset, {}, legal=[])
    bar = to_text(render_screen(m, 80, 24))
    assert "letter" not in bar and "end the turn" not in bar  # not my turn
    pos = m.my_positions()[0]
    sym = next(iter(m.keys))
    m = model_for(preset, {}, legal=[f"advance {pos} {sym}", f"retreat {pos}"])
    bar = to_text(render_screen(m, 80, 24))
    assert "letter preview a card" in bar and "Enter confirm" in bar  # Enter confirms
    assert "e end the turn" not in bar and "z undo" not in bar


def test_morgan_mode_key_bar() -> None:
    """Defect 10: in Morgan mode letters do nothing, and ←→ cycles the targets."""
    m = model_for("studiogiochi-2017", {"morgan": "also"}, legal=["morgan 1 0", "morgan 2 0"])
    m.on_key("m")
    bar = to_text(render_screen(m, 80, 24))
    assert "letter" not in bar and "←→ choose whose pirate" in bar


def test_waiting_room_keys_per_person() -> None:
    """Defect 6: a watcher is not offered seats or the start, and Enter says why."""
    table = {"id": 1, "name": "t", "rules": "jamaica", "options": {}, "status": "waiting",
             "spectators": 1, "password": False, "owner": 0,
             "seats": [{"seat": 0, "name": "bob", "color": "red", "bot": None,
                        "connected": True},
                       {"seat": 1, "name": None, "color": "blue", "bot": None,
                        "connected": False}]}
    watcher = ClientModel(name="eve", spectate=True, screen="lobby")
    watcher.on_message({"type": "lobby", "tables": [table]})
    watcher.on_message({"type": "joined", "table": 1, "seat": None})
    watcher.take_outbox()  # the watcher's own join
    text = to_text(render_screen(watcher, 80, 24))
    assert "↑↓" not in text and "s/Enter start" not in text and "▸" not in text
    watcher.on_key("enter")
    assert watcher.take_outbox() == [] and "watchers cannot" in watcher.status
    player = ClientModel(name="ann", screen="lobby")
    player.on_message({"type": "lobby", "tables": [table]})
    player.on_message({"type": "joined", "table": 1, "seat": 1, "token": "t"})
    text = to_text(render_screen(player, 80, 24))
    assert "waiting for the owner" in text and "s/Enter start" not in text
    player.on_key("s")
    assert player.take_outbox() == [] and "owner" in player.status
    table["owner"] = 1
    player.on_message({"type": "lobby", "tables": [table]})
    assert "s/Enter start" in to_text(render_screen(player, 80, 24))
    player.on_key("s")
    assert player.take_outbox() == [{"type": "start", "table": 1}]


def test_no_such_card_says_you_hold_none() -> None:
    """Defect 4."""
    m = model_for("jamaica", {}, legal=["advance 0 skull"])
    m.my_seat_view()["hand"] = ["skull"]
    m.sel_pos = 0
    m.on_key(m.keys["dagger"])
    assert m.status == "you hold no dagger" and m.preview is None


@pytest.mark.parametrize("preset", list(PRESETS))
def test_one_name_for_the_start_and_the_goal(preset) -> None:
    """Defect 8: previews, Morgan previews and the ends line use the edition's names."""
    m = model_for(preset, {"morgan": "also"} if preset == "studiogiochi-2017" else {},
                  legal=None)
    v = m.view
    start, goal = v["start_name"], v["goal_name"]
    sym = next(a.split()[2] for a in m.legal if a.startswith("advance"))
    m.sel_pos = 0
    m.on_key(m.keys[sym.rstrip("*")])
    assert m.preview.text.startswith(f"play {sym}: {start} → ")
    text = to_text(render_screen(m, 100, 30))
    assert f"{start}:" in text and f"{goal}:" in text and " 0 →" not in text
    assert re.search(rf"pirates: .*@{start}", text)
    m.my_seat_view()["pirates"][0] = v["boat"]
    m.on_message({"type": "state", "table": 1, "seq": 6, "view": v,
                  "legal": ["morgan 1 0"] if preset == "studiogiochi-2017" else [],
                  "lines": []})
    if preset == "studiogiochi-2017":
        m.on_key("m")
        assert re.match(rf"Morgan: push \w+ {start} → (\d+|{goal}), draw \d", m.preview.text)


def test_ascii_marks_are_unambiguous() -> None:
    """Defect 9: boat is not B (blue), the hand has no doubled letters, preview is not *."""
    m = model_for("studiogiochi-2017", {}, ascii_only=True)
    m.my_seat_view()["hand"] = ["gun", "gun", "rum*"]
    pos = m.my_positions()[0]
    m.legal = [f"advance {pos} gun"]
    m.sel_pos = pos
    m.on_key("g")
    text = to_text(render_screen(m, 100, 30))
    hand = next(x for x in text.splitlines() if x.startswith("hand:"))
    assert "gun[g]x2" in hand and "rum*[U]x1" in hand and "ggx" not in hand
    ends = next(x for x in text.splitlines() if "sloop:" in x)
    assert ends.split("sloop:")[0].rstrip().endswith("@")
    assert "+" in text and not re.search(r"\d[a-zA-Z~]\S*\*", text.split("pirates:")[0])


def test_plural_counts() -> None:
    """Defect 12: "1 card", never "1 cards"."""
    m = model_for("jamaica", {})
    m.view["seats"][1]["hand_size"] = 1
    text = to_text(render_screen(m, 100, 30))
    assert "1 cards" not in text and " 1 card " in text


def test_rules_doc_names_the_keys_the_client_uses() -> None:
    """Defect 11: docs/rules.md lists every card key that is not the symbol's first letter."""
    doc = (ROOT / "docs" / "rules.md").read_text()
    exceptions = dict(re.findall(r"(\w+) `([a-z])`", doc.split("Keys in the terminal client")[1]
                                 .split("\n\n")[0]))
    for name in PRESETS:
        game = make_game(name)
        symbols = view(game.new_state(seed=0), 0)["symbols"]
        for sym, key in symbol_keys(symbols).items():
            if key != sym[0]:
                assert exceptions.get(sym) == key, (name, sym, key)
            else:
                assert sym not in exceptions


def test_the_hosts_own_waiting_room_and_header_give_the_address_for_friends() -> None:
    m = ClientModel(name="ann", screen="lobby", hosting=True, host_label="192.168.1.20:41672")
    m.on_message({"type": "lobby", "tables": [{
        "id": 1, "name": "t", "rules": "jamaica", "options": {}, "status": "waiting",
        "spectators": 0, "password": False, "owner": 0,
        "seats": [{"seat": 0, "name": "ann", "color": "red", "bot": None, "connected": True},
                  {"seat": 1, "name": None, "color": "blue", "bot": None,
                   "connected": False}]}]})
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "t"})
    text = to_text(render_screen(m, 80, 24))
    assert "friends join with: cartagena join 192.168.1.20:41672" in text
    g = model_for("jamaica", {})
    g.host_label = "192.168.1.20:41672"
    assert to_text(render_screen(g, 80, 24)).splitlines()[0].startswith(
        "cartagena-net · 192.168.1.20:41672 · table 1")


@pytest.mark.parametrize("hosting,solo,kept,says", [
    (False, False, False, "your seat is kept"),
    (True, False, False, "ends the game for everyone"),
    (False, True, False, "ends the game"),
    (True, False, True, "stops the game for everyone; kept for the next start"),
    (False, True, True, "the game is kept for the next start"),
])
def test_help_says_what_quitting_does_as_the_quit_question_does(hosting, solo, kept,
                                                                 says) -> None:
    """The host's or `play`'s help never promises a seat kept: their q ends the game, or,
    with a journal, stops it and the next start offers it back."""
    m = model_for("jamaica", {})
    m.hosting, m.solo, m.game_kept = hosting, solo, kept
    quit_text = dict(screen_keys(m, now=False))["q"]
    assert says in quit_text
    if hosting or solo:
        assert "seat is kept" not in quit_text
