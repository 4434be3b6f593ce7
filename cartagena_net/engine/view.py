"""The one place hidden information is filtered: what a seat or a spectator may see.

Players, spectators, reconnects, logs and journals all get their data through
:func:`view`. A seat sees its own hand, the other hands' sizes (their cards only when the
ruleset makes hands public), the stock's size (never its order), the discard pile, the
face-up row, and every public event. A spectator sees public information only.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from .events import Event
from .jailbreak import CAPACITY
from .magic import TILE_NAMES, chest_spaces, known_top
from .memos import Beside
from .numbers import folded, seat_numbers
from .sentences import event_sentence
from .state import State

SPECTATOR = "spectator"


def _viewer_seat(state: State, viewer: int | str) -> int | None:
    if type(viewer) is int:  # a seat (a bool is no seat: its type is bool)
        if 0 <= viewer < len(state.hands):
            return viewer
    elif viewer == SPECTATOR:
        return None
    raise ValueError(f"viewer must be a seat number or {SPECTATOR!r}, not {viewer!r}")


def view(state: State, viewer: int | str, since: int | None = None,
         shared: dict[str, Any] | None = None, fixed: bool = True,
         public: bool = True) -> dict[str, Any]:
    """Plain data (dicts, lists, str, int, bool, None) for ``viewer``.

    With ``since``, ``events`` lists the events numbered from ``since`` on (each with a
    one-line ``text``; see ``state.event_count``), filtered like the rest.

    ``shared``: a dict kept by the caller for one state (one moment of one game) while it
    asks for several viewers' views: what does not depend on the viewer is built once,
    kept in it, and the same objects are returned in every view (treat views as read-only).

    ``fixed=False`` leaves out the entries that stay the same for the whole game
    (:func:`fixed_part`: its rules and board, the first entries of a whole view), for a
    caller that sends them once or has them encoded already. ``public=False`` (with
    ``shared``) leaves out the entries the same for every viewer of this moment too
    (``shared["public"]`` holds them), for a caller that encodes them once for all.
    """
    me = _viewer_seat(state, viewer)
    if shared is None:
        shared = {}
    shown = state.game.hands_public
    common = shared.get("public")
    if common is None:
        common = shared["public"] = _public(state)
        nums = shared["numbered"] = folded(state)
        faces = shared["faces"] = _faces(state)
        shared["seats"] = [_seat(state, s, shown, nums, faces)
                           for s in range(len(state.hands))]
    seats = shared["seats"]
    if me is not None and not shown:  # its own hand: the one part of the seats it alone sees
        seats = list(seats)
        seats[me] = _seat(state, me, True, shared["numbered"], shared["faces"])
    out: dict[str, Any] = {}
    if fixed:
        out.update(_shared_board(state, shared)[1])
    if public:
        out.update(common)
    out["seats"] = seats
    out["viewer"] = SPECTATOR if me is None else me
    if state.game.magic:
        out["magic"] = _magic(state, me)
    if since is not None:
        events = state.events or []
        first = max(0, since - state.events_base)
        memo = shared.setdefault("events", {})
        named = shared.setdefault("named", {})
        places = None
        listed = []
        for i in range(first, len(events)):
            # An event reads differently only to a seat it names (drawn, taken or given
            # cards); every other viewer shares the spectator's.
            seats = named.get(i)
            if seats is None:
                seats = named[i] = _named_seats(events[i])
            who = me if seats and me in seats else None
            d = memo.get((i, who))
            if d is None:
                if places is None:
                    places = _shared_board(state, shared)[2]
                d = memo[(i, who)] = _event(state, events[i], who, places)
            listed.append(d)
        out["events"] = listed
    return out


#: The events that read differently to the seat they name (``e.seat``): it sees the cards
#: it drew, kept or put back. A ``take`` or ``give`` reads differently to both seats in it.
_PERSONAL = frozenset(("retreat", "morgan", "draw", "chest", "keep", "stack"))


def _named_seats(e: Event) -> tuple[int, ...]:
    """The seats event ``e`` reads differently to than to a spectator (cards it drew,
    kept, put back, took or gave): none for most events, which read the same to every
    viewer."""
    kind = e.kind
    if kind in _PERSONAL:
        return (e.seat,)
    if kind == "take":
        return e.seat, e.target
    if kind == "give":
        return e.seat, e.to
    return ()


def _names_seat(e: Event, seat: int) -> bool:
    """Does event ``e`` read differently to ``seat`` than to a spectator?"""
    return seat in _named_seats(e)


#: Beside each state, the seats' faces given last: (seat, shown) -> (numbers, pirates,
#: hand, face).
_FACES = Beside()


def _faces(state: State) -> dict[tuple[int, bool], tuple]:
    """The faces kept beside ``state`` (:func:`_seat`)."""
    faces = _FACES.get(state)
    if faces is None:
        faces = _FACES.put(state, {})
    return faces


def _seat(state: State, s: int, shown: bool,
          nums: tuple[tuple[int, ...], ...] | None = None,
          memo: dict[tuple[int, bool], tuple] | None = None) -> dict[str, Any]:
    """Seat ``s``'s face: its pirates (in order of place, and by number where the state
    keeps its events: :mod:`.numbers`) and hand size, and its cards if ``shown``.

    The face is kept beside the state (``memo``: :func:`_faces`) and the same object is
    given again while the seat's pirates, hand and numbers stay the same: a host builds
    every seat's face for every action, and one action changes one or two of them
    (read-only)."""
    pirates = state.pirates[s]
    hand = state.hands[s]
    numbers = None if nums is None else nums[s]  # the same tuple while none moved
    if memo is None:
        memo = _faces(state)
    # A kept face holds while its numbers (the same tuple), pirates and hand are the seat's
    # (written out, here and for the public face below: a host asks for every face of
    # every state it sends).
    kept = memo.get((s, shown))
    if kept is not None and kept[0] is numbers and kept[1] == pirates and kept[2] == hand:
        return kept[3]
    names = state.game.card_names
    cards = [names[k] for k in range(len(hand)) for _ in range(hand[k])] if shown else None
    public = memo.get((s, False)) if shown else None
    if (public is not None and public[0] is numbers and public[1] == pirates
            and public[2] == hand):  # its public face of this moment, and its cards
        face = {**public[3], "hand": cards}
    else:
        face = {
            "seat": s,
            "color": state.game.colors[s],
            "pirates": list(pirates),
            "hand_size": sum(hand),
            "hand": cards,
        }
        if numbers is not None:
            face["numbered"] = seat_numbers(numbers, pirates)
    memo[(s, shown)] = (numbers, face["pirates"], list(hand), face)
    return face


def fixed_part(state: State) -> dict[str, Any]:
    """The first entries of every view of ``state``'s game, which never change during it:
    its rules, options and board. Built once per game (kept beside its board) and the
    same objects every time: read-only."""
    return _board_memo(state)[1]


def _shared_board(state: State, shared: dict[str, Any]) -> tuple:
    """:func:`_board_memo`, looked up once for all the views of one moment (``shared``)."""
    board = shared.get("board")
    if board is None:
        board = shared["board"] = _board_memo(state)
    return board


#: Beside each board, what the views derive from it (:func:`_board_memo`).
_BOARDS = Beside()


def _board_memo(state: State) -> tuple[Any, dict[str, Any], Callable[[int], str]]:
    """What the views derive from a game's board, made once per game and kept beside the
    board: the game, the fixed part, the host's names of its positions."""
    g = state.game
    board = state.board
    kept = _BOARDS.get(board)
    if kept is not None and kept[0]() is g:
        return kept
    part = {
        "rules": g.preset,
        "options": g.options(),
        "symbols": list(g.symbols),
        "board": list(board.names),
        "boat": board.boat,
        "start_name": g.start_name,
        "goal_name": g.goal_name,
        "story": g.story,
        "paths": [{"name": name, "first": first, "last": last}
                  for name, (first, last) in zip(g.path_names, board.paths, strict=True)],
    }
    # The game by a weak reference: a board its game reaches (its tables, its states)
    # would otherwise keep the game, and the entry, alive for good.
    return _BOARDS.put(board, (weakref.ref(g), part,
                               _english_places(g.start_name, g.goal_name, board.boat,
                                               board.sloop)))


