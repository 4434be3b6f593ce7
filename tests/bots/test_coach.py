"""Learning at the table: the room's chances come from a spectator's view only, a hint
from the asking seat's view only (the hidden cards changed, the same numbers and the same
hint), on random positions of every preset and option mix; hints answer in every Black
Magic Woman decision and at the Whole Jailbreak's sail, with a reason a person can read."""
from __future__ import annotations

import random

import pytest

from cartagena_net.bots import coach
from cartagena_net.bots import review as rv
from cartagena_net.engine import SPECTATOR, make_game, view
from cartagena_net.engine.determinize import track_known

from .test_ismcts import IDS, SETTINGS, random_position

MAGIC = [("studiogiochi-2017", {"magic": True, "segments": 4}),
         ("studiogiochi-2017", {"magic": True, "story": "whole", "filibusters": True,
                                "morgan": "also"})]
ALL = SETTINGS + MAGIC
ALL_IDS = [*IDS, "magic", "magic-whole"]
FAST = {"iterations": 120, "think": 60.0}


def _still(v: dict) -> dict:
    return {k: x for k, x in v.items() if k != "events"}


def redeal(state, viewer):
    """The same game with the cards ``viewer`` cannot see dealt anew: the unknown cards of
    every hand it does not see, and the stock below what any seat knows of its top,
    pooled and shuffled. Its view (events aside) is the same; the cards are not."""
    seen = view(state, viewer, since=0)
    me = -1 if viewer == SPECTATOR else viewer
    known = track_known({}, seen["events"], me)
    other = state.copy(events=True)
    names = state.game.card_index
    shown = {s["seat"] for s in seen["seats"] if s["hand"] is not None}
    power = (seen.get("magic") or {}).get("power") or {}
    if "hand" in power:
        shown.add(power["target"])
    keep_top = 0
    if state.game.magic:
        from cartagena_net.engine.magic import known_top

        keep_top = max(len(known_top(state, s)) for s in range(state.game.players))
    stock = list(other.stock)
    top = stock[len(stock) - keep_top:] if keep_top else []
    pool = stock[:len(stock) - keep_top]
    sizes = {}
    for s in range(state.game.players):
        if s in shown or s == me:
            continue
        hand = list(other.hands[s])
        kept = [0] * len(hand)
        for c in known.get(s, ()):
            if kept[names[c]] < hand[names[c]]:
                kept[names[c]] += 1
        for k, n in enumerate(hand):
            pool += [k] * (n - kept[k])
        sizes[s] = (kept, sum(hand) - sum(kept))
    random.Random(99).shuffle(pool)
    for s, (kept, n) in sizes.items():
        hand = list(kept)
        for k in pool[:n]:
            hand[k] += 1
        pool = pool[n:]
        other.hands[s] = hand
    other.stock = pool + top
    other.occ = list(other.occ)
    assert _still(view(other, viewer)) == _still(view(state, viewer))
    return other


def spectator_chances(state, playouts=24, seed=5):
    seen = view(state, SPECTATOR, since=0)
    known = track_known({}, seen["events"], -1)
    return coach.live_chances(view(state, SPECTATOR), known, playouts, seed)["chances"]


@pytest.mark.parametrize(("preset", "options"), ALL, ids=ALL_IDS)
def test_the_rooms_chances_read_only_what_a_spectator_sees(preset, options):
    changed = 0
    for seed in range(3):
        state = random_position(preset, options, 300 + seed, players=2 + seed % 3)
        other = redeal(state, SPECTATOR)
        changed += other.hands != state.hands or other.stock != state.stock
        a, b = spectator_chances(state), spectator_chances(other)
        assert a == b, (preset, seed)
        assert len(a) == state.game.players and abs(sum(a) - 1) < 1e-3
        assert all(0 < p < 1 for p in a)  # the prior: never certain before the end
    assert changed  # the hidden cards really were different


def test_the_live_chances_are_the_reviews_estimator():
    state = random_position("jamaica", {}, 7, players=4)
    seen = view(state, SPECTATOR, since=0)
    known = track_known({}, seen["events"], -1)
    live = coach.live_chances(seen, known, 40, 3)["chances"]
    assert live == rv.chances(state, 40, random.Random(3))


def test_the_chances_refuse_a_seats_view_and_stop_at_their_budget():
    state = random_position("jamaica", {}, 8, players=4)
    with pytest.raises(ValueError, match="spectator"):
        coach.live_chances(view(state, 0), {}, 10, 1)
    quick = coach.live_chances(view(state, SPECTATOR), {}, 100_000, 1, budget=0.05,
                               model=False)
    assert 1 <= quick["playouts"] < 100_000
    assert abs(sum(quick["chances"]) - 1) < 1e-3


def test_a_finished_game_has_its_winner_certain():
    state = random_position("jamaica", {}, 9, players=3)
    while not state.is_over:
        state.apply(random.Random(len(state.history)).choice(state.legal_actions()))
    got = coach.live_chances(view(state, SPECTATOR), {}, 10, 1)["chances"]
    assert got == [1.0 if s == state.outcome.winner else 0.0 for s in range(3)]


def ask(state, seat, seed=4):
    seen = view(state, seat, since=0)
    known = track_known({}, seen["events"], seat)
    legal = [str(a) for a in state.legal_actions()]
    fn, args = coach.hint_job(_still(seen), legal, known, seed=seed, deadline=False, **FAST)
    return fn(*args), legal


