"""Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

Single-observer ISMCTS: one tree over the decisions of every seat, each node one action.
Each iteration samples a determinization (``cartagena_net.engine.determinize``): the
cards this seat cannot see dealt at random, consistently with its view and the cards it
saw drawn in the open. The iteration descends the tree with UCB1 among the children
whose actions are legal in that determinization (a child's "availability" counts the
iterations in which it could have been chosen), expands one action, plays a short
greedy-biased playout, evaluates the position and backs each seat's reward up the path.

The search only ever reads the seat's view and legal action strings; the states it
plays on are built from them and share nothing with the real game.

Pure Python: no Twisted, no msgpack. :func:`search` is a plain function of picklable
arguments, so a host can run it in a worker process.
"""
from __future__ import annotations

import math
import pickle
import random
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import compress
from typing import Any

from cartagena_net.bots.evaluation import (
    BOAT_BONUS,
    REAR_WEIGHTS,
    cards_needed,
    hand_terms,
    symbol_cards,
)
from cartagena_net.engine import RandomChance, view
from cartagena_net.engine.actions import parse_action
from cartagena_net.engine.determinize import Determinizer
from cartagena_net.engine.moves import advance_target, morgan_target, retreat_target

TIME_MARGIN = 0.95  # share of the budget the iterations may start in
# Set (by a worker process, on its host's word) to end the running search now: it answers
# with the statistics it has. Cleared before each job.
STOP = threading.Event()
TEMPERATURE = 8.0  # spaces of value that multiply a seat's reward share by e


@dataclass(frozen=True)
class SearchConfig:
    """How the search runs: ``iterations`` (if set) a decision, and never longer than
    ``think`` seconds."""

    think: float = 1.0
    iterations: int | None = None
    exploration: float = 0.7
    playout: str = "greedy"  # "greedy" (epsilon-greedy), "random"
    rounds: float = 0.0  # playout length in rounds of turns; 0 = evaluate at once; -1 = to the end
    epsilon: float = 0.15
    temperature: float = TEMPERATURE  # spaces of value that multiply a reward share by e
    deadline: float | None = None  # wall-clock time (time.time()) to answer by, if sooner
    trees: int = 1  # 1: one tree shared by every determinization (SO-ISMCTS); k > 1:
    # determinized UCT, k fixed determinizations with a tree each, root visits summed
    keep: bool = True  # keep the likely answers' subtrees for the seat's next decision
    shares: int = 1  # the searches the decision is spread over (this one among them)
    # A counted search stops once no pace could change its answer (0, every level); with
    # ``settle`` > 0 also once it is settled: were the leader to keep its pace and the
    # runner-up to gain ``settle`` times its own so far, the answer would not change
    # (``_decided``). Settling at 2.5 from a quarter of the count, the normal level lost
    # to the level before it (66 of 151 games): docs/bots.md.
    settle: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Node:
    __slots__ = ("action", "avail", "children", "player", "visits", "wins")

    def __init__(self, player: int, action: Any = None) -> None:
        self.player = player  # the seat whose action leads here
        self.action = action  # ... and that action (None at a root)
        self.visits = 0
        self.wins = 0.0
        self.avail = 1
        self.children: dict[int, Node] = {}  # by id() of the engine's shared actions


# -- evaluation ----------------------------------------------------------------------


def best_advances(state: Any, seat: int, symbols: Sequence[int] | None = None) -> list[int]:
    """For each symbol (of ``symbols``, else all): the longest advance one card of it
    gives ``seat`` now; 0 for the symbols not asked about."""
    board = state.board
    boat, ahead, end, occ = board.boat, board.ahead, board.end, state.occ
    best = [0] * len(state.game.symbols)
    wanted = range(len(best)) if symbols is None else symbols
    last = -1
    for p in state.pirates[seat]:  # sorted: pirates sharing a space are looked at once
        if p >= boat or p == last:
            continue
        last = p
        row, stop = ahead[p], end[p]
        for k in wanted:
            for q in row[k]:  # moves.advance_target, inlined: the search's hot loop
                if not occ[q]:
                    break
            else:
                q = stop
            if q - p > best[k]:  # noqa: PLR1730 (the hot loop: no call)
                best[k] = q - p
    return best


