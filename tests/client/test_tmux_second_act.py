"""The evening's second act in real terminals: a headless host with a terminal player and
a terminal spectator; the host is stopped with Ctrl-C and started again with --resume;
`r` brings both back (the player to the seat, the spectator to the table it watched at
once), and the game is played on to its end on both screens, with no protocol words.
"""
from __future__ import annotations

import getpass
import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from .test_tmux import (
    CLI,
    ROOT,
    Tmux,
    assert_no_traceback,
    board,
    free_port,
    my_turn,
    take_turn_action,
    terminal_env,
    wait_port,
    wait_screen,
)

pytestmark = pytest.mark.tmux

PROTOCOL_WORDS = ("not-allowed", "join_table", "spectate true", "client may not send",
                  "in state lobby")


def no_protocol_words(text: str) -> str:
    for word in PROTOCOL_WORDS:
        assert word not in text, f"{word!r} on a person's screen:\n{text}"
    return text


def test_a_spectator_and_a_player_follow_a_host_restarted_with_resume(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    port = free_port()
    host_cmd = [*CLI, "host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                "--discovery", "off", "--web", "off", "--state-dir", str(tmp_path / "host"),
                "--bot-delay", "0", "--rules", "ravensburger", "-o", "segments=1",
                "-o", "pirates=3", "--level", "easy"]
    log = open(tmp_path / "host.log", "w")  # noqa: SIM115 - closed in finally
    hosts: list[subprocess.Popen] = []
    t = Tmux(f"ctgn-second-act-{os.getpid()}", env)
    try:
        hosts.append(subprocess.Popen([*host_cmd, "--players", "2", "--bots", "1"], cwd=ROOT,
                                      env=env, stdout=log, stderr=log))
        wait_port(port, hosts[-1])
        t.start("join", [*CLI, "join", f"127.0.0.1:{port}", "--name", "ann"])
        wait_screen(t, "join", lambda x: "lobby of" in x, "the lobby")
        t.keys("join", "Enter")
        wait_screen(t, "join", lambda x: "you own this table" in x, "the seat")
        t.keys("join", "s")
        text = wait_screen(t, "join", my_turn, "my turn")
        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="join")
        wait_screen(t, "join:watch", lambda x: "SPECTATING" in x and board(x), "watching")
        take_turn_action(t, "join", text)
        before = board(wait_screen(t, "join", my_turn, "my turn again"))
        wait_screen(t, "join:watch", lambda x: board(x) == before, "the spectator in step")

        hosts[-1].send_signal(signal.SIGINT)  # Ctrl-C
        assert hosts[-1].wait(timeout=60) == 0
        spec = wait_screen(t, "join:watch", lambda x: "r try again" in x, "the host gone")
        no_protocol_words(spec)
        wait_screen(t, "join", lambda x: "r try again" in x, "the host gone (player)")
        hosts.append(subprocess.Popen([*host_cmd, "--resume"], cwd=ROOT, env=env, stdout=log,
                                      stderr=log))
        wait_port(port, hosts[-1])

        t.keys("join:watch", "r")
        spec = wait_screen(t, "join:watch", lambda x: "SPECTATING" in x and board(x) == before,
                           "the spectator back at the resumed game")
        no_protocol_words(spec)
        assert "waiting for the owner" not in spec
        t.keys("join", "r")
        text = wait_screen(t, "join", lambda x: "back in your seat" in x and my_turn(x),
                           "the player back in the seat")
        assert board(text) == before
        wait_screen(t, "join", lambda x: "1 watching" in x, "the host counting the watcher")

        moves = 0
        while True:
            text = wait_screen(t, "join", lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn or the end")
            if "GAME OVER" in text:
                break
            take_turn_action(t, "join", text)
            moves += 1
            assert moves < 200, "the game does not end"
        spec = wait_screen(t, "join:watch", lambda x: "GAME OVER" in x,
                           "the spectator's end screen")
        assert board(spec) == board(text)
        no_protocol_words(spec)
        no_protocol_words(text)
        # A watcher's l goes back to the lobby, in plain words
        t.keys("join:watch", "l")
        spec = wait_screen(t, "join:watch", lambda x: "lobby of" in x, "the spectator's lobby")
        no_protocol_words(spec)
        t.keys("join:watch", "Enter")  # a watcher's Enter watches
        spec = wait_screen(t, "join:watch", lambda x: "GAME OVER" in x, "watching again")
        no_protocol_words(spec)
        assert_no_traceback(env)
    finally:
        t.kill()
        for h in hosts:
            if h.poll() is None:
                h.kill()
                h.wait(timeout=30)
        log.close()


def test_the_name_given_in_the_lobby_is_the_one_every_screen_uses_and_is_kept(
        tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    port = free_port()
    host_cmd = [*CLI, "host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
                "--discovery", "off", "--web", "off", "--state-dir", str(tmp_path / "host"),
                "--bot-delay", "0", "--players", "2", "--bots", "1", "--level", "easy"]
    log = open(tmp_path / "host.log", "w")  # noqa: SIM115 - closed in finally
    host = subprocess.Popen(host_cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
    t = Tmux(f"ctgn-second-name-{os.getpid()}", env)
    try:
        wait_port(port, host)
        t.start("join", [*CLI, "join", f"127.0.0.1:{port}"])
        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="join")
        wait_screen(t, "join", lambda x: "lobby of" in x, "the lobby")
        t.keys("join", "n")
        wait_screen(t, "join", lambda x: "your name:" in x, "the name prompt")
        t.keys("join", "C-u")
        for _ in range(40):
            t.keys("join", "BSpace")
        t.keys("join", "Zelda", "Enter")
        wait_screen(t, "join", lambda x: "you: Zelda" in x, "the new name in the header")
        t.keys("join", "t")
        wait_screen(t, "join", lambda x: "New table" in x or "new table" in x, "the form")
        t.keys("join", "Enter")
        text = wait_screen(t, "join", lambda x: "you own this table" in x, "the new table")
        assert "Zelda" in text and f" {getpass.getuser()} " not in text
        t.keys("join", "c")
        t.keys("join", "ahoy", "Enter")
        wait_screen(t, "join", lambda x: "<Zelda> ahoy" in x, "the chat line")
        # the watcher's lobby names the seat Zelda too
        t.keys("join:watch", "l")
        wait_screen(t, "join:watch", lambda x: "Zelda" in x, "the name in the watcher's lobby")
        # a game with three easy bots; the host stops and comes back: its resume question
        # (in its log, with no terminal to ask) and the seat say Zelda
        for _ in range(3):
            t.keys("join", "e")
        wait_screen(t, "join", lambda x: x.count("(greedy bot") == 3, "three easy bots")
        t.keys("join", "s")
        text = wait_screen(t, "join", my_turn, "my turn")
        assert "you: Zelda" in text
        host.send_signal(signal.SIGINT)
        assert host.wait(timeout=60) == 0
        wait_screen(t, "join", lambda x: "r try again" in x, "the host gone")
        log.flush()
        host = subprocess.Popen(host_cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
        wait_port(port, host)
        words = (tmp_path / "host.log").read_text()
        assert "jamaica, Zelda, " in words and "Zelda to play" in words, words
        record = re.search(r"the game's record is (\S+\.json)", words)
        assert record, words
        players = json.loads(Path(record.group(1)).read_text())["players"]
        assert players[0]["name"] == "Zelda", players
        t.keys("join", "r")
        text = wait_screen(t, "join", lambda x: "back in your seat" in x, "the seat again")
        assert "you: Zelda" in text
        t.keys("join", "q")
        wait_screen(t, "join", lambda x: "Leave the running game?" in x, "the question")
        t.keys("join", "y")
        wait_screen(t, "join", lambda x: "EXIT=0" in x, "the client to exit")
        # the next run, with no --name, is Zelda again
        t.start("again", [*CLI, "join", f"127.0.0.1:{port}"])
        wait_screen(t, "again", lambda x: "lobby of" in x and "you: Zelda" in x,
                    "the kept name")
        assert_no_traceback(env)
    finally:
        t.kill()
        if host.poll() is None:
            host.kill()
            host.wait(timeout=30)
        log.close()


def test_the_quit_question_of_play_says_what_happens_and_the_next_start_offers_it_back(
        tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-second-quit-{os.getpid()}", env)
    game = [*CLI, "play", "--rules", "ravensburger", "-o", "segments=1", "-o", "pirates=3",
            "--players", "2", "--bots", "1", "--bot-delay", "0", "--name", "ann"]
    try:
        t.start("play", game)
        text = wait_screen(t, "play", my_turn, "the game")
        take_turn_action(t, "play", text)
        before = board(wait_screen(t, "play", my_turn, "my turn again"))
        t.keys("play", "q")
        wait_screen(t, "play", lambda x: "The game is kept: the next cartagena play offers "
                    "it back" in x, "the quit question")
        t.keys("play", "y")
        wait_screen(t, "play", lambda x: "EXIT=0" in x, "play to exit")
        t.start("again", game)
        wait_screen(t, "again", lambda x: "Resume?" in x, "the game offered back")
        t.keys("again", "y", "Enter")
        text = wait_screen(t, "again", my_turn, "the game again")
        assert board(text) == before
        assert_no_traceback(env)
    finally:
        t.kill()
