"""The screen-reader mode's wording, on real engine views: the reader's own moves and turn
said to them ("You play ...", "Your turn." alone), a move taken back said as what it
undoes, a hand's counts that never sound like pirate numbers, whose pirates stand ahead,
refusals said as sentences (the full-screen client's message line too), and lines broken
between words at the terminal's width (in a real terminal, under tmux, at 40 columns)."""
from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest

from cartagena_net.engine import make_game, view
from cartagena_net.i18n import _, ngettext
from client.glyphs import symbol_name
from client.landing import place_name
from client.model import ClientModel
from client.plain import plain_error, sentence
from client.reader import ReaderClient, Speaker
from client.reader_words import board_lines, event_words, hand_lines
from client.tokens import TokenStore
from tests.client.sample_views import jamaica_view


class Wire:
    """A host message as the link hands it over."""

    def __init__(self, wire: dict[str, Any]) -> None:
        self.wire = wire

    def to_wire(self) -> dict[str, Any]:
        return self.wire


def reader_at(tmp_path: Any, seat: int, hints: bool = False,
              names: tuple[str, ...] = ("Tess", "Bot1", "Bot2")) -> tuple[ReaderClient,
                                                                         io.StringIO]:
    """A reader client seated at ``seat`` of table 1 (its lobby entry names the seats)."""
    m = ClientModel(name=names[seat])
    seats = [{"seat": s, "name": names[s], "color": c}
             for s, c in enumerate(("red", "blue", "yellow"))]
    out = io.StringIO()
    client = ReaderClient(None, m, TokenStore(tmp_path), out=out)
    client._send = lambda msg: None  # type: ignore[method-assign]
    client._message(Wire({"type": "lobby", "tables": [{
        "id": 1, "name": "t", "rules": "ravensburger", "status": "playing", "owner": 0,
        "hints": hints, "seats": seats}]}))
    client._message(Wire({"type": "joined", "table": 1, "seat": seat, "token": "k"}))
    return client, out


def state_wire(state: Any, viewer: int, seq: int, since: int) -> dict[str, Any]:
    v = view(state, viewer, since=since)
    events = v.pop("events", None) or []
    legal = [str(a) for a in state.legal_actions()] if state.actor == viewer else []
    return {"type": "state", "table": 1, "seq": seq, "view": v, "legal": legal,
            "events": events, "lines": [e.get("text", "") for e in events]}


def test_the_readers_own_moves_and_turn_are_said_to_them(tmp_path) -> None:
    game = make_game("ravensburger", players=3)
    state = game.new_state(seed=4)
    me = state.actor
    names = tuple("Tess" if s == me else f"Bot{s}" for s in range(3))
    client, out = reader_at(tmp_path, me, names=names)
    client._message(Wire(state_wire(state, me, 1, 0)))
    said = out.getvalue().splitlines()
    assert said.count("Your turn.") == 1, said  # said once, not after "Tess's turn"
    assert not any(x.startswith("Tess") for x in said), said
    advance = next(a for a in state.legal_actions() if str(a).startswith("advance"))
    before, lines = state.event_count, len(said)
    state.apply(advance)
    client._message(Wire(state_wire(state, me, 2, before)))
    said = out.getvalue().splitlines()[lines:]
    card = symbol_name(str(advance).split()[2])
    start = place_name(client.model.view, 0)
    assert said[0].startswith(f"You play {card}: from {start} to "), said
    assert "Tess plays" not in out.getvalue()
    # The others hear the same move in the third person; a watcher too.
    other, heard = reader_at(tmp_path, (me + 1) % 3, names=names)
    other._message(Wire(state_wire(state, (me + 1) % 3, 2, 0)))
    assert f"Tess plays {card}: from {start} to " in heard.getvalue()
    assert "Tess's turn" in heard.getvalue() and f"You play {card}" not in heard.getvalue()
    assert "Your turn." not in heard.getvalue()


def test_a_move_taken_back_is_said_as_what_it_undoes(tmp_path) -> None:
    game = make_game("ravensburger", players=3)
    state = game.new_state(seed=4)
    me = state.actor
    advance = next(a for a in state.legal_actions() if str(a).startswith("advance"))
    state.apply(advance)
    undo = [a for a in state.legal_actions(undo=True) if str(a) == "undo"]
    assert undo, "the advance can be taken back"
    before = state.event_count
    state.apply(undo[0])
    card = symbol_name(str(advance).split()[2])
    start = place_name(view(state, me), 0)
    mine = ClientModel(name="Tess")
    mine.on_message({"type": "joined", "table": 1, "seat": me, "token": "k"})
    mine.on_message(state_wire(state, me, 3, before))
    events = mine.history[-1:]
    [said] = event_words(mine, events, [""], mine=True)
    assert re.fullmatch(f"You take back the {card}: your pirate goes back from \\d+ to "
                        f"{start}, and the {card} returns to your hand", said), said
    other = ClientModel(name="Ann")
    other.on_message({"type": "joined", "table": 1, "seat": (me + 1) % 3, "token": "k"})
    other.on_message(state_wire(state, (me + 1) % 3, 3, before))
    [heard] = event_words(other, other.history[-1:], [""], mine=True)
    who = other.seat_name(me)
    assert re.fullmatch(f"{who} takes back the {card}: the pirate goes back from \\d+ to "
                        f"{start}, and the {card} returns to the hand", heard), heard
    assert "takes back:" not in heard