def seat_value(state: Any, seat: int) -> float:
    """A static value of ``seat``'s position: progress (the rearmost pirates most),
    pirates aboard, and the hand: each card by the advance its symbol gives now, up to
    what the way ahead needs (and the Filibusters limit)."""
    boat = state.board.boat
    mine = state.pirates[seat]  # sorted
    where = (boat, *mine)
    progress = _PROGRESS.get(where)
    if progress is None:  # kept: the same pirates come back often
        value = 0.0
        togo = 0
        for i, p in enumerate(mine):
            value += p * REAR_WEIGHTS[i if i < 6 else 5]
            togo += boat - p
        if len(_PROGRESS) >= KEPT:
            _PROGRESS.clear()
        progress = _PROGRESS[where] = (value, cards_needed(togo))
    value, need = progress
    value += BOAT_BONUS * state.home[seat]
    g = state.game
    counts = state.symbol_counts(seat)
    held = list(compress(range(len(counts)), counts))
    best = best_advances(state, seat, held)
    limit = g.hand_limit if g.filibusters else None
    key = (*counts, *best, need, limit)
    terms = _HAND_TERMS.get(key)
    if terms is None:  # evaluation.hand_worth's terms, kept: hands come back often
        cards: list[float] = []
        for k in held:
            cards += symbol_cards(counts[k], best[k])
        if len(_HAND_TERMS) >= KEPT:
            _HAND_TERMS.clear()
        terms = _HAND_TERMS[key] = hand_terms(cards, need, limit)
    for term in terms:  # hand_worth's sum, term by term: the same value to the last bit
        value += term
    return value


KEPT = 50_000  # entries of each table below, at most
_PROGRESS: dict[tuple, tuple[float, int]] = {}  # (boat, *pirates): (progress value, need)
_HAND_TERMS: dict[tuple, tuple[float, ...]] = {}  # (*counts, *best, need, limit): terms


def rewards(state: Any, temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's reward in [0, 1]: 1 to the winner; else its share of a softmax of
    the seats' values (``temperature`` spaces of value multiply a seat's share by e).
    Heads-up that is a sigmoid of the lead; with more seats a seat's reward falls with
    every other seat's progress, most with the leader's."""
    n = len(state.pirates)
    if state.outcome is not None:
        return [1.0 if s == state.outcome.winner else 0.0 for s in range(n)]
    values = [seat_value(state, s) for s in range(n)]
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]  # the top one is 1
    total = sum(weights)
    return [w / total for w in weights]


# -- playout policy ----------------------------------------------------------------


def quick_action(state: Any, legal: Sequence[Any], rng: random.Random, epsilon: float) -> Any:
    """Epsilon-greedy on a one-step score: long advances of rear pirates, cheap retreats
    when cards are short, ending the turn when nothing good is left."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    seat = state.actor
    g = state.game
    nsym = len(g.symbols)
    occ = state.occ
    board = state.board
    boat, ahead, end, back = board.boat, board.ahead, board.end, board.back
    cards = state.hand_size(seat)
    card_worth = 4.5 if cards <= 2 else 2.5 if cards <= 5 else 1.0
    rear = state.pirates[seat][0]
    index = g.card_index
    jitter = rng.random
    best = None
    best_score = -1e9
    for a in legal:
        kind = a.kind
        if kind == "advance":
            p = a.pos
            # the next vacant space of the card's symbol, else the path's end (the goal,
            # or the sloop in the Whole Jailbreak)
            t = advance_target(occ, ahead[p][index[a.card] % nsym], end[p])
            score = (t - p) * (1.4 if p == rear else 1.0) + (3.0 if t == boat else 0.0)
            score -= card_worth * 0.5
        elif kind == "retreat":
            p = a.pos
            t = retreat_target(occ, p, back[p])
            score = occ[t] * card_worth - (p - t) * 0.6
        elif kind == "morgan":
            t, n = morgan_target(occ, a.pos, end[a.pos])
            score = n * card_worth - (t - a.pos) * 0.8
        elif kind == "end":
            score = 0.5
        elif kind == "draw":
            score = 5.0
        elif kind == "sail":  # the Whole Jailbreak: a little better than ending the turn
            score = 1.0
        else:  # discard (Filibusters): any card, at random
            score = 0.0
        score += jitter() * 0.3
        if score > best_score:
            best, best_score = a, score
    return best


