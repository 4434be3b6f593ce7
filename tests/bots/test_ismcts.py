"""The ismcts bot: determinizations agree with what a seat knows, it never peeks, its
choices are legal everywhere, its time is bounded and the real game is never touched."""
from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from cartagena_net.bots.ismcts import SearchConfig, search
from cartagena_net.bots.kinds import IsmctsBot, level_bot, make_bot
from cartagena_net.engine import PRESETS, make_game, view
from cartagena_net.engine.determinize import Determinizer, track_known

# Every preset, plus the options that change what is hidden or who decides.
SETTINGS = [(p, {}) for p in sorted(PRESETS)] + [
    ("studiogiochi-2017", {"morgan": "also", "filibusters": True, "hand_limit": 4}),
    ("studiogiochi-2017", {"morgan": "instead"}),
    ("jamaica", {"row_size": 6}),
    ("jamaica", {"hands_public": True}),
    ("jamaica", {"board": "SDKBPH HPBKDS", "colors": "cyan,magenta,white,black,orange"}),
    ("jamaica", {"empty_hand_draw": "always", "deal": 0, "actions": 1, "start_bonus": 2}),
    ("ravensburger", {"side": "island", "segments": 2, "pirates": 2}),
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"story": "whole", "morgan": "island", "filibusters": True,
                           "jail_in_passage": True}),
    ("studiogiochi-2017", {"story": "island"}),
]
IDS = [p + "".join(f"-{k}={v}" for k, v in o.items()) for p, o in SETTINGS]


def random_position(preset: str, options: dict, seed: int, players: int = 3):
    """A position reached by random play, and the events each seat has watched."""
    game = make_game(preset, players=players, **options)
    rng = random.Random(seed)
    steps = rng.randrange(0, 160)
    while True:
        state = game.new_state(seed=seed)
        for _ in range(steps):
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over:
                break
        if not state.is_over:
            return state
        steps //= 2  # the game ended: start again and stop earlier


def known_of(state, seat: int) -> dict[int, list[str]]:
    return track_known({}, view(state, seat, since=0)["events"], seat)


def hand_names(state, seat: int) -> Counter:
    names = state.game.card_names
    return Counter({names[k]: n for k, n in enumerate(state.hands[seat]) if n})


@pytest.mark.parametrize(("preset", "options"), SETTINGS, ids=IDS)
def test_determinizations_agree_with_what_the_seat_knows(preset, options):
    for seed in range(6):
        state = random_position(preset, options, seed)
        me = state.actor
        mine = view(state, me)
        known = known_of(state, me)
        for seat, cards in known.items():  # what was seen is really there
            assert not Counter(cards) - hand_names(state, seat), (seat, cards)
        det = Determinizer(mine, known)
        rng = random.Random(seed)
        deck = Counter(state.game.deck)
        for _ in range(20):
            world = det.sample(rng)
            # The seat's own view of the world is exactly its view of the real game:
            # own hand, every hand size, open hands, discard pile, row, stock size, board.
            assert view(world, me) == mine
            assert [str(a) for a in world.legal_actions()] == \
                [str(a) for a in state.legal_actions()]
            for seat, cards in known.items():  # cards it saw drawn are in those hands
                assert not Counter(cards) - hand_names(world, seat)
            # Cards are conserved: every card of the deck is somewhere, once.
            everywhere = Counter(world.stock) + Counter(world.discard) + Counter(world.row or ())
            for hand in world.hands:
                everywhere += Counter({k: n for k, n in enumerate(hand) if n})
            assert everywhere == deck
            assert world.chance == [] and world.history == []


def test_hidden_cards_really_vary_and_open_hands_do_not():
    state = random_position("jamaica", {}, 4, players=4)
    me = state.actor
    det = Determinizer(view(state, me))
    rng = random.Random(1)
    others = {tuple(map(tuple, det.sample(rng).hands)) for _ in range(30)}
    assert len(others) > 20
    open_state = random_position("tortuga", {}, 4, players=4)
    det = Determinizer(view(open_state, open_state.actor))
    worlds = [det.sample(rng) for _ in range(10)]
    assert all(w.hands == open_state.hands for w in worlds)  # only the stock is dealt
    # The stock is dealt as it is drawn (a determinization leaves it loose): each world
    # draws the real stock's cards, in an order of its own.
    orders = [[w._pop_stock() for _ in range(len(w.stock))] for w in worlds]
    assert len({tuple(o) for o in orders}) > 1
    assert all(sorted(o) == sorted(open_state.stock) for o in orders)


