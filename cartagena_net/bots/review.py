"""A review of a finished game by the bot: each seat's chance of winning after every
action, what the bot would have played instead, and where the game turned.

Two estimates, each from what one viewer knew at that moment, through the engine's view
(:func:`cartagena_net.engine.view`), never from the record's cards:

- **Chances** (after each action, as a spectator saw the game): ``playouts`` games are
  played to their end from determinizations of the spectator's view (every hidden hand
  and the stock dealt at random, consistently with what was seen, as the ``ismcts`` bot
  deals them), each by the search's own playout policy (epsilon-greedy on a one-step
  score) for every seat; a seat's chance is its share of the wins, with one win spread
  evenly as a prior, so that no estimate is ever exactly 0 or 1. How well calibrated it
  is: ``tests/benchmarks/bench_review.py``.
- **The bot's move** (before each action, from the acting seat's own view: its hand, what
  it had seen drawn): the ``ismcts`` search at ``search`` iterations, the move it would
  have played, and the *loss*: the acting seat's chance of winning after the bot's move
  less its chance after the move played, both from ``playouts`` determinizations of the
  seat's view played out with the same random numbers (0 when the moves are the same,
  never below 0; ``None`` for ``undo``).

Each position is one job, :func:`position`, of plain picklable arguments, so the host runs
them in its bot workers (lowest priority, never on the reactor) and ``cartagena review``
in worker processes of its own. :func:`assemble` makes the review from the jobs' answers.
The review format is in docs/records.md.
"""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from cartagena_net.bots.coach import EPSILON, view_chances
from cartagena_net.engine import SPECTATOR, RandomChance, view
from cartagena_net.engine.determinize import Determinizer, track_known
from cartagena_net.records.format import compact

FORMAT = "cartagena-net review"
VERSION = 1
PLAYOUTS = 96  # games played out from each position for the chances
SEARCH = 2000  # ismcts iterations for the bot's move at each position
TURNING = 5  # how many turning points a review names


def method(playouts: int = PLAYOUTS, search: int = SEARCH,
           model: str | None = None) -> dict[str, Any]:
    """How a review is made, as written in it (``model``: the value model's name where
    one served the rules)."""
    if model is not None:
        return {"chances": f"the value model {model!r} on the spectator's view; each move "
                           "by the acting seat's chance after it, from its own view; the "
                           "search checks the costly ones (sure)",
                "model": model, "playouts": playouts, "search": search, "bot": "ismcts"}
    return {"chances": f"{playouts} playouts to the end from the spectator's view, "
                       "the search's playout policy for every seat, one win spread as a prior",
            "playouts": playouts, "search": search, "bot": "ismcts"}


def state_at(record: Mapping[str, Any], k: int) -> Any:
    """The state of a full record's game after its first ``k`` actions (with events)."""
    from cartagena_net.records.format import walk

    for i, state in enumerate(walk(record)):
        if i == k:
            return state
    raise ValueError(f"the record has {len(record['moves'])} actions, not {k}")


def chances(state: Any, playouts: int, rng: random.Random,
            kinds: Sequence[str] | None = None) -> list[float]:
    """Each seat's chance of winning from ``state`` as a spectator sees it (the same
    estimator as the room's live chances: the value model where one serves the rules,
    :mod:`cartagena_net.bots.value`, knowing who played each seat, ``kinds``; else
    :func:`cartagena_net.bots.coach.view_chances`)."""
    from cartagena_net.bots import value

    seen = view(state, SPECTATOR, since=0)
    known = track_known({}, seen.get("events") or (), -1)
    got = value.chances(seen, known, kinds=kinds)
    if got is not None:
        return [round(p, 4) for p in got]
    return view_chances(seen, known, playouts, rng)[0]


