"""Bots: choose one action from a seat's own view and its legal action strings.

Pure Python (no Twisted, no msgpack). A bot sees only what its seat may see: the
dict returned by ``cartagena_net.engine.view(state, seat)`` and the legal action
strings for that seat. ``random`` picks uniformly; ``greedy`` scores every legal
action by simulating it on the public board (the engine's :mod:`preview` rules, the
sloop of the Whole Jailbreak included) and evaluating the result; with Black Magic
Woman it weighs each card power (and its Gun, Rum and Lantern choices) the same way.
``ismcts`` searches (information-set Monte Carlo tree search, :mod:`cartagena_net.bots.ismcts`)
for a time budget. A bot with an ``observe(events)`` method is also shown the public
events its seat watches (the ``events`` of its views), to remember cards drawn in the open.

Levels (``--level``): easy = greedy; normal = ismcts, 5000 search iterations a
decision for each other seat, at most 12000 in all, spread over the decision's workers
(three quarters of it on each of two or more), and never more than 1 s; hard = ismcts,
all of 1.5 s on every worker. A searching bot keeps the tree below its answer for its
next decision right after it (``IsmctsBot.answered``): its visits count towards the
count, so a follow-up decision searches only the rest. ``workers`` (``--workers``) is
how many processes one decision may search in; ``deterministic`` (``--seed`` with
``--workers 1``) drops the clock, so a seeded game plays the same again (hard then
counts 15000 iterations for each other seat).
"""
from __future__ import annotations

import random as _random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from cartagena_net.bots.evaluation import (
    BOAT_BONUS,
    CARD_VALUE,
    REAR_WEIGHTS,
    card_values,
    cards_needed,
    hand_worth,
)
from cartagena_net.engine.jailbreak import TORTUGA
from cartagena_net.engine.preview import Preview

BOT_KINDS: tuple[str, ...] = ("random", "greedy", "ismcts")

# level -> (bot kind, seconds a decision at most, search iterations a decision for each
# other seat, iterations a decision at most in all); None = the kind does not search (or
# no cap in all; no count: the level searches for all its time, on every worker).
# Where a level's iteration count fits in its time bound, its strength is the same on
# any machine; the bound still holds on a slow or busy one. The count grows with the
# table because the tree must reach past every other seat's turn: at normal 5000
# heads-up, 10000 at three players; from four players on the cap holds it at 12000 (4000
# for each other seat at four). Spread over several workers (root parallelization,
# merged: docs/bots.md), each searches three quarters of the count (ismcts.SPREAD_SHARE:
# at half each, the spread search was weaker), so a four-player decision takes about
# 0.45 s on one worker here and three quarters of that on more; a counted search stops
# once no other answer could come close, and a seat's follow-up decision grows the tree
# kept below its last answer. Hard spends all its time on every worker.
LEVELS: dict[str, tuple[str, float | None, int | None, int | None]] = {
    "easy": ("greedy", None, None, None),
    "normal": ("ismcts", 1.0, 5000, 12000),
    "hard": ("ismcts", 1.5, None, None),
}
DEFAULT_LEVEL = "normal"
# A timed level's count for each other seat where a game must play the same again
# (``deterministic``): hard's count before it was timed.
DETERMINISTIC_ITERATIONS = {"hard": 15000}

# Weights of the greedy evaluation (units: spaces of progress).
FILIBUSTER_LIMIT = 7  # cards beyond this are at risk when dark cards exist
OPPONENT_ROAD_WEIGHT = 0.45  # how much an opponent's best next advance costs us
OPPONENT_PROGRESS_WEIGHT = 1.0  # how much moving an opponent forward costs us
DARK_CARD_BONUS = 0.5  # a dark card can make opponents discard (Filibusters)
WIN_VALUE = 1e6
LANDING_BONUS = 3.0  # a pirate aboard the sloop at Tortuga is this much further along
# Loops: greedy counts how often it comes back to the same board (every pirate, the
# sloop's shore). From the LOOP_PATIENCE-th return on, it plays more and more for its own
# progress only (cards and opponents count less, down to nothing after LOOP_SPAN more),
# so a cycle of retreats, pushes and discards that nobody breaks cannot last.
LOOP_PATIENCE = 3
LOOP_SPAN = 4
LOOP_MEMORY = 20_000  # positions remembered at most (the memory starts again beyond)


