"""A learnt evaluation: each seat's chance of winning, from one viewer's view alone.

The model reads a view (:func:`cartagena_net.engine.view` for one viewer: a spectator's
for the room, a seat's for its hints) and the cards that viewer saw enter hidden hands
(``known``, :func:`cartagena_net.engine.determinize.track_known`), and nothing else, so
it can never tell what the viewer may not see; and, where the caller says it, who plays
each seat (``kinds``: a person, a random, greedy or searching bot, as the lobby lists it
to everyone: :func:`seat_kind`; public data, not hidden). For each seat it makes the same
:data:`FEATURES` (its pirates' progress, how far the cards it is known to hold take
them, its hand's size, what a retreat would draw, the cards and actions it needs to
bring every pirate aboard against the others', the tempo, the table, who plays it),
scores them by a tiny network shared by every seat (one hidden layer of ``tanh``), and a
seat's chance of winning is its share of the softmax of the seats' scores: heads-up a
sigmoid of the lead, with more seats a race. The weights were learnt from self-play games of the bots
(``tests/benchmarks/train_value.py``, which names its data and seed) and ship as JSON in
the package (``cartagena_net/bots/models/``), one model per family of rules: see
:data:`FAMILIES`. A view of rules without a model gets None (the callers then use the
playout estimate).

Plain Python at run time (no numpy): a four-seat position takes a few tenths of a
millisecond (``tests/benchmarks/bench_value.py``).
"""
from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

FEATURES = (
    "togo",  # spaces still to go of all its pirates, a share of the whole way
    "rear",  # the rearmost pirate's way still to go, a share
    "second",  # the second rearmost's
    "aboard",  # the share of its pirates aboard
    "hand",  # cards in hand, / 8
    "empty",  # 1 with no card in hand
    "reach",  # the mean over symbols of its longest advance now, / 12
    "known",  # cards known to the viewer in that hand, / 8
    "known_reach",  # the advances those cards give now, / 12, / 8
    "dark",  # dark cards known in that hand (the 2017 edition), / 4
    "to_move",  # 1 for the seat whose turn it is
    "order",  # how many seats act before it, / seats
    "left",  # actions left in the turn, / 3, for the seat to move
    "lead",  # its togo less the least togo of the others
    "mean_togo",  # every seat's togo, the mean (how far the game is)
    "stock",  # cards in the stock, / 100
    "two",  # heads-up
    "three",  # three seats
    "five",  # five or more seats
    "third",  # the third rearmost pirate's way still to go, a share
    "fourth",  # the fourth's
    "fifth",  # the fifth's
    "front",  # the foremost's
    "at_start",  # the share of its pirates still at the start
    "draw",  # the most cards one retreat of its pirates draws now, / 2
    "draw2_back",  # the fewest spaces a retreat drawing two goes back, / 12 (1: none)
    "draw_back",  # the fewest spaces any retreat goes back, / 12 (1: none)
    "cards",  # cards that bring all its pirates aboard, each jumping the rearmost as
    #           far as a symbol can, / 40
    "need",  # actions that takes: those cards, and retreats (1.5 cards each) for the
    #          cards beyond its hand, / 60
    "need_lead",  # its need less the least need of the others, / 20
    "rank",  # the share of the other seats that need fewer actions
    "hand_lead",  # its hand less the largest of the others', / 8
    "hand_reach",  # hand x reach
    "reach_unseen",  # reach weighted by the symbols of the cards not seen played
    "reach_max",  # the longest advance one card gives now, / 12
    # who plays the seat, as the lobby lists it to everyone (:func:`seat_kind`); all 0:
    # a person, or not known (the model learnt the mix of its games' players for that)
    "by_random",  # a random bot
    "by_greedy",  # a greedy bot (easy)
    "by_search",  # a searching bot (ismcts, any level)
)

# Who plays a seat, as the model tells them apart (:func:`seat_kind`); "unknown" for a
# person, a free seat, a stand-in bot for an absent player, or a seat nobody said.
KINDS = ("unknown", "random", "greedy", "search")
_KIND_COLUMN = {"random": FEATURES.index("by_random"), "greedy": FEATURES.index("by_greedy"),
                "search": FEATURES.index("by_search")}

# Which model serves which rules: (preset, magic, story) -> the model's file stem.
FAMILIES: dict[tuple[str, bool, str], str] = {
    ("jamaica", False, "escape"): "jamaica",
    ("studiogiochi-2017", True, "escape"): "magic",
    ("studiogiochi-2017", False, "escape"): "magic",
}

# Options a model's games were played with (each preset's own): another value of one
# of them changes the game too much for the model, which then serves nothing.
TRAINED = {"pirates": 6, "segments": 6, "actions": 3, "hands_public": False, "row_size": 0,
           "morgan": "off", "filibusters": False}

