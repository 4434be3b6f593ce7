"""Train the value model (:mod:`cartagena_net.bots.value`) from self-play games.

The data: ``--games`` games of bots (each seat at random a ``random`` bot, the
``--random-share`` of the seats, else ``greedy`` or a fast ``ismcts`` of 150 or 300
iterations, or of ``--search-iterations``, counted, so a seed plays the same game
again), seats as ``--players`` says,
the seeds ``--seed`` * 1,000,003 + game, and the games of earlier caches (``--also``).
Each seat's kind is a feature (who plays it is public: the lobby lists it); in training
a share of the seats is shown unknown (``--unknown``), as a person's is, so that the
model learns the mix of players an unknown seat stands for (never a random bot's).
A game is kept as its seed, its seats' kinds and its actions (``--cache``: one game a
line, kept and added to; a cache of before, with no kinds, is of seed 58's mix without
random seats and its seats are drawn again from each seed), so a new feature set
needs no bots: the games are replayed by the engine, and at every action each gives, for
the spectator and for the seat to move, that viewer's features
(:func:`cartagena_net.bots.value.features` on the engine's view for it and the cards it
saw enter hidden hands), and the game's winner. The last ``--hold`` share of the games
is held out: the figures printed (log loss, Brier score, expected calibration error over
ten bins) are of the spectator's positions of those games.

The fit (numpy, a test extra; the package never imports it): a tiny network shared by
every seat (``--hidden`` tanh units and a linear part), a seat's chance its softmax
share, the winner's log likelihood maximised by Adam on minibatches (``--epochs`` passes)
with a little L2. The weights go to ``cartagena_net/bots/models/<family>.json`` with the
data, seed and figures in ``meta``.

    nice python3 tests/benchmarks/train_value.py --family jamaica --games 800 --seed 59 --random-share 0.25 --cache /tmp/valuedata/jamaica-kinds.jsonl --also /tmp/valuedata/jamaica2.jsonl --workers 1
    nice python3 tests/benchmarks/train_value.py --family magic --games 1000 --seed 59 --random-share 0.25 --cache /tmp/valuedata/magic-kinds.jsonl --also /tmp/valuedata/magic2.jsonl --workers 1
    nice python3 tests/benchmarks/train_value.py --family magic --games 800 --seed 60 --random-share 0.25 --search-iterations 1000 2000 --cache /tmp/valuedata/magic-strong.jsonl --also /tmp/valuedata/magic-kinds.jsonl --also /tmp/valuedata/magic2.jsonl --workers 2

(``/tmp/valuedata/jamaica2.jsonl``, ``magic2.jsonl``: ``--games 2000`` and ``1000`` of
seed 58, made by this script before seats' kinds were recorded.)
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

RULES = {  # family -> the (preset, options) its games are played by
    "jamaica": [("jamaica", {})],
    "magic": [("studiogiochi-2017", {"magic": True}), ("studiogiochi-2017", {})],
}


SEARCH_ITERATIONS = (150, 300)  # a searching seat's counts (the first for half of them)


def bot_for(rng: random.Random, seat: int, random_share: float = 0.0,
            search: tuple[int, ...] = SEARCH_ITERATIONS) -> tuple[str, dict]:
    """A seat's bot: ``random`` (``random_share`` of the seats), else ``greedy`` (35%) or
    a counted ``ismcts`` of ``search``'s first count (the first half of the searching
    seats) or its last (by default 150 or 300 iterations). With no random share the draws
    are those of the caches made before seats' kinds were recorded (seed 58), so their
    seats are known from their seeds."""
    if random_share and rng.random() < random_share:
        return "random", {}
    r = rng.random()
    if r < 0.35:
        return "greedy", {}
    return "ismcts", {"iterations": search[0] if r < 0.7 else search[-1],
                      "deterministic": True}


def seats_of(seed: int, players: int, random_share: float = 0.0) -> list[str]:
    """The kinds of a game's seats (``random``, ``greedy``, ``ismcts``), from its seed."""
    rng = random.Random(seed)
    return [bot_for(rng, s, random_share)[0] for s in range(players)]


