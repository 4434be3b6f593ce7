"""Every game screen in Swedish, on real engine games of each kind (Black Magic Woman's
powers, the Whole Jailbreak's sloop, Filibusters, Morgan, open hands and the face-up row):
a player's and a spectator's screens at each step, the help, and the previews a key
opens, with no English word of the interface left (names and the notation aside)."""
from __future__ import annotations

import random

import pytest

from cartagena_net.engine import SPECTATOR, RandomChance, State, make_game, view
from cartagena_net.i18n import language, set_language
from client.model import ClientModel
from client.render import render_screen, to_text
from tests.client.test_tmux_swedish import english_left

GAMES = [
    ("studiogiochi-2017", {"magic": True}),
    ("studiogiochi-2017", {"story": "whole"}),
    ("studiogiochi-2017", {"filibusters": True}),
    ("jamaica", {"morgan": "also"}),
    ("tortuga", {}),
    ("web-2008", {}),
]
KEYS = ["1", "2", "v", "right", "m", "f", "r", "e", "w", "z"]
COLOURS = ["red", "blue", "green", "yellow"]


@pytest.fixture
def swedish():
    before = language()
    set_language("sv")
    yield
    set_language(before)


def _feed(m: ClientModel, state: State, viewer, seen: int, seq: int) -> int:
    v = view(state, viewer, since=seen)
    events = v.pop("events")
    legal = ([str(a) for a in state.legal_actions(undo=True)]
             if viewer != SPECTATOR and state.actor == viewer and state.outcome is None else [])
    m.on_message({"type": "state", "table": 1, "seq": seq, "view": v, "legal": legal,
                  "events": events, "lines": [e["text"] for e in events]})
    return state.event_count


def _model(seat, players: int) -> ClientModel:
    m = ClientModel(name="ann", spectate=seat == SPECTATOR)
    m.host_label = "127.0.0.1:5000"
    m.tables = [{"id": 1, "name": "bordet", "rules": "x", "owner": 0, "status": "playing",
                 "spectators": 1, "seats": [{"seat": i, "name": f"p{i}", "color": COLOURS[i],
                                             "connected": True} for i in range(players)]}]
    m.on_message({"type": "joined", "table": 1, "seat": None if seat == SPECTATOR else seat,
                  "token": "tok"})
    return m


@pytest.mark.parametrize("preset, options", GAMES, ids=[f"{p}-{o}" for p, o in GAMES])
def test_every_screen_of_a_game_speaks_swedish(swedish, preset, options):
    rng = random.Random(5)
    players = 3
    state = State.new(make_game(preset, players=players, colors=",".join(COLOURS[:players]),
                                **options), RandomChance(random.Random(5)))
    me, spec = _model(0, players), _model(SPECTATOR, players)
    seen = {0: 0, SPECTATOR: 0}
    names = tuple(f"p{i}" for i in range(players)) + ("bordet", "ann", "ann's", preset)
    left: dict[str, str] = {}
    for step in range(600):
        for viewer, m in ((0, me), (SPECTATOR, spec)):
            seen[viewer] = _feed(m, state, viewer, seen[viewer], step)
            if step % 3:
                continue  # every third position is drawn (the log keeps every event line)
            screens = [to_text(render_screen(m, 120, 44))]
            if step % 21 == 0:
                m.on_key("?")
                screens.append(to_text(render_screen(m, 120, 44)))
                m.on_key("x")
                m.on_key("tab")
                screens.append(to_text(render_screen(m, 120, 44)))
                m.on_key("x")
            if viewer == 0 and m.legal:
                for key in KEYS[step % len(KEYS):] + [k for k in m.keys.values()][:3]:
                    if key in ("e", "w", "z"):
                        continue  # these would send an action: their refusals only
                    m.on_key(key)
                    screens.append(to_text(render_screen(m, 120, 44)))
                m.on_key("escape")
                m.take_outbox()
            for text in screens:
                for word in english_left(text, names):
                    left.setdefault(word, text)
        if state.outcome is not None:
            break
        state.apply(rng.choice(state.legal_actions(undo=True)))
    assert state.outcome is not None, "the game ends"
    for viewer, m in ((0, me), (SPECTATOR, spec)):
        _feed(m, state, viewer, seen[viewer], 999)
        text = to_text(render_screen(m, 120, 44))
        assert "PARTIET ÄR SLUT" in text and "Placering:" in text
        for word in english_left(text, names):
            left.setdefault(word, text)
    assert not left, "\n\n".join(f"{w!r} on:\n{t}" for w, t in sorted(left.items())[:3])