def model_move(seen: Mapping[str, Any], known: Any, legal: Sequence[str], played: str,
               iterations: int, rng: random.Random, model: Any,
               kinds: Sequence[str] | None = None) -> dict[str, Any]:
    """The bot's view of a move by the value model (:func:`bot_move` where a model
    serves the rules): every legal move valued by the seat's chance after it
    (:func:`cartagena_net.bots.value.action_values`: the same view, the same values);
    ``best`` the move of the highest, ``loss`` what the move played cost against it, in
    chance; ``sure``: whether the search (``iterations``, the static evaluation, another
    measure of the same moves) also rates the best move above the one played; asked only
    where the move cost something."""
    from cartagena_net.bots import value

    values = value.action_values(seen, known, legal, model, kinds=kinds)
    if played not in values:
        return {"best": None, "loss": None}
    top = max(values.values())
    best = played if values[played] >= top - TIE else next(
        a for a in legal if values.get(a) == top)
    loss = 0.0 if best == played else round(top - values[played], 4)
    out: dict[str, Any] = {"best": best, "loss": loss,
                           "chance": round(values[played], 4), "best_chance": round(top, 4),
                           "said": said(seen, known, played, best)}
    if best != played and iterations and out["loss"] >= SURE_FROM:
        from cartagena_net.bots.ismcts import search

        result = search(seen, legal, known, {"think": 1e9, "iterations": iterations,
                                             "settle": 0.0, "keep": False},
                        rng.getrandbits(63))
        means = result.means
        out["sure"] = bool(means.get(best, 0.0) > means.get(played, 0.0))
    return out


SURE_FROM = 0.01  # a move that cost at least this chance is checked by the search
TIE = 0.0005  # moves whose chances after are this near are as good as each other


def bot_move(state: Any, played: str, iterations: int, playouts: int,
             rng: random.Random, kinds: Sequence[str] | None = None) -> dict[str, Any]:
    """What the search would play for the seat to act in ``state``, and what the move
    ``played`` there cost: the seat's chance of winning after the bot's move less its
    chance after the move played, both estimated from the seat's own view by the same
    ``playouts`` determinizations played out with the same random numbers."""
    from cartagena_net.bots.ismcts import search

    seat = state.actor
    seen = view(state, seat, since=0)
    legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
    known = track_known({}, seen.get("events") or (), seat)
    if len(legal) < 2 or played not in legal:
        out: dict[str, Any] = {"best": legal[0] if len(legal) == 1 else None,
                               "loss": 0.0 if played in legal else None}
        if played in legal:
            out["said"] = said(seen, known, played, played)
        return out
    from cartagena_net.bots import value

    model = value.model_for(seen)
    if model is not None:
        return model_move(seen, known, legal, played, iterations, rng, model, kinds)
    # The whole count, as the method says: a review waits for no one (settle=0).
    result = search(seen, legal, known, {"think": 1e9, "iterations": iterations, "settle": 0.0},
                    rng.getrandbits(63))
    best = result.action
    if played == best:
        return {"best": best, "loss": 0.0, "said": said(seen, known, played, best)}
    det = Determinizer(seen, known)
    wins = {best: 0.0, played: 0.0}
    for _ in range(playouts):
        world = det.sample(rng)
        seed = rng.getrandbits(63)
        for move in (best, played):
            s = world.copy(chance=RandomChance(random.Random(seed)))
            s.apply(move)
            _play_out(s, random.Random(seed))
            if s.outcome is not None and s.outcome.winner == seat:
                wins[move] += 1
    loss = (wins[best] - wins[played]) / playouts
    return {"best": best, "loss": round(max(0.0, loss), 4),
            "said": said(seen, known, played, best)}


def said(seen: Mapping[str, Any], known: Any, played: str, best: str) -> dict[str, Any]:
    """The move played, and the bot's where it differs, as the hints word them (a
    reason's key and fields, :func:`cartagena_net.bots.coach.words`; None for a move
    the hints have no words for): what every screen shows of a review's moves, never
    their notation."""
    from cartagena_net.bots.coach import words

    out = {"played": words(seen, known, played, chances=False).get("move")}
    if best != played:
        out["best"] = words(seen, known, best, chances=False).get("move")
    return out


def _play_out(s: Any, rng: random.Random) -> None:
    from cartagena_net.bots.ismcts import SearchConfig, playout

    playout(s, rng, SearchConfig(rounds=-1, playout="greedy", epsilon=EPSILON))