def _public(state: State) -> dict[str, Any]:
    """What of a view changes during the game and is the same for every viewer (all but
    the fixed part, the seats, the viewer, the magic and the events)."""
    g = state.game
    names = g.card_names
    board = state.board
    extra = state.extra
    return {
        "sloop": None if board.sloop is None else {
            "pos": board.sloop, "shore": extra["shore"], "capacity": CAPACITY,
            "aboard": [mine.count(board.sloop) for mine in state.pirates]},
        "captain": extra.get("captain"),
        "free_sail": bool(extra.get("free_sail")),
        "stock": len(state.stock),
        "discard": [names[k] for k in state.discard],
        "row": None if state.row is None else [names[k] for k in state.row],
        "turn": state.turn,
        "actor": state.actor,
        "actions_taken": state.taken,
        "actions_max": g.actions,
        "actions_min": g.min_actions,
        "pending": [{"seat": s, "kind": kind, "count": n} for s, n, kind in state.pending],
        "outcome": None if state.outcome is None else {
            "winner": state.outcome.winner, "ranking": list(state.outcome.ranking)},
    }


def _magic(state: State, me: int | None) -> dict[str, Any]:
    """Black Magic Woman: the chests (tiles face down: no values), the power being
    resolved (its drawn cards and the Gun's target hand to its player only), and what
    the viewer knows of the top of the stock (the Lantern's cards it put back)."""
    g = state.game
    names = g.card_names
    x = state.extra
    spaces = chest_spaces(state.board, g.symbols)
    out: dict[str, Any] = {
        "chests": [{"pos": p, "closed": t != -1} for p, t in zip(spaces, x["chests"],
                                                                    strict=True)],
        "tiles_open": [TILE_NAMES[t] for t in x["tiles_open"]],
        "tiles_aside": len(x["tiles_aside"]),
        "power": None,
        "known_stock": [] if me is None else [names[k] for k in known_top(state, me)],
        "stock_known": [{"seat": s, "count": n} for s in range(g.players)
                        if (n := len(known_top(state, s)))],
    }
    power = x["power"]
    if power is not None:
        kind, seat, k = power[:3]
        p: dict[str, Any] = {"kind": kind, "seat": seat, "card": names[k]}
        if kind == "gun":
            p["target"] = power[3]
            if me == seat:
                hand = state.hands[power[3]]
                p["hand"] = [names[c] for c in range(len(hand)) for _ in range(hand[c])]
        else:
            pool = power[3]
            p["left"] = len(pool)  # drawn cards still to hand out or put back
            if kind == "rum":
                p["given"] = list(power[4])
            else:  # how many went back on top so far: the drawn less the kept and the left
                p["stacked"] = len(power[4])
            if me == seat:
                p["pool"] = sorted(names[c] for c in pool)
                if kind == "lantern":
                    p["placed"] = [names[c] for c in power[4]]
        out["power"] = p
    return out


