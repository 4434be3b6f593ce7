"""Events are named tuples (``engine/events.py``): every place that logs builds one,
every reader takes their fields by name, and what the views send of them is the same
map as before, word for word. The views' memos are kept beside states and boards, and
go with them."""
from __future__ import annotations

import ast
import copy
import gc
import pickle
import sys
from pathlib import Path

from cartagena_net.engine import SPECTATOR, make_game, numbers, view
from cartagena_net.engine import events as ev
from cartagena_net.engine.events import KINDS

ENGINE = Path(__file__).resolve().parents[2] / "cartagena_net" / "engine"
CLASSES = [c for cs in KINDS.values() for c in cs]


def test_every_place_that_logs_builds_a_named_event():
    """No ``log((...))`` of a plain tuple anywhere in the engine: each ``.log(`` call
    builds one of ``events.py``'s classes (or None where the state keeps no events)."""
    names = {c.__name__ for c in CLASSES}
    logged, bad = 0, []
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "log" and node.args):
                continue
            arg = node.args[0]
            if (isinstance(arg, ast.IfExp) and isinstance(arg.orelse, ast.Constant)
                    and arg.orelse.value is None):  # an event, or None where none is kept
                arg = arg.body
            made = arg.func if isinstance(arg, ast.Call) else None
            name = (made.id if isinstance(made, ast.Name) else
                    made.attr if isinstance(made, ast.Attribute) else None)
            logged += 1
            if name not in names:
                bad.append(f"{path.name}:{node.lineno}")
    # the one event made of a note: an undo's (``State._undo``: its class and fields)
    assert len(bad) == 1 and bad[0].startswith("state.py:") and logged >= 25


def test_an_event_is_a_tuple_of_its_kind_and_named_fields():
    for cls in CLASSES:
        kind = cls.__name__
        assert cls._fields[0] == "kind"
        given = [f for f in cls._fields if f != "kind" and f != "action"]
        e = cls(*range(len(given)))
        assert e.kind == e[0] and e[0] in KINDS and cls in KINDS[e.kind], kind
        assert tuple(e) == (e.kind, *e[1:]) and e == tuple(e) and hash(e) == hash(tuple(e))
        assert pickle.loads(pickle.dumps(e)) == e and type(copy.deepcopy(e)) is cls
        assert e._replace(seat=9)[0] == e.kind if "seat" in cls._fields else True
    assert ev.Advance(0, 3, 7, 2) == ("advance", 0, 3, 7, 2)
    assert ev.UndoAdvance(1, 7, 3, 2) == ("undo", 1, "advance", 7, 3, 2)
    assert ev.UndoSail(1, "tortuga") == ("undo", 1, "sail", "tortuga")
    assert ev.Turn(2) != ev.End(2) != ev.Win(2)  # the kind tells them apart