def playout(state: Any, rng: random.Random, cfg: SearchConfig) -> None:
    if cfg.rounds == 0:
        return
    limit = 10_000 if cfg.rounds < 0 else max(1, int(cfg.rounds * len(state.pirates) + 0.999))
    turns = 0
    greedy = cfg.playout == "greedy"
    eps = cfg.epsilon
    while state.outcome is None and turns < limit:
        legal = state.legal_actions()
        turn = state.turn
        if greedy:
            a = quick_action(state, legal, rng, eps)
        else:
            a = legal[rng.randrange(len(legal))]
        state.apply_unchecked(a)
        if state.turn != turn:
            turns += 1


# -- the search ------------------------------------------------------------------------

# math.log(k) at k, grown as a search needs: a child is available at most once an
# iteration, so never more often than the iterations so far plus one. The same floats
# as calling math.log each time; a list is looked up faster.
_LOGS = [-math.inf, *map(math.log, range(1, 4096))]


def _cover_logs(n: int) -> None:
    """``_LOGS`` up to at least index ``n``."""
    logs = _LOGS
    if n >= len(logs):
        logs.extend(map(math.log, range(len(logs), max(n + 1, 2 * len(logs)))))


def _most_avail(root: Node) -> int:
    """The largest availability count in the tree under ``root`` (a walk, no recursion)."""
    most, stack = 0, [root]
    while stack:
        node = stack.pop()
        for ch in node.children.values():
            most = max(most, ch.avail)
            if ch.children:
                stack.append(ch)
    return most

CLOSE_VISITS = 0.9  # root actions visited at least this share of the most are a tie
STOP_CHECK = 16  # iterations between checks whether the answer is already settled


SETTLE_FROM = 0.25  # share of a count searched before a settled answer may stop it


def _decided(roots: Sequence[Node], remaining: int, settle: float = 0.0) -> bool:
    """Whether the most visited root action leads every other so far that finishing
    the ``remaining`` iterations would leave the runner-up visited less than
    ``CLOSE_VISITS`` as often: certainly, were all of them to go to another; or, with
    ``settle`` and once ``SETTLE_FROM`` of the count is searched, were the leader to go
    on at its pace so far and the runner-up at ``settle`` times its own (a lead that
    has held over a quarter of the count rarely turns; where it does, the two are close
    in worth)."""
    totals: dict[int, int] = {}
    for root in roots:
        for key, ch in root.children.items():
            totals[key] = totals.get(key, 0) + ch.visits
    first = second = searched = 0
    for v in totals.values():
        searched += v
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    if second + remaining < CLOSE_VISITS * first:
        return True
    if not settle or searched < SETTLE_FROM * (searched + remaining):
        return False
    pace = remaining / searched  # the iterations left for each one searched so far
    return second * (1.0 + settle * pace) < CLOSE_VISITS * first * (1.0 + pace)