def test_the_screens_before_a_game_speak_swedish(swedish):
    from types import SimpleNamespace

    from client.uistate import CreateForm, InputLine

    def check(m: ClientModel, *want: str) -> str:
        text = to_text(render_screen(m, 100, 30))
        for w in want:
            assert w in text, f"{w!r} not on:\n{text}"
        assert english_left(text, ("den", "ann", "bordet", "jamaica", "partybox")) == [], text
        return text

    m = ClientModel(name="ann", screen="browser")
    check(m, "värdar på nätverket", "letar efter värdar…", "Enter anslut", "a skriv en adress")
    m.hosts = [SimpleNamespace(name="partybox", address="10.0.0.2", port=41672, version=1,
                               tables=[{"name": "bordet", "rules": "jamaica",
                                        "status": "waiting"}], n_tables=1, free_seats=2,
                               tables_known=True)]
    check(m, "1 bord, 2 lediga platser", "bordet: jamaica, väntar")
    m.hosts[0].n_tables, m.hosts[0].free_seats = 2, 1
    check(m, "2 bord, 1 ledig plats")

    m = ClientModel(name="ann", screen="lobby")
    m.host_label = "10.0.0.2:41672"
    check(m, "lobbyn hos 10.0.0.2:41672", "inga bord än: tryck t för att skapa ett",
          "t nytt bord", "o färg")
    m.tables = [{"id": 1, "name": "bordet", "rules": "jamaica", "options": {"players": 3},
                 "status": "playing", "spectators": 1, "password": True, "owner": 0,
                 "seats": [{"seat": 0, "name": "den", "color": "red", "connected": False},
                           {"seat": 1, "name": "Anne Bonny", "color": "blue",
                            "bot": "greedy"}]}]
    m.scores = [{"player": "den", "wins": 1, "games": 2},
                {"player": "Anne Bonny", "bot": True, "wins": 2, "games": 2}]
    text = check(m, "spelar", "1 tittar [lösenord]", "röd: den (borta) ★",
                 "blå: Anne Bonny (girig bot)", "I kväll: den 1 vinst av 2",
                 "Anne Bonny (bot) 2 vinster av 2")
    assert "Anne Bonny" in text
    m.on_key("t")
    form = check(m, "Nytt bord", "regler", "spelare", "bottar", "namn", "alternativ",
                 "(inga)", "Enter skapa", "Esc avbryt")
    assert "rules" not in form.split("Nytt bord")[1]
    m.form = CreateForm(presets=["jamaica"], options="segments", name="bordet")
    m.on_key("enter")
    check(m, "Alternativet 'segments' är inte NAMN=VÄRDE.")  # a refusal: a sentence
    m.form = None
    m.input = InputLine("name", "ditt namn: ")
    check(m, "ditt namn: ")
    m.input = None

    m = ClientModel(name="ann", screen="connecting")
    m.host_label = "10.0.0.2:41672"
    check(m, "ansluter till 10.0.0.2:41672…", "a en annan adress")
    m.stop("värden stängde anslutningen")
    check(m, "r försök igen", "a en annan adress", "q avsluta")


def test_why_no_host_answers_and_why_an_address_fails_in_swedish(swedish):
    import errno

    from cartagena_net.discovery.explain import Seen, connect_failure, explain
    from tests.discovery.test_explain import WIFI

    for platform in ("linux", "darwin", "win32"):
        lines = explain(Seen(platform, (WIFI,), {errno.EACCES: "255.255.255.255"}))
        text = "\n".join(lines)
        assert lines[0] == "Ingen värd svarade. Det här ser den här datorn:"
        assert "`cartagena join 192.168.1.20`" in text
        assert english_left(text, ("Wi-Fi", "UDP", "TCP", "Python", "Windows", "macOS")) == []
    refused = OSError(errno.ECONNREFUSED, "refused")
    refused.osError = errno.ECONNREFUSED
    said = connect_failure(refused, "10.0.0.2:41672", "linux")
    assert said == ("inget svarar på 10.0.0.2:41672: körs värden, och är det adressen och "
                    "porten den skrev ut?")