def position(record: Mapping[str, Any] | bytes, k: int, playouts: int = PLAYOUTS,
             iterations: int = SEARCH, seed: int = 0) -> dict[str, Any]:
    """One job: the chances after ``k`` actions, and the bot's view of action ``k + 1``
    (the value model knowing who played each seat: the record's players, each a person
    or a bot of a kind, as the lobby listed them). ``record`` may be its JSON text (as
    :func:`jobs` gives it)."""
    from cartagena_net.bots import value

    if isinstance(record, bytes):
        record = json.loads(record)
    rng = random.Random(seed)
    state = state_at(record, k)
    kinds = [value.seat_kind(p) for p in record.get("players") or ()]
    out: dict[str, Any] = {"k": k, "chances": chances(state, playouts, rng, kinds)}

    model = value.model_for(view(state, SPECTATOR))
    if model is not None:
        out["model"] = model.name
    moves = record["moves"]
    if k < len(moves):
        played = moves[k]["action"]
        out["move"] = {"seat": moves[k]["seat"], "played": played,
                       **bot_move(state, played, iterations, playouts, rng, kinds)}
    return out


def jobs(record: Mapping[str, Any] | bytes, playouts: int = PLAYOUTS,
         iterations: int = SEARCH, seed: int | None = None) -> list[tuple[Any, tuple]]:
    """The review's jobs, ``(function, arguments)``, one per position (0..N). Each
    carries the record as one JSON text, the same bytes for all: a worker's job
    is pickled as a copy of them, not as the record's thousands of objects again for
    each position, and a review that waits for the workers holds one object, not a game's
    worth among the host's (``docs/architecture.md``, "What a host keeps"). ``record``
    may be that text already (the host's queue keeps it so)."""
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    if isinstance(record, bytes):
        text, moves = record, len(json.loads(record)["moves"])
    else:
        text, moves = compact(dict(record)), len(record["moves"])
    return [(position, (text, k, playouts, iterations, rng.getrandbits(63)))
            for k in range(moves + 1)]


def assemble(record: Mapping[str, Any], answers: Sequence[Mapping[str, Any]],
             playouts: int = PLAYOUTS, iterations: int = SEARCH) -> dict[str, Any]:
    """The review of ``record`` from the answers of its :func:`jobs`, in any order."""
    by_k = {a["k"]: a for a in answers}
    n = len(record["moves"])
    if sorted(by_k) != list(range(n + 1)):
        raise ValueError("the review's answers do not cover every position")
    moves = [by_k[k]["move"] for k in range(n)]
    lossy = [(m["loss"], k) for k, m in enumerate(moves) if m.get("loss")]
    lossy.sort(key=lambda x: (-x[0], x[1]))
    model = next((a["model"] for a in answers if a.get("model")), None)
    return {
        "format": FORMAT, "version": VERSION, "record": record["id"],
        "method": method(playouts, iterations, model),
        "positions": [{"chances": by_k[k]["chances"]} for k in range(n + 1)],
        "moves": moves,
        "turning": [k for _, k in lossy[:TURNING]],
    }


def review(record: Mapping[str, Any], playouts: int = PLAYOUTS, iterations: int = SEARCH,
           run: Any = None, seed: int | None = None) -> dict[str, Any]:
    """The whole review in this process (``run(fn, args)`` may run the jobs elsewhere
    and return their answers, e.g. a worker pool's map)."""
    todo = jobs(record, playouts, iterations, seed)
    answers = run(todo) if run is not None else [fn(*args) for fn, args in todo]
    return assemble(record, answers, playouts, iterations)


def check(rev: Any, record: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``rev`` if it is a review this version reads (of ``record``, if given); else
    ValueError saying what is wrong."""
    if not isinstance(rev, dict) or rev.get("format") != FORMAT:
        raise ValueError("not a cartagena-net review")
    version = rev.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("a review without a valid version")
    if version > VERSION:
        raise ValueError(f"a review of version {version}, written by a newer cartagena-net "
                         f"(this one reads up to {VERSION})")
    positions, moves = rev.get("positions"), rev.get("moves")
    if not isinstance(positions, list) or not isinstance(moves, list) \
            or len(positions) != len(moves) + 1:
        raise ValueError("a damaged review: positions and moves do not match")
    if record is not None and (rev.get("record") != record.get("id")
                               or len(moves) != len(record.get("moves") or ())):
        raise ValueError("the review is of another game")
    for p in positions:
        c = p.get("chances") if isinstance(p, dict) else None
        if not isinstance(c, list) or not all(isinstance(x, (int, float))
                                              and not isinstance(x, bool) and 0 <= x <= 1
                                              for x in c):
            raise ValueError("a damaged review: a position's chances are not numbers in 0..1")
    for m in moves:
        if not isinstance(m, dict) or not isinstance(m.get("played"), str):
            raise ValueError("a damaged review: a move is malformed")  # noqa: TRY004
    return rev