def play_game(family: str, players: int, seed: int, random_share: float = 0.0,
              search: tuple[int, ...] = SEARCH_ITERATIONS) -> dict:
    """One game of bots: ``{"seed", "players", "winner", "kinds": [each seat's bot kind],
    "actions": [[seat, action]...]}`` (winner -1: not over in 2,000 actions). The actions
    replay the game exactly (:func:`replay`), so a cache of them serves any feature set."""
    from cartagena_net.bots.kinds import make_bot
    from cartagena_net.engine import make_game, view

    rng = random.Random(seed)
    preset, opts = RULES[family][seed % len(RULES[family])]
    game = make_game(preset, players=players, **opts)
    state = game.new_state(seed=seed)
    bots, kinds = [], []
    for s in range(players):
        kind, kw = bot_for(rng, s, random_share, search)
        kinds.append(kind)
        bots.append(make_bot(kind, random.Random(seed * 7 + s), **kw))
    actions = []
    while not state.is_over and len(actions) < 2000:
        seat = state.actor
        legal = [str(a) for a in state.legal_actions() if str(a) != "undo"]
        action = str(bots[seat].choose(view(state, seat), legal))
        state.apply(action)
        actions.append([seat, action])
    winner = state.outcome.winner if state.is_over else -1
    return {"seed": seed, "players": players, "winner": winner, "kinds": kinds,
            "actions": actions}


def replay(family: str, game: dict) -> dict:
    """A recorded game's rows: at every action, for the spectator and for the seat to
    move, that viewer's features (:func:`cartagena_net.bots.value.features` on the
    engine's view for it and the cards it saw enter hidden hands): ``{"rows":
    [[features of each seat]...], "spectator": [bool...], "winner", "players"}``."""
    from cartagena_net.bots.value import features
    from cartagena_net.engine import SPECTATOR, make_game, view
    from cartagena_net.engine.determinize import track_known

    players, seed = game["players"], game["seed"]
    preset, opts = RULES[family][seed % len(RULES[family])]
    state = make_game(preset, players=players, **opts).new_state(seed=seed)
    viewers = [SPECTATOR, *range(players)]
    known: dict = {v: {} for v in viewers}
    told = 0
    rows, spect = [], []
    for seat, action in game["actions"]:
        seen = {}
        for v in viewers:
            seen[v] = view(state, v, since=told)
            track_known(known[v], seen[v]["events"], -1 if v == SPECTATOR else v)
        told = state.event_count
        rows.append(features(seen[SPECTATOR], known[SPECTATOR]))
        spect.append(True)
        rows.append(features(seen[seat], known[seat]))
        spect.append(False)
        state.apply(action, seat=seat)
    if not state.is_over or state.outcome.winner != game["winner"]:
        raise ValueError(f"game {seed} does not replay to its recorded end")
    return {"rows": rows, "spectator": spect, "winner": game["winner"], "players": players}


def _replayed(task: tuple) -> dict:
    return replay(*task)


def _numbered(task: tuple) -> tuple[int, dict]:
    family, players, seed, g, random_share, search = task
    return g, play_game(family, players, seed, random_share, search)