def _event(state: State, e: Event, me: int | None,
           places: Callable[[int], str] | None = None) -> dict[str, Any]:
    """Event ``e`` (``events.py``) as the wire's map for viewer ``me`` (a seat, or None
    for a spectator), with the host's English line (``text``; ``places``: the board's
    names of its positions, :func:`_board_memo`)."""
    g = state.game
    names = g.card_names
    # Cards from the face-up row, or into open hands, are public; stock draws are not
    # (but to the seat that drew them). Each map is written out in its keys' order.
    public = g.hands_public or state.row is not None

    kind = e.kind
    d: dict[str, Any]
    if kind == "advance":
        d = {"type": kind, "seat": e.seat, "from": e.frm, "to": e.to, "card": names[e.card]}
    elif kind == "retreat":
        d = {"type": kind, "seat": e.seat, "from": e.frm, "to": e.to, "drawn": len(e.cards)}
        if public or e.seat == me:
            d["cards"] = [names[k] for k in e.cards]
    elif kind == "morgan":
        d = {"type": kind, "seat": e.seat, "owner": e.owner, "from": e.frm, "to": e.to,
             "drawn": len(e.cards)}
        if public or e.seat == me:
            d["cards"] = [names[k] for k in e.cards]
    elif kind == "undo" and e.action == "sail":
        d = {"type": kind, "seat": e.seat, "action": "sail", "shore": e.shore}
    elif kind == "undo":
        d = {"type": kind, "seat": e.seat, "action": "advance", "from": e.frm, "to": e.to,
             "card": names[e.card]}
    elif kind == "sail":
        d = {"type": kind, "seat": e.seat, "shore": e.shore, "free": e.free}
    elif kind == "captain" or kind == "turn" or kind == "end" or kind == "win":
        d = {"type": kind, "seat": e.seat}
    elif kind == "draw":
        d = {"type": kind, "seat": e.seat, "drawn": len(e.cards)}
        if public or e.seat == me:
            d["cards"] = [names[k] for k in e.cards]
    elif kind == "discard":
        d = {"type": kind, "seat": e.seat, "card": names[e.card]}
    elif kind == "owe":
        d = {"type": kind, "seat": e.seat, "count": e.count}
    elif kind == "reshuffle":
        d = {"type": kind, "size": e.size}
    elif kind == "row":
        d = {"type": kind, "cards": [names[k] for k in e.cards]}
    elif kind == "power":
        power = names[e.card].removesuffix("*")
        d = {"type": kind, "seat": e.seat, "card": names[e.card], "power": power}
        if power == "gun":  # a Gun event
            d["target"] = e.target
        else:  # a Power event
            d["drawn"] = e.drawn
    elif kind == "take":
        d = {"type": kind, "seat": e.seat, "target": e.target}
        if me in (e.seat, e.target):
            d["card"] = names[e.card]
        d["drawn"] = len(e.cards)
        if public or e.target == me:
            d["cards"] = [names[k] for k in e.cards]
    elif kind == "give":
        d = {"type": kind, "seat": e.seat, "to": e.to}
        if me in (e.seat, e.to):
            d["card"] = names[e.card]
    elif kind == "keep" or kind == "stack":
        d = {"type": kind, "seat": e.seat, "count": len(e.cards)}
        if e.seat == me or g.hands_public and kind == "keep":
            d["cards"] = [names[k] for k in e.cards]
    elif kind == "chest":
        tile = e.tile
        d = {"type": kind, "seat": e.seat, "card": names[e.card], "pos": e.pos,
             "tile": TILE_NAMES[tile], "to": e.to, "drawn": 0}
        if tile and tile != 4:
            d["drawn"] = len(e.cards)
            if public or e.seat == me:
                d["cards"] = [names[k] for k in e.cards]
    elif kind == "tiles":
        d = {"type": kind, "chests": e.chests}
    elif kind == "parrot":
        d = {"type": kind, "seat": e.seat, "from": e.frm, "to": e.to,
             "cards": [names[e.card], names[e.card2]], "card": g.symbols[e.symbol]}
    elif kind == "hook":
        d = {"type": kind, "seat": e.seat, "from": e.frm, "to": e.to,
             "cards": [names[e.card], names[e.card2]]}
    else:  # pragma: no cover - every event kind is listed above
        raise ValueError(f"unknown event {kind!r}")
    # The host's English line, from the event's data alone (as each client renders it).
    d["text"] = event_sentence(d, g.colors.__getitem__,
                               places if places is not None else _board_memo(state)[2], str)
    return d


def _english_places(start: str, goal: str, boat: int, sloop: int | None) -> Callable[[int], str]:
    """:func:`.sentences.english_place` for the positions a game's events name (start,
    the spaces, the sloop, the goal, and -1 for the goal too) as a lookup in a table
    made once per board (kept beside it): no Python call for each name."""
    table = [start, *map(str, range(1, boat)), goal]
    if sloop is not None:
        table[sloop] = "sloop"
    return tuple(table).__getitem__
