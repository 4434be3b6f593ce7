"""In Swedish, in a real terminal: `cartagena --help` and `cartagena rules` under tmux
with ``LANG=sv_SE.UTF-8`` (a locale this machine need not have installed: the catalogs
follow the variable, and Python reads and writes UTF-8 all the same), ``--lang sv`` over
``LANG=C``, and the game screen's board, colours and cards' help in Swedish.

A whole game against a bot in Swedish, every screen of it checked against a list of the
English words of the interface (names and the notation aside); a Swedish and an English
spectator of one game, and a mixed table (an English player and a Swedish one), each
seeing its own language, the log's event lines included (rendered by each client from the
events' data).
"""
from __future__ import annotations

import getpass
import os
import re
import time
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    free_port,
    my_turn,
    take_turn_action,
    terminal_env,
    wait_screen,
)

pytestmark = pytest.mark.tmux

SWEDISH = {"LANG": "sv_SE.UTF-8", "LC_ALL": "", "LANGUAGE": ""}


def whole(t: Tmux, session: str) -> str:
    """The pane with its scrollback (a command's output longer than the window)."""
    return t.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", session)


def run_to_exit(t: Tmux, session: str, argv: list[str]) -> str:
    t.start(session, argv)
    wait_screen(t, session, lambda x: "EXIT=" in x, f"{session} to finish")
    text = whole(t, session)
    assert "EXIT=0" in text, text
    return text


