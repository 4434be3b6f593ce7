"""Hand-made engine views in the documented shape, for renderer and model tests."""
from __future__ import annotations

import copy
from typing import Any

SYMBOLS = ["skull", "dagger", "key", "bottle", "hat", "pistol"]
BOARD = [SYMBOLS[(i * 5 + i // 6) % 6] for i in range(36)]


def jamaica_view(viewer: int | str = 0) -> dict[str, Any]:
    """A 3-player game in progress; only the viewer's hand is shown."""
    seats = [
        {"seat": 0, "color": "red", "pirates": [0, 0, 3, 9, 37, 37], "hand_size": 5,
         "hand": ["skull", "skull", "key", "hat", "dagger*"]},
        {"seat": 1, "color": "blue", "pirates": [0, 3, 3, 10, 12, 20], "hand_size": 4,
         "hand": ["bottle", "bottle", "pistol", "pistol"]},
        {"seat": 2, "color": "black", "pirates": [1, 2, 9, 20, 21, 37], "hand_size": 7,
         "hand": ["hat"] * 7},
    ]
    for s in seats:
        if s["seat"] != viewer:
            s["hand"] = None
    return {
        "rules": "jamaica", "options": {"players": 3},
        "board": list(BOARD), "boat": 37, "symbols": list(SYMBOLS),
        "seats": seats, "stock": 61, "discard": ["key", "pistol"], "row": None,
        "turn": 0, "actor": 0, "actions_taken": 1, "actions_max": 3, "actions_min": 1,
        "pending": [], "outcome": None, "viewer": viewer,
    }


def tortuga_view() -> dict[str, Any]:
    """Tortuga: every hand public, a face-up row."""
    v = jamaica_view(0)
    v["rules"] = "tortuga"
    v["row"] = ["dagger", "dagger", "key", "hat"]
    for s in v["seats"]:
        s["hand"] = ["hat", "key"][: s["hand_size"]] if s["seat"] else s["hand"] or []
    v["seats"][1]["hand"] = ["bottle", "bottle", "pistol", "pistol"]
    v["seats"][2]["hand"] = ["hat"] * 7
    return v


def finished_view(viewer: int | str = 0) -> dict[str, Any]:
    v = jamaica_view(viewer)
    v["seats"][2]["pirates"] = [37] * 6
    v["outcome"] = {"winner": 2, "ranking": [2, 0, 1]}
    v["actor"] = None
    return v


def legal_for(view: dict[str, Any]) -> list[str]:
    """A plausible legal list for seat 0 in :func:`jamaica_view`."""
    out = []
    for pos in sorted(set(view["seats"][0]["pirates"])):
        if pos < view["boat"]:
            out += [f"advance {pos} skull", f"advance {pos} key", f"advance {pos} hat",
                    f"advance {pos} dagger*"]
        if pos > 0:
            out.append(f"retreat {pos}")
    return out + ["end"]


def clone(v: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(v)