SPREAD = 0.004  # a share of every chance spread evenly: none is 0 or 1 before the end

_MODELS: dict[str, Model | None] = {}
_BOARDS: dict[tuple, tuple[tuple[tuple[int, ...], ...], dict[str, int]]] = {}


class Model:
    """A loaded model: ``score(x)`` of one seat's features (a float list)."""

    __slots__ = ("b1", "b2", "lin", "meta", "name", "w1", "w2")

    def __init__(self, data: Mapping[str, Any]) -> None:
        names = tuple(data["features"])
        if names != FEATURES[:len(names)]:
            raise ValueError("the model's features are not this version's")
        pad = [0.0] * (len(FEATURES) - len(names))  # a model of fewer features: the rest
        #                                             weigh nothing (who plays, unread)
        self.name = str(data["name"])
        self.w1 = [[*map(float, row), *pad] for row in data["w1"]]  # hidden x features
        self.b1 = list(map(float, data["b1"]))
        self.w2 = list(map(float, data["w2"]))
        self.b2 = float(data.get("b2", 0.0))
        self.lin = [*map(float, data["lin"]), *pad]  # a linear part beside the hidden layer
        self.meta = dict(data.get("meta", {}))

    def score(self, x: Sequence[float]) -> float:
        tanh = math.tanh
        total = self.b2
        for w, v in zip(self.lin, x):
            total += w * v
        for row, b, out in zip(self.w1, self.b1, self.w2):
            h = b
            for w, v in zip(row, x):
                h += w * v
            total += out * tanh(h)
        return total

    def chances(self, rows: Sequence[Sequence[float]]) -> list[float]:
        scores = [self.score(x) for x in rows]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        spread = SPREAD / len(weights)  # never certain before the end
        return [(1 - SPREAD) * w / total + spread for w in weights]


def seat_kind(seat: Mapping[str, Any] | None) -> str:
    """Who plays a seat, one of :data:`KINDS`, from public data only: a lobby's
    ``seat-info`` (``bot``, ``level``, ``connected``: docs/protocol.md) or a record's
    player (``kind``, ``bot``). A person, a free seat, a stand-in bot playing for an
    absent person (``bot`` with ``connected`` false) and anything else are ``unknown``."""
    if not isinstance(seat, Mapping) or seat.get("kind") == "human":
        return "unknown"
    if "connected" in seat and not seat.get("connected"):
        return "unknown"  # a stand-in: the seat is a person's
    bot = seat.get("bot")
    if bot == "ismcts":
        return "search"
    if bot in ("random", "greedy"):
        return str(bot)
    return "unknown"


def family(seen: Mapping[str, Any]) -> str | None:
    """The model's name for the rules of the view ``seen``, None if none serves them."""
    opts = seen.get("options") or {}
    key = (str(opts.get("preset", seen.get("rules"))), bool(opts.get("magic")),
           str(opts.get("story") or "escape"))
    if len(seen.get("paths") or ()) != 1:
        return None
    if any(k in opts and opts[k] != v for k, v in TRAINED.items()):
        return None
    return FAMILIES.get(key)