@dataclass
class SearchResult:
    action: str
    iterations: int
    seconds: float
    visits: dict[str, int]
    means: dict[str, float] = field(default_factory=dict)  # mean reward of each root action
    reused: int = 0  # root visits the search began with (a kept tree's)
    # For each share of the decision (one, unless merged; None for a share lost): the
    # subtrees it keeps for the seat's next decision, by root action (see ``kept_tree``).
    kept: list[dict[str, Any] | None] = field(default_factory=list)


def search(
    view: Mapping[str, Any],
    legal: Sequence[str],
    known: Mapping[int, Sequence[str]] | None = None,
    config: SearchConfig | Mapping[str, Any] | None = None,
    seed: int = 0,
    trees: Sequence[Any] | None = None,
) -> SearchResult:
    """Choose one of ``legal`` for the seat whose ``view`` this is. Plain, picklable
    arguments: a worker process can run it. ``trees``: the subtrees the seat's last
    search kept below its answer, one a share (:func:`kept_tree`); the search grows the
    first on when the seat's view is the one it was kept for, else starts afresh."""
    cfg = config if isinstance(config, SearchConfig) else SearchConfig(**(config or {}))
    start = time.perf_counter()
    legal = list(legal)
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return SearchResult(legal[0], 0, 0.0, {legal[0]: 0})
    rng = random.Random(seed)
    det = Determinizer(view, known)
    kept_trees, trees = trees, max(1, cfg.trees)
    roots = [Node(-1) for _ in range(trees)]
    reused = 0
    # The largest availability count an iteration may index the table of logarithms
    # with, less the iterations: a kept tree's own largest (its counts can exceed its
    # visits, and a worker started since it grew, one replacing a killed worker, has
    # only the first 4096 logarithms).
    reach = 0
    if trees == 1 and cfg.keep and kept_trees and kept_trees[0] is not None:
        grown = regrow(det, kept_trees[0])
        if grown is not None:
            roots[0] = grown
            reused = sum(ch.visits for ch in grown.children.values())
            reach = max(reused, _most_avail(grown))
    worlds = [det.sample(rng) for _ in range(trees)] if trees > 1 else []
    chance = RandomChance(rng)
    c = cfg.exploration
    sqrt = math.sqrt
    logs = _LOGS
    temperature = cfg.temperature
    # Stop a little early: the last iteration and the answer fit in the budget too.
    deadline = start + cfg.think * TIME_MARGIN
    if cfg.deadline is not None:  # e.g. a job that waited in a queue: answer on time
        deadline = min(deadline, start + (cfg.deadline - time.time()))
    cap = cfg.iterations
    if cap is not None and reused:  # the kept visits count towards the search's count
        cap = max(0, cap - reused)
    allowed = set(legal)
    root_acts = [a for a in det.base.legal_actions() if str(a) in allowed]
    if {str(a) for a in root_acts} != allowed:
        raise ValueError("the legal actions do not match the view")
    stopped = STOP.is_set
    settle = cfg.settle
    it = 0
    while True:
        if cap is not None:
            if it >= cap:
                break
            if it % STOP_CHECK == 0 and it and _decided(roots, cap - it, settle):
                break
        if it and time.perf_counter() >= deadline:
            break
        if not it & 15 and stopped():  # told to stop (a helping share): every 16th
            break
        if it + reach + 2 >= len(logs):
            _cover_logs(it + reach + 2)
        if trees > 1:
            root = roots[it % trees]
            s = worlds[it % trees].copy(chance=chance)
        else:
            root = roots[0]
            s = det.sample(rng)
        it += 1
        node = root
        path = [root]
        while s.outcome is None:
            acts = root_acts if node is root else s.legal_actions()
            children = node.children
            # One pass: every child legal here is available once more; UCB1 picks among
            # them, unless some legal action has no child yet (then one of those is
            # expanded, at random).
            untried = None
            best = None
            best_ucb = -1.0
            for b in acts:
                ch = children.get(id(b))
                if ch is None:
                    if untried is None:
                        untried = [b]
                    else:
                        untried.append(b)
                    continue
                avail = ch.avail = ch.avail + 1
                if untried is None:
                    n = ch.visits
                    ucb = ch.wins / n + c * sqrt(logs[avail] / n)
                    if ucb > best_ucb:
                        best_ucb, best = ucb, ch
            if untried is not None:
                a = untried[rng.randrange(len(untried))]
                child = children[id(a)] = Node(s.actor, a)
                s.apply_unchecked(a)
                path.append(child)
                break
            s.apply_unchecked(best.action)
            node = best
            path.append(node)
        playout(s, rng, cfg)
        r = rewards(s, temperature)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.wins += r[n.player]
    visits: dict[str, int] = {}
    wins: dict[str, float] = {}
    for root in roots:
        for ch in root.children.values():
            a = ch.action
            visits[str(a)] = visits.get(str(a), 0) + ch.visits
            wins[str(a)] = wins.get(str(a), 0.0) + ch.wins
    means = {a: wins[a] / n for a, n in visits.items() if n}
    choice = answer(legal, visits, means)
    kept = {}
    if trees == 1 and cfg.keep:  # alone, its own answer; a share, every likely one
        kept = keep(det, roots[0], visits, None if cfg.shares > 1 else choice)
    return SearchResult(choice, it, time.perf_counter() - start, visits, means, reused,
                        [kept])


