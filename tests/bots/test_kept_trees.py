"""A seat's search keeps its tree below its answer for the seat's next decision: the
subtree travels as plain data, grows on only when the seat's view is the one it was kept
for (after an advance: certain, and it shows the seat nothing new), counts towards the
level's count, and reaches each share of a spread decision; bots that keep their trees
still play the same game again from a seed, and play on to the end."""
from __future__ import annotations

import pickle
import random

import pytest

from cartagena_net.bots import pool
from cartagena_net.bots.ismcts import (
    flatten,
    kept_tree,
    merge,
    search,
    spread,
    unflatten,
    unpack_tree,
)
from cartagena_net.bots.kinds import make_bot
from cartagena_net.bots.match import play_game
from cartagena_net.engine import make_game, view
from cartagena_net.engine.determinize import Determinizer

COUNT = {"iterations": 1500, "think": 60.0}


def _turn_start(preset: str = "jamaica", players: int = 2, seed: int = 5, **options):
    """A state where the acting seat begins its turn with an advance it may follow up."""
    state = make_game(preset, players=players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        state.apply(rng.choice([a for a in state.legal_actions() if a.kind == "advance"]
                               or state.legal_actions()))
    while state.taken:  # to the start of a turn
        state.apply(rng.choice(state.legal_actions()))
    assert not state.is_over
    return state


def _same(a, b) -> None:
    assert (a.player, a.visits, a.wins, a.avail) == (b.player, b.visits, b.wins, b.avail)
    assert a.children.keys() == b.children.keys()
    for key, child in a.children.items():
        assert child.action is b.children[key].action  # the engine's shared object
        _same(child, b.children[key])


def _advance_answer(state, config=COUNT, seed=3):
    """A counted search whose answer is an advance (the seed turned until it is)."""
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    for s in range(seed, seed + 20):
        result = search(view(state, me), legal, {}, config, s)
        if result.action.startswith("advance"):
            return result
    raise AssertionError("no advance answered")


def test_a_subtree_travels_as_plain_data_and_comes_back_the_same():
    state = _turn_start()
    det = Determinizer(view(state, state.actor))
    # A tree grown by the search itself: keep() of its root's most visited advance.
    result = _advance_answer(state)
    packed = result.kept[0][result.action]
    assert isinstance(packed, bytes)  # one object in the host, whatever the tree's size
    tree = unpack_tree(packed)
    flat = pickle.loads(pickle.dumps(tree[1]))  # what crosses a worker's pipe
    root = unflatten(flat, det.base.tables)
    assert flatten(root)[6:] == flat[6:]  # the same nodes, each the same, in order
    _same(unflatten(flatten(root), det.base.tables), root)
    assert root.visits > sum(ch.visits for ch in root.children.values()) > 0
    assert all(isinstance(x, (str, int, float)) for x in flat)


def test_the_next_decision_grows_the_answer_s_subtree_and_counts_its_visits():
    state = _turn_start()
    me = state.actor
    first = _advance_answer(state)
    trees = kept_tree(first)
    assert trees is not None and len(trees) == 1
    kept_visits = first.visits[first.action]
    state.apply(first.action, seat=me)
    assert state.actor == me  # the turn goes on: the seat decides again
    legal = [str(a) for a in state.legal_actions()]
    again = search(view(state, me), legal, {}, COUNT, 9, trees)
    assert 0 < again.reused < kept_visits  # the subtree's root visits, less its own leaf
    assert again.reused == sum(
        ch.visits for ch in unflatten(unpack_tree(trees[0])[1], state.tables).children.values())
    # The level's count is the size of the tree answered from: fewer new iterations.
    assert again.reused + again.iterations <= COUNT["iterations"]
    assert sum(again.visits.values()) == again.reused + again.iterations
    fresh = search(view(state, me), legal, {}, COUNT, 9)
    assert fresh.reused == 0 and fresh.iterations > again.iterations
    assert again.action in legal


def test_a_tree_kept_for_another_position_is_not_grown():
    state = _turn_start()
    me = state.actor
    first = _advance_answer(state)
    trees = kept_tree(first)
    other = next(str(a) for a in state.legal_actions()
                 if a.kind == "advance" and str(a) != first.action)
    state.apply(other, seat=me)  # not the answer the tree was kept below
    legal = [str(a) for a in state.legal_actions()]
    result = search(view(state, me), legal, {}, COUNT, 9, trees)
    assert result.reused == 0 and result.iterations > 0 and result.action in legal
    # Junk where a tree should be: the search starts afresh, it does not fail.
    for junk in ([None], [("x", [1, 2])], [(view(state, me), [])], [42], [b"not a pickle"]):
        assert search(view(state, me), legal, {}, COUNT, 9, junk).reused == 0


def test_only_certain_actions_that_show_nothing_keep_a_tree():
    """A retreat draws unseen cards, a turn's end hands over to another seat: nothing is
    kept below them; an advance that goes on with the turn keeps its subtree."""
    state = _turn_start()
    me = state.actor
    result = _advance_answer(state)
    assert result.kept[0] and all(a.startswith("advance") for a in result.kept[0])
    for action, packed in result.kept[0].items():
        expected, _ = unpack_tree(packed)
        after = state.copy()
        after.apply(action, seat=me)
        assert after.actor == me and expected["viewer"] == me
    no_keep = search(view(state, me), [str(a) for a in state.legal_actions()], {},
                     {**COUNT, "keep": False}, 3)
    assert no_keep.kept == [{}]


def test_a_bot_keeps_its_tree_between_its_decisions_and_only_then():
    game = make_game("jamaica", players=2)
    for keep in (True, False):
        bot = make_bot("ismcts", random.Random(7), iterations=1200, think=60.0, keep=keep)
        state = game.new_state(seed=4)
        reused = []
        while len(reused) < 24 and not state.is_over:
            seat = state.actor
            legal = [str(a) for a in state.legal_actions()]
            if seat == 0:
                choice = bot.choose(view(state, seat, since=0), legal)
                if len(legal) > 1:
                    reused.append(bot.last.reused)
            else:
                choice = legal[0]
            state.apply(choice, seat=seat)
        assert any(reused) == keep
    bot.kept = ["anything"]
    bot.reset()  # a new game forgets it
    assert bot.kept is None


def test_each_share_of_a_spread_decision_grows_its_own_kept_tree():
    state = _turn_start()
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    args = (view(state, me), legal, {}, COUNT, 11)
    shares = [search(*share) for share in spread(args, 2)]
    merged = merge(legal, [shares[0], None, shares[1]])  # a share lost keeps its place
    assert len(merged.kept) == 3 and merged.kept[1] is None
    assert merged.reused == 0
    trees = [shares[0].kept[0].get(merged.action), None, shares[1].kept[0].get(merged.action)]
    again = spread((*args[:4], 11, trees), 3)
    assert again[0][5] == [trees[0]] and again[1][5] == [None] and again[2][5] == [trees[2]]
    assert spread((*args[:4], 11, None), 2)[1][5] is None
    assert spread(args, 2)[0][5] is None  # a job of five arguments, as before


def test_a_merged_answer_keeps_each_share_s_subtree_below_it():
    state = _turn_start()
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    h = pool.Helpers()
    try:
        for seed in range(3, 23):
            got = h.decide((view(state, me), legal, {}, COUNT, seed), 2)
            if got.action.startswith("advance"):
                break
        assert len(got.kept) == 2
        trees = kept_tree(got)
        assert trees is not None
        after = state.copy()
        after.apply(got.action, seat=me)
        legal2 = [str(a) for a in after.legal_actions()]
        again = h.decide((view(after, me), legal2, {}, COUNT, 1, trees), 2)
        grown = [t for t in trees if t is not None]
        assert again.reused >= len(grown) and again.action in legal2
    finally:
        h.stop()


@pytest.mark.parametrize(("preset", "options"), [
    ("jamaica", {}),
    ("studiogiochi-2017", {"magic": "true"}),
    ("studiogiochi-2017", {"magic": "true", "story": "whole"}),
])
def test_bots_that_keep_trees_play_the_same_game_again_to_its_end(preset, options):
    game = make_game(preset, players=2, segments=3, **options)

    def bots():
        out = [make_bot("ismcts", random.Random(s), iterations=300, deterministic=True)
               for s in (1, 2)]
        for bot in out:  # what each search grew from a kept tree
            bot.grown = []
            answered = bot.answered
            bot.answered = lambda r, b=bot, f=answered: (b.grown.append(r.reused), f(r))
        return out

    first, second = bots(), bots()
    one = play_game(game, ["ismcts", "ismcts"], 12, bots=first)
    two = play_game(game, ["ismcts", "ismcts"], 12, bots=second)
    assert one["winner"] is not None and not one["unfinished"]
    assert one["history"] == two["history"]
    assert not one["search_failures"]
    assert all(any(bot.grown) for bot in first)  # trees were kept, and grown on


@pytest.mark.parametrize("workers", [1, 2])
def test_hosted_bots_keep_their_trees_through_the_worker_pool_to_the_game_s_end(workers):
    """A table of two bots at a host: each search runs in the host's worker processes
    (spread over both with two workers: no person waits, so BOTS jobs, never spread),
    its answer comes back to the table, the bot keeps the subtree below it, and its
    next decision in the same turn grows it; the game plays on to its end."""
    from tests.twisted_loop import make_host, run, stop_host, until

    host = make_host(bot_workers=workers, bot_think=0.15)
    grown: list[int] = []

    async def go():
        tid = host.create_table("bots", "jamaica", {"players": 2, "segments": 3,
                                                    "pirates": 3}, bots=2, bot_kind="ismcts")
        table = host.lobby.tables[tid]
        for seat in table.seats:
            bot = seat.controller
            answered = bot.answered
            bot.answered = lambda r, f=answered: (grown.append(getattr(r, "reused", -1)),
                                                  f(r))
        table.start(None)
        await until(lambda: table.status == "finished", "the game is over", timeout=240)
        return table

    try:
        table = run(go(), timeout=300)
    finally:
        run(stop_host(host))
    assert table.state.outcome is not None and table.bot_fallbacks == 0
    assert -1 not in grown  # every answer was a search's, handed to its bot
    assert sum(1 for n in grown if n > 0) >= 3, grown



def test_a_kept_tree_with_more_availability_than_a_fresh_worker_s_logarithms_is_covered():
    """A worker that replaces a killed one starts with the first 4096 logarithms; a tree
    kept from a long search in the worker before may count more availability than that
    (the search then raised IndexError, and the bot's fallback played: found by
    tests/host/test_workers.py under load). The search covers the kept tree's largest
    count before it starts."""
    import math

    from cartagena_net.bots import ismcts

    root = ismcts.Node(-1)
    deep = root
    for depth in range(5):
        child = ismcts.Node(depth % 2, None)
        child.avail = 100 + depth
        deep.children[depth] = child
        deep = child
    deep.avail = 10_000  # the deepest node counts the most
    assert ismcts._most_avail(root) == 10_000
    fresh = list(ismcts._LOGS[:4096])
    try:
        ismcts._LOGS[:] = fresh  # as in a worker started since
        ismcts._cover_logs(ismcts._most_avail(root) + 2)
        assert len(ismcts._LOGS) > 10_002
        assert ismcts._LOGS[10_000] == math.log(10_000) and ismcts._LOGS[4096] == math.log(4096)
    finally:
        ismcts._LOGS[:] = fresh
