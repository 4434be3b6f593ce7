"""The client with Black Magic Woman, on real engine views: powers offered with a
preview, the Gun's target hand, the Rum's hand-out, the Lantern's order, chest tiles."""
from __future__ import annotations

from cartagena_net.engine import State, make_game, view
from client.model import ClientModel
from client.render import render_screen, to_text


def game(placed, hands, players=2) -> State:
    g = make_game("studiogiochi-2017", board="GRLPHC" * 2, players=players,
                  pirates=len(placed[0]), magic=True,
                  colors=",".join(("red", "blue", "green")[:players]))
    s = g.new_state(seed=0)
    s.setup(placed, hands=hands, chests=(1, 2))
    return s


def model(state: State, seat: int) -> ClientModel:
    m = ClientModel(name="ann")
    m.host_label = "127.0.0.1:5000"
    m.on_message({"type": "joined", "table": 3, "seat": seat, "token": "tok"})
    legal = [str(a) for a in state.legal_actions()] if state.actor == seat else []
    m.on_message({"type": "state", "table": 3, "seq": 1, "view": view(state, seat),
                  "legal": legal, "lines": []})
    return m


def screen(m: ClientModel, w: int = 120, h: int = 44) -> str:
    return to_text(render_screen(m, w, h))


def sent(m: ClientModel) -> list[str]:
    return [x["action"] for x in m.take_outbox() if x.get("type") == "action"]


def press(m: ClientModel, *keys: str) -> None:
    for k in keys:
        m.on_key(k)


def test_v_offers_each_power_with_a_preview_and_enter_releases_it():
    s = game([[0, 0], [1, 7]], [["gun", "rum", "parrot", "parrot", "hook"], ["chest"]])
    m = model(s, 0)
    text = screen(m)
    assert "card powers" in text and "chests: 6, 12 closed" in text
    press(m, "v")
    assert m.mode == "power" and m.preview is not None
    seen = set()
    for _ in range(len(m.power_actions())):
        seen.add(m.preview.action.split()[1])
        assert m.preview.text.split()[0].rstrip(":") in ("Gun", "Rum", "Parrots", "Hook")
        press(m, "right")
    assert {"gun", "rum", "parrot", "hook"} <= seen
    press(m, "g")  # the gun's letter
    assert m.preview.action == "power gun 1"
    assert "look at blue's cards" in screen(m)
    press(m, "enter")
    assert sent(m) == ["power gun 1"]


def test_the_parrot_preview_marks_its_landing():
    s = game([[0, 0], [1, 7]], [["parrot", "parrot"], []])
    m = model(s, 0)
    press(m, "v")
    while "as chest" not in m.preview.text:
        press(m, "right")
    assert m.preview.landing == 6 and "start → 6" in m.preview.text.replace("jail", "start")


def test_the_gun_player_sees_the_target_hand_and_takes_by_letter():
    s = game([[0, 0], [1, 7]], [["gun"], ["hook", "chest*"]])
    s.apply("power gun 1")
    red, blue = model(s, 0), model(s, 1)
    assert "Gun: red looks at blue's cards: hook chest*" in screen(red)
    assert "You must take a card" in screen(red)
    assert "hook chest*" not in screen(blue) and "waiting for" in screen(blue)
    press(red, "S")  # capital: the dark chest (chest's key is s)
    assert red.preview.action == "take chest*"
    press(red, "enter")
    assert sent(red) == ["take chest*"]


def test_rum_hand_out_chooses_whom_by_digit_and_what_by_letter():
    s = game([[0], [1], [7]], [["rum"], [], []], players=3)
    s.apply("power rum")
    m = model(s, 0)
    pool = m.view["magic"]["power"]["pool"]
    assert f"Rum: red hands out 4 drawn cards: {' '.join(pool)}" in screen(m)
    press(m, "2")
    assert m.preview.action.startswith("give 2 ")
    press(m, "enter")
    assert sent(m)[0].startswith("give 2 ")


def test_lantern_order_and_what_its_player_knows():
    s = game([[0, 0], [1, 7]], [["lantern"], []])
    s.apply("power lantern")
    m = model(s, 0)
    press(m, "right", "enter")
    (keep,) = sent(m)
    s.apply(keep)
    m = model(s, 0)
    assert "You must put the cards back on the stock" in screen(m)
    press(m, "right", "left")
    assert "on top" in m.preview.text
    while s.pending:
        s.apply(str(s.legal_actions()[0]))
    text = screen(model(s, 0))
    assert "you know the top of the stock (top first):" in text
    assert "you know the top" not in screen(model(s, 1))


def test_closed_chest_tiles_are_marked_on_the_path():
    s = game([[6, 0], [1, 7]], [["chest"], []])
    text = screen(model(s, 1))
    assert "▪" in text
    s.apply("power chest 6")
    text = screen(model(s, 1))
    assert "6 opened" in text and "tiles seen: 1" in text
