"""The screen-reader mode's questions on real engine views of every rule mix: each legal
action is reachable in the numbered questions exactly once, every line is words (never
the action notation, no arrows, no drawing), both languages; a fresh view repeats no
event already said."""
from __future__ import annotations

import random
import re

import pytest

from cartagena_net.engine import make_game, view
from cartagena_net.i18n import set_language
from client.model import ClientModel
from client.reader_words import (
    Question,
    board_lines,
    event_words,
    hand_lines,
    others_lines,
    turn_question,
)
from tests.records.test_format import MIXES

NOTATION = re.compile(r"\b(advance|retreat|give|take|keep|stack|discard|power|morgan)\s+\d"
                      r"|\w\*|→|[\u2500-\u259f]")


def actions(q: Question, seen: list[str], lines: list[str]) -> None:
    lines.append(q.head)
    for c in q.choices:
        lines.append(c.text)
        if c.then is not None:
            actions(c.then, seen, lines)
        elif c.action is not None:
            seen.append(c.action)


def model_at(state, seat: int) -> ClientModel:
    m = ClientModel(name="Tess")
    m.on_message({"type": "joined", "table": 1, "seat": seat, "token": "t"})
    legal = [str(a) for a in state.legal_actions()]
    legal = legal if state.actor == seat else []
    m.on_message({"type": "state", "table": 1, "seq": 1, "view": view(state, seat),
                  "legal": legal, "lines": []})
    return m


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize(("rules", "options"), MIXES,
                         ids=[f"{r}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for r, o in MIXES])
def test_every_legal_action_is_one_numbered_choice_in_words(rules, options, lang):
    set_language(lang)
    try:
        game = make_game(rules, **options)
        state = game.new_state(seed=7)
        rng = random.Random(7)
        for _step in range(120):
            if state.outcome is not None:
                break
            seat = state.actor
            m = model_at(state, seat)
            q = turn_question(m)
            assert q is not None
            seen: list[str] = []
            lines: list[str] = []
            actions(q, seen, lines)
            legal = [str(a) for a in state.legal_actions()]
            assert sorted(seen) == sorted(legal)  # each once, none made up
            lines += board_lines(m) + hand_lines(m) + others_lines(m)
            for line in lines:
                assert line and not NOTATION.search(line), line
            state.apply(rng.choice(state.legal_actions()))
            events = view(state, seat, since=0).get("events") or []
            said = event_words(m, events, [e.get("text", "") for e in events])
            for line in said:
                assert not NOTATION.search(line), line
    finally:
        set_language("en")


def test_a_fresh_view_after_a_reconnect_repeats_no_event_already_said(tmp_path):
    import io

    from client.reader import ReaderClient
    from client.tokens import TokenStore

    game = make_game("jamaica", players=2)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        state.apply(rng.choice(state.legal_actions()))
    m = model_at(state, 0)
    out = io.StringIO()
    client = ReaderClient(None, m, TokenStore(tmp_path), out=out)
    events = view(state, 0, since=0)["events"]
    first = {"events": events[:10], "lines": [e["text"] for e in events[:10]]}
    client._say_events(first, fresh=False)
    said = out.getvalue().splitlines()
    assert len(said) == 10
    # the host's full view after a reconnect: the recent events again, then new ones
    again = {"events": events[4:], "lines": [e["text"] for e in events[4:]]}
    client._say_events(again, fresh=True)
    now = out.getvalue().splitlines()
    assert now[:10] == said and len(now) == len(events)
    assert now[10:] == event_words(m, events[10:], [e["text"] for e in events[10:]], mine=True)


def test_commands_are_typed_in_the_readers_language_or_in_english():
    from client.reader import command_word, is_number

    set_language("sv")
    try:
        assert [command_word(w) for w in ("spelplan", "HAND", "pirater", "andra", "logg",
                                          "avsluta", "hjälp", "board", "quit")] == [
            "board", "hand", "pirates", "others", "log", "quit", "help", "board", "quit"]
        assert command_word("advance") is None
    finally:
        set_language("en")
    assert is_number("12") and not is_number("١٢") and not is_number("1_2")


def test_a_question_of_the_players_own_outlives_the_others_moves(tmp_path):
    """"Quit?" asked while a bot plays stays until answered; the turn's moves go when
    the turn passes."""
    import io

    from client.reader import ReaderClient
    from client.tokens import TokenStore

    game = make_game("jamaica", players=2)
    state = game.new_state(seed=3)
    m = model_at(state, 1)  # seat 0 is to play: not this player
    m.solo = True
    out = io.StringIO()
    client = ReaderClient(None, m, TokenStore(tmp_path), out=out)
    client.on_line("quit")
    assert client.question is not None and not client.turn_open
    state.apply(state.legal_actions()[0])
    m.on_message({"type": "state", "table": 1, "seq": 2, "view": view(state, 1),
                  "legal": [], "events": [], "lines": []})
    client.refresh()
    assert client.question is not None  # still "Quit?"
    client.on_line("2")  # no, go on
    assert not m.exit_requested
    mine = model_at(state, state.actor)
    client.model = mine
    client.refresh()
    assert client.turn_open and client.question is not None
    mine.on_message({"type": "state", "table": 1, "seq": 3, "view": view(state, 1 - state.actor),
                     "legal": [], "events": [], "lines": []})
    mine.seat = 1 - state.actor
    client.refresh()
    assert client.question is None  # the turn passed: its moves are gone


def test_a_new_table_is_asked_one_numbered_question_at_a_time(tmp_path):
    import io

    from client.app import rules_catalogue
    from client.reader import ReaderClient
    from client.tokens import TokenStore

    m = ClientModel(name="Tess")
    rules_catalogue(m)
    m.screen = "lobby"
    out = io.StringIO()
    client = ReaderClient(None, m, TokenStore(tmp_path), out=out)
    sent: list[dict] = []
    client._send = sent.append  # type: ignore[method-assign]
    client.on_line("new")
    assert out.getvalue().splitlines()[-len(m.presets) - 1] == "New table: which rules?"
    client.on_line(str(m.presets.index("studiogiochi-2017") + 1))
    assert "How many seats?" in out.getvalue()
    client.on_line("2")  # the second choice: 3 seats (from 2)
    client.on_line("3")  # two of them bots
    client.on_line("magic=true segments=4")
    made = [x for x in sent if x["type"] == "create_table"]
    assert made and made[0]["rules"] == "studiogiochi-2017"
    assert made[0]["options"] == {"magic": True, "segments": 4, "players": 3}
    assert m.auto_bots == 2


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_bot_command_takes_a_level_word_in_either_language(tmp_path, lang):
    """``bot hard`` (``bot svår``) seats a hard searching bot, ``bot normal`` a normal one,
    ``bot easy`` or ``bot`` alone the easy (greedy) one, ``bot random`` a random one; any
    other word is asked again, nothing sent; the seats say each bot's level in words."""
    import io

    from client.reader import ReaderClient
    from client.tokens import TokenStore

    set_language(lang)
    try:
        m = ClientModel(name="Tess")
        m.on_message({"type": "lobby", "tables": [{
            "id": 2, "name": "t", "rules": "jamaica", "status": "waiting", "owner": 0,
            "seats": [{"seat": 0, "name": "Tess", "color": "red", "connected": True},
                      {"seat": 1, "name": "Anne", "color": "blue", "bot": "ismcts",
                       "connected": True, "level": "hard"},
                      {"seat": 2, "name": None, "color": "green"}]}]})
        m.on_message({"type": "joined", "table": 2, "seat": 0, "token": "t"})
        out = io.StringIO()
        client = ReaderClient(None, m, TokenStore(tmp_path), out=out)
        sent: list[dict] = []
        client._send = sent.append  # type: ignore[method-assign]
        m.send = sent.append  # type: ignore[method-assign]
        words = {"en": ["hard", "Normal", "easy", "", "random"],
                 "sv": ["svår", "normal", "lätt", "", "slumpvis"]}[lang]
        for word in words:
            client.on_line(f"bot {word}".strip())
        bots = [x for x in sent if x.get("type") == "add_bot"]
        assert [(b["kind"], b.get("level")) for b in bots] == [
            ("ismcts", "hard"), ("ismcts", "normal"), ("greedy", None), ("greedy", None),
            ("random", None)]
        assert all(b["table"] == 2 and b["seat"] is None for b in bots)
        client.on_line("bot expert")
        assert len([x for x in sent if x.get("type") == "add_bot"]) == 5
        said = out.getvalue()
        assert {"en": "Which bot? Type bot and easy, normal, hard or random.",
                "sv": "Vilken bot? Skriv bot och lätt, normal, svår eller slumpvis."}[lang] in said
        client.on_line({"en": "seats", "sv": "platser"}[lang])
        said = out.getvalue()
        assert {"en": "Anne (thinking bot, hard)", "sv": "Anne (tänkande bot, svår)"}[lang] in said
    finally:
        set_language("en")
