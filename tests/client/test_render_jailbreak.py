"""The island stories on the terminal (2017): both paths with their names, the sloop with
its load at the shore where it lies, the Captain and the free sail, and the sail's preview;
at 80x24 (the strip), at larger sizes (the winding board), and with ``--ascii``."""
from __future__ import annotations

import re

import pytest

from cartagena_net.engine import make_game, view
from client.model import ClientModel
from client.render import render_screen, to_text, width_of

SLOOP, COVE = 19, 38
SIZES = [(80, 24), (100, 40), (160, 50)]


def whole_state(shore: str = "cartagena", turn: int = 0, players: int = 3, **options):
    """Red has two aboard and blue one (red is the Captain on red's turn)."""
    game = make_game("studiogiochi-2017", players=players, story="whole", **options)
    state = game.new_state(seed=1)
    placed = [[0, 3, SLOOP, SLOOP, 25, COVE], [0, 0, SLOOP, 5, 21, 22], [0, 1, 2, 7, 8, 9],
              [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 2]][:players]
    state.setup(placed, turn=turn, shore=shore)
    return state


def model_of(state, seat: int = 0, ascii_only: bool = False, spectate: bool = False,
             history: list | None = None) -> ClientModel:
    m = ClientModel(name="ann", ascii_only=ascii_only)
    m.host_label = "127.0.0.1:5000"
    m.on_message({"type": "joined", "table": 1, "seat": None if spectate else seat,
                  "token": "t", "spectate": spectate})
    v = view(state, "spectator" if spectate else seat)
    legal = [str(a) for a in state.legal_actions()] if state.actor == seat else []
    m.on_message({"type": "state", "table": 1, "seq": 1, "view": v, "legal": legal,
                  "lines": [], **({"events": history} if history else {})})
    return m


def screen(m: ClientModel, w: int, h: int) -> list[str]:
    lines = to_text(render_screen(m, w, h)).splitlines()
    assert len(lines) == h and all(width_of([("", x)]) <= w for x in lines)
    assert "window too small" not in "\n".join(lines)
    return lines


def sloop_row(lines: list[str]) -> str:
    row = [x for x in lines if "Cartagena" in x and "Tortuga" in x and "sloop" in x]
    assert len(row) == 1, lines
    return row[0]


def cells(text: str) -> list[int]:
    """Space numbers drawn as board cells, strip (``12⚘RB·``) or winding (``[12 ⚘ R B ·]``)."""
    return sorted(int(n) for n in re.findall(r"(?:\[\s*|(?<![\d@]))(\d+) ?\S ?[A-Z·.◆+] ?"
                                             r"[A-Z·.◆+] ?[A-Z·.◆+]\]?", text))


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("shore", ["cartagena", "tortuga"])
@pytest.mark.parametrize("width,height", SIZES)
def test_whole_board_at_every_size(width, height, shore, ascii_only) -> None:
    m = model_of(whole_state(shore), ascii_only=ascii_only)
    lines = screen(m, width, height)
    text = "\n".join(lines)
    arrow = "->" if ascii_only else "→"
    # both paths, named, with their spaces; the sloop is not a space of either
    assert "underground passage 1-18" in text.replace("–", "-")
    assert "island path 20-37" in text.replace("–", "-")
    assert f"jail {arrow} sloop at Cartagena" in text and f"sloop at Tortuga {arrow} cove" in text
    assert cells(text) == [*range(1, 19), *range(20, 38)]
    # the sloop with its load by colour, against the shore where it lies, the sea between
    row = sloop_row(lines)
    times = "x" if ascii_only else "×"
    assert f"19 sloop: R{times}2 B{times}1" in row
    sea = "~" if ascii_only else "≈"
    near, far = ("Cartagena", "Tortuga") if shore == "cartagena" else ("Tortuga", "Cartagena")
    between = row.split(near)[1 if row.index(near) < row.index("sloop") else 0]
    gap_to_near = (between.split("sloop")[0] if row.index(near) < row.index("sloop")
                   else between.split("sloop")[-1])
    assert sea not in gap_to_near  # nothing but the sloop's own marks between it and its shore
    assert sea * 3 in row.split(far)[0] + row.split(far)[-1]
    # the Captain (red, to play, nothing done yet) and the free sail
    assert "Captain: you, free sail available" in text
    assert re.search(r"R red .* aboard 2", text) and re.search(r"B blue .* aboard 1", text)
    # the start and the goal by their names
    assert "jail: " in text and "cove: R" in text
    if ascii_only:
        assert text.isascii()
    if width >= 100:  # the winding board: the sloop has a row of its own between the paths
        i = lines.index(row)
        assert re.search(r"\[18 ", "\n".join(lines[i - 3:i]))
        assert re.search(r"\[20 ", "\n".join(lines[i + 1:i + 4]))


