"""Swedish as a Swede writes it: the wordings a native review mended, each checked
where the program makes it (the log's sentences, a hint, the command line's words)."""
from __future__ import annotations

import pytest

from cartagena_net.engine.reasons import hint_text
from cartagena_net.engine.sentences import event_sentence
from cartagena_net.i18n import language, ngettext, pgettext, set_language, translation
from client.glyphs import color_name, place, symbol_name


@pytest.fixture
def swedish():
    before = language()
    set_language("sv")
    yield
    set_language(before)


def _said(e):
    colours = ["red", "yellow"]
    return event_sentence(e, lambda s: color_name(colours[s]), str, symbol_name,
                          translation("sv"))


def test_morgans_push_and_the_hook_read_as_swedish(swedish):
    assert _said({"type": "morgan", "seat": 1, "owner": 0, "from": 4, "to": 11,
                  "drawn": 2}) == ("gul knuffar fram en pirat som tillhör röd 4 → 11 och "
                                   "plockar upp 2 kort")
    # (a player's name where a colour stood reads as Swedish too: "en Anna pirat" did not)
    assert event_sentence({"type": "morgan", "seat": 1, "owner": 0, "from": 4, "to": 11,
                           "drawn": 2}, ["Anna", "Kalle"].__getitem__, str, symbol_name,
                          translation("sv")).startswith("Kalle knuffar fram en pirat som "
                                                        "tillhör Anna 4 → 11")
    assert _said({"type": "hook", "seat": 0, "from": 3, "to": 9, "cards": ["hook", "rum"]}) == (
        "röd flyttar två pirater med krok och rom: 3 → 9")


@pytest.mark.parametrize("goal, word", [("boat", "båten"), ("cove", "viken"),
                                        ("sloop", "slupen")])
def test_a_hint_names_the_goal_it_reaches(swedish, goal, word):
    why = {"kind": "boat", "spaces": 3, "pirates": 1, "place": goal}
    assert hint_text(why, translation("sv"), symbol_name, place=place) == (
        f"den här piraten hoppar 3 rutor och når {word}")
    assert hint_text(why) == f"this pirate jumps 3 spaces and reaches the {goal}"


def test_a_hint_from_a_host_that_names_no_goal_says_the_boat(swedish):
    why = {"kind": "boat", "spaces": 1}
    assert hint_text(why, translation("sv"), symbol_name, place=place) == (
        "den här piraten hoppar 1 ruta och når båten")


def test_the_coach_names_the_cove_in_the_whole_jailbreak(swedish):
    import random

    from cartagena_net.bots import coach
    from cartagena_net.engine import RandomChance, State, make_game, view

    rng = random.Random(3)
    state = State.new(make_game("studiogiochi-2017", players=2, story="whole"),
                      RandomChance(random.Random(3)))
    for _ in range(3000):
        assert state.outcome is None, "no pirate reached the cove by a card"
        me = state.actor
        legal = [str(a) for a in state.legal_actions()]
        seen = view(state, me)
        goal = state.board.boat
        for a in legal:
            w = a.split()
            if w[0] == "advance" and int(w[1]) < goal:
                trial = state.copy(chance=RandomChance(random.Random(0)))
                trial.apply(a, seat=me)
                if trial.pirates[me].count(goal) > state.pirates[me].count(goal):
                    why = coach.reason(seen, {}, a, legal)
                    assert why["kind"] == "boat" and why["place"] == "cove"
                    assert coach.say(why).endswith("and reaches the cove")
                    assert hint_text(why, translation("sv"), symbol_name, place=place).endswith(
                        "och når viken")
                    return
        state.apply(rng.choice(legal), seat=me)


def test_won_and_lost_have_their_own_senses(swedish):
    assert pgettext("bot result", "won") == "vann"
    assert pgettext("bot result", "lost") == "förlorade"
    assert pgettext("game end", "won") == "avgjort"


@pytest.mark.parametrize("n, text", [(1, "1 oavslutat"), (2, "2 oavslutade"),
                                     (1, "1 upplockat"), (5, "5 upplockade")])
def test_counts_take_their_plural_forms(swedish, n, text):
    msgid = "{n} unfinished" if "oavslut" in text else "{n} drawn"
    assert ngettext(msgid, msgid, n).format(n=n) == text


@pytest.mark.parametrize("msgid, want", [
    ("{name} to play", "{name} på tur"),
    ("rating", "styrketal"),
    ("release it", "använd den"),
    ("ignored explicit argument %r", "ignorerade det uttryckliga argumentet %r"),
    ("discard owed: choose a card", "du måste slänga: välj ett kort"),
    ("you have no more {card} to discard", "du har ingen {card} kvar att slänga"),
    ("win", "chans"),
    ("any", "valfri"),  # "färg: valfri", "du: Bea (valfri)"
    ("keep no journal: a crash loses the game",
     "för ingen journal: partiet går förlorat vid en krasch"),
    ("{who} sails the sloop to {shore} (the Captain's free sail)",
     "{who} seglar slupen till {shore} (kaptenens fria segling)"),
    ("the bot rates it best", "boten bedömer det som bäst"),
])
def test_mended_wordings(swedish, msgid, want):
    assert translation("sv").gettext(msgid) == want


def test_the_next_player_starts_and_three_games_with_jamaica(swedish):
    tr = translation("sv")
    assert "där nästa spelare börjar" in tr.gettext(
        "You stay at this table for the next game, in which the next seat starts; l leaves.")
    assert tr.ngettext("{n} game of {rules}", "{n} games of {rules}", 3).format(
        n=3, rules="jamaica") == "3 partier med jamaica"


def test_no_bot_is_a_bottom():
    from cartagena_net.i18n.po import read_po

    text = __import__("cartagena_net.i18n", fromlist=["catalog_path"]).catalog_path(
        "sv").read_text(encoding="utf-8")
    bad = [e.msgid for e in read_po(text) for s in e.msgstr
           if any(w in s for w in ("botten", "bottens", "bottproc", "Kaptenens "))]
    assert bad == []