class Bot:
    """A bot: ``choose(view, legal)`` returns one of ``legal``."""

    kind = "bot"

    def __init__(self, rng: _random.Random | None = None) -> None:
        self.rng = rng if rng is not None else _random.Random()

    def choose(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    kind = "random"

    def choose(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        return self.rng.choice(list(legal))


def make_bot(
    kind: str,
    rng: _random.Random | None = None,
    think: float | None = None,
    level: str | None = None,
    workers: int = 1,
    deterministic: bool = False,
    **search: Any,
) -> Bot:
    """A new bot of ``kind`` (one of ``BOT_KINDS``); ValueError otherwise. An ismcts bot
    searches as ``level`` does (default normal), or for ``think`` seconds a decision when
    given, in ``workers`` processes (its own and helpers, :mod:`cartagena_net.bots.pool`);
    ``deterministic`` searches by count alone (see :class:`IsmctsBot`); ``search`` passes
    further :class:`cartagena_net.bots.ismcts.SearchConfig` fields."""
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return GreedyBot(rng)
    if kind == "ismcts":
        return IsmctsBot(rng, think=think, level=level, workers=workers,
                         deterministic=deterministic, **search)
    raise ValueError(f"unknown bot kind {kind!r}; choose one of {', '.join(BOT_KINDS)}")


def level_bot(level: str, think: float | None = None) -> tuple[str, float | None]:
    """(bot kind, think seconds) of a ``--level``, ``think`` overriding its budget."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    kind, budget, _, _ = LEVELS[level]
    if think is not None:
        if not think > 0:
            raise ValueError("--think takes a positive number of seconds")
        budget = think
    return kind, budget


class IsmctsBot(Bot):
    """Information-set MCTS for ``think`` seconds a decision (see :mod:`cartagena_net.bots.ismcts`).

    It remembers, from the events it observes, the cards other seats drew in the open
    (face-up row, open hands) until they play a card of that kind.

    Should a search ever fail (it must not: the engine rebuilds every position from a
    view exactly), the decision falls back to its ``fallback`` bot (greedy, the easy
    level) and ``failures`` counts it, with ``last_error`` the reason.

    ``workers`` > 1: :meth:`choose` spreads each decision over this process and
    ``workers - 1`` helper processes (:func:`cartagena_net.bots.pool.spread_search`).
    ``deterministic``: no clock (a counted search only; a timed level counts
    :data:`DETERMINISTIC_ITERATIONS`), so that with one worker the same seed plays the
    same game on any machine; ``think`` stays a time and is never reproducible.
    """

    kind = "ismcts"

    def __init__(
        self,
        rng: _random.Random | None = None,
        think: float | None = None,
        level: str | None = None,
        workers: int = 1,
        deterministic: bool = False,
        **search: Any,
    ) -> None:
        super().__init__(rng)
        from cartagena_net.bots.ismcts import UNTIMED, SearchConfig

        name = level or DEFAULT_LEVEL
        _, level_think, level_iterations, most = LEVELS[name]
        if level_think is None:
            name = DEFAULT_LEVEL
            _, level_think, level_iterations, most = LEVELS[name]
        if deterministic and level_iterations is None:
            level_iterations = DETERMINISTIC_ITERATIONS.get(name)
        self.workers = max(1, int(workers))
        if self.workers > 1:  # the helpers start now, to be up by the first decision
            from cartagena_net.bots.pool import warm_helpers

            warm_helpers(self.workers)
        self.deterministic = deterministic
        # The level's budget: iterations for each other seat, at most ``most`` in all,
        # bounded in time (or all of its time, for a level without a count).
        self.per_opponent = (think is None and "iterations" not in search
                             and level_iterations is not None)
        self.most = most if self.per_opponent else None
        if think is None:
            think = level_think
            search.setdefault("iterations", level_iterations)
        if deterministic and search.get("iterations") is not None:
            think = UNTIMED
        self.config = SearchConfig(think=think, **search)
        self.known: dict[int, list[str]] = {}
        self.seat: int | None = None
        self.last: Any = None  # the last SearchResult (iterations, seconds, visits)
        # The subtrees the last search kept below its answer, one a share (see
        # ismcts.kept_tree): the next search grows them on if the seat decides again
        # right after that action. Handed over once, then forgotten.
        self.kept: list[Any] | None = None
        self.fallback: Bot = GreedyBot(self.rng)
        self.failures = 0
        self.last_error: str | None = None

    def observe(self, events: Sequence[dict[str, Any]], seat: int | None = None) -> None:
        """Public events this seat watched (in order, each once)."""
        from cartagena_net.engine.determinize import track_known

        if seat is not None and seat != self.seat:
            self.seat, self.known, self.kept = seat, {}, None
        if self.seat is not None:
            track_known(self.known, events, self.seat)

    def reset(self) -> None:
        """A new game: forget what was seen."""
        self.known = {}
        self.kept = None

    def answered(self, result: Any) -> None:
        """The search's answer (a :class:`~cartagena_net.bots.ismcts.SearchResult`, or
        None when it failed) is played: keep its tree below the answer for the next
        search. A caller that runs :meth:`job` itself hands each answer here."""
        from cartagena_net.bots.ismcts import kept_tree

        self.kept = None if result is None or not self.config.keep else kept_tree(result)

    def job(
        self, view: dict[str, Any], legal: Sequence[str], deadline: bool = True
    ) -> tuple[Any, tuple]:
        """(function, arguments) of the search, picklable to run in a worker process.
        With ``deadline``, the answer is due ``think`` seconds from now, however long
        the job waits for a worker."""
        from cartagena_net.bots.ismcts import search

        me = view.get("viewer")
        self.observe(view.get("events") or (), me if isinstance(me, int) else None)
        known = {s: list(c) for s, c in self.known.items()}
        config = self.config.to_dict()
        if self.per_opponent:
            config["iterations"] *= max(1, len(view.get("seats") or ()) - 1)
            if self.most is not None:
                config["iterations"] = min(config["iterations"], self.most)
        if deadline and not self.deterministic:  # the budget counts from now, also
            config["deadline"] = time.time() + self.config.think  # while the job waits
        trees, self.kept = self.kept, None  # (the search checks they fit this view)
        return search, (view, list(legal), known, config, self.rng.getrandbits(63), trees)

    def run_job(self, fn: Any, args: tuple) -> Any:
        """Run a :meth:`job` here: the search spread over ``workers`` processes."""
        from cartagena_net.bots.ismcts import search

        if self.workers > 1 and fn is search:
            from cartagena_net.bots.pool import spread_search

            return spread_search(args, self.workers)
        return fn(*args)

    def choose(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        fn, args = self.job(view, legal, deadline=False)
        try:
            self.last = self.run_job(fn, args)
        except Exception as exc:  # noqa: BLE001 - a failed search still answers
            self.failed(exc)
            self.last = None
            return self.fallback.choose(view, legal)
        self.answered(self.last)
        return self.last.action

    def failed(self, error: BaseException) -> None:
        """Count a search that failed (its fallback then decides)."""
        self.failures += 1
        self.last_error = f"{type(error).__name__}: {error}"


# -- board simulation on the public view ----------------------------------


def base_symbol(card: str) -> str:
    """The symbol of a card, without the dark-card marker ``*``."""
    return card.removesuffix("*")


class Board(Preview):
    """Pirate positions of every seat on a view's board (the engine's :class:`Preview`),
    with the landing helpers the evaluation uses. A move the rules refuse lands where it
    started (no gain)."""

    __slots__ = ()

    def advance_to(self, pos: int, sym: str, seat: int | None = None) -> int:
        to = self.advance(seat if seat is not None else -1, pos, sym)
        return pos if to is None else to

    def retreat_to(self, pos: int, seat: int | None = None) -> tuple[int, int]:
        """(landing space, cards drawn) of a retreat; (pos, 0) if impossible."""
        got = self.retreat(seat if seat is not None else -1, min(pos, self.boat))
        return got if got is not None else (pos, 0)

    def forward_to(self, pos: int, owner: int | None = None) -> tuple[int, int]:
        """(landing space, cards drawn) of a Morgan move forward; (pos, 0) if impossible."""
        got = self.push(owner if owner is not None else -1, pos)
        return got if got is not None else (pos, 0)

    def aboard_landed(self, p: int) -> bool:
        """A pirate at ``p`` is aboard the sloop at Tortuga (it may land)."""
        return p == self.board.sloop and self.shore == TORTUGA


def board_from_view(view: dict[str, Any]) -> Board:
    return Board(view)


# -- greedy ---------------------------------------------------------------


def expected_best(gains: list[float], draws: int) -> float:
    """Expected best gain of ``draws`` cards drawn uniformly (with replacement)."""
    if not gains or draws <= 0:
        return 0.0
    ordered = sorted(gains, reverse=True)
    n = len(ordered)
    total = 0.0
    for j, g in enumerate(ordered):
        total += g * (((n - j) / n) ** draws - ((n - j - 1) / n) ** draws)
    return total


class GreedyBot(Bot):
    """Scores each legal action by a one-step simulation and a static evaluation.

    The evaluation rewards progress (the rearmost pirates most), cards in hand
    (especially the first few, and of varied symbols) and penalises the best next
    advance left open to each opponent (roads opened) and opponents' progress.
    """

    kind = "greedy"

    def __init__(self, rng: _random.Random | None = None) -> None:
        super().__init__(rng)
        self._visits: Counter[tuple[Any, ...]] = Counter()
        self._last: tuple[Any, ...] | None = None

    def _stall(self, view: dict[str, Any]) -> float:
        """How stuck the game looks, 0 to 1: from how often this board came back."""
        try:
            sloop = view.get("sloop") or {}
            key = (sloop.get("shore"),
                   *(tuple(sorted(int(p) for p in s["pirates"])) for s in view["seats"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            return 0.0
        if key != self._last:  # a return to this board (not another decision on it)
            if len(self._visits) >= LOOP_MEMORY or not any(map(any, key[1:])):
                self._visits.clear()  # everyone at the start: a new game
            self._visits[key] += 1
            self._last = key
        return min(1.0, max(0, self._visits[key] - LOOP_PATIENCE) / LOOP_SPAN)

    def choose(self, view: dict[str, Any], legal: Sequence[str]) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        legal = list(legal)
        try:
            scored = self._score_all(view, legal, self._stall(view))
        except (KeyError, ValueError, TypeError, IndexError):
            scored = []
        if not scored:
            return self.rng.choice(legal)
        best = max(score for score, _ in scored)
        top = [a for score, a in scored if score >= best - 1e-9]
        return top[0] if len(top) == 1 else self.rng.choice(top)

    # -- scoring ----------------------------------------------------------

    def _score_all(self, view: dict[str, Any], legal: list[str],
                   stall: float = 0.0) -> list[tuple[float, str]]:
        me = view["viewer"]
        if not isinstance(me, int):
            return []
        board = board_from_view(view)
        seat_info = {int(s["seat"]): s for s in view["seats"]}
        hand = list(seat_info[me].get("hand") or [])
        ctx = _Context(view, me, seat_info, list(board.symbols), stall)
        scored = []
        for action in legal:
            score = self._score(action, board, hand, ctx)
            scored.append((score, action))
        return scored

    def _score(self, action: str, board: Board, hand: list[str], ctx: _Context) -> float:
        words = action.split()
        kind = words[0] if words else ""
        me = ctx.me
        if kind == "discard":
            kept = list(hand)
            for card in words[1:]:
                if card in kept:
                    kept.remove(card)
                elif base_symbol(card) in map(base_symbol, kept):
                    kept.remove(next(c for c in kept if base_symbol(c) == base_symbol(card)))
            return ctx.evaluate(board, kept)
        if kind == "end":
            return ctx.evaluate(board, hand)
        if kind == "draw":
            return ctx.evaluate(board, hand, extra_cards=1)
        after = board.copy()
        if kind == "advance" and len(words) >= 3:
            pos, card = int(words[1]), words[2]
            after.move(me, pos, board.advance_to(pos, base_symbol(card), me))
            kept = list(hand)
            if card in kept:
                kept.remove(card)
            elif kept:
                kept.pop()
            bonus = ctx.dark_bonus if card.endswith("*") else 0.0
            return ctx.evaluate(after, kept) + bonus
        if kind == "retreat" and len(words) >= 2:
            pos = int(words[1])
            dst, drawn = board.retreat_to(pos, me)
            after.move(me, pos, dst)
            return ctx.evaluate(after, hand, extra_cards=drawn)
        if kind == "morgan" and len(words) >= 3:
            seat, pos = int(words[1]), int(words[2])
            dst, drawn = board.forward_to(pos, seat)
            after.move(seat, pos, dst)
            return ctx.evaluate(after, hand, extra_cards=drawn)
        if kind == "sail":
            after.sail()
            return ctx.evaluate(after, hand)
        if kind == "power" and len(words) >= 2:
            return self._score_power(words, board, after, hand, ctx)
        if kind in ("take", "keep") and len(words) >= 2:
            return ctx.evaluate(board, [*hand, words[1]])
        if kind == "give" and len(words) >= 3:
            # Give away what helps that opponent least and us least.
            card = base_symbol(words[2])
            return ctx.evaluate(board, hand) - ctx.gain(board, int(words[1]), card) \
                - ctx.gain(board, me, card)
        if kind == "stack" and len(words) >= 2:
            # The top card goes to whoever draws next: the least use to the next opponent.
            nxt = ctx.opponents[0] if ctx.opponents else me
            return ctx.evaluate(board, hand) - ctx.gain(board, nxt, base_symbol(words[1]))
        return ctx.evaluate(board, hand) - 1.0

    def _score_power(self, words: list[str], board: Board, after: Board, hand: list[str],
                     ctx: _Context) -> float:
        """Black Magic Woman: a power's worth, simulated on the public board."""
        card = words[1]
        power = base_symbol(card)
        me = ctx.me
        kept = list(hand)
        if card in kept:
            kept.remove(card)
        if power == "parrot" and len(words) >= 5:
            second, pos, sym = words[2], int(words[3]), words[4]
            if second in kept:
                kept.remove(second)
            after.move(me, pos, board.advance_to(pos, sym, me))
            return ctx.evaluate(after, kept)
        if power == "hook" and len(words) >= 4:
            second, pos = words[2], int(words[3])
            if second in kept:
                kept.remove(second)
            dst = board.advance_to(pos, base_symbol(second), me)
            after.move(me, pos, dst)
            after.move(me, pos, dst)
            return ctx.evaluate(after, kept)
        if power == "gun":
            return ctx.evaluate(board, kept, extra_cards=1) + 0.5  # the pick is ours
        if power == "rum":
            others = len(ctx.opponents)
            return ctx.evaluate(board, kept, extra_cards=2) - 0.3 * CARD_VALUE * others
        if power == "lantern":
            return ctx.evaluate(board, kept, extra_cards=1) + 1.0  # best of four
        if power == "chest" and len(words) >= 3:
            pos = int(words[2])
            cards, snake = ctx.chest_odds()
            back = max(0, pos - 1)
            return ctx.evaluate(board, kept, extra_cards=round(cards)) \
                - snake * back * REAR_WEIGHTS[0]
        return ctx.evaluate(board, hand) - 1.0