def test_each_kind_reads_as_its_wire_map():
    """One event of each class, through the views' reading: the map each viewer gets,
    key for key (docs/protocol.md's event table), with its English line."""
    view_module = sys.modules[view.__module__]
    game = make_game("studiogiochi-2017", players=3, magic=True, story="whole")
    state = game.new_state(seed=1)
    names = game.card_names
    k = names.index("lantern")
    gun, rum = names.index("gun"), names.index("rum")
    sample = {
        ev.Turn: (ev.Turn(1), {"type": "turn", "seat": 1}),
        ev.End: (ev.End(1), {"type": "end", "seat": 1}),
        ev.Win: (ev.Win(1), {"type": "win", "seat": 1}),
        ev.Captain: (ev.Captain(2), {"type": "captain", "seat": 2}),
        ev.Advance: (ev.Advance(0, 3, 7, k), {"type": "advance", "seat": 0, "from": 3,
                                              "to": 7, "card": "lantern"}),
        ev.Retreat: (ev.Retreat(0, 7, 3, (k, k)), {"type": "retreat", "seat": 0, "from": 7,
                                                   "to": 3, "drawn": 2}),
        ev.Morgan: (ev.Morgan(0, 2, 7, 3, (k,)), {"type": "morgan", "seat": 0, "owner": 2,
                                                  "from": 7, "to": 3, "drawn": 1}),
        ev.Draw: (ev.Draw(1, (k,)), {"type": "draw", "seat": 1, "drawn": 1}),
        ev.UndoAdvance: (ev.UndoAdvance(0, 3, 7, k),
                         {"type": "undo", "seat": 0, "action": "advance", "from": 3,
                          "to": 7, "card": "lantern"}),
        ev.UndoSail: (ev.UndoSail(0, "tortuga"), {"type": "undo", "seat": 0,
                                                  "action": "sail", "shore": "tortuga"}),
        ev.Reshuffle: (ev.Reshuffle(40), {"type": "reshuffle", "size": 40}),
        ev.Row: (ev.Row((k, k)), {"type": "row", "cards": ["lantern", "lantern"]}),
        ev.Discard: (ev.Discard(1, k), {"type": "discard", "seat": 1, "card": "lantern"}),
        ev.Owe: (ev.Owe(1, 2), {"type": "owe", "seat": 1, "count": 2}),
        ev.Sail: (ev.Sail(1, "cartagena", True), {"type": "sail", "seat": 1,
                                                  "shore": "cartagena", "free": True}),
        ev.Gun: (ev.Gun(0, gun, 2), {"type": "power", "seat": 0, "card": "gun",
                                     "power": "gun", "target": 2}),
        ev.Power: (ev.Power(0, rum, 4), {"type": "power", "seat": 0, "card": "rum",
                                         "power": "rum", "drawn": 4}),
        ev.Take: (ev.Take(0, 2, k, (k,)), {"type": "take", "seat": 0, "target": 2,
                                           "drawn": 1}),
        ev.Give: (ev.Give(0, 2, k), {"type": "give", "seat": 0, "to": 2}),
        ev.Keep: (ev.Keep(0, (k,)), {"type": "keep", "seat": 0, "count": 1}),
        ev.Stack: (ev.Stack(0, (k, k)), {"type": "stack", "seat": 0, "count": 2}),
        ev.Chest: (ev.Chest(0, k, 5, 4, (), 2), {"type": "chest", "seat": 0, "card": "lantern",
                                                 "pos": 5, "tile": "snake", "to": 2,
                                                 "drawn": 0}),
        ev.Tiles: (ev.Tiles(6), {"type": "tiles", "chests": 6}),
        ev.Parrot: (ev.Parrot(0, 3, 9, k, k, 1),
                    {"type": "parrot", "seat": 0, "from": 3, "to": 9,
                     "cards": ["lantern", "lantern"], "card": game.symbols[1]}),
        ev.Hook: (ev.Hook(0, 3, 9, k, k), {"type": "hook", "seat": 0, "from": 3, "to": 9,
                                           "cards": ["lantern", "lantern"]}),
    }
    assert set(sample) == set(CLASSES)
    for cls, (e, spectator) in sample.items():
        got = view_module._event(state, e, None)
        text = got.pop("text")
        assert got == spectator and list(got) == list(spectator), cls.__name__
        assert text and "None" not in text, cls.__name__
    # what the seat named reads beyond a spectator's: its cards
    mine = view_module._event(state, sample[ev.Retreat][0], 0)
    assert mine["cards"] == ["lantern", "lantern"] and view_module._names_seat(sample[ev.Retreat][0], 0)
    took = view_module._event(state, sample[ev.Take][0], 2)
    assert took["card"] == "lantern" and took["cards"] == ["lantern"]
    assert view_module._names_seat(sample[ev.Give][0], 2)
    assert not view_module._names_seat(sample[ev.Give][0], 1)


def test_the_views_memos_live_beside_their_state_and_go_with_it():
    view_module = sys.modules[view.__module__]
    gc.collect()  # the entries of other tests' states that are gone, gone first
    kept = (len(view_module._FACES), len(numbers._GIVEN), len(view_module._BOARDS))
    game = make_game("jamaica", players=3)
    states = [game.new_state(seed=s) for s in range(5)]
    for state in states:
        view(state, SPECTATOR, since=0)
        view(state, 1, since=0)
        assert view_module._FACES.get(state) and numbers._GIVEN.get(state)
        assert view_module._BOARDS.get(state.board)[0]() is game  # weakly: see _board_memo
        assert view_module._FACES.get(state.copy()) is None  # a copy starts afresh
    assert len(view_module._FACES) == kept[0] + 5
    del states, state
    gc.collect()
    assert (len(view_module._FACES), len(numbers._GIVEN), len(view_module._BOARDS)) == kept