def fit(data: list[dict], hidden: int, epochs: int, seed: int, l2: float,
        lr: float = 0.01, batch: int = 2048) -> dict:
    """Adam on minibatches of about ``batch`` positions (each seat count in its share),
    ``epochs`` passes over the data, the rate falling linearly to a tenth; L2 ``l2``."""
    import numpy as np

    f = len(data[0]["rows"][0][0])
    rs = np.random.default_rng(seed)
    params = {"w1": rs.normal(0, 0.3, (hidden, f)), "b1": np.zeros(hidden),
              "w2": rs.normal(0, 0.3, hidden), "lin": np.zeros(f)}
    groups = []  # by seat count: X (N, n, F), y (N,)
    for n in sorted({d["players"] for d in data}):
        xs = [r for d in data if d["players"] == n for r in d["rows"]]
        ys = [d["winner"] for d in data if d["players"] == n for _ in d["rows"]]
        if xs:
            groups.append((np.asarray(xs, float), np.asarray(ys)))
    total = sum(len(y) for _, y in groups)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    b1, b2 = 0.9, 0.999
    steps = max(1, total // batch)
    t = 0
    for epoch in range(1, epochs + 1):
        perms = [rs.permutation(len(y)) for _, y in groups]
        loss = 0.0
        for step in range(steps):
            t += 1
            rate = lr * (1 - 0.9 * t / (epochs * steps))
            grads = {k: np.zeros_like(v) for k, v in params.items()}
            count = 0
            for (X, y), perm in zip(groups, perms):
                k = len(y) * batch // total
                pick = perm[step * k:(step + 1) * k]
                if not len(pick):
                    continue
                Xb, yb = X[pick], y[pick]
                h = np.tanh(Xb @ params["w1"].T + params["b1"])  # (B, n, H)
                s = h @ params["w2"] + Xb @ params["lin"]  # (B, n)
                s -= s.max(axis=1, keepdims=True)
                p = np.exp(s)
                p /= p.sum(axis=1, keepdims=True)
                idx = np.arange(len(yb))
                loss -= np.log(p[idx, yb] + 1e-12).sum()
                g = p.copy()
                g[idx, yb] -= 1.0  # d loss / d s
                grads["w2"] += np.einsum("ns,nsh->h", g, h)
                grads["lin"] += np.einsum("ns,nsf->f", g, Xb)
                gh = g[:, :, None] * params["w2"] * (1 - h * h)  # (B, n, H)
                grads["w1"] += np.einsum("nsh,nsf->hf", gh, Xb)
                grads["b1"] += gh.sum(axis=(0, 1))
                count += len(yb)
            for k in grads:
                grads[k] /= max(1, count)
            for k in ("w1", "w2", "lin"):
                grads[k] += l2 * params[k]
            for k in params:
                m[k] = b1 * m[k] + (1 - b1) * grads[k]
                v2[k] = b2 * v2[k] + (1 - b2) * grads[k] ** 2
                mh = m[k] / (1 - b1 ** t)
                vh = v2[k] / (1 - b2 ** t)
                params[k] -= rate * mh / (np.sqrt(vh) + 1e-8)
        print(f"epoch {epoch}: log loss {loss / total:.4f}", file=sys.stderr)
    return {"w1": params["w1"].round(5).tolist(), "b1": params["b1"].round(5).tolist(),
            "w2": params["w2"].round(5).tolist(), "b2": 0.0,
            "lin": params["lin"].round(5).tolist()}


def score(pairs: list[tuple[float, int]]) -> dict:
    """Brier score and expected calibration error (ten bins) of (chance, won) pairs."""
    n = len(pairs)
    brier = sum((p - w) ** 2 for p, w in pairs) / n
    bins: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    for p, w in pairs:
        bins[min(9, int(p * 10))].append((p, w))
    ece = sum(abs(sum(p for p, _ in b) - sum(w for _, w in b)) for b in bins if b) / n
    return {"brier": round(brier, 4), "ece": round(ece, 4), "pairs": n}


def with_kinds(d: dict, kinds: list[str]) -> None:
    """Set the rows' who-plays-each-seat features (:func:`cartagena_net.bots.value.seat_kind`)
    to ``kinds``, in place."""
    from cartagena_net.bots.value import FEATURES

    columns = {"random": FEATURES.index("by_random"), "greedy": FEATURES.index("by_greedy"),
               "search": FEATURES.index("by_search")}
    for rows in d["rows"]:
        for i, row in enumerate(rows):
            for c in columns.values():
                row[c] = 0.0
            if kinds[i] in columns:
                row[columns[kinds[i]]] = 1.0


def masked(d: dict, games: float, seats: float) -> list[str]:
    """The game's seats' kinds as training shows them: unknown in ``games`` of the
    games, else each seat unknown with chance ``seats`` (drawn from the game's seed),
    as a person's seat is, so that the model learns for an unknown seat the mix of the
    players it hides. A random bot's seat is never hidden: a person is no random player,
    so unknown stands for the mix of the greedy and the searching bots."""
    rng = random.Random(d["seed"] * 3 + 1)
    share = 1.0 if rng.random() < games else seats
    return [k if k == "random" or rng.random() >= share else "unknown" for k in d["kinds"]]


def held_out(model_data: dict, data: list[dict], blind: bool = False) -> dict:
    """Figures of the spectator's positions of ``data`` (``blind``: every seat's kind
    unknown)."""
    import math

    from cartagena_net.bots.value import FEATURES, Model

    model = Model(model_data)
    kind_columns = {FEATURES.index(f) for f in ("by_random", "by_greedy", "by_search")}
    pairs = []
    loss = 0.0
    positions = 0
    for d in data:
        for rows, spect in zip(d["rows"], d["spectator"]):
            if not spect:
                continue
            if blind:
                rows = [[0.0 if c in kind_columns else v for c, v in enumerate(r)]
                        for r in rows]
            ch = model.chances(rows)
            loss -= math.log(max(ch[d["winner"]], 1e-12))
            positions += 1
            pairs += [(p, int(s == d["winner"])) for s, p in enumerate(ch)]
    out = score(pairs)
    out["log_loss"] = round(loss / max(1, positions), 4)
    return out


def main() -> int:
    from cartagena_net.bots.value import FEATURES, seat_kind

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=sorted(RULES), default="jamaica")
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 4])
    ap.add_argument("--seed", type=int, default=58)
    ap.add_argument("--hidden", type=int, default=8)
    ap.add_argument("--epochs", type=int, default=10, help="passes over the data")
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--hold", type=float, default=0.2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cache", help="a file of the games, one a line (kept and added to)")
    ap.add_argument("--out", help="the model file (default: the package's)")
    ap.add_argument("--random-share", type=float, default=0.0,
                    help="the share of the seats a random bot plays (the others greedy "
                         "or ismcts as before)")
    ap.add_argument("--search-iterations", type=int, nargs="+", default=list(SEARCH_ITERATIONS),
                    metavar="N", help="a searching seat's count of iterations: the first "
                    "for half of the searching seats, the last for the others (default "
                    "150 300)")
    ap.add_argument("--also", action="append", default=[], metavar="CACHE",
                    help="another cache of this family's games (e.g. an earlier seed's), "
                         "added as it is (no game played for it); its last --hold share "
                         "held out too; a game without recorded kinds is of the mix "
                         "without random seats (its seats drawn again from its seed)")
    ap.add_argument("--unknown", type=float, nargs=2, default=[0.2, 0.2],
                    metavar=("GAMES", "SEATS"),
                    help="in training, the share of the games whose seats are all "
                         "unknown, and of the other games' seats")
    ap.add_argument("--compare", metavar="MODEL",
                    help="another model file (e.g. the one before) scored on the same "
                         "held-out games")
    ap.add_argument("--play-only", action="store_true",
                    help="play the games into --cache and stop (no fit)")
    args = ap.parse_args()
    start = time.perf_counter()
    cache = Path(args.cache) if args.cache else None
    done: dict[int, dict] = {}
    if cache is not None and cache.exists():  # one game a line: a run stopped goes on
        for line in cache.read_text().splitlines():
            try:
                g = json.loads(line)
            except ValueError:
                continue  # a line cut short by a stop
            done[g.pop("game")] = g
    todo = [g for g in range(args.games) if g not in done]
    out = cache.open("a") if cache is not None else None
    with multiprocessing.Pool(args.workers) as pool:
        tasks = [(args.family, args.players[g % len(args.players)],
                  args.seed * 1_000_003 + g, g, args.random_share,
                  tuple(args.search_iterations)) for g in todo]
        for g, d in pool.imap_unordered(_numbered, tasks):
            done[g] = d
            if out is not None:
                out.write(json.dumps({"game": g, **d}, separators=(",", ":")) + "\n")
                out.flush()
    if out is not None:
        out.close()
    if args.play_only:
        print(json.dumps({"bench": "train-value-games", "family": args.family,
                          "games": len(done), "cache": str(cache),
                          "seconds": round(time.perf_counter() - start, 1)}))
        return 0
    for g in range(args.games):
        if "actions" not in done[g] or done[g]["seed"] != args.seed * 1_000_003 + g:
            raise SystemExit(f"{cache}: game {g} has no actions of seed {args.seed} "
                             "(a cache of an earlier version or seed): make it anew")
    sources = [[dict(done[g], kinds=done[g].get("kinds") or seats_of(
        done[g]["seed"], done[g]["players"], args.random_share))
        for g in range(args.games) if done[g]["winner"] >= 0]]
    for also in args.also:  # earlier caches, as they are (no game played for them)
        lines = [json.loads(line) for line in Path(also).read_text().splitlines() if line]
        lines.sort(key=lambda g: g["game"])
        sources.append([dict(g, kinds=g.get("kinds") or seats_of(g["seed"], g["players"]))
                        for g in lines if g["winner"] >= 0])
    made = time.perf_counter() - start
    train, test = [], []
    for games in sources:  # the last --hold share of each source held out
        with multiprocessing.Pool(args.workers) as pool:  # every viewer's rows, replayed
            data = pool.map(_replayed, [(args.family, g) for g in games], chunksize=8)
        for d, g in zip(data, games):
            d["seed"], d["kinds"] = g["seed"], [seat_kind({"bot": k}) for k in g["kinds"]]
        cut = int(len(data) * (1 - args.hold))
        train += data[:cut]
        test += data[cut:]
    for d in train:  # a share of the seats unknown, as a person's is: the model learns the mix
        with_kinds(d, masked(d, *args.unknown))
    for d in test:
        with_kinds(d, d["kinds"])
    weights = fit(train, args.hidden, args.epochs, args.seed, args.l2, args.lr)
    model = {"name": args.family, "features": list(FEATURES), **weights}
    figures = held_out(model, test)
    blind = held_out(model, test, blind=True)
    fitted = held_out(model, train)
    other = (held_out(json.loads(Path(args.compare).read_text()), test)
             if args.compare else None)
    model["meta"] = {
        "trained_by": "tests/benchmarks/train_value.py",
        "command": " ".join(["train_value.py", *sys.argv[1:]]),
        "games": len(train) + len(test), "held_out_games": len(test), "seed": args.seed,
        "data": [{"cache": args.cache, "seed": args.seed, "random_share": args.random_share,
                  "search_iterations": args.search_iterations, "games": len(sources[0])},
                 *({"cache": a, "games": len(g)} for a, g in zip(args.also, sources[1:]))],
        "rules": [[p, o] for p, o in RULES[args.family]], "players": args.players,
        "bots": "each seat random (--random-share) or else greedy (35%) or ismcts of "
                f"{args.search_iterations[0]} or {args.search_iterations[-1]} iterations "
                "(--also: 150 or 300); each seat's kind a feature, unknown (as a person's) "
                f"in {args.unknown[0]:.0%} of the training games and {args.unknown[1]:.0%} "
                "of the other games' seats",
        "held_out": figures, "held_out_unknown": blind, "train": fitted}
    if other is not None:
        model["meta"]["compared"] = {"model": Path(args.compare).name, "held_out": other}
    out = Path(args.out) if args.out else (ROOT / "cartagena_net" / "bots" / "models"
                                           / f"{args.family}.json")
    out.write_text(json.dumps(model, separators=(",", ":")) + "\n")
    print(json.dumps({"bench": "train-value", "family": args.family,
                      "games": len(train) + len(test),
                      "positions": sum(len(d["rows"]) for d in train + test),
                      "held_out": figures, "held_out_unknown": blind, "train": fitted,
                      "compared": other,
                      "games_seconds": round(made, 1),
                      "seconds": round(time.perf_counter() - start, 1), "out": str(out)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
