"""The Whole Jailbreak end to end in a real terminal: `cartagena play --rules
studiogiochi-2017 -o story=whole` under tmux against a bot, driven by keys to the end.

The driver reads only the screen: the pirates line, the hand, the key bar and the sloop's
line (which shore the sloop lies at, its load). It sails the sloop from the keyboard with
its preview, lands pirates on the island path and plays on until the ranking shows; the
terminal is resized on the way so the strip (80x24) and the winding board both show.
"""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    ROOT,
    Tmux,
    assert_no_traceback,
    free_port,
    hand_keys,
    my_turn,
    pirates,
    terminal_env,
    wait_port,
    wait_screen,
)

pytestmark = pytest.mark.tmux


def sloop_line(text: str) -> str:
    lines = [x for x in text.splitlines() if "⛴" in x and "sloop:" in x and "Cartagena" in x
             and "Tortuga" in x]
    assert len(lines) == 1, text
    return lines[0]


def shore(text: str) -> str:
    """The shore the sloop lies at, read from the picture: its name touches the sloop."""
    line = sloop_line(text)
    if m := re.search(r"(Cartagena|Tortuga) ⛴", line):
        return m.group(1)
    m = re.search(r"⛴ \d+ sloop:[^≈]*?(Cartagena|Tortuga)", line)
    assert m, line
    return m.group(1)


def settled(t: Tmux, s: str, before: str, what: str) -> str:
    return wait_screen(t, s, lambda x: x != before and "Esc cancel" not in x
                       and "sent: " not in x, what)


def refused(text: str) -> bool:
    """The status line (the last) says why a key did nothing: a sentence (``Cannot play
    parrot with the pirate at 15.``), its words read whatever their case."""
    last = (text.rstrip().splitlines() or [""])[-1].lower()
    return any(w in last for w in ("cannot", "only", "no "))


def preview_and_confirm(t: Tmux, s: str, keys: list[str]) -> str | None:
    """Press keys; if a preview shows, confirm it and return the preview's text."""
    t.keys(s, *keys)
    shown = wait_screen(t, s, lambda x: "Esc cancel" in x or refused(x), "a preview or a refusal")
    if "Esc cancel" not in shown:
        t.keys(s, "Escape")
        return None
    preview = next(x for x in shown.splitlines() if "Esc cancel" in x).strip()
    t.keys(s, "Enter")
    settled(t, s, shown, "the host to take the move")
    return preview


def take_action(t: Tmux, s: str, text: str, seen: dict[str, int]) -> None:
    """One action, chosen from the screen: until we have sailed, sail when ours are aboard
    and end the turn rather than spend its last action; land from the sloop at Tortuga, sail when ours are aboard at Cartagena, else advance the furthest pirate, else sail, retreat, draw
    or end."""
    where = pirates(text)
    cards = hand_keys(text)
    at = shore(text)
    aboard = [n for n, w in where if w == "sloop"]
    on_board = sorted(((int(w) if w.isdigit() else 0), n) for n, w in where
                      if w not in ("cove", "sloop"))
    sail = "f sail the sloop" in text
    tries: list[list[str]] = []
    if not seen["sails"]:
        # Until we have sailed once: sail first, and never spend a turn's last action
        # (a pirate boarding with it would wait aboard, and the bot, sailing with every
        # pirate aboard, could carry it across: the keyboard would never sail).
        if sail and aboard:
            tries.append(["f"])
        left = re.search(r"\((\d+) left", text)
        if not tries and left and left.group(1) == "1" and "e end the turn" in text:
            t.keys(s, "e")
            settled(t, s, text, "the end of the turn")
            return
    if at == "Tortuga" and aboard:
        tries += [[aboard[0], c] for c in cards]
    if at == "Cartagena" and aboard and sail:
        tries.append(["f"])
    tries += [[n, c] for _, n in reversed(on_board) for c in cards]
    if "w draw" in text:
        tries.append(["w"])
    tries += [[n, "r"] for n, w in where if w != "jail"] if "r retreat" in text else []
    if sail and (at == "Cartagena" or not aboard):  # back for those still in the passage
        tries.append(["f"])
    for keys in tries:
        if keys == ["w"]:
            t.keys(s, "w")
            settled(t, s, text, "the draw to be taken")
            return
        before = shore(text)
        preview = preview_and_confirm(t, s, keys)
        if preview is None:
            continue
        if keys == ["f"]:
            seen["sails"] += 1
            want = "Tortuga" if before == "Cartagena" else "Cartagena"
            assert f"sail {before} → {want}" in preview, preview
            if "free, Captain's sail" in preview:
                seen["free"] += 1
            if "turn ends" not in preview:  # still our turn: the picture shows the other shore
                after = wait_screen(t, s, lambda x: my_turn(x) and "⛴" in x, "the board")
                assert shore(after) == want, after
        elif aboard and keys[0] == aboard[0] and at == "Tortuga":
            seen["landed"] += 1
        return
    if "e end the turn" in text:
        t.keys(s, "e")
        settled(t, s, text, "the end of the turn")
        return
    raise AssertionError(f"no move found on:\n{text}")