def test_a_loose_stock_deals_every_unseen_card_as_often_as_a_shuffle_would():
    """The first card a determinization draws: each unseen kind about as often as its
    share of the unseen cards (a full shuffle's odds), within five standard errors."""
    state = random_position("jamaica", {}, 6, players=4)
    det = Determinizer(view(state, state.actor))
    rng = random.Random(3)
    runs = 6000
    first = Counter()
    for _ in range(runs):
        world = det.sample(rng)
        assert world.loose == len(world.stock)  # nothing in order until it is drawn
        first[world.draw_cards(world.actor, 1)[0]] += 1
    pool = Counter(det.pool)
    for k, n in pool.items():
        p = n / len(det.pool)
        assert abs(first[k] / runs - p) < 5 * (p * (1 - p) / runs) ** 0.5, (k, first[k])
    assert set(first) == set(pool)


@pytest.mark.parametrize(("preset", "options"), SETTINGS, ids=IDS)
def test_a_determinization_plays_on_to_the_end_with_every_card_in_its_place(preset, options):
    """A dealt world is a whole game: played on with the checked ``apply`` to its end,
    its loose stock drawn from, the row refilled and the discard pile reshuffled as they
    come, it never loses or makes a card, and it ends with a winner."""
    for seed in range(3):
        state = random_position(preset, options, 300 + seed)
        world = Determinizer(view(state, state.actor), known_of(state, state.actor)) \
            .sample(random.Random(seed))
        deck = Counter(world.game.deck)
        rng = random.Random(seed)
        for _ in range(5000):
            if world.is_over:
                break
            world.apply(rng.choice(world.legal_actions()))
            assert 0 <= world.loose <= len(world.stock)
            everywhere = Counter(world.stock) + Counter(world.discard) + Counter(world.row or ())
            for hand in world.hands:
                everywhere += Counter({k: n for k, n in enumerate(hand) if n})
            assert everywhere == deck
        assert world.is_over, (preset, seed)


def test_a_fault_after_a_draw_from_a_loose_stock_puts_every_card_back(monkeypatch):
    """The checked apply is atomic on a dealt world too: a fault after a push or a retreat
    drew from the loose stock leaves the stock, its loose cards and the hands as they
    were; the same action then goes through and the world plays on to its end."""
    from cartagena_net.engine import State

    drawing = 0
    for seed in range(6):
        state = random_position("studiogiochi-2017", {"morgan": "also", "filibusters": True},
                                400 + seed, players=4)
        world = Determinizer(view(state, state.actor)).sample(random.Random(seed))
        acts = [a for a in world.legal_actions() if a.kind in ("retreat", "morgan")]
        if not acts or world.loose == 0:
            continue
        drawing += 1
        before = world.copy(chance=world._chance)
        original = State.log

        def failing_log(self, event, original=original):
            original(self, event)
            raise RuntimeError("logging failed")

        monkeypatch.setattr(State, "log", failing_log)
        with pytest.raises(RuntimeError):
            world.apply(acts[0])
        monkeypatch.setattr(State, "log", original)
        assert world == before and world.loose == before.loose
        world.apply(acts[0])
        assert sum(map(sum, world.hands)) > sum(map(sum, before.hands))  # it drew
        assert world.loose < before.loose
        rng = random.Random(seed)
        while not world.is_over:
            world.apply(rng.choice(world.legal_actions()))
    assert drawing >= 3  # enough worlds had a draw to make


def test_cards_drawn_from_the_row_are_remembered_until_played():
    events = [
        {"type": "retreat", "seat": 1, "cards": ["key", "skull"]},
        {"type": "retreat", "seat": 0, "cards": ["hat"]},  # our own draw: in our hand anyway
        {"type": "advance", "seat": 1, "card": "key"},
        {"type": "morgan", "seat": 2, "cards": ["hat"]},
        {"type": "discard", "seat": 2, "card": "hat"},
        {"type": "retreat", "seat": 2, "drawn": 2},  # hidden draw: nothing learned
    ]
    assert track_known({}, events, 0) == {1: ["skull"], 2: []}