def load(name: str) -> Model | None:
    """The shipped model ``name`` (cached), None when the package has none."""
    if name in _MODELS:
        return _MODELS[name]
    model = None
    try:
        text = resources.files("cartagena_net.bots").joinpath(
            "models", f"{name}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        text = None
    if text is not None:
        model = Model(json.loads(text))
    _MODELS[name] = model
    return model


def model_for(seen: Mapping[str, Any]) -> Model | None:
    """The model for the rules of ``seen``, None if none ships."""
    name = family(seen)
    return None if name is None else load(name)


def _board(seen: Mapping[str, Any]) -> tuple[tuple[tuple[int, ...], ...], dict[str, int]]:
    """``ahead[p][k]``: the spaces of symbol ``k`` beyond ``p``, nearest first; and the
    symbols' indices."""
    key = (tuple(seen["board"]), tuple(seen["symbols"]))
    got = _BOARDS.get(key)
    if got is None:
        symbols = {s: k for k, s in enumerate(seen["symbols"])}
        board = list(seen["board"])  # board[q - 1]: the symbol of space q
        boat = len(board) + 1
        ahead = []
        for p in range(boat):
            row: list[list[int]] = [[] for _ in symbols]
            for q in range(p + 1, boat):
                k = symbols.get(board[q - 1])
                if k is not None:
                    row[k].append(q)
            ahead.append(tuple(tuple(r) for r in row))
        if len(_BOARDS) > 32:
            _BOARDS.clear()
        got = _BOARDS[key] = (tuple(ahead), symbols)
    return got


def _plain(card: Any) -> str:
    return str(card).removesuffix("*")


def _cards_to_finish(pirates: Sequence[int], occ: list[int],
                     ahead: tuple[tuple[tuple[int, ...], ...], ...], boat: int) -> int:
    """Cards that bring all of ``pirates`` (ascending) aboard, each card jumping the
    rearmost as far as any symbol takes it (the others' pirates standing still)."""
    occ = list(occ)
    ps = [p for p in pirates if p < boat]
    n = 0
    while ps and n < 60:
        p = ps.pop(0)
        best = p
        for row in ahead[p]:
            q = boat
            for q in row:
                if not occ[q]:
                    break
            else:
                q = boat
            if q > best:  # noqa: PLR1730 (a hot loop: no call)
                best = q
        if p:
            occ[p] -= 1
        if best < boat:
            occ[best] += 1
            k = 0
            while k < len(ps) and ps[k] < best:
                k += 1
            ps.insert(k, best)
        n += 1
    return n


def features(seen: Mapping[str, Any], known: Mapping[Any, Sequence[str]] | None = None,
             kinds: Sequence[str] | None = None) -> list[list[float]]:
    """Each seat's :data:`FEATURES` from the view ``seen``, ``known`` (seat -> cards
    the viewer saw enter that hidden hand) and ``kinds`` (who plays each seat, as the
    lobby shows it to everyone: :func:`seat_kind`; None or a missing seat: unknown).
    Reads nothing else."""
    seats = seen["seats"]
    n = len(seats)
    boat = int(seen["boat"])
    ahead, symbols = _board(seen)
    occ = [0] * (boat + 1)
    for s in seats:
        for p in s["pirates"]:
            if 0 < p < boat:
                occ[p] += 1
    actor = seen.get("actor")
    actor = actor if isinstance(actor, int) else -1
    left = max(0, int(seen.get("actions_max") or 3) - int(seen.get("actions_taken") or 0))
    nsym = len(symbols) or 1
    # the cards not seen played (the stock's and the hands'), by symbol: a discard pile
    # of one symbol makes that symbol rarer in every hidden hand
    unseen = [1.0] * nsym
    for c, m in Counter(seen.get("discard") or ()).items():
        k = symbols.get(_plain(c))
        if k is not None:
            unseen[k] -= m / 17
    unseen = [max(0.05, u) for u in unseen]
    usum = sum(unseen)
    rows: list[list[float]] = []
    togos: list[float] = []
    needs: list[float] = []
    sizes = [int(s.get("hand_size") or 0) for s in seats]
    for i, s in enumerate(seats):
        pirates = sorted(min(int(p), boat) for p in s["pirates"])
        k = len(pirates) or 1
        togo = sum(boat - p for p in pirates) / (k * boat)
        togos.append(togo)
        best = [0] * nsym
        last = -1
        draw, back2, back = 0, 12, 12
        for p in pirates:
            if p >= boat or p == last:
                continue
            last = p
            for j, row in enumerate(ahead[p]):
                q = boat
                for q in row:
                    if not occ[q]:
                        break
                else:
                    q = boat
                if q - p > best[j]:  # noqa: PLR1730 (a hot loop: no call)
                    best[j] = q - p
            if p:  # where a retreat would go: the nearest space of 1 or 2 behind
                for q in range(p - 1, 0, -1):
                    c = occ[q]
                    if c == 1 or c == 2:
                        if c > draw:  # noqa: PLR1730 (a hot loop: no call)
                            draw = c
                        if p - q < back:  # noqa: PLR1730
                            back = p - q
                        if c == 2 and p - q < back2:
                            back2 = p - q
                        break
        hand = s.get("hand")
        if hand is None and known:
            hand = known.get(i, known.get(str(i), ()))  # type: ignore[call-overload]
        hand = [str(c) for c in hand or ()]
        cards = [_plain(c) for c in hand]
        dark = sum(1 for c in hand if c.endswith("*"))
        reach = sum(best[symbols[c]] for c in cards if c in symbols)
        size = sizes[i]
        ways = pirates + [boat] * (6 - len(pirates))
        need_cards = _cards_to_finish(pirates, occ, ahead, boat)
        need = need_cards + max(0, need_cards - size) / 1.5
        needs.append(need)
        mean_reach = sum(best) / nsym / 12
        rows.append([
            togo,
            (boat - pirates[0]) / boat if pirates else 0.0,
            (boat - pirates[1]) / boat if len(pirates) > 1 else 0.0,
            sum(1 for p in pirates if p >= boat) / k,
            size / 8,
            1.0 if size == 0 else 0.0,
            mean_reach,
            len(cards) / 8,
            reach / 12 / 8,
            dark / 4,
            1.0 if i == actor else 0.0,
            ((i - actor) % n) / n if actor >= 0 else 0.0,
            left / 3 if i == actor else 0.0,
            0.0,
            0.0,
            int(seen.get("stock") or 0) / 100,
            1.0 if n == 2 else 0.0,
            1.0 if n == 3 else 0.0,
            1.0 if n >= 5 else 0.0,
            (boat - ways[2]) / boat,
            (boat - ways[3]) / boat,
            (boat - ways[4]) / boat,
            (boat - ways[5]) / boat,
            sum(1 for p in pirates if p == 0) / k,
            draw / 2,
            back2 / 12,
            back / 12,
            need_cards / 40,
            need / 60,
            0.0,
            0.0,
            (size - max((z for j, z in enumerate(sizes) if j != i), default=size)) / 8,
            size / 8 * mean_reach,
            sum(b * u for b, u in zip(best, unseen)) / usum / 12,
            max(best) / 12,
            0.0,
            0.0,
            0.0,
        ])
    mean = sum(togos) / n
    for i, row in enumerate(rows):
        others = [t for j, t in enumerate(togos) if j != i]
        row[13] = togos[i] - (min(others) if others else togos[i])
        row[14] = mean
        others = [t for j, t in enumerate(needs) if j != i]
        row[29] = (needs[i] - min(others)) / 20 if others else 0.0
        row[30] = sum(1 for t in others if t < needs[i]) / max(1, n - 1)
        column = _KIND_COLUMN.get(kinds[i]) if kinds is not None and i < len(kinds) else None
        if column is not None:
            row[column] = 1.0
    return rows


SMOOTH = 0.45  # the room's chances: this share of the new estimate, the rest the last shown


def smoothed(last: Sequence[float] | None, new: Sequence[float],
             share: float = SMOOTH) -> list[float]:
    """The chances the room shows after ``new``, the model's estimate of the newest
    position, when it showed ``last`` for the one before (None: the first of a game):
    ``share`` of the new and the rest of the last, so one action moves the bar a little
    under half way and the next moves it on. Measured on recorded four-bot games
    (docs/bots.md) this keeps the Brier score and calibration of the raw estimate and
    more than halves its steps. A finished
    game's chances are its outcome, never smoothed: the caller passes them as they are."""
    if last is None or len(last) != len(new):
        return list(new)
    return [share * n + (1 - share) * o for n, o in zip(new, last)]


def chances(seen: Mapping[str, Any], known: Mapping[Any, Sequence[str]] | None = None,
            model: Model | None = None, kinds: Sequence[str] | None = None
            ) -> list[float] | None:
    """Each seat's chance of winning from the view ``seen`` (a finished game: 1 for its
    winner), or None when no model serves these rules. ``kinds``: who plays each seat
    (:func:`seat_kind`; None: nobody said)."""
    outcome = seen.get("outcome")
    n = len(seen["seats"])
    if outcome is not None:
        return [1.0 if s == outcome["winner"] else 0.0 for s in range(n)]
    model = model or model_for(seen)
    if model is None:
        return None
    return model.chances(features(seen, known, kinds))


SAMPLES = 8  # deals of what the viewer cannot see a move that draws is valued over
CERTAIN = frozenset(("advance", "end", "discard", "give", "keep", "stack"))


def action_values(seen: Mapping[str, Any], known: Mapping[Any, Sequence[str]] | None,
                  actions: Sequence[str], model: Model | None = None,
                  samples: int = SAMPLES, kinds: Sequence[str] | None = None
                  ) -> dict[str, float]:
    """The chance of winning of the seat whose view ``seen`` is, after each of
    ``actions`` (its own), by the model read through that seat's view of the position
    after it. A move that draws or shows cards is valued over ``samples`` deals of what
    the seat cannot see, the same deals for every move and every call (seeds 0, 1, ...):
    the same view always gives the same values. Actions that cannot be played in any
    deal are left out; {} where no model serves the rules. ``kinds``: who plays each
    seat (:func:`seat_kind`)."""
    from cartagena_net.engine import RandomChance, view
    from cartagena_net.engine.determinize import Determinizer

    model = model or model_for(seen)
    me = seen.get("viewer")
    if model is None or not isinstance(me, int):
        return {}
    det = Determinizer(seen, known)
    worlds = [det.sample(random.Random(k)) for k in range(samples)]
    out: dict[str, float] = {}
    for action in actions:
        certain = action.split()[0] in CERTAIN
        total, count = 0.0, 0
        for k, world in enumerate(worlds[:1] if certain else worlds):
            state = world.copy(chance=RandomChance(random.Random(k)))
            try:
                state.apply(action, seat=me)
            except Exception:  # noqa: BLE001, S112 - not playable in this deal: left out
                continue
            after = view(state, me)
            if after.get("outcome") is not None:
                total += 1.0 if after["outcome"]["winner"] == me else 0.0
            else:
                total += model.chances(features(after, known, kinds))[me]
            count += 1
        if count:
            out[action] = total / count
    return out
