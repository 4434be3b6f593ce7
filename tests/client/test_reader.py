"""The screen-reader mode over plain pipes: whole games of `cartagena play --screen-reader`
in a subprocess whose standard input and output are pipes (no terminal), in English and
in Swedish, on the 2014 and 1672 presets and on the 2017 edition with the Black Magic
Woman. The test answers every numbered question (the first choice, or a card power where
one is offered, to go through the powers' questions), asks each command once, plays to
the end, and checks what was said: no box drawing or block characters, no escape
sequences, every choice a numbered line in words and never the action notation."""
from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cartagena_net.i18n import translation
from client.plain import sentence

ROOT = Path(__file__).resolve().parents[2]
NOTATION = re.compile(r"\b(advance|retreat|give|take|keep|stack|discard|power|morgan)\s+\d"
                      r"|\b[a-z]+\*|\b(advance|retreat)\s+(start|\w+)\s+\w+\*?$")
DRAWN = re.compile("[\u2500-\u259f]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x1b]")
NUMBERED = re.compile(r"^(\d+)\. (.+)$")
COMMANDS = ("board", "hand", "pirates", "others", "log", "chances", "hint", "help", "moves")
MAGIC = ["--rules", "studiogiochi-2017", "--players", "2", "-o", "magic=true",
         "-o", "segments=4", "-o", "pirates=4", "-o", "deal=12", "--seed", "2"]