def redeal(state, seat: int):
    """The same game with everything ``seat`` cannot see dealt anew (an independent
    re-deal: every hidden hand's unknown cards and the stock pooled and shuffled)."""
    other = state.copy(events=True)
    if state.game.hands_public:
        random.Random(99).shuffle(other.stock)
        return other
    known = known_of(state, seat)
    names = state.game.card_index
    pool = list(other.stock)
    keep = {}
    for s in range(state.game.players):
        if s == seat:
            continue
        hand = list(other.hands[s])
        kept = [0] * len(hand)
        for c in known.get(s, ()):
            kept[names[c]] += 1
        for k, n in enumerate(hand):
            pool += [k] * (n - kept[k])
        keep[s] = (kept, sum(hand) - sum(kept))
    random.Random(99).shuffle(pool)
    for s, (kept, n) in keep.items():
        hand = list(kept)
        for k in pool[:n]:
            hand[k] += 1
        pool = pool[n:]
        other.hands[s] = hand
    other.stock = pool
    return other


@pytest.mark.parametrize(("preset", "options"), SETTINGS, ids=IDS)
def test_it_never_peeks(preset, options):
    """Re-deal everything the seat cannot see: with the same seed, the same choice."""
    changed = 0
    for seed in range(4):
        state = random_position(preset, options, 100 + seed)
        me = state.actor
        other = redeal(state, me)
        changed += other.hands != state.hands or other.stock != state.stock
        choices = []
        for world in (state, other):
            bot = make_bot("ismcts", random.Random(seed), iterations=150, think=30.0)
            legal = [str(a) for a in world.legal_actions()]
            choices.append(bot.choose(view(world, me, since=0), legal))
        assert choices[0] == choices[1], (preset, seed)
    assert changed  # the hidden cards really were different


@pytest.mark.parametrize(("preset", "options"), SETTINGS, ids=IDS)
def test_every_choice_is_legal_on_random_positions(preset, options):
    for seed in range(8):
        state = random_position(preset, options, 200 + seed, players=2 + seed % 3)
        me = state.actor
        legal = [str(a) for a in state.legal_actions()]
        bot = make_bot("ismcts", random.Random(seed), iterations=40, think=30.0)
        choice = bot.choose(view(state, me, since=0), legal)
        assert choice in legal
        state.apply(choice, seat=me)  # and the engine accepts it


def test_the_search_never_changes_the_real_game():
    game = make_game("studiogiochi-2017", players=3, morgan="also", filibusters=True)
    rng = random.Random(5)
    state = game.new_state(rng=random.Random(8))
    bots = [make_bot("ismcts", random.Random(i), iterations=60, think=30.0) for i in range(3)]
    seen = [0, 0, 0]
    for _ in range(60):
        if state.is_over:
            break
        me = state.actor
        before = state.copy(events=True)
        record = state.record()
        chance = state._chance.rng.getstate()
        v = view(state, me, since=seen[me])
        seen[me] = state.event_count
        choice = bots[me].choose(v, [str(a) for a in state.legal_actions()])
        assert state == before and state.record() == record
        assert state.events == before.events
        assert state._chance.rng.getstate() == chance  # chance untouched too
        state.apply(choice if rng.random() < 0.5 else rng.choice(state.legal_actions()))


def test_time_budget_is_respected():
    state = random_position("jamaica", {}, 7, players=4)
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    result = search(view(state, me), legal, config=SearchConfig(think=0.2))
    assert result.action in legal and result.iterations > 0
    # Generous: the budget is checked every iteration, and one iteration is milliseconds.
    assert result.seconds < 0.2 + 1.0
    result = search(view(state, me), legal, config=SearchConfig(think=0.05, iterations=10**9))
    assert result.seconds < 0.05 * 2 + 1.0  # a fixed count still stops at twice the budget


def decisions(seeds: int):
    """(seed, state, seat to act, its legal actions) at positions of every setting in
    turn, two to four players, where the seat has two or more actions to choose from."""
    for seed in range(seeds):
        preset, options = SETTINGS[seed % len(SETTINGS)]
        state = random_position(preset, options, seed, players=2 + seed % 3)
        legal = [str(a) for a in state.legal_actions()]
        if len(legal) >= 2:
            yield seed, state, state.actor, legal