@pytest.mark.parametrize(("preset", "options"), ALL, ids=ALL_IDS)
def test_a_hint_reads_only_what_the_asking_seat_sees(preset, options):
    changed = 0
    for seed in range(3):
        state = random_position(preset, options, 400 + seed, players=2 + seed % 3)
        me = state.actor
        other = redeal(state, me)
        changed += other.hands != state.hands or other.stock != state.stock
        (a, legal), (b, _) = ask(state, me), ask(other, me)
        assert a == b, (preset, seed)
        assert a["action"] in legal
        assert a["reason"] and a["why"]["kind"]
        state.apply(a["action"], seat=me)  # the engine takes it
    assert changed


def test_the_hint_is_what_the_tables_bot_would_play():
    from cartagena_net.bots.kinds import make_bot

    state = random_position("tortuga", {}, 12, players=3)
    me = state.actor
    got, legal = ask(state, me, seed=21)
    bot = make_bot("ismcts", random.Random(0), iterations=120, think=60.0)
    bot.observe(view(state, me, since=0)["events"], me)
    fn, args = bot.job(_still(view(state, me)), legal, deadline=False)
    args = (*args[:4], coach.hint_job(view(state, me), legal, bot.known, seed=21,
                                      deadline=False, **FAST)[1][4])
    assert fn(*args).action == got["action"]


def _decisions(options, kinds, games=6):
    """Positions of random games where the actor decides each of ``kinds`` (first word
    of an action, or ``power NAME``)."""
    found = {}
    for seed in range(games * 4):
        game = make_game("studiogiochi-2017", players=3, **options)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(found) < len(kinds):
            legal = [str(a) for a in state.legal_actions()]
            for a in legal:
                w = a.split()
                key = f"power {w[1].removesuffix('*')}" if w[0] == "power" else w[0]
                if key in kinds and key not in found:
                    found[key] = (state.copy(events=True), a)
            state.apply(rng.choice(legal))
        if len(found) == len(kinds):
            break
    return found


KINDS = {"power gun", "power rum", "power lantern", "power parrot", "power hook",
         "power chest", "take", "give", "keep", "stack", "advance", "retreat", "end"}


@pytest.mark.parametrize("options", [m[1] for m in MAGIC], ids=["magic", "magic-whole"])
def test_hints_answer_in_every_black_magic_woman_decision(options):
    kinds = set(KINDS) | ({"sail"} if options.get("story") == "whole" else set())
    found = _decisions(options, kinds)
    assert set(found) == kinds
    for key, (state, _) in sorted(found.items()):
        got, legal = ask(state, state.actor)
        assert got["action"] in legal, key
        assert got["reason"], key
        state.apply(got["action"], seat=state.actor)


def test_the_reasons_say_what_the_move_does():
    state = random_position("jamaica", {}, 1, players=2)
    me = state.actor
    seen = view(state, me)
    legal = [str(a) for a in state.legal_actions()]
    advances = [a for a in legal if a.startswith("advance")]
    assert advances
    why = coach.reason(seen, {}, advances[0], legal)
    assert why["kind"] in ("jump", "boat") and why["spaces"] >= 1
    assert f"{why['spaces']} space" in coach.say(why)
    retreats = [a for a in legal if a.startswith("retreat")]
    if retreats:
        why = coach.reason(seen, {}, retreats[0], legal)
        assert why["kind"] == "retreat" and "steps back" in coach.say(why)
    only = coach.reason(seen, {}, legal[0], legal[:1])
    assert coach.say(only) == "it is the only move you have"
    rated = coach.reason(seen, {}, advances[0], legal, {advances[0]: 0.6, legal[-1]: 0.4})
    assert "gain" not in rated and "next" not in rated  # no rating a person cannot read


def test_a_hint_says_the_move_in_the_screens_words_with_the_chance_it_makes():
    state = random_position("jamaica", {}, 1, players=2)
    me = state.actor
    seen = _still(view(state, me))
    legal = [str(a) for a in state.legal_actions()]
    said = {}
    for a in legal:
        why = {**coach.reason(seen, {}, a, legal), **coach.words(seen, {}, a)}
        said[a] = coach.say(why)
        assert isinstance(why["before"], int) and isinstance(why["after"], int)
        assert f"your chance {why['before']}% → {why['after']}%" in said[a]
        for notation in ("advance", "retreat", "points"):
            assert notation not in said[a], said[a]
    start = next(a for a in legal if a.startswith("advance 0 "))
    card = start.split()[2]
    number = seen["seats"][me]["numbered"].index(0) + 1
    land = state.copy()
    land.apply(start)
    to = max(set(land.pirates[me]) - set(state.pirates[me]))
    assert said[start].startswith(f"play the {card}: your pirate {number} at the start "
                                  f"jumps to space {to}, the first free {card}")
    back = [a for a in legal if a.startswith("retreat")]
    assert back and "back to space" in said[back[0]] and "and draw" in said[back[0]]
    assert said["end"].startswith("end your turn")


def test_black_magic_choices_are_worded_too():
    found = _decisions({"magic": True}, {"give", "take", "keep", "stack", "power gun",
                                     "power rum", "power lantern", "power chest"})
    expect = {"give": "give the ", "take": "take the ", "keep": "keep the ",
              "stack": "back on the stock", "power gun": "power on ",
              "power rum": "give one to each other player",
              "power lantern": "draw four cards", "power chest": "open the chest"}
    for key, (state, _) in sorted(found.items()):
        me = state.actor
        seen = _still(view(state, me))
        legal = [str(a) for a in state.legal_actions()]
        a = next(x for x in legal if x.startswith(key))
        line = coach.say({**coach.reason(seen, {}, a, legal), **coach.words(seen, {}, a)})
        assert expect[key] in line, (key, line)
        assert "your chance" in line and "points" not in line
