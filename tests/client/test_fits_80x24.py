"""Every terminal screen fits 80x24 (and the wide layout 120x40) in Swedish as in English:
no line is cut at the window's edge (a line too long wraps, or says it shorter) and no
overlay runs past the bottom (the help scrolls). Real engine games of each kind, a player's
and a spectator's screens, the previews and choices the keys open, the help, the whole
log, the end with its summary, the lobby, the waiting room and the host browser.

A cut is found where it happens: ``clip`` (client/text.py), which every screen's lines go
through, is watched, and a line it shortens by more than blanks is a cut."""
from __future__ import annotations

import random
import re

import pytest

import client.text as text_module
from cartagena_net.engine import SPECTATOR, RandomChance, State, make_game
from client import game_screen, panels, render
from client.model import ClientModel
from client.render import bottom_lines, render_help, render_screen
from tests.client.sample_views import jamaica_view, legal_for
from tests.client.test_model import seated
from tests.client.test_swedish_screens import COLOURS, _feed, _model

GAMES = [
    ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"filibusters": True}),
    ("jamaica", {"morgan": "also"}),
    ("tortuga", {}),
]
KEYS = ["?", "tab", "1", "v", "m", "f", "r", "e", "w", "right"]
SIZES = [(80, 24), (120, 40)]



@pytest.fixture
def cuts(monkeypatch):
    """The lines ``clip`` cut, by the screen they were on."""
    original = text_module.clip
    found: dict[str, str] = {}

    def watched(line, width):
        out = original(line, width)
        whole = "".join(t for _s, t in line)
        kept = "".join(t for _s, t in out)
        if whole[len(kept):].strip():
            found.setdefault(whole.rstrip(), f"{width} columns")
        return out

    for module in (text_module, render, game_screen, panels):
        monkeypatch.setattr(module, "clip", watched)
    return found


def _draw(m: ClientModel, width: int, height: int) -> None:
    lines = render_screen(m, width, height)
    assert len(lines) == height
    if m.overlay == "help":  # the help never runs past the bottom: it scrolls
        assert len(render_help(m, width, height)) + len(bottom_lines(m, width)) <= height


def _with_keys(m: ClientModel, width: int, height: int) -> None:
    _draw(m, width, height)
    for key in KEYS:
        m.on_key(key)
        _draw(m, width, height)
        for _turn in range(3):
            if m.overlay == "help":
                m.on_key("pagedown")
                _draw(m, width, height)
        m.on_key("escape")
        if m.overlay:
            m.on_key("x")


@pytest.mark.parametrize("preset, options", GAMES, ids=[f"{p}-{o}" for p, o in GAMES])
def test_every_game_screen_fits(lang, cuts, preset, options):
    state = State.new(make_game(preset, players=3, colors=",".join(COLOURS[:3]), **options),
                      RandomChance(random.Random(5)))
    rng = random.Random(5)
    me, spec = _model(0, 3), _model(SPECTATOR, 3)
    seen = {0: 0, SPECTATOR: 0}
    for step in range(3000):
        for viewer, m in ((0, me), (SPECTATOR, spec)):
            seen[viewer] = _feed(m, state, viewer, seen[viewer], step)
            if step % 9 == 0:
                for width, height in SIZES:
                    _with_keys(m, width, height)
        if state.outcome is not None:
            break
        state.apply(rng.choice(state.legal_actions(undo=True)), seat=state.actor)
    assert state.outcome is not None, "the game did not end"
    for m in (me, spec):  # the end: ranking and summary
        for width, height in SIZES:
            _with_keys(m, width, height)
    assert cuts == {}, f"{lang}: lines cut at the window's edge"


def test_the_screens_around_a_game_fit(lang, cuts):
    m = ClientModel(name="ann", screen="lobby")
    m.host_label = "10.0.0.2:41672"
    _with_keys(m, 80, 24)
    m.tables = [{"id": n, "name": f"bord {n}", "rules": "studiogiochi-2017",
                 "options": {"players": 4, "story": "whole", "morgan": "island",
                             "filibusters": True},
                 "status": "playing", "spectators": 2, "password": True, "hints": True,
                 "player_chances": True, "owner": 0,
                 "seats": [{"seat": 0, "name": "Anne Bonny", "color": "red",
                            "connected": False, "bot": "ismcts"},
                           {"seat": 1, "name": "Calico Jack", "color": "blue",
                            "bot": "greedy"}]} for n in range(1, 4)]
    m.scores = [{"player": "den", "wins": 1, "games": 2},
                {"player": "ismcts normal", "bot": True, "wins": 2, "games": 2}]
    _with_keys(m, 80, 24)
    m.on_key("t")  # the new-table form
    _with_keys(m, 80, 24)
    m.table, m.seat = 1, 0  # the waiting room
    m.tables[0]["name"] = "a table with a long name"
    _with_keys(m, 80, 24)
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    action = legal_for(v)[0]  # a hint (the bot's suggestion) and its reason, previewed
    m.on_message({"type": "hint", "table": 1, "seq": 7, "action": action,
                  "reason": "this pirate jumps 9 spaces",
                  "why": {"kind": "jump", "spaces": 9, "pirates": 1, "gain": 12,
                          "next": "retreat 9"}})
    assert m.hint is not None
    _draw(m, 80, 24)
    m.on_key("escape")
    m.on_key("q")  # the quit question
    _draw(m, 80, 24)
    assert cuts == {}, f"{lang}: lines cut at the window's edge"


def test_the_help_scrolls_where_it_is_longer_than_the_window(lang):
    H = 16  # a short window: the 2017 help (the sloop's rules too) is longer
    state = State.new(make_game("studiogiochi-2017", players=3, story="whole", magic=True,
                                colors=",".join(COLOURS[:3])), RandomChance(random.Random(2)))
    m = _model(0, 3)
    _feed(m, state, 0, 0, 0)
    m.on_key("?")
    first = render_help(m, 80, H)
    room = H - len(bottom_lines(m, 80))
    assert len(first) == room  # longer than the window: a part of it and how to scroll
    more = "".join(t for _s, t in first[-1])
    assert more.startswith("↑↓ PgUp/PgDn") and f"1–{room - 1} " in more
    m.on_key("pagedown")
    assert m.overlay == "help" and render_help(m, 80, H)[0] != first[0]
    for _turn in range(20):
        m.on_key("down")
    last = "".join(t for _s, t in render_help(m, 80, H)[-1])
    shown = re.search(r"\((\d+)–(\d+) \w+ (\d+)\)", last)
    assert shown and shown.group(2) == shown.group(3)  # scrolled to its end, no further
    m.on_key("x")  # any other key closes it, and it opens at its top again
    assert m.overlay is None and m.help_top == 0
    m.on_key("?")
    assert render_help(m, 80, H)[0] == first[0]
    assert len(render_help(m, 120, 60)) < 60 - len(bottom_lines(m, 120))  # room: all of it