def test_a_hand_says_counts_that_never_sound_like_pirate_numbers(lang) -> None:
    v = jamaica_view(0)
    v["seats"][0]["hand"] = ["dagger", "key", "bottle", "hat", "hat", "hat"]
    v["seats"][0]["hand_size"] = 6
    m = ClientModel(name="Tess")
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "k"})
    m.on_message({"type": "state", "table": 1, "seq": 1, "view": v, "legal": [], "events": []})
    [line] = hand_lines(m)
    hat, dagger = symbol_name("hat"), symbol_name("dagger")
    assert f"{hat} ×3" in line and f"{dagger}, " in line, line
    assert not re.search(r"[^\W\d_] \d", line.split(":", 1)[1]), line  # no "hat 3"


def test_the_squares_ahead_say_whose_pirates_stand_there(lang) -> None:
    v = jamaica_view(0)
    m = ClientModel(name="Tess")
    m.on_message({"type": "joined", "table": 1, "seat": 0, "token": "k"})
    m.on_message({"type": "state", "table": 1, "seq": 1, "view": v, "legal": [], "events": []})
    text = "\n".join(board_lines(m))
    three = symbol_name(str(v["board"][2]))
    blue = m.seat_name(1)
    want = "{n} {card}".replace("{n}", "3").replace("{card}", three)
    mine = _("your pirate")
    theirs = ngettext("{n} of {name}'s pirates", "{n} of {name}'s pirates", 2).format(
        n=2, name=blue)
    assert f"{want} ({mine}, {theirs})" in text, text
    assert ngettext("({k} pirate)", "({k} pirates)", 1).format(k=1) not in text


def test_refusals_are_said_as_sentences_in_every_language(tmp_path, lang) -> None:
    from client.game_screen import status_lines
    from client.text import to_text

    client, out = reader_at(tmp_path, 0, hints=False)
    client._message(Wire(state_wire(make_game("ravensburger", players=3).new_state(seed=4),
                                    0, 1, 0)))
    client.on_line("hint")
    said = out.getvalue().splitlines()[-1]
    assert said == sentence(_("this table does not allow hints (its owner chooses when "
                              "creating it)")), said
    assert said[0].isupper() and said.endswith(").")
    client._message(Wire({"type": "error", "code": "already-started", "fatal": False,
                          "message": "table 1 is already playing", "why": "table-playing",
                          "args": {"table": 1}}))
    said = out.getvalue().splitlines()[-1]
    raw = plain_error("already-started", "", "table-playing", {"table": 1})
    assert raw[0].islower() and not raw.endswith(".")
    assert said == raw[0].upper() + raw[1:] + ".", said
    # the full-screen client's message line says it the same way
    assert to_text(status_lines(client.model, 200)) == said


def test_a_line_is_broken_between_words_at_the_terminals_width() -> None:
    text = ("You have done 1 action this turn. Your moves: 1. Play the hat: your pirate 1 "
            "at start goes to 12, and a word longer than the line: "
            "supercalifragilisticexpialidocious-and-some-more-of-it")
    out = io.StringIO()
    Speaker(out, width=lambda: 40).say(text)
    rows = out.getvalue().splitlines()
    assert len(rows) > 2
    assert " ".join(rows) == text  # nothing cut, nothing added: only the breaks
    assert all(len(r) <= 39 for r in rows if " " in r), rows
    piped = io.StringIO()
    Speaker(piped, width=lambda: None).say(text)
    assert piped.getvalue() == text + "\n"  # a pipe's lines are never broken


@pytest.mark.tmux
def test_in_a_40_column_terminal_no_word_is_broken(tmp_path) -> None:
    from tests.client.test_tmux import CLI, Tmux, _quote, terminal_env

    env = terminal_env(tmp_path)
    t = Tmux(f"srwrap{int(time.time() * 1000) % 100000}", env)
    argv = [*CLI, "play", "--screen-reader", "--lang", "en", "--rules", "ravensburger",
            "--players", "2", "--seed", "5", "--bot-delay", "0", "--bot-kind", "greedy",
            "--no-journal", "--no-records", "--no-reviews", "--no-live-chances", "--name",
            "Tess"]
    shell = " ".join(_quote(a) for a in argv) + f" 2>>{_quote(env['CTGN_ERR'])}; sleep 60"
    try:
        t.tmux("new-session", "-d", "-x", "40", "-y", "60", "-s", "r", shell)
        deadline = time.monotonic() + 60
        screen = ""
        while time.monotonic() < deadline:
            screen = t.screen("r")
            if "1. Play the " in screen:
                break
            time.sleep(0.3)
        time.sleep(0.5)
        screen = t.screen("r")
        rows = [r.rstrip() for r in screen.splitlines() if r.strip()]
        assert any(r.startswith("1. Play the ") for r in rows), screen
        assert "Your moves:" in rows or any(r.endswith("Your moves:") for r in rows), screen
        # every line ends before the last column: the terminal never broke one itself
        assert max(len(r) for r in rows) <= 39, screen
        words = set(" ".join(rows).split())
        assert "start" in words and "pirate" in words, screen  # no "sta" / "rt"
    finally:
        t.kill()