def test_help_and_rules_in_swedish_from_lang_and_from_the_lang_option(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-sv-{os.getpid()}", env)
    try:
        text = run_to_exit(t, "help", [*CLI, "--help"])
        assert "användning: cartagena [-h] [--lang {en,sv}] KOMMANDO ..." in text
        assert "Cartagena, kapplöpningsspelet om piraternas flykt" in text
        assert "flaggor:" in text and "visa den här hjälptexten och avsluta" in text
        assert "spela mot bottar direkt" in text
        assert "usage:" not in text and "show this help" not in text

        text = run_to_exit(t, "rules", [*CLI, "rules"])
        assert "Regeluppsättningar (--rules REGELUPPSÄTTNING):" in text
        assert re.search(r"jamaica +2-5 spelare +1672 års regler, Jamaicavarianten", text)
        assert "Tortugavarianten" in text and "Hela rymningen" in text
        assert "Drag (positioner: 0 = starten" in text
        assert "advance P CARD" in text  # the notation stays as the protocol has it
        assert "Presets" not in text and "players" not in text.replace("players ", "")

        # --lang sv where the locale says C (the words go out as UTF-8 all the same)
        text = run_to_exit(t, "forced", ["env", "LANG=C", "LC_ALL=", "LANGUAGE=",
                                         *CLI, "rules", "--lang", "sv"])
        assert "Regeluppsättningar" in text and "Jamaicavarianten" in text
        text = run_to_exit(t, "plain", ["env", "LANG=C", "LC_ALL=", "LANGUAGE=sv",
                                        *CLI, "rules"])
        assert "Presets (--rules NAME):" in text  # C is English, whatever LANGUAGE says
        assert_no_traceback(env)
    finally:
        t.kill()


def test_the_game_screens_board_colours_and_cards_in_swedish(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-sv-game-{os.getpid()}", env)
    try:
        t.start("play", [*CLI, "play", "--rules", "jamaica", "--option", "segments=1",
                         "--players", "2", "--bots", "1", "--bot-delay", "0",
                         "--name", "ann"])
        text = wait_screen(t, "play", lambda x: "hand:" in x and "slupen:" in x,
                           "the game screen")
        lines = text.splitlines()
        assert any(x.startswith("⚑ start:") for x in lines), text
        assert any("⛴ slupen:" in x for x in lines), text
        assert re.search(r"R röd +ann +\(du\) +6 kort +slupen 0/6", text), text
        assert re.search(r"B blå +\S.* bot +6 kort +slupen 0/6", text), text
        t.keys("play", "?")
        help_text = wait_screen(t, "play", lambda x: "Hjälp" in x, "the help overlay")
        assert "Hjälp — vilken tangent som helst stänger" in help_text
        assert "Kort (engelska namnets bokstav förhandsvisar; Enter spelar):" in help_text
        for card in ("dödskalle", "dolk", "nyckel", "flaska", "pistol", "trekantig hatt"):
            assert card in help_text, card
        prose = " ".join(help_text.split())  # the rules' summary, wrapped
        assert "Framåt: spela ut ett kort, piraten hoppar" in prose and "annars slupen" in prose
        assert "Advance:" not in prose
        assert_no_traceback(env)
    finally:
        t.kill()


GAME = ["--rules", "ravensburger", "--option", "segments=1", "--option", "pirates=3",
        "--players", "2", "--bots", "1", "--bot-delay", "0"]
ENGLISH = {"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""}

# Words of the interface in English that a Swedish screen must not show (whole words,
# case as written). Names (ann, the bots' pirate names), the rules' name, the notation
# and the keys' own names (Enter, Esc, Tab, PgUp/PgDn, Home/End) are not among them.
ENGLISH_WORDS = (
    "turn", "your", "you", "pirates", "pirate", "cards", "card", "waiting", "help", "quit",
    "confirm", "cancel", "retreat", "retreats", "draw", "draws", "drew", "Ranking",
    "Summary", "played", "drawn", "watching", "SPECTATING", "GAME", "OVER", "Winner", "win",
    "wins", "action", "actions", "left", "least", "stock", "discard", "chat", "scroll",
    "log", "Log", "plays", "ends", "the", "The", "and", "sent", "table", "seat", "since",
    "last", "preview", "choose", "letter", "boat", "rowboat", "meeting", "place", "stay",
    "leave", "again", "only", "read", "of", "to", "back", "game", "Help", "Advance",
    "Retreat", "Quit", "seated", "goal", "end", "undo", "with", "for", "from", "is", "no",
    "not", "your", "minute", "minutes", "turns", "whole", "stop", "watching", "sit", "name",
    "colour", "type", "connect", "reconnecting", "host", "lobby",
)


def english_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English interface words on a screen (after taking out the names)."""
    for name in names:
        text = text.replace(name, " ")
    text = re.sub(r"\S+=\S+", " ", text)  # options (segments=1): the notation's words
    return sorted({w for w in ENGLISH_WORDS if re.search(rf"(?<![\w-]){w}(?![\w-])", text)})


def sv_turn(text: str) -> bool:
    return "din tur" in text and "pirater:" in text and "hand:" in text


def sv_pirates(text: str) -> list[tuple[str, str]]:
    line = next(x for x in text.splitlines() if x.startswith("pirater:"))
    out = []
    for ids, where in re.findall(r"([\d,\[\]]+)@(.+?)(?= [\[\d]|$)", line[8:].rstrip()):
        out += [(n, where) for n in re.findall(r"\d", ids)]
    return out


def sv_take_turn_action(t: Tmux, s: str, text: str, seen: list[str]) -> None:
    """take_turn_action's moves, read from a Swedish screen (each screen kept in seen)."""
    cards = [k for k, n in re.findall(r"\S\*?([a-zA-Z])×(\d+)",
                                      next(x for x in text.splitlines()
                                           if x.startswith("hand:"))) if int(n) > 0]
    free = [n for n, where in sv_pirates(text) if where not in ("roddbåten",)]
    tries: list[list[str]] = []
    if cards and free:
        tries.append([free[0], cards[0]])
    if "r flytta bakåt" in text:
        tries += [[n, "r"] for n, where in sv_pirates(text) if where != "mötesplatsen"]
    for keys in tries:
        t.keys(s, *keys)
        shown = wait_screen(t, s, lambda x: "Esc avbryt" in x or "kan inte" in x,
                            "the preview or a refusal")
        seen.append(shown)
        if "Esc avbryt" not in shown:
            continue
        before = t.screen(s)
        t.keys(s, "Enter")
        seen.append(wait_screen(t, s, lambda x, b=before: x != b and "Esc avbryt" not in x
                                and "skickat: " not in x, "the host to take the move"))
        return
    for key, label in (("w", "w plocka upp"), ("e", "e avsluta turen")):
        if label in text:
            before = t.screen(s)
            t.keys(s, key)
            seen.append(wait_screen(t, s, lambda x, b=before: x != b and "skickat: " not in x,
                                    f"{label} to be taken"))
            return
    raise AssertionError(f"no move found on:\n{text}")


def names_on(text: str) -> tuple[str, ...]:
    """The players' names of a game screen's panel (a bot's pirate name, ann)."""
    found = re.findall(r"^[▶ ] [A-Z] \S+ +(\S+(?: \S+)?) {2,}", text, flags=re.MULTILINE)
    return tuple(sorted(set(found) | {"ann", "ravensburger", "cartagena-net"}, key=len,
                        reverse=True))


def plurals_right(text: str, one: str, many: str) -> None:
    """Each ``N <one>``/``N <many>`` on a screen takes the form its number asks for."""
    for n, word in re.findall(rf"(\d+) ({one}|{many})\b", text):
        assert (word == one) == (int(n) == 1), f"{n} {word} in:\n{text}"


def test_a_whole_game_against_a_bot_in_swedish_with_no_english_word(tmp_path: Path) -> None:
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-sv-whole-{os.getpid()}", env)
    seen: list[str] = []
    try:
        t.start("play", [*CLI, "play", *GAME, "--name", "ann"])
        text = wait_screen(t, "play", sv_turn, "the game screen")
        port = re.search(r"127\.0\.0\.1:(\d+)", text).group(1)
        assert "du: ann (röd)" in text and "din tur · drag 1 av" in text
        assert "röd på tur" in text  # the log's event line, rendered here in Swedish
        assert t.tmux("display-message", "-p", "-t", "play", "#{pane_title}").strip() == \
            "cartagena: din tur"  # the terminal's title
        seen.append(text)
        t.keys("play", "?")
        seen.append(wait_screen(t, "play", lambda x: "Hjälp" in x, "the help"))
        assert "r flytta bakåt" in seen[-1] and "q avsluta (partiet sparas till nästa start)" in seen[-1]
        t.keys("play", "x")
        t.keys("play", "C-c")
        seen.append(wait_screen(t, "play", lambda x: "Avsluta? Partiet sparas: nästa cartagena play erbjuder det igen." in x,
                                "the quit question"))
        assert "j avsluta · n stanna" in seen[-1]  # the Swedish yes key
        t.keys("play", "n")
        wait_screen(t, "play", lambda x: "Avsluta?" not in x, "staying")

        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="play")
        t.start("watch-en", ["env", *(f"{k}={v}" for k, v in ENGLISH.items()),
                             *CLI, "spectate", f"127.0.0.1:{port}"], window_of="play")
        spec = wait_screen(t, "play:watch", lambda x: "ÅSKÅDARE" in x and "mötesplatsen" in x,
                           "the Swedish spectator's screen")
        en = wait_screen(t, "play:watch-en", lambda x: "SPECTATING" in x and "meeting place"
                         in x, "the English spectator's screen")
        assert "hand:" not in spec and "ÅSKÅDARE" not in en

        moves = 0
        while True:
            text = wait_screen(t, "play", lambda x: sv_turn(x) or "PARTIET ÄR SLUT" in x,
                               "my turn or the end")
            seen.append(text)
            if "PARTIET ÄR SLUT" in text:
                break
            sv_take_turn_action(t, "play", text, seen)
            moves += 1
            assert moves < 200, "the game does not end"
            if moves == 3:
                seen.append(t.screen("play:watch"))
        assert re.search(r"Placering: 1\. .+? \((röd|blå)\)\s+2\. .+? \((röd|blå)\)", text)
        assert "Sammanfattning:" in text and re.search(r"\d+ turer? på", text)
        assert any("sedan din förra tur:" in x for x in seen), "the others' moves, since"
        plurals_right(text, "kort spelat", "kort spelade")
        plurals_right(text, "tur", "turer")
        t.keys("play", "Tab")
        log = wait_screen(t, "play", lambda x: "Partiets logg" in x, "the whole log")
        seen.append(log)
        assert "vinner!" in log or "på tur" in log
        t.keys("play", "x")
        t.keys("play", "?")
        seen.append(wait_screen(t, "play", lambda x: "Hjälp" in x, "the end's help"))
        t.keys("play", "x")

        spec = wait_screen(t, "play:watch", lambda x: "PARTIET ÄR SLUT" in x,
                           "the Swedish spectator's end screen")
        seen.append(spec)
        assert "Placering:" in spec and "ÅSKÅDARE" in spec
        en = wait_screen(t, "play:watch-en", lambda x: "GAME OVER" in x,
                         "the English spectator's end screen")
        assert "Ranking:" in en and "SPECTATING" in en and "Placering" not in en
        assert {"Ranking", "cards", "played"} <= set(english_left(en))  # the check works
        plurals_right(en, "card played", "cards played")
        t.keys("play:watch-en", "Tab")
        en_log = wait_screen(t, "play:watch-en", lambda x: "Log of this game" in x,
                             "the English log")
        assert "has every pirate in the rowboat and wins!" in en_log
        assert "på tur" not in en_log and "spelar" not in en_log
        t.keys("play:watch", "Tab")
        sv_log = wait_screen(t, "play:watch", lambda x: "Partiets logg" in x,
                             "the Swedish spectator's log")
        seen.append(sv_log)
        assert "har alla pirater i roddbåten och vinner!" in sv_log

        for screen in seen:
            assert english_left(screen, names_on(screen) + names_on(text)) == [], screen
        for session in ("play:watch", "play:watch-en"):
            t.keys(session, "x")
            t.keys(session, "q")
            wait_screen(t, session, lambda x: "EXIT=0" in x, f"{session} to exit")
        t.keys("play", "q")
        wait_screen(t, "play", lambda x: "EXIT=0" in x, "cartagena play to exit")
        assert_no_traceback(env)
    finally:
        t.kill()


def test_a_mixed_table_an_english_player_and_a_swedish_one(tmp_path: Path) -> None:
    """One table, two people: ann's terminal speaks English, bo's Swedish; each sees the
    same game (the board) in its own words, the log's lines too, to the end."""
    env = terminal_env(tmp_path, **ENGLISH)
    t = Tmux(f"ctgn-mixed-{os.getpid()}", env)
    try:
        port = free_port()
        t.start("ann", [*CLI, "host", "--port", str(port), "--bind", "127.0.0.1",
                        "--discovery", "off", "--web", "off", *GAME[:6], "--players", "2",
                        "--bots", "0", "--bot-delay", "0", "--name", "ann"])
        wait_screen(t, "ann", lambda x: "s/Enter start" in x, "ann's waiting room")
        t.start("bo", ["env", *(f"{k}={v}" for k, v in SWEDISH.items()), *CLI, "join",
                       f"127.0.0.1:{port}", "--name", "bo"], window_of="ann")
        lobby = wait_screen(t, "ann:bo", lambda x: "lobbyn hos" in x and "Enter sätt dig" in x,
                            "bo's lobby")
        people = ("ann's table", "ann", "bo", getpass.getuser())  # the host's player: its user
        assert "väntar" in lobby and "du: bo (valfri)" in lobby
        assert english_left(lobby, people) == [], lobby
        t.keys("ann:bo", "Enter")
        waiting = wait_screen(t, "ann:bo", lambda x: "väntar på att ägaren startar…" in x,
                              "bo's waiting room")
        assert english_left(waiting, people) == [], waiting
        wait_screen(t, "ann", lambda x: "bo" in x, "bo in ann's waiting room")
        t.keys("ann", "s")
        moves, checked = 0, 0
        while True:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                a, b = t.screen("ann"), t.screen("ann:bo")
                if "GAME OVER" in a or my_turn(a) or sv_turn(b):
                    break
                time.sleep(0.1)
            if "GAME OVER" in a:
                break
            if my_turn(a):
                take_turn_action(t, "ann", wait_screen(t, "ann", my_turn, "ann's turn"))
            else:
                b = wait_screen(t, "ann:bo", sv_turn, "bo's turn")
                assert english_left(b, names_on(b) + people) == [], b
                assert "spelar" in b and " plays " not in b  # the log, rendered in Swedish
                sv_take_turn_action(t, "ann:bo", b, [])
                checked += 1
            moves += 1
            assert moves < 400, "the game does not end"
        assert checked
        a = wait_screen(t, "ann", lambda x: "GAME OVER" in x, "ann's end screen")
        b = wait_screen(t, "ann:bo", lambda x: "PARTIET ÄR SLUT" in x, "bo's end screen")
        assert "Ranking:" in a and "Summary:" in a and "Placering" not in a
        assert "Placering:" in b and "Sammanfattning:" in b
        assert english_left(b, names_on(b) + people) == [], b
        assert " wins!" in a or "'s turn" in a
        t.keys("ann:bo", "q")
        wait_screen(t, "ann:bo", lambda x: "EXIT=0" in x, "bo's client to exit")
        t.keys("ann", "q")
        wait_screen(t, "ann", lambda x: "Quit? You are the host" in x, "the host's question")
        t.keys("ann", "y")
        wait_screen(t, "ann", lambda x: "EXIT=0" in x, "ann's host to exit")
        assert_no_traceback(env)
    finally:
        t.kill()