def test_stopping_once_the_answer_cannot_change_changes_no_answer(monkeypatch):
    """With an iteration count and ``settle=0``, the search stops when the most visited
    action leads by more than the iterations left; run to the end, it answers the same."""
    from cartagena_net.bots import ismcts

    stopped_early = 0
    for seed, state, me, legal in decisions(12):
        config = SearchConfig(think=60.0, iterations=400, settle=0.0)
        quick = search(view(state, me), legal, config=config, seed=seed)
        with monkeypatch.context() as m:
            m.setattr(ismcts, "STOP_CHECK", 10**9)  # never checked: all 400 iterations
            full = search(view(state, me), legal, config=config, seed=seed)
        assert full.iterations == 400 and quick.iterations <= 400
        assert quick.action == full.action
        lead = sorted(quick.visits.values(), reverse=True) + [0]
        if quick.iterations < 400:
            stopped_early += 1
            assert lead[0] - lead[1] > 400 - quick.iterations
    assert stopped_early  # the check does stop some searches


class _Root:
    """A root whose children have these visit counts (what ``_decided`` reads)."""

    def __init__(self, *visits: int) -> None:
        self.children = {i: SimpleNamespace(visits=v) for i, v in enumerate(visits)}


def test_a_settled_answer_stops_a_search_once_its_lead_holds_at_a_pace():
    from cartagena_net.bots.ismcts import SETTLE_FROM, _decided

    # 1250 of 5000 searched (a quarter): 675 against 212. Were the leader to go on at its
    # pace (x4 in all) and the runner-up at twice its own (x7), 2700 against 1484.
    assert SETTLE_FROM == 0.25
    assert _decided([_Root(675, 212, 188, 175)], 3750, settle=2.0)
    assert not _decided([_Root(675, 212, 188, 175)], 3750, settle=0.0)  # it could change
    # At four times its pace the runner-up (x13: 2756) would pass 0.9 of 2700.
    assert not _decided([_Root(675, 212, 188, 175)], 3750, settle=4.0)
    # A closer race is not settled; nor is any before a quarter of the count.
    assert not _decided([_Root(560, 375, 315)], 3750, settle=2.0)
    assert not _decided([_Root(100, 1, 1)], 900, settle=2.0)  # 102 of 1002 searched
    assert _decided([_Root(100, 1, 1)], 300, settle=2.0)  # 102 of 402
    # Shares' roots count together (determinized UCT's trees).
    assert _decided([_Root(338, 106, 94, 87), _Root(338, 106, 94, 87)], 3750, settle=2.0)
    # The certain stop needs no pace and no share searched.
    assert _decided([_Root(60, 2)], 40, settle=0.0)


def test_a_settled_search_answers_as_the_whole_count_nearly_always_and_sooner():
    """Over positions of every preset, a counted search that stops once its answer is
    settled (``settle=2.5``, the rule measured in games: docs/bots.md) searches fewer
    iterations than one that stops only once its answer cannot change, and answers the
    same nearly every time: where it does not, the two actions are near in worth. The
    levels do not settle (the settled normal level lost games to the level before)."""
    assert SearchConfig().settle == 0.0
    assert IsmctsBot(random.Random(1), level="normal").config.settle == 0.0
    settled = 2.5
    searched = {0.0: 0, settled: 0}
    differ = 0
    positions = 0
    for seed, state, me, legal in decisions(24):
        positions += 1
        answers = {}
        for settle in searched:
            result = search(view(state, me), legal, seed=seed,
                            config=SearchConfig(think=60.0, iterations=1500, settle=settle))
            searched[settle] += result.iterations
            answers[settle] = result
        if answers[0.0].action != answers[settled].action:
            differ += 1
            full = answers[0.0]
            assert full.means[full.action] - full.means[answers[settled].action] < 0.15
    assert positions >= 16
    assert searched[settled] < 0.9 * searched[0.0]
    assert differ <= positions // 4