# -- a tree kept between a seat's decisions --------------------------------------
# A seat often decides again right after its own action (a turn is up to three card
# plays). When that action is an advance, it is certain and shows the seat nothing new:
# its next decision starts from exactly the information set below that action in the
# tree just grown, so the subtree there is a search of it already made. The search
# returns such subtrees (plain, picklable data, the actions by their notation) for the
# root actions that may be the answer, with the seat's view after the action; the bot
# hands the answer's subtree to its next search, which grows it on when the view it
# starts from is that one, counting its visits towards the count (the level's count
# is the size of the tree it answers from, as before).

KEEP_VISITS = 0.5  # root advances visited at least this share of the most keep their subtree
KEPT_KINDS = frozenset(("advance",))  # certain actions that show the seat nothing new


class _NoChance:
    """A chance source that refuses: applying a kept action must need no chance."""

    def shuffle(self, items: list[int]) -> None:
        raise LookupError("chance")

    def pick(self, n: int) -> int:
        raise LookupError("chance")

    def fork(self) -> _NoChance:
        return self


def seat_view(state: Any) -> dict[str, Any]:
    """What the acting seat knows of ``state`` (the engine's view for it, less the
    pirates' numbers, which only name them): a kept tree is grown on only from the
    same."""
    seen = view(state, state.actor, fixed=False)
    seen["seats"] = [{k: x for k, x in s.items() if k != "numbered"} for s in seen["seats"]]
    return seen


def keep(det: Determinizer, root: Node, visits: Mapping[str, int],
         only: str | None = None) -> dict[str, Any]:
    """The subtrees of ``root``'s likely answers (``only`` that one, if given) that the
    seat's next decision can grow on: by action notation, (the seat's view after it,
    the subtree as flat data)."""
    me = det.seat
    top = max(visits.values(), default=0)
    kept: dict[str, Any] = {}
    if me is None or not top:
        return kept
    for child in root.children.values():
        a = child.action
        if a.kind not in KEPT_KINDS or child.visits < KEEP_VISITS * top or not child.children:
            continue
        if only is not None and str(a) != only:
            continue
        after = det.base.copy(chance=_NoChance())
        try:
            after.apply_unchecked(a)
        except LookupError:  # it needed chance after all: nothing certain to keep
            continue
        if after.outcome is not None or after.actor != me:
            continue  # the turn passed: another seat decides next
        kept[str(a)] = pack_tree(seat_view(after), flatten(child))
    return kept