@pytest.mark.parametrize("width,height", SIZES)
def test_the_captain_and_the_free_sail_as_the_turn_goes(width, height) -> None:
    state = whole_state("cartagena")
    state.apply("sail")  # red, the Captain, sails free to Tortuga
    m = model_of(state)
    lines = screen(m, width, height)
    assert "Captain: you, free sail used" in "\n".join(lines)
    assert sloop_row(lines).index("Tortuga") > sloop_row(lines).index("sloop") or (
        sloop_row(lines).index("Tortuga") < sloop_row(lines).index("sloop")
        and "≈" not in sloop_row(lines).split("Tortuga")[1].split("sloop")[0])
    # blue, with fewer aboard, is no Captain; a watcher sees whose turn has one
    blue = whole_state("cartagena", turn=1)
    assert "no Captain this turn" in "\n".join(screen(model_of(blue, seat=1), width, height))
    watcher = model_of(whole_state("cartagena"), spectate=True)
    text = "\n".join(screen(watcher, width, height))
    assert "Captain: ann" not in text and re.search(r"Captain: \S+, free sail available", text)


def test_a_five_player_whole_game_fits_80x24() -> None:
    m = model_of(whole_state("tortuga", players=5))
    lines = screen(m, 80, 24)
    text = "\n".join(lines)
    assert cells(text) == [*range(1, 19), *range(20, 38)]
    assert "sloop: R×2 B×1" in sloop_row(lines) and "Captain" in sloop_row(lines)


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("width,height", SIZES)
def test_island_story_at_every_size(width, height, ascii_only) -> None:
    game = make_game("studiogiochi-2017", players=3, story="island")
    state = game.new_state(seed=2)
    state.setup([[0, 0, 4, 9, 36, 37], [0, 1, 1, 2, 3, 4], [0, 0, 0, 0, 0, 5]], turn=0)
    m = model_of(state, ascii_only=ascii_only)
    text = "\n".join(screen(m, width, height))
    arrow = "->" if ascii_only else "→"
    assert f"island path 1{'-' if ascii_only else '–'}36: flooded sloop {arrow} cove" in text
    assert cells(text) == list(range(1, 37))
    boat, cove = ("@", "C") if ascii_only else ("⛴", "⛱")
    assert f"{boat} flooded sloop:" in text and f"{cove} cove: R" in text
    assert "Cartagena" not in text and "Captain" not in text  # no sloop to sail here


@pytest.mark.parametrize("width,height", SIZES)
def test_sailing_is_previewed_with_its_cost(width, height) -> None:
    m = model_of(whole_state("cartagena"))
    m.on_key("f")
    assert m.take_outbox() == []
    text = "\n".join(screen(m, width, height))
    assert "sail Cartagena → Tortuga: free, Captain's sail" in text
    assert "Enter confirm" in text
    m.on_key("escape")
    assert m.preview is None and m.take_outbox() == []
    m.on_key("f")
    m.on_key("enter")
    assert [x["action"] for x in m.take_outbox()] == ["sail"]

    # once the free sail is used, a sail back costs one of the turn's actions
    state = whole_state("cartagena")
    state.apply("sail")
    m = model_of(state)
    m.on_key("f")
    assert m.preview is not None
    assert m.preview.text == "sail Tortuga → Cartagena: 1 action, 2 left"
    assert re.search(r"Tortuga → Cartagena: 1 action, 2 left +Enter confirm · Esc cancel",
                     "\n".join(screen(m, width, height)))
    # the third action: the sail ends the turn
    state.apply("sail")
    state.apply("sail")
    m = model_of(state)
    m.on_key("f")
    assert m.preview is not None and "last action, turn ends" in m.preview.text


def test_a_sail_that_is_not_allowed_says_why() -> None:
    # not your turn
    m = model_of(whole_state("cartagena", turn=1), seat=0)
    m.on_key("f")
    assert m.preview is None and m.take_outbox() == [] and "not your turn" in m.status
    # yellow has nobody aboard: the sloop cannot take it to Tortuga
    state = whole_state("cartagena", turn=2)
    m = model_of(state, seat=2)
    m.on_key("f")
    assert m.preview is None and m.take_outbox() == [] and m.status_error
    assert "only with one of your pirates aboard" in m.status
    # at Tortuga, blue has two in the jail: it may call the sloop back; yellow too
    state = whole_state("tortuga", turn=1)
    m = model_of(state, seat=1)
    m.on_key("f")
    assert m.preview is not None and "Tortuga → Cartagena" in m.preview.text
    # nobody left behind: no sail back
    game = make_game("studiogiochi-2017", players=2, story="whole")
    state = game.new_state(seed=1)
    state.setup([[SLOOP, SLOOP, 20, 21, 22, 23], [0, 0, 0, 0, 0, 0]], turn=0, shore="tortuga")
    m = model_of(state)
    m.on_key("f")
    assert m.preview is None and "still" not in m.status
    assert "only while you have a pirate in the underground passage" in m.status


def test_the_others_sail_is_told_since_your_last_turn() -> None:
    state = whole_state("cartagena", turn=0)
    state.apply("sail")
    state.apply("advance 25 " + next(str(a).split()[2] for a in state.legal_actions()
                                      if str(a).startswith("advance 25 ")))
    state.apply("end")
    game_events = view(state, 1, since=0)["events"]
    m = model_of(state, seat=1, history=game_events)
    text = "\n".join(screen(m, 80, 24))
    assert "red sailed to Tortuga (Captain, free)" in text