def test_the_answer_is_the_most_visited_and_among_near_ties_the_best_mean():
    from cartagena_net.bots.ismcts import answer

    legal = ["advance 0 gun", "end", "retreat 4"]
    means = {"advance 0 gun": 0.2, "end": 0.9, "retreat 4": 0.5}
    # A clear lead in visits beats a better mean reward from fewer visits.
    assert answer(legal, {"advance 0 gun": 500, "end": 100, "retreat 4": 300},
                  means) == "advance 0 gun"
    # Visited nearly as often (within a tenth): the best mean, whatever the names.
    assert answer(legal, {"advance 0 gun": 300, "end": 299, "retreat 4": 300},
                  {"advance 0 gun": 3e-12, "end": 1e-12, "retreat 4": 2e-12}) \
        == "advance 0 gun"
    assert answer(legal, {"advance 0 gun": 300, "end": 280, "retreat 4": 300},
                  means) == "end"
    assert answer(legal, {}, {}) == "retreat 4"  # nothing searched: still an answer


def test_far_behind_the_answer_follows_the_rewards_not_the_action_names():
    """Far behind, every leaf's reward share is about 0, so UCB visits every root
    action in turn. The answer must still come from the rewards: it used to fall to the
    greatest action string, a retreat or a push every time, and such a seat stopped
    advancing and paid Filibusters discards for the cards it hoarded."""
    from cartagena_net.bots.ismcts import rewards

    game = make_game("studiogiochi-2017", players=4, morgan="also", filibusters=True)
    state = game.new_state(seed=5)
    behind = [[0] * game.pirates] + [[20 + s + 3 * i for i in range(game.pirates)]
                                     for s in range(3)]
    state.setup(behind, hands=[["parrot", "gun", "rum"], ["hook"] * 2, ["chest"] * 2,
                               ["lantern"] * 2], turn=0)
    assert rewards(state)[0] < 1e-9
    legal = [str(a) for a in state.legal_actions()]
    result = search(view(state, 0), legal, config=SearchConfig(think=60.0, iterations=3000),
                    seed=1)
    counts = sorted(result.visits.values())
    assert len(counts) == len(legal) and counts[-1] - counts[0] <= counts[-1] // 10
    assert result.action == max(legal, key=lambda a: result.means[a])
    assert result.means[result.action] > result.means[max(legal)]


def test_a_job_that_waited_for_a_worker_still_answers_on_time():
    import time

    state = random_position("jamaica", {}, 8, players=3)
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    bot = make_bot("ismcts", random.Random(1), think=5.0)
    fn, args = bot.job(view(state, me), legal)
    args[3]["deadline"] = time.time() - 1.0  # as if it had queued past its budget
    result = fn(*args)
    assert result.action in legal and result.iterations == 1
    assert result.seconds < 5.0


def test_a_single_legal_action_needs_no_search():
    state = random_position("jamaica", {}, 3, players=2)
    result = search(view(state, state.actor), ["end"], config=SearchConfig(think=5.0))
    assert result.action == "end" and result.iterations == 0


def test_levels_and_kinds():
    assert level_bot("easy") == ("greedy", None)
    assert level_bot("normal")[0] == "ismcts"
    assert level_bot("hard", 0.3) == ("ismcts", 0.3)
    with pytest.raises(ValueError):
        level_bot("godlike")
    with pytest.raises(ValueError):
        level_bot("normal", -1.0)
    bot = make_bot("ismcts", think=0.25)
    assert isinstance(bot, IsmctsBot) and bot.config.think == 0.25
    assert bot.config.iterations is None  # --think: a pure time budget
    normal, hard = make_bot("ismcts"), make_bot("ismcts", level="hard")
    assert (normal.config.think, normal.config.iterations) == (1.0, 5000)
    # Hard is a time, spent on every worker; counted only where a game must replay.
    assert (hard.config.think, hard.config.iterations) == (1.5, None)
    exact = make_bot("ismcts", level="hard", deterministic=True)
    assert exact.config.iterations == 15000 and exact.config.think >= 1e9


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_levels_iterations_are_for_each_other_seat(players):
    """The tree must reach past every other seat's turn: the level's count is per other
    seat, up to the level's cap in all (normal: 12000, reached at four players; hard,
    counted only when deterministic: none). A count or a time given by hand is taken as
    it is."""
    state = random_position("jamaica", {}, players, players=players)
    me = state.actor
    legal = [str(a) for a in state.legal_actions()]
    v = view(state, me)
    expected = {"normal": min(5000 * (players - 1), 12000), "hard": 15000 * (players - 1)}
    for level in ("normal", "hard"):
        _, args = make_bot("ismcts", random.Random(0), level=level,
                           deterministic=level == "hard").job(v, legal)
        assert args[3]["iterations"] == expected[level]
    _, args = make_bot("ismcts", random.Random(0), level="hard").job(v, legal)
    assert args[3]["iterations"] is None and args[3]["think"] == 1.5
    _, args = make_bot("ismcts", random.Random(0), iterations=70).job(v, legal)
    assert args[3]["iterations"] == 70
    _, args = make_bot("ismcts", random.Random(0), think=0.5).job(v, legal)
    assert args[3]["iterations"] is None and args[3]["think"] == 0.5
    bot = make_bot("ismcts", random.Random(0))
    assert bot.choose(v, legal) in legal
    if len(legal) > 1:
        assert 0 < bot.last.iterations <= expected["normal"]