def test_whole_jailbreak_played_from_the_keyboard_to_the_end(tmp_path: Path) -> None:
    env = terminal_env(tmp_path)
    t = Tmux(f"ctgn-jailbreak-{os.getpid()}", env)
    try:
        t.start("play", [*CLI, "play", "--rules", "studiogiochi-2017", "-o", "story=whole",
                         "-o", "segments=3", "-o", "island_segments=3", "-o", "pirates=1",
                         "--players", "2", "--bots", "1", "--bot-delay", "0", "--name", "ann",
                         # one deal and a bot that does not search: the same game however
                         # busy the machine (a search cut by its time bound could differ);
                         # one pirate each: 15 turns, two sails, and ours lands and wins
                         "--seed", "5", "--level", "easy"])
        t.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
        text = wait_screen(t, "play", my_turn, "the game screen")
        # 80x24: the strip, the paths by name, the sloop at Cartagena between them
        lines = text.splitlines()
        assert "underground passage 1–18: jail → sloop at Cartagena" in text
        assert "island path 20–37: sloop at Tortuga → cove" in text
        assert shore(text) == "Cartagena" and "sloop: empty" in sloop_line(text)
        assert "no Captain this turn" in sloop_line(text)
        assert lines.index(sloop_line(text)) < lines.index(
            next(x for x in lines if x.startswith("island path")))
        # sailing with nobody aboard is refused, with the reason
        t.keys("play", "f")
        wait_screen(t, "play", lambda x: "only with one of your pirates aboard" in x,
                    "the reason a sail is refused")

        seen = {"sails": 0, "free": 0, "landed": 0}
        turns = 0
        while True:
            text = wait_screen(t, "play", lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn or the end")
            if "GAME OVER" in text:
                break
            if turns == 6:  # a larger terminal: the winding board, the sloop a row of its own
                t.tmux("resize-window", "-t", "play", "-x", "110", "-y", "44")
                text = wait_screen(t, "play", lambda x: my_turn(x) and "[18 " in x,
                                   "the winding board")
                rows = text.splitlines()
                sea = rows.index(sloop_line(text))
                assert any("[18 " in x for x in rows[sea - 3:sea])
                assert any("[20 " in x for x in rows[sea + 1:sea + 4])
                assert "island path 20–37" in rows[sea + 1]
            take_action(t, "play", text, seen)
            turns += 1
            assert turns < 400, f"the game does not end:\n{text}"
        assert re.search(r"Ranking: 1\. .+? \((red|blue)\)\s+2\. .+? \((red|blue)\)", text)
        assert "cove" in text and "play again" in text
        assert seen["sails"] >= 1, seen  # the sloop was sailed from the keyboard
        assert turns > 6, turns  # the winding board was seen at turn 6
        if "You win!" in text:
            assert seen["landed"] >= 1, seen
        t.keys("play", "q")
        wait_screen(t, "play", lambda x: "EXIT=0" in x, "cartagena play to exit")
        assert_no_traceback(env)
    finally:
        t.kill()


def sloop_seen(text: str) -> tuple[str, str]:
    """(shore, load) of the sloop as drawn."""
    load = re.search(r"sloop: (.*?) *(?:≈|Cartagena|Tortuga)", sloop_line(text))
    assert load, text
    return shore(text), load.group(1)


def test_whole_jailbreak_hosted_joined_and_watched_over_tcp(tmp_path: Path) -> None:
    """`cartagena host` (127.0.0.1, no discovery) with story=whole; `cartagena join` plays
    it from the keyboard against the host's bot while `cartagena spectate` watches: the
    watcher sees the sloop where the player sees it, and the same end."""
    env = terminal_env(tmp_path)
    port = free_port()
    log = open(tmp_path / "host.log", "w")  # noqa: SIM115 - closed in finally
    host = subprocess.Popen(
        [*CLI, "host", "--headless", "--port", str(port), "--bind", "127.0.0.1",
         "--discovery", "off", "--web", "off", "--state-dir", str(tmp_path / "host"),
         "--bot-delay", "0", "--rules", "studiogiochi-2017", "-o", "story=whole",
         "-o", "pirates=1", "--players", "2", "--bots", "1",
         # a random bot: it never wins the race before our pirate has sailed and landed
         "--bot-kind", "random"],
        cwd=ROOT, env=env, stdout=log, stderr=log)
    t = Tmux(f"ctgn-jailbreak-tcp-{os.getpid()}", env)
    try:
        wait_port(port, host)
        t.start("join", [*CLI, "join", f"127.0.0.1:{port}", "--name", "ann"])
        wait_screen(t, "join", lambda x: "the Whole Jailbreak" in x and "random bot" in x, "the lobby")
        t.keys("join", "Enter")
        wait_screen(t, "join", lambda x: "you own this table" in x, "the seat")
        t.keys("join", "s")
        text = wait_screen(t, "join", my_turn, "my turn")
        assert sloop_seen(text) == ("Cartagena", "empty")
        t.start("watch", [*CLI, "spectate", f"127.0.0.1:{port}"], window_of="join")
        wait_screen(t, "join:watch", lambda x: "SPECTATING" in x and "⛴" in x
                    and sloop_seen(x) == ("Cartagena", "empty"), "the watcher's board")

        seen = {"sails": 0, "free": 0, "landed": 0}
        actions, compared = 0, 0
        while True:
            text = wait_screen(t, "join", lambda x: my_turn(x) or "GAME OVER" in x,
                               "my turn or the end")
            if "GAME OVER" in text:
                break
            mine = sloop_seen(text)
            if seen["sails"] and compared < 3:  # the sloop has sailed: the watcher agrees
                wait_screen(t, "join:watch", lambda x, m=mine: "SPECTATING" in x
                            and sloop_seen(x) == m, f"the watcher to show the sloop {mine}")
                compared += 1
            take_action(t, "join", text, seen)
            actions += 1
            assert actions < 400, f"the game does not end:\n{text}"
        assert seen["sails"] >= 1 and compared >= 1, seen
        watch = wait_screen(t, "join:watch", lambda x: "GAME OVER" in x, "the watcher's end")
        assert sloop_seen(watch) == sloop_seen(text)
        winner = re.search(r"Winner: .+? \((red|blue)\)|You win!", text).group(0)
        assert ("(red)" in watch.split("Winner:")[1].splitlines()[0]) == (
            winner == "You win!" or "(red)" in winner)
        assert re.search(r"⛱ cove: [RB]×1", watch)
        t.keys("join:watch", "q")
        wait_screen(t, "join:watch", lambda x: "EXIT=0" in x, "the watcher to exit")
        assert_no_traceback(env)
    finally:
        t.kill()
        if host.poll() is None:
            host.kill()
            host.wait(timeout=30)
        log.close()
