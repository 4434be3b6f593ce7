"""Properties over random games of every preset (hypothesis)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cartagena_net.engine import (
    PRESETS,
    SPECTATOR,
    IllegalActionError,
    State,
    make_game,
    parse_action,
    view,
)
from cartagena_net.engine.magic import TILES, known_top

from .helpers import cards_total

MAX_ACTIONS = 20_000  # a random game of any preset ends long before this


@st.composite
def games(draw):
    name = draw(st.sampled_from(sorted(PRESETS)))
    lo, hi = PRESETS[name].players
    options = {"players": draw(st.integers(lo, hi))}
    if name == "studiogiochi-2017":
        options["morgan"] = draw(st.sampled_from(["off", "instead", "also"]))
        options["filibusters"] = draw(st.booleans())
        options["segments"] = draw(st.integers(4, 8))
    if draw(st.booleans()):
        options["pirates"] = draw(st.integers(1, 6))
    return make_game(name, **options), draw(st.integers(0, 2**32)), draw(st.integers(0, 2**32))


@st.composite
def stories(draw):
    """The 2017 island and whole stories, with and without Morgan and Filibusters."""
    story = draw(st.sampled_from(["whole", "island"]))
    options = {"players": draw(st.integers(2, 5)), "story": story,
               "filibusters": draw(st.booleans())}
    morgans = ["off", "instead", "also"] + (["island"] if story == "whole" else [])
    options["morgan"] = draw(st.sampled_from(morgans))
    if story == "whole":
        options["segments"] = draw(st.integers(3, 4))
        options["island_segments"] = draw(st.integers(3, 4))
        options["jail_in_passage"] = draw(st.booleans())
    else:
        options["segments"] = draw(st.integers(4, 6))
    if draw(st.booleans()):
        options["pirates"] = draw(st.integers(1, 6))
    game = make_game("studiogiochi-2017", **options)
    return game, draw(st.integers(0, 2**32)), draw(st.integers(0, 2**32))


@st.composite
def magics(draw):
    """Black Magic Woman alone, with the Whole Jailbreak, and with Filibusters."""
    mix = draw(st.sampled_from(["alone", "whole", "filibusters"]))
    options = {"players": draw(st.integers(2, 5)), "magic": True}
    if mix == "whole":
        options.update(story="whole", segments=draw(st.integers(3, 4)),
                       island_segments=draw(st.integers(3, 4)),
                       morgan=draw(st.sampled_from(["off", "also", "island"])),
                       filibusters=draw(st.booleans()))
    else:
        options["segments"] = draw(st.integers(2, 8))
        options["filibusters"] = mix == "filibusters"
        options["morgan"] = draw(st.sampled_from(["off", "instead", "also"]))
    if draw(st.booleans()):
        options["pirates"] = draw(st.integers(1, 6))
    game = make_game("studiogiochi-2017", **options)
    return game, draw(st.integers(0, 2**32)), draw(st.integers(0, 2**32))


STRATEGIES = pytest.mark.parametrize("cases", [games(), stories(), magics()],
                                     ids=["presets", "stories", "magic"])


def play(game, seed: int, policy_seed: int, check=None, undo: bool = False) -> State:
    state = game.new_state(seed=seed)
    rng = random.Random(policy_seed)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return state
        legal = state.legal_actions(undo=undo and rng.random() < 0.3)
        assert legal, "a live game always offers an action"
        state.apply(rng.choice(legal))
        if check:
            check(state)
    raise AssertionError("random game did not end")


def invariants(state: State) -> None:
    g = state.game
    assert cards_total(state) == len(g.deck)
    if g.magic:
        x = state.extra
        assert sorted([t for t in x["chests"] if t != -1] + list(x["tiles_aside"])
                      + list(x["tiles_open"])) == sorted(TILES)
        assert (x["power"] is None) == (not any(p[2] != "discard" for p in state.pending))
    boat = state.board.boat
    occ = [0] * (boat + 1)
    for mine in state.pirates:
        assert len(mine) == g.pirates and mine == sorted(mine)
        for p in mine:
            occ[p] += 1
    assert occ == state.occ
    assert max((c for p, c in enumerate(occ) if state.board.is_space(p)), default=0) <= 3
    sloop = state.board.sloop
    if sloop is not None:
        assert all(mine.count(sloop) <= 3 for mine in state.pirates)
        assert state.extra["shore"] in ("cartagena", "tortuga")
    assert all(c >= 0 for hand in state.hands for c in hand)


SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@STRATEGIES
@SETTINGS
@given(data=st.data())
def test_random_games_conserve_cards_respect_capacity_and_end(cases, data):
    game, seed, policy = data.draw(cases)
    state = play(game, seed, policy, check=invariants)
    assert state.outcome.winner == state.outcome.ranking[0]
    assert state.home[state.outcome.winner] == game.pirates


@STRATEGIES
@SETTINGS
@given(data=st.data())
def test_legal_actions_apply_and_illegal_ones_change_nothing(cases, data):
    game, seed, policy = data.draw(cases)
    state = game.new_state(seed=seed)
    rng = random.Random(policy)
    boat = state.board.boat
    candidates = [f"advance {p} {c}" for p in range(boat + 1) for c in game.card_names]
    candidates += [f"retreat {p}" for p in range(boat + 2)]
    candidates += [f"morgan {s} {p}" for s in range(game.players) for p in (0, 1, boat)]
    candidates += ["draw", "end", "sail", "undo"] + [f"discard {c}" for c in game.card_names]
    candidates += [f"{k} {c}" for k in ("take", "keep", "stack") for c in game.card_names]
    candidates += [f"give {s} {c}" for s in range(game.players) for c in game.card_names]
    candidates += [f"power gun {s}" for s in range(game.players)]
    candidates += ["power rum", "power lantern*", "power chest 6", "power parrot parrot 1 rum",
                   "power hook hook 0", "power hook rum 0"]
    for _ in range(60):
        if state.is_over:
            break
        legal = {str(a) for a in state.legal_actions(undo=True)}
        for text in data.draw(st.lists(st.sampled_from(candidates), max_size=6)):
            if text in legal:
                continue
            before = state.copy()
            try:
                state.apply(text)
            except IllegalActionError:
                assert state == before
            else:
                raise AssertionError(f"{text!r} applied but was not listed as legal")
        for text in rng.sample(sorted(legal), min(3, len(legal))):
            trial = state.copy()
            trial.apply(parse_action(text))  # every legal action applies
        state.apply(rng.choice(sorted(legal)))


def hidden_swapped(state: State, me: int, rng: random.Random) -> State:
    """The same game as ``me`` sees it, but with everything else hidden dealt
    differently: other hands, the stock below the part ``me`` knows (the Lantern's),
    cards drawn for another seat's power, and the closed chest tiles."""
    other = state.copy(events=True)
    g = other.game
    x = other.extra
    known = len(known_top(other, me)) if g.magic and me >= 0 else 0
    cut = len(other.stock) - known
    top = other.stock[cut:]
    pool = list(other.stock[:cut])
    hidden = [s for s in range(len(other.hands)) if s != me and not g.hands_public]
    power = x.get("power")
    if power and power[0] == "gun" and power[1] == me:
        hidden.remove(power[3])  # the Gun's player sees the target's hand
    for s in hidden:
        pool += [k for k in range(len(other.hands[s])) for _ in range(other.hands[s][k])]
    drawn: list[int] = []
    if power and power[0] != "gun" and power[1] != me:
        drawn = [*power[3], *(power[4] if power[0] == "lantern" else ())]
        pool += drawn
    rng.shuffle(pool)
    for s in hidden:
        n = sum(other.hands[s])
        other.hands[s] = [0] * len(other.hands[s])
        for k in pool[:n]:
            other.hands[s][k] += 1
        pool = pool[n:]
    if drawn:
        a, b = len(power[3]), len(drawn) - len(power[3])
        new = (tuple(pool[:a]), tuple(pool[a:a + b]) if power[0] == "lantern" else power[4])
        x["power"] = (*power[:3], *new)
        pool = pool[a + b:]
    other.stock = pool + top
    if g.magic:
        closed = [t for t in x["chests"] if t != -1] + list(x["tiles_aside"])
        rng.shuffle(closed)
        x["chests"] = tuple(t if t == -1 else closed.pop() for t in x["chests"])
        x["tiles_aside"] = tuple(closed)
    return other


@STRATEGIES
@SETTINGS
@given(data=st.data())
def test_views_reveal_no_hidden_cards_and_no_stock_order(cases, data):
    """OpenSpiel-style: re-deal everything a viewer cannot see; its view must not change."""
    game, seed, policy = data.draw(cases)
    state = game.new_state(seed=seed)
    rng = random.Random(policy)
    for step in range(400):
        if state.is_over:
            break
        if step % 25 == 0:
            for me in [*range(game.players), SPECTATOR]:
                seat = me if me != SPECTATOR else -1
                mine = view(state, me, since=0)
                theirs = view(hidden_swapped(state, seat, rng), me, since=0)
                if any(e["type"] in ("retreat", "draw", "morgan", "take", "give", "keep", "stack",
                                     "chest") for e in mine["events"]):
                    # drawn cards stay in the log; compare only the board-and-cards part
                    mine.pop("events"), theirs.pop("events")
                assert mine == theirs
                json.dumps(mine)  # plain data only
                for s in mine["seats"]:
                    if s["seat"] != me and not game.hands_public:
                        assert s["hand"] is None
                assert isinstance(mine["stock"], int)
        state.apply(rng.choice(state.legal_actions()))


@STRATEGIES
@SETTINGS
@given(data=st.data())
def test_event_log_never_shows_another_seats_stock_draws(cases, data):
    game, seed, policy = data.draw(cases)
    state = play(game, seed, policy)
    if game.hands_public or game.row_size:
        return  # draws come from open places: public by the rules
    for me in [*range(game.players), SPECTATOR]:
        for e in view(state, me, since=0)["events"]:
            kind = e["type"]
            if kind in ("retreat", "draw", "morgan") and e["seat"] != me:
                assert "cards" not in e and isinstance(e["drawn"], int)
            elif kind == "chest" and e["seat"] != me:
                assert "cards" not in e
            elif kind == "take":
                assert ("card" in e) == (me in (e["seat"], e["target"]))
                assert ("cards" in e) == (me == e["target"])
            elif kind == "give":
                assert ("card" in e) == (me in (e["seat"], e["to"]))
            elif kind in ("keep", "stack"):
                assert ("cards" in e) == (me == e["seat"])


@STRATEGIES
@SETTINGS
@given(data=st.data())
def test_replay_from_seed_and_actions_reproduces_the_state_exactly(cases, data):
    game, seed, policy = data.draw(cases)
    state = play(game, seed, policy, undo=True)
    again = game.new_state(seed=seed)
    for a in state.history:
        again.apply(str(a))
    assert again == state
    rec = json.loads(json.dumps(state.record()))
    restored = State.replay(make_game(**rec["spec"]), rec["chance"], rec["actions"])
    assert restored == state and restored.events == state.events