def _best_gains(
    land: dict[int, dict[str, int]], positions: Iterable[int], symbols: list[str],
    board: Board | None = None, seat: int = -1,
) -> dict[str, int]:
    """For each symbol: the longest advance a card of it gives from any of ``positions``
    (only the moves the rules allow ``seat``, when the board has a sloop)."""
    best = dict.fromkeys(symbols, 0)
    check = board is not None and board.sloop is not None
    for p in positions:
        for sym, to in land[p].items():
            if sym in best and to - p > best[sym]:
                if check and not board.allowed(seat, p, to, "advance"):
                    continue
                best[sym] = to - p
    return best


class _Context:
    """What the evaluation needs besides the board: who we are, what is known."""

    def __init__(
        self, view: dict[str, Any], me: int, seats: dict[int, dict[str, Any]], board: list[str],
        stall: float = 0.0,
    ) -> None:
        self.me = me
        self.stall = stall  # 0: play normally; 1: a loop to break, only progress counts
        symbols = view.get("symbols") or sorted(set(board))
        self.symbols = [base_symbol(s) for s in symbols]
        self.opponents = [s for s in seats if s != me]
        self.opponent_hands: dict[int, list[str] | None] = {}
        self.opponent_sizes: dict[int, int] = {}
        for s in self.opponents:
            hand = seats[s].get("hand")
            self.opponent_hands[s] = [base_symbol(c) for c in hand] if hand is not None else None
            self.opponent_sizes[s] = int(seats[s].get("hand_size") or 0)
        self.magic = view.get("magic") or {}
        cards = list(seats[me].get("hand") or []) + list(view.get("discard") or [])
        self.dark_cards = any(str(c).endswith("*") for c in cards)
        self.dark_bonus = 0.0
        if self.dark_cards:
            over = sum(max(0, n - FILIBUSTER_LIMIT) for n in self.opponent_sizes.values())
            self.dark_bonus = 0.5 * over * CARD_VALUE

    def gain(self, board: Board, seat: int, symbol: str) -> int:
        """The longest advance a card of ``symbol`` gives ``seat`` now."""
        occ = board.occupancy()
        positions = {p for p in board.pirates[seat] if p < board.boat}
        if not positions:
            return 0
        land = board.landings(occ, positions)
        return _best_gains(land, positions, self.symbols, board, seat).get(symbol, 0)

    def chest_odds(self) -> tuple[float, float]:
        """(expected cards, chance of the snake) of a closed chest tile (Black Magic
        Woman): the closed tiles are the eight less the opened ones."""
        closed = [1, 1, 2, 2, 3, 3, 0, -1]
        names = {"1": 1, "2": 2, "3": 3, "empty": 0, "snake": -1}
        for t in self.magic.get("tiles_open") or ():
            if names.get(t) in closed:
                closed.remove(names[t])
        if not closed:
            return 0.0, 0.0
        return (sum(t for t in closed if t > 0) / len(closed),
                closed.count(-1) / len(closed))

    def evaluate(self, board: Board, hand: list[str], extra_cards: int = 0) -> float:
        mine = board.pirates[self.me]
        if all(p >= board.boat for p in mine):
            return WIN_VALUE
        occ = board.occupancy()
        open_positions = {p for ps in board.pirates.values() for p in ps if p < board.boat}
        land = board.landings(occ, open_positions)
        ordered = sorted(mine)
        progress = sum(
            p * REAR_WEIGHTS[min(i, len(REAR_WEIGHTS) - 1)] for i, p in enumerate(ordered)
        )
        progress += LANDING_BONUS * sum(1 for p in mine if board.aboard_landed(p))
        # Best advance each symbol gives us now (what a card of it is worth).
        mine_open = {p for p in mine if p < board.boat}
        best_gain = _best_gains(land, mine_open, self.symbols, board, self.me)
        progress += BOAT_BONUS * sum(1 for p in mine if p >= board.boat)
        need = cards_needed(sum(board.boat - p for p in mine))
        # In a loop, cards and opponents count less and less: progress breaks it.
        calm = 1.0 - self.stall
        value = progress + calm * self._hand_value(hand, extra_cards, best_gain, need)
        # Each opponent weighs 1/(opponents) of one: helping all of them a little is
        # no worse than helping one a lot (summing them made every shared gain, such as
        # a sail that lands everyone aboard, look worse than standing still).
        share = calm / max(1, len(self.opponents))
        for seat in self.opponents:
            theirs = board.pirates[seat]
            landed = LANDING_BONUS * sum(1 for p in theirs if board.aboard_landed(p))
            value -= share * OPPONENT_PROGRESS_WEIGHT * (sum(theirs) + landed)
            value -= share * OPPONENT_ROAD_WEIGHT * self._threat(seat, theirs, board, land)
        return value

    def _hand_value(
        self, hand: list[str], extra: int, best_gain: dict[str, int], need: int
    ) -> float:
        counts = Counter(base_symbol(c) for c in hand)
        cards = card_values((n, best_gain.get(sym, 0)) for sym, n in counts.items())
        cards.extend([CARD_VALUE * 0.9] * extra)
        limit = FILIBUSTER_LIMIT if self.dark_cards else None
        dark = DARK_CARD_BONUS * sum(1 for c in hand if c.endswith("*"))
        return hand_worth(cards, need, limit, dark)

    def _threat(
        self, seat: int, theirs: list[int], board: Board, land: dict[int, dict[str, int]]
    ) -> float:
        """The best single advance this opponent can expect to make next."""
        positions = {p for p in theirs if p < board.boat}
        if not positions:
            return 0.0
        gains = _best_gains(land, positions, self.symbols, board, seat)
        known = self.opponent_hands.get(seat)
        if known is not None:
            return max((gains.get(s, 0) for s in known), default=0.0)
        return expected_best(list(gains.values()), max(1, self.opponent_sizes.get(seat, 1)))