def pack_tree(expected: Mapping[str, Any], flat: list) -> bytes:
    """A kept subtree (the seat's view it was kept for, its nodes as flat data) as one
    bytes object. The host holds it between the seat's decisions and hands it back with
    the next search: one object there, not the tens of thousands of its nodes' actions
    and numbers, which came and went among the host's own objects in peaks that left the
    host's memory higher each time (issue 62; docs/architecture.md, "What a host keeps")."""
    return pickle.dumps((expected, flat), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_tree(tree: Any) -> Any:
    """What :func:`pack_tree` packed (anything else as it is)."""
    # (bytes only from the host's own worker, through the host: the pipe between them)
    return pickle.loads(tree) if isinstance(tree, bytes) else tree


def kept_tree(result: SearchResult) -> list[Any] | None:
    """For each share of the search behind ``result``: the subtree it kept below the
    answer (None where it kept none); None when no share kept one."""
    trees = [None if k is None else k.get(result.action) for k in result.kept]
    return trees if any(t is not None for t in trees) else None


def flatten(node: Node) -> list:
    """``node``'s subtree as flat data: each node (preorder) as its action's notation,
    its player, visits, total reward, availability and number of children."""
    out: list = []
    stack = [node]
    while stack:
        n = stack.pop()
        kids = list(n.children.values())
        out += (str(n.action), n.player, n.visits, n.wins, n.avail, len(kids))
        stack += reversed(kids)
    return out


def regrow(det: Determinizer, tree: Any) -> Node | None:
    """A root grown from a kept ``tree`` (see :func:`keep`), if the seat's view now is
    the one it was kept for; else None."""
    try:
        expected, flat = unpack_tree(tree)
        if det.seat is None or seat_view(det.base) != expected:
            return None
        return unflatten(flat, det.base.tables)
    except (TypeError, ValueError, LookupError, EOFError, pickle.UnpicklingError):
        return None  # not a kept tree: start afresh


def unflatten(flat: Sequence[Any], tables: Any) -> Node:
    """The subtree :func:`flatten` wrote, its actions the game's shared objects; its
    top node becomes a root."""
    by_text, one = tables.by_text, tables.one
    root = Node(-1)
    _, _, root.visits, root.wins, root.avail, count = flat[:6]
    stack = [(root, count)]
    i = 6
    while stack:
        parent, left = stack[-1]
        if not left:
            stack.pop()
            continue
        stack[-1] = (parent, left - 1)
        text, player, visits, wins, avail, count = flat[i:i + 6]
        i += 6
        a = by_text.get(text) or one(parse_action(text))
        node = parent.children[id(a)] = Node(player, a)
        node.visits, node.wins, node.avail = visits, wins, avail
        if count:
            stack.append((node, count))
    return root


def answer(legal: Sequence[str], visits: Mapping[str, int],
           means: Mapping[str, float]) -> str:
    """The most visited root action. Among those visited nearly as often (UCB visits
    every action in turn when all lead to about the same reward, as when the seat is
    far behind or far ahead), the one of best mean reward; then the greatest string."""
    top = max(visits.get(a, 0) for a in legal)
    if top == 0:  # no iteration ran
        return max(legal)
    close = [a for a in legal if visits.get(a, 0) >= CLOSE_VISITS * top]
    return max(close, key=lambda a: (means[a], a))


# -- root parallelization ----------------------------------------------------------
# One decision spread over k processes (Cazenave and Jouandeau 2007, root
# parallelization): each searches its own tree from its own determinizations (its own
# random stream), and the root statistics are added up. Share 0 is the serial search
# itself (the same seed and, alone, the same count): one share answers as ``search``.

_STREAM = 0x9E3779B97F4A7C15  # the golden ratio's 64 bits: seeds of the other shares
# A counted search spread over two or more shares gives each this share of its count.
# Two shares of half the count each search together what one search did, in two
# shallower trees, and lose to it (43.3% of 400 heads-up games); with three quarters
# each they are back at par, and answer in three quarters of the time (docs/bots.md,
# "Thinking on every core"). More shares of that size only add to the merge.
SPREAD_SHARE = 0.75


def share_seed(seed: int, index: int) -> int:
    """The random seed of share ``index`` of a decision searched from ``seed``."""
    return seed if index == 0 else (seed + index * _STREAM) % (1 << 63)


def spread(args: Sequence[Any], shares: int) -> list[tuple]:
    """``search``'s arguments ``(view, legal, known, config, seed[, trees])`` for each
    of ``shares`` processes: with two or more, a counted search's iterations
    :data:`SPREAD_SHARE` of the count on each (rounded up), a timed one's time the same
    for each; each its own seed, and the tree that share kept last time (``trees``, one
    a share: :func:`kept_tree`), if any."""
    view, legal, known, config, seed, *rest = args
    trees = list(rest[0] or ()) if rest else []  # each share's kept tree (kept_tree)
    cfg = dict(config.to_dict() if isinstance(config, SearchConfig) else config or {})
    shares = max(1, shares)
    if shares > 1 and cfg.get("iterations") is not None:
        cfg["iterations"] = math.ceil(int(cfg["iterations"]) * SPREAD_SHARE)
    if shares > 1:
        cfg["shares"] = shares
    return [(view, legal, known, cfg, share_seed(seed, i),
             [trees[i]] if i < len(trees) else None) for i in range(shares)]


def deadline_of(args: Sequence[Any]) -> float | None:
    """The wall-clock time (``time.time()``) by which ``search(*args)`` answers, if any."""
    config = args[3]
    cfg = config.to_dict() if isinstance(config, SearchConfig) else dict(config or {})
    if cfg.get("deadline") is not None:
        return float(cfg["deadline"])
    if cfg.get("iterations") is not None and cfg.get("think", 1.0) >= UNTIMED:
        return None
    return time.time() + float(cfg.get("think", 1.0))


UNTIMED = 1e9  # seconds: a search that stops by its count alone


def without_clock(args: Sequence[Any]) -> tuple:
    """``search``'s arguments with a counted search's time bound and deadline removed:
    it then answers the same on any machine, however busy (a seeded game)."""
    if len(args) not in (5, 6):  # not a job's arguments (all given): left as they are
        return tuple(args)
    view, legal, known, config, seed, *rest = args
    cfg = dict(config.to_dict() if isinstance(config, SearchConfig) else config or {})
    if cfg.get("iterations") is not None:
        cfg["think"], cfg["deadline"] = UNTIMED, None
    return (view, legal, known, cfg, seed, *rest)


def merge(legal: Sequence[str], results: Sequence[SearchResult]) -> SearchResult:
    """One answer from the root statistics of several searches of one decision: visits
    and rewards of each root action added up, the answer chosen from them as a single
    search chooses (:func:`answer`); iterations summed, seconds the longest. ``results``
    are the shares' in order, None for a share lost: each share's kept subtrees stay in
    its place (``kept``), for its share of the seat's next decision."""
    kept = [None if r is None or not r.kept else r.kept[0] for r in results]
    results = [r for r in results if r is not None]
    if not results:
        raise ValueError("no search to merge")
    if len(results) == 1 and len(kept) == 1:
        return results[0]
    visits: dict[str, int] = {}
    wins: dict[str, float] = {}
    for r in results:
        for a, n in r.visits.items():
            visits[a] = visits.get(a, 0) + n
            wins[a] = wins.get(a, 0.0) + r.means.get(a, 0.0) * n
    legal = list(legal)
    if len(legal) == 1:
        return SearchResult(legal[0], 0, 0.0, {legal[0]: 0})
    means = {a: wins[a] / n for a, n in visits.items() if n}
    return SearchResult(answer(legal, visits, means), sum(r.iterations for r in results),
                        max(r.seconds for r in results), visits, means,
                        sum(r.reused for r in results), kept)