class Game:
    """One `cartagena play --screen-reader` on pipes, driven line by line."""

    def __init__(self, tmp: Path, lang: str, args: list[str],
                 command: list[str] | None = None) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp / "state"),
                   PYTHONIOENCODING="utf-8", HOME=str(tmp))
        env.pop("TERM", None)
        self.tr = translation(lang)
        self.proc = subprocess.Popen(
            command or [
                sys.executable, "-m", "cartagena_net", "play", "--lang", lang,
                "--screen-reader", "--bot-delay", "0", "--bot-kind", "greedy", "--no-journal",
                "--no-records", "--no-reviews", "--no-live-chances", "--name", "Tess", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=str(tmp), text=True, encoding="utf-8", bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.said: list[str] = []
        self.typed: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def t(self, text: str) -> str:
        return self.tr.gettext(text)

    def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.typed.append(text)
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the client has left

    def next_line(self, wait: float) -> str | None:
        """The next line said (None when none came within ``wait`` seconds, or at the end)."""
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return None
        if line is None:
            self.ended = True
            return None
        self.said.append(line)
        return line

    ended = False

    def play(self, limit: float = 400.0, powers: int = 0, commands: bool = True) -> None:
        """Answer every question until the game is over, then ask the commands and quit."""
        deadline = time.monotonic() + limit
        over = self.t("The game is over.")
        power_line = self.t("Use a card's power (Black Magic Woman)")
        power_head = self.t("Which card's power?")
        asked_commands = not commands
        powers_used = 0
        question: list[str] = []
        head = ""
        while not self.ended:
            assert time.monotonic() < deadline, "the game did not end in time:\n" + "\n".join(
                self.said[-40:])
            line = self.next_line(0.15 if question else 60.0)
            if line is not None and NUMBERED.match(line) and not line.startswith("0. "):
                if not question:
                    head = self.said[-2] if len(self.said) >= 2 else ""
                question.append(NUMBERED.match(line).group(2))  # type: ignore[union-attr]
                continue
            if line is not None and line.startswith("0. "):
                continue
            if question:
                if not asked_commands:
                    asked_commands = True
                    for c in COMMANDS[:-1]:  # (moves says the question again)
                        self.type(c)
                choice = 1
                if power_line in question and powers_used < powers:
                    choice = question.index(power_line) + 1
                    powers_used += 1
                elif head == power_head:
                    choice = (powers_used - 1) % len(question) + 1
                self.type(str(choice))
                question = []
            if line is None and not self.ended and not question:
                continue
            if line == over:
                for c in COMMANDS if commands else ():
                    self.type(c)
                self.type("quit")
                self.type("1")
        self.proc.wait(timeout=30)

    def check(self) -> str:
        """What every game's output must be; the whole output."""
        text = "\n".join(self.said)
        if os.environ.get("READER_OUT"):  # to read what a player hears
            Path(os.environ["READER_OUT"]).write_text(text, encoding="utf-8")
        assert self.proc.returncode == 0, self.proc.stderr.read() if self.proc.stderr else ""
        assert not DRAWN.search(text), DRAWN.search(text)
        assert not CONTROL.search(text)
        assert "→" not in text
        for line in self.said:
            assert not NOTATION.search(line), line
            m = NUMBERED.match(line)
            if m:  # a choice: words, never a bare number or notation
                assert re.search(r"[^\W\d_]{2}", m.group(2)), line
        assert self.t("The game is over.") in self.said
        assert any(x.startswith(self.t("Ranking: {list}.").split("{")[0]) for x in self.said)
        return text


def choices(said: list[str]) -> list[str]:
    return [NUMBERED.match(x).group(2) for x in said if NUMBERED.match(x)]  # type: ignore


@pytest.mark.parametrize(("lang", "rules"), [("en", "ravensburger"), ("sv", "jamaica")])
def test_a_whole_game_over_pipes_in_words(tmp_path, lang, rules):
    game = Game(tmp_path, lang, ["--rules", rules, "--players", "2", "--seed", "5"])
    try:
        game.play()
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
    text = game.check()
    t = game.t
    assert t("Your turn.") in game.said
    assert t("Your moves:") in game.said
    play = t("Play the {card}: your pirate {n} at {frm} goes to {to}").split("{")[0]
    assert any(c.startswith(play) for c in choices(game.said))
    # the commands answered, each in a few lines
    assert any(x.startswith(t("Your hand, {cards}: {list}.").split("{")[0]) for x in game.said)
    assert t("Along the track, from the goal back to the start:") in game.said
    assert any(x.startswith(t("Your pirates: {list}.").split("{")[0]) for x in game.said)
    # a refusal said as a sentence: a capital and a full stop, in either language
    assert sentence(t("this table does not allow hints (its owner chooses when creating it)")
                    ) in game.said
    assert t("No chances of winning are shown at this table now.") in text
    # the events in sentences: the bot's moves named by its player's name
    assert t("Goodbye.") in game.said
    if lang == "sv":
        assert "Your turn." not in text and "Play the" not in text
        assert "Din tur." in game.said


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_black_magic_woman_game_over_pipes_asks_one_question_at_a_time(tmp_path, lang):
    game = Game(tmp_path, lang, MAGIC)
    try:
        game.play(powers=8)
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
    game.check()
    t = game.t
    assert t("Which card's power?") in game.said
    heads = {t("Gun: which of {who}'s cards do you take?").split("{")[0],
             t("Rum: which card do you give?"), t("Lantern: which card do you keep?"),
             t("Lantern: which card goes back on the stock next?")}
    asked = [x for x in game.said if any(x.startswith(h) for h in heads)]
    assert asked, "no power's decision was asked"


def test_the_setting_is_remembered_and_can_be_turned_off(tmp_path, monkeypatch):
    import argparse

    from cartagena_net.cli.session import screen_reader
    from client import settings

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert screen_reader(argparse.Namespace(screen_reader=None)) is False
    assert screen_reader(argparse.Namespace(screen_reader=True)) is True
    assert settings.load()[settings.SCREEN_READER] is True
    assert screen_reader(argparse.Namespace(screen_reader=None)) is True
    settings.save("name", "Zelda")  # another setting is kept beside it
    assert screen_reader(argparse.Namespace(screen_reader=False)) is False
    assert screen_reader(argparse.Namespace(screen_reader=None)) is False
    assert settings.load()["name"] == "Zelda"
    settings.settings_path().write_text("{not json", encoding="utf-8")
    assert screen_reader(argparse.Namespace(screen_reader=None)) is False


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_a_replay_over_pipes_says_each_action_once_in_words(tmp_path, lang):
    from cartagena_net.records import store
    from tests.records.test_format import bot_game, record_of

    state = bot_game("jamaica", {"players": 3, "segments": 2}, seed=3)
    rec = record_of(state)
    store.write(tmp_path / "state" / "cartagena-net" / "records", rec)
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp_path / "state"),
               PYTHONIOENCODING="utf-8", HOME=str(tmp_path))
    steps = len(rec["moves"])
    typed = (["board", "seat 1", "hand"] + [""] * (steps + 1)
             + ["back", "others", "log", "quit"])
    done = subprocess.run(
        [sys.executable, "-m", "cartagena_net", "replay", "--lang", lang, "--screen-reader",
         rec["id"]], check=False, input="\n".join(typed) + "\n", capture_output=True, text=True,
        encoding="utf-8", env=env, cwd=str(tmp_path), timeout=120)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    text = done.stdout
    t = translation(lang).gettext
    assert not DRAWN.search(text) and not CONTROL.search(text) and "→" not in text
    for line in said:
        assert not NOTATION.search(line), line
    assert t("That was the last action.") in said  # stepped to the end, one action a line
    assert t("The game is over.") in said
    assert said[-1] == t("Goodbye.")
    assert any(x.startswith(t("Your hand, {cards}: {list}.").split("{")[0]) for x in said)
    # every action said once: as many move sentences as the record's moves (and turns)
    turns = sum(1 for x in said if x.endswith(t("{who}'s turn").split("}")[-1]))
    assert turns >= 2


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(game: Game, want: str, limit: float = 60.0) -> list[str]:
    """The lines said until one starting with ``want`` (the lines, that one last)."""
    got: list[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        line = game.next_line(1.0)
        if line is None:
            assert not game.ended, "\n".join(game.said[-30:])
            continue
        got.append(line)
        if line.startswith(want):
            return got
    raise AssertionError(f"never said {want!r}:\n" + "\n".join(game.said[-30:]))


def test_join_and_spectate_over_pipes_lobby_seats_bots_and_a_whole_game(tmp_path):
    """`cartagena join --screen-reader`: the lobby's tables as a numbered question, the
    seats, a bot added and the start typed as words, a whole game; a watcher
    (`cartagena spectate --screen-reader`) hears every move and is never asked one."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp_path / "state"))
    host = subprocess.Popen(
        [sys.executable, "-m", "cartagena_net", "host", "--headless", "--port", str(port),
         "--bind", "127.0.0.1", "--discovery", "off", "--web", "off", "--no-journal", "--no-records",
         "--no-reviews", "--no-live-chances", "--bot-delay", "0", "--rules", "ravensburger",
         "--players", "2", "--bots", "0"], cwd=str(tmp_path), env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cli = [sys.executable, "-m", "cartagena_net"]
    player = watcher = None
    try:
        wait_port(port)  # the host listens before the player dials it
        player = Game(tmp_path, "en", [], [*cli, "join", f"127.0.0.1:{port}", "--name", "Tess",
                                           "--screen-reader", "--lang", "en"])
        wait_for(player, "Tables on this host:")
        wait_for(player, "1. ")
        player.type("1")
        wait_for(player, "Type bot to add a bot")
        player.type("bot")
        seats = wait_for(player, "Seat 2, ")
        assert "(greedy bot, easy)" in seats[-1]
        watcher = Game(tmp_path, "en", [], [*cli, "spectate", f"127.0.0.1:{port}",
                                            "--screen-reader", "--lang", "en"])
        wait_for(watcher, "The table's owner starts the game", 90)
        player.type("start")
        player.play()
        text = player.check()
        # the player's own moves said to them, as "You play ..."; the watcher's "Tess plays"
        assert "You play" in text or "You retreat" in text
        assert "Tess plays" not in text and "Tess's turn" not in text
        wait_for(watcher, player.t("The game is over."), 60)
        watcher.type("quit")
        watcher.proc.wait(timeout=30)
        heard = "\n".join(watcher.said)
        assert watcher.proc.returncode == 0
        assert "Your turn." not in watcher.said and not NUMBERED.search(heard.replace(
            "1. Tess", "").replace("2. Tess", ""))  # only the ranking is numbered
        assert "Tess plays" in heard and not DRAWN.search(heard) and not CONTROL.search(heard)
    finally:
        for p in (player, watcher):
            if p is not None and p.proc.poll() is None:
                p.proc.kill()
        host.kill()
        host.wait(timeout=30)


def host_command(port: int, *more: str) -> list[str]:
    return [sys.executable, "-m", "cartagena_net", "host", "--headless", "--port", str(port),
            "--bind", "127.0.0.1", "--discovery", "off", "--web", "off", "--no-records", "--no-reviews",
            "--no-live-chances", "--bot-delay", "0", "--rules", "ravensburger",
            "--players", "2", "--bots", "1", *more]


def wait_port(port: int) -> None:
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the host does not listen")


@pytest.mark.slow  # a host process killed with SIGKILL and resumed, then a whole game
def test_the_password_question_then_a_host_killed_and_resumed_mid_game(tmp_path):
    """The host's password asked as a line; the host killed (SIGKILL) in the middle of
    the game and started again from its journal: the reader says it reconnects, repeats
    no move already said, and plays on to the end."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp_path / "state"))
    journal = ["--state-dir", str(tmp_path / "host"), "--password", "sesame"]
    host = subprocess.Popen(host_command(port, *journal), cwd=str(tmp_path), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    player = None
    try:
        wait_port(port)
        player = Game(tmp_path, "en", [], [
            sys.executable, "-m", "cartagena_net", "join", f"127.0.0.1:{port}", "--name",
            "Tess", "--screen-reader", "--lang", "en"])
        asked = wait_for(player, "password for 127.0.0.1")
        assert asked[-1].endswith("(type it and press Enter; an empty line gives up)")
        player.type("sesame")
        wait_for(player, "1. ")
        player.type("1")
        wait_for(player, "Type bot to add a bot")
        player.type("start")
        wait_for(player, "Your moves:")
        wait_for(player, "1. ")
        for _ in range(3):  # a few moves, then the host dies
            player.type("1")
            wait_for(player, "1. ")
        last = [x for x in player.said if x.startswith("You play") and ": from " in x][-1]
        host.kill()
        host.wait(timeout=30)
        host = subprocess.Popen(host_command(port, *journal, "--resume"), cwd=str(tmp_path),
                                env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        wait_for(player, "Reconnected: back in your seat.", 90)
        before = len(player.said)
        player.type("moves")
        player.play(commands=False)  # (the log command would say moves again)
        text = player.check()
        after = player.said[before:]
        events = [x for x in after if x.startswith(("You play", "Anne Bonny plays"))
                  and ": from " in x]
        assert events, "no move said after the reconnect"
        assert player.said[:before].count(last) == 1, last
        # The fresh view after the reconnect repeats the events already said: none is said
        # again (a later move of the same game may read the same, so only the first one
        # said after the reconnect is compared with the last one said before it).
        said_before = [x for x in player.said[:before]
                       if x.startswith(("You play", "Anne Bonny plays")) and ": from " in x]
        assert events[0] != said_before[-1], (events[0], said_before[-3:])
        assert "Tess" in text
    finally:
        if player is not None and player.proc.poll() is None:
            player.proc.kill()
        host.kill()
        host.wait(timeout=30)
