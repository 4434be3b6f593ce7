"""The engine's fast paths agree with the plain rules: the one-sweep retreat targets
with the scan of each pirate, and the search's ``apply_unchecked`` with the checked,
atomic ``apply`` on many random games of every preset and option mix."""
from __future__ import annotations

import random
import sys

import pytest

from cartagena_net.engine import PRESETS, SPECTATOR, make_game, moves
from cartagena_net.engine.view import fixed_part, view

from .helpers import log_failing_at

MIXES = [(p, {}) for p in sorted(PRESETS)] + [
    ("studiogiochi-2017", {"morgan": "also", "filibusters": True, "hand_limit": 4}),
    ("studiogiochi-2017", {"morgan": "instead"}),
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"story": "whole", "morgan": "island", "filibusters": True,
                           "jail_in_passage": True}),
    ("studiogiochi-2017", {"story": "island"}),
    ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"magic": True, "story": "whole", "morgan": "also",
                           "filibusters": True}),
    ("jamaica", {"row_size": 6, "hands_public": True}),
    ("jamaica", {"empty_hand_draw": "always", "deal": 0, "actions": 1, "start_bonus": 2}),
]
IDS = [p + "".join(f"-{k}={v}" for k, v in o.items()) for p, o in MIXES]


def test_one_sweep_retreat_targets_and_legal_moves_agree_with_one_scan_a_pirate():
    """``moves.retreat_targets`` and ``moves.sweep`` (the legal list's one pass where no
    move is checked) against the plain definitions: each pirate's retreat scanned alone,
    each distinct space's advances below the goal."""
    rng = random.Random(31)
    for _ in range(20_000):
        n = rng.randrange(3, 40)
        occ = [rng.choice((0, 0, 1, 2, 3)) for _ in range(n)]
        split = rng.choice((None, rng.randrange(1, n)))
        back = [1 if split is None or p <= split else split + 1 for p in range(n)]
        pirates = sorted(rng.randrange(n) for _ in range(rng.randrange(1, 7)))
        boat = n - 1
        targets = [(p, t) for p in sorted(set(pirates)) if p
                   and (t := moves.retreat_target(occ, p, back[p]))]
        assert moves.retreat_targets(occ, pirates, back) == targets
        advances = [[("advance", p, k) for k in range(rng.randrange(3))] for p in range(n)]
        retreats = [("retreat", p) for p in range(n)]
        listed = [a for p in sorted(set(pirates)) if p < boat for a in advances[p]]
        retreated = [retreats[p] for p, _ in targets]
        out = ["before"]
        moves.sweep(occ, pirates, back, boat, advances, retreats, out)
        assert out == ["before", *listed, *retreated]
        out = []
        moves.sweep(occ, pirates, back, boat, None, retreats, out)
        assert out == retreated
        out = []
        moves.sweep(occ, pirates, back, boat, advances, None, out)
        assert out == listed


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_the_fast_apply_agrees_with_the_checked_one_on_random_games(preset, options):
    for seed in range(6):
        game = make_game(preset, players=2 + seed % 4, **options)
        checked = game.new_state(seed=seed)
        fast = game.new_state(seed=seed, events=False)
        rng = random.Random(seed)
        while not checked.is_over:
            legal = checked.legal_actions()
            assert legal == fast.legal_actions()
            action = rng.choice(legal)
            checked.apply(action)
            fast.apply_unchecked(action)
            assert checked == fast
            assert checked.chance == fast.chance and checked.history == fast.history
        assert fast.is_over and checked.outcome == fast.outcome


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_views_sharing_their_public_part_are_each_viewers_own_view(preset, options):
    """One broadcast builds the viewer-free part once (``shared``): in any order of
    viewers, each view is exactly the one built alone, events and hands included."""
    for seed in range(3):
        game = make_game(preset, players=2 + seed % 4, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        viewers: list = [*range(game.players), SPECTATOR]
        sent = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.3:
                continue  # several actions between broadcasts, as a bot's quick turn
            shared: dict = {}
            rng.shuffle(viewers)
            for viewer in viewers:
                alone = view(state, viewer, since=sent)
                assert view(state, viewer, since=sent, shared=shared) == alone, viewer
                # Without the fixed part, plus the fixed part: the same view, in its order.
                rest = view(state, viewer, since=sent, shared=shared, fixed=False)
                whole = {**fixed_part(state), **rest}
                assert whole == alone and list(whole) == list(alone)
                assert not set(fixed_part(state)) & set(rest)
                if viewer == SPECTATOR:
                    assert not any(s["hand"] for s in alone["seats"]) or game.hands_public
            sent = state.event_count
        # Built once for the game, kept beside its board, and never changed by it.
        first = sys.modules[view.__module__]._BOARDS.get(state.board)[1]
        assert fixed_part(state) is first
        assert first == fixed_part(game.new_state(seed=seed)) or game.board is None
        other = make_game(preset, players=game.players, **options)
        state.game = other  # the same board in another game object: built for that one
        assert fixed_part(state) is not first and fixed_part(state) == first


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_the_faces_kept_with_a_state_are_the_faces_built_afresh(preset, options):
    """A seat's face is kept beside the state (``view._FACES``) and given again as the same
    object while its pirates, hand and numbers stay the same: after every action (undos,
    powers, set-backs included) each viewer's faces equal those of a state with nothing
    kept, and the face of a seat whose pirates and hand did not change is the very
    object given before."""
    for seed in range(3):
        game = make_game(preset, players=2 + seed % 4, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        viewers: list = [*range(game.players), SPECTATOR]
        faces = sys.modules[view.__module__]._FACES
        before: dict = {}  # each viewer's faces after the last action
        while not state.is_over:
            places = [list(p) for p in state.pirates]
            hands = [list(h) for h in state.hands]
            action = str(rng.choice(state.legal_actions(undo=True)))
            state.apply(action)
            same = [places[s] == state.pirates[s] and hands[s] == state.hands[s]
                    for s in range(game.players)]
            for viewer in viewers:
                seats = view(state, viewer)["seats"]
                kept = faces.get(state)
                faces.put(state, {})  # nothing kept: every face built afresh
                assert view(state, viewer)["seats"] == seats, viewer
                faces.put(state, kept)
                if viewer in before and action != "undo":  # (an undo's pirate: new numbers)
                    for s, (face, last) in enumerate(zip(seats, before[viewer], strict=True)):
                        assert (face is last) == same[s], (viewer, action, s)
                before[viewer] = seats


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_an_event_is_built_for_a_seat_alone_exactly_when_it_reads_differently_to_it(
        preset, options):
    """A broadcast shares the spectator's reading of an event with every seat but those
    ``_names_seat`` picks out: each of them must be a seat it reads differently to, and
    every seat it reads differently to must be one of them."""
    view_module = sys.modules[view.__module__]
    seen = set()
    hidden = False  # drawn from a hidden stock into a hidden hand: somebody reads it alone
    for seed in range(3):
        game = make_game(preset, players=2 + seed % 4, **options)
        hidden = hidden or not (game.hands_public or game.row_size)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        for e in state.events:
            public = view_module._event(state, e, None)
            for seat in range(game.players):
                differs = view_module._event(state, e, seat) != public
                assert view_module._names_seat(e, seat) is differs or (
                    not differs and _reads_alike_by_chance(e)), (e, seat)
                if differs:
                    seen.add(e.kind)
    assert seen or not hidden, "no event read differently to any seat"


def _reads_alike_by_chance(e: tuple) -> bool:
    """A personal event whose private reading happens to equal the public one: a draw or
    keep of no card, or cards shown to everyone anyway (open hands, the face-up row)."""
    return e.kind in ("retreat", "morgan", "draw", "chest", "keep", "stack", "take", "give")


class Boom(RuntimeError):
    pass


PLAIN = [(i, m) for i, m in zip(IDS, MIXES, strict=True)
         if make_game(m[0], players=2, **m[1]).rules.plain_advance]


def test_the_plain_advance_is_every_game_s_whose_variants_neither_refuse_nor_follow_a_move():
    assert {i for i, _ in PLAIN} == {
        i for i in IDS if "filibusters" not in i and "whole" not in i
        and "morgan=island" not in i}


@pytest.mark.parametrize(("preset", "options"), [m for _, m in PLAIN],
                         ids=[i for i, _ in PLAIN])
def test_the_plain_advance_agrees_with_the_whole_save_undo_and_faults_included(
        preset, options, monkeypatch):
    """Where no variant refuses or follows a move (``rules.plain_advance``), ``apply``
    saves only what an advance changes and its undo entry is the advance itself; a
    retreat, end or draw saves only what an action of the actor alone changes
    (``rules.seat_kinds``, ``State._seat_action``: the stock's top cards, not the piles).
    Played beside the same game with both off, with undos and with a fault injected at
    every event an action logs (its own, a reshuffle's, the win, the next turn's): the
    same states, events and history at every step, and a failed action changes
    nothing."""
    from cartagena_net.engine.state import State

    original = State.log
    faults = undos = 0
    for seed in range(4):
        game = make_game(preset, players=2 + seed % 4, **options)
        other = make_game(preset, players=2 + seed % 4, **options)
        assert game is not other and game.rules is not other.rules
        other.rules.plain_advance = False  # the whole save, for every action
        other.rules.seat_kinds = frozenset()
        if other.rules.swept_retreats:  # the retreat variant lists its own retreats
            other.rules.swept_retreats = False
            other.rules.legal = (*(v.legal for v in other.rules.variants if v.swept),
                                 *other.rules.legal)
        assert "end" in game.rules.seat_kinds or game.rules.reshuffle_hooks
        fast = game.new_state(seed=seed)
        whole = other.new_state(seed=seed)
        rng = random.Random(seed)
        while not fast.is_over:
            legal = fast.legal_actions(undo=True)
            assert [str(a) for a in legal] == [str(a) for a in whole.legal_actions(undo=True)]
            action = rng.choice(legal)
            undos += action.kind == "undo"
            if action.kind != "undo" and rng.random() < 0.5:
                before = (fast.copy(events=True), list(fast.events), list(fast.undo_stack))
                dice = fast._chance.rng.getstate()  # a failed reshuffle still rolled
                monkeypatch.setattr(State, "log",
                                    log_failing_at(original, rng.randrange(1, 4), Boom))
                try:
                    fast.apply(action)
                except Boom:
                    faults += 1
                    assert fast == before[0] and fast.events == before[1]
                    assert fast.undo_stack == before[2] and fast.history == before[0].history
                    fast._chance.rng.setstate(dice)
                else:
                    fast_state = fast.copy(events=True)  # it logged fewer events
                    monkeypatch.setattr(State, "log", original)
                    whole.apply(action)
                    assert fast_state == whole
                    continue
                finally:
                    monkeypatch.setattr(State, "log", original)
            fast.apply(action)
            whole.apply(action)
            assert fast == whole
            assert fast.events == whole.events and fast.history == whole.history
            assert fast.can_undo() == whole.can_undo()
        assert whole.is_over and fast.outcome == whole.outcome
    assert faults > 20
    assert undos > 5 or game.actions == 1  # one action a turn: nothing to take back


@pytest.mark.parametrize(("preset", "options"), MIXES, ids=IDS)
def test_an_action_s_text_finds_the_same_action_its_parse_gives(preset, options):
    """``apply`` of a text takes the game's own action of that notation when there is
    one (``ActionTables.by_text``), else parses: the same value either way; an action's
    notation, written once and kept, is the same text and leaves its equality, hash and
    pickling alone."""
    import pickle

    from cartagena_net.engine.actions import Action, parse_action

    game = make_game(preset, players=3, **options)
    state = game.new_state(seed=5)
    tables = state.tables
    assert len(tables.by_text) > 100
    for text, action in tables.by_text.items():
        assert parse_action(text) == action and str(action) == text
        assert parse_action(f"  {text.upper()} ") == action  # not canonical: parsed
    fresh = Action("advance", pos=3, card=game.card_names[0])
    written = str(fresh)
    assert written == f"advance 3 {game.card_names[0]}" and str(fresh) is written  # kept
    twin = Action("advance", pos=3, card=game.card_names[0])
    assert fresh == twin and hash(fresh) == hash(twin) and repr(fresh) == repr(twin)
    assert pickle.loads(pickle.dumps(fresh)) == fresh
    rng = random.Random(5)
    parsed = game.new_state(seed=5)
    while not state.is_over:
        text = str(rng.choice(state.legal_actions(undo=True)))
        state.apply(text)
        parsed.apply(parse_action(text))
        assert state == parsed and state.history == parsed.history


def test_the_hand_tables_stay_bounded_and_right(monkeypatch):
    """The advances kept by hand (and by the kinds held) never grow past their bound,
    and a hand's advances at a space are its kinds' actions there, in kind order."""
    from cartagena_net.engine import actions

    monkeypatch.setattr(actions, "HANDS_KEPT", 16)
    game = make_game("studiogiochi-2017", players=2, magic=True)  # twelve card kinds
    tables = actions.ActionTables(game.card_names, 2, 30)
    rng = random.Random(4)
    for _ in range(500):
        hand = [rng.choice((0, 0, 1, 2)) for _ in game.card_names]
        by_pos = tables.advances(hand)
        assert tables.by_hand[tuple(hand)] is by_pos
        p = rng.randrange(len(tables.advance))
        assert by_pos[p] == tuple(a for k, a in enumerate(tables.advance[p]) if hand[k])
        assert len(tables.by_hand) <= 16 and len(tables._by_kinds) <= 16
        assert list(tables.by_hand)[-1] == tuple(hand)  # the oldest goes, not all at once
    assert len(tables.by_hand) == 16


def test_games_on_boards_of_the_same_kinds_and_length_share_one_set_of_tables(monkeypatch):
    """Every game on a board of the same kinds of cards and length plays the same
    action objects, Morgan's rows growing with the seats asked for; the newest
    TABLES_KEPT boards' tables are kept for the games to come, and a game keeps its
    own while it lives (issue 62: a host built them again for every table)."""
    import gc
    import weakref

    from cartagena_net.engine import actions

    monkeypatch.setattr(actions, "_TABLES", {})
    monkeypatch.setattr(actions, "TABLES_KEPT", 3)
    two = make_game("jamaica", players=2).new_state(seed=1)
    five = make_game("jamaica", players=5, morgan="also").new_state(seed=2)
    assert two.tables is five.tables and len(five.tables.morgan) == 5
    assert five.tables.by_text["morgan 4 3"] is five.tables.morgan[4][3]
    rng = random.Random(2)
    while not five.is_over:  # a five-seat game with Morgan plays on the shared tables
        five.apply(str(rng.choice(five.legal_actions())))
    assert make_game("web-2008").new_state(seed=1).tables is not two.tables  # other kinds
    games = [make_game("jamaica", segments=n) for n in (2, 3, 4)]  # other lengths
    kept = [g.new_state(seed=1).tables for g in games]
    assert len(actions._TABLES) == 3 and two.tables not in actions._TABLES.values()
    assert make_game("jamaica", segments=2).new_state(seed=3).tables is kept[0]
    assert games[0].action_tables(kept[0]._boat - 1) is kept[0]  # its own, while it lives
    gone = weakref.ref(two.tables)
    del two, five
    gc.collect()
    assert gone() is None  # forgotten here and by its games: freed


@pytest.mark.parametrize("preset, options", [("jamaica", {}),
                                             ("studiogiochi-2017", {"magic": True})])
def test_a_hand_s_advances_are_made_only_where_its_pirates_stand(preset, options):
    """On a board of twelve kinds (hundreds of sets of kinds held in a game) a set's
    advances are made at the spaces asked for only, and the same at every space as
    all made at once; a board of six kinds makes them all at once (63 sets at most).
    A game's tables then hold what its pirates met, not every space for every hand
    (issue 62: about 0.9 MB of a 2017 game's tables after three games, now half)."""
    from cartagena_net.engine import actions

    game = make_game(preset, players=4, **options)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    tables = state.tables
    lazy = len(game.card_names) > actions.EAGER_KINDS
    assert lazy == (preset != "jamaica")
    made = 0
    for kinds, by_pos in tables._by_kinds.items():
        assert isinstance(by_pos, actions.Advances) == lazy
        spaces = range(len(tables.advance))
        for p in (list(by_pos) if lazy else spaces):
            assert by_pos[p] == tuple(tables.advance[p][k] for k in kinds)
        made += len(by_pos)
    if lazy:
        assert made < len(tables._by_kinds) * len(tables.advance) / 2
        fresh = actions.Advances(tables.advance, (0, 3))  # asked for: made then, kept
        assert len(fresh) == 0 and fresh[5] == (tables.advance[5][0], tables.advance[5][3])
        assert list(fresh) == [5] and fresh[5] is fresh[5]