def test_ismcts_beats_random():
    wins = 0
    for seed in range(4):
        game = make_game("jamaica", players=2, segments=3)
        state = game.new_state(seed=seed)
        kinds = ["ismcts", "random"] if seed % 2 == 0 else ["random", "ismcts"]
        bots = [make_bot(k, random.Random(seed), iterations=60, think=30.0) for k in kinds]
        while not state.is_over:
            seat = state.actor
            legal = [str(a) for a in state.legal_actions()]
            state.apply(bots[seat].choose(view(state, seat), legal))
        wins += kinds[state.outcome.winner] == "ismcts"
    assert wins == 4


@pytest.mark.parametrize(("preset", "options"), SETTINGS, ids=IDS)
def test_apply_unchecked_agrees_with_apply(preset, options):
    """The search's fast apply gives exactly the checked apply's result on legal actions."""
    for seed in range(3):
        game = make_game(preset, players=2 + seed, **options)
        a = game.new_state(seed=seed)
        b = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not a.is_over:
            action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply_unchecked(action)
            assert a == b
            assert a.chance == b.chance and a.events == b.events and a.history == b.history
        assert b.is_over and a.outcome == b.outcome


def test_the_bot_remembers_row_draws_from_the_views_it_is_given():
    """Fed its views with their new events (as the host and selfplay do), the bot knows
    exactly the cards the whole history shows in other hands."""
    game = make_game("hispaniola", players=3)
    state = game.new_state(seed=12)
    rng = random.Random(12)
    bot = make_bot("ismcts", random.Random(0), iterations=5, think=30.0)
    seen = 0
    learned = False
    for _ in range(150):
        if state.is_over:
            break
        if state.actor == 1:
            bot.choose(view(state, 1, since=seen), [str(a) for a in state.legal_actions()])
            seen = state.event_count
            expected = known_of(state, 1)
            assert {s: sorted(c) for s, c in bot.known.items() if c} == \
                {s: sorted(c) for s, c in expected.items() if c}
            learned = learned or any(bot.known.values())
        state.apply(rng.choice(state.legal_actions()))
    assert learned


def test_cli_selfplay_reports_win_rates_intervals_and_decision_times():
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "cartagena_net", *args], cwd=root,
                              capture_output=True, text=True, timeout=300, check=False)

    out = cli("selfplay", "--bot", "ismcts,greedy", "--think", "0.02", "--games", "2",
              "--rotate", "--seed", "3", "--json", "-o", "segments=2")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["players"] == 2 and result["games"] == 2  # one seat per kind given
    ismcts = result["kinds"]["ismcts"]
    assert ismcts["games"] == 2 and 0 <= ismcts["wins"] <= 2
    lo, hi = ismcts["ci95"]
    assert 0 <= lo <= ismcts["win_rate"] <= hi <= 1
    assert ismcts["decisions"] > 0 and ismcts["decision_p99_s"] >= ismcts["decision_mean_s"] > 0
    assert ismcts["iterations_per_s"] > 0
    bad = cli("selfplay", "--bot", "ismcts", "--think", "0", "--games", "1")
    assert bad.returncode != 0 and "--think" in bad.stderr
    bad = cli("selfplay", "--bot", "clever,greedy", "--games", "1")
    assert bad.returncode != 0 and "unknown bot kind" in bad.stderr
    bad = cli("play", "--level", "godlike")
    assert bad.returncode != 0 and "invalid choice" in bad.stderr
