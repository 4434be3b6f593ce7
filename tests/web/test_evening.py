"""An evening, end to end, with real processes: a host (a subprocess, stopped with Ctrl-C
and started again with ``--resume``), a guest on the phone page (Selenium), a player in
a terminal (tmux), a spectator in another terminal and the TV page. Two games in a row
at one table (Play again), the host restarted between them, the guest's name given on
the page and the terminal player's in the lobby (``n``). After every step each
person sees the right names, the right winner, chances of this game and no event of the
game before; the replay of the second game holds the second game only.

Kept as small as it can be while real: a bot at the quick level, one segment, two
pirates a seat.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    free_port,
    my_turn,
    take_turn_action,
    terminal_env,
    wait_port,
    wait_screen,
)
from tests.client.test_tmux_second_act import no_protocol_words
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_phone import STEP
from tests.web.test_browser_seats import click_css, wait_for_page

pytestmark = [pytest.mark.slow, pytest.mark.tmux]

ROOT = Path(__file__).resolve().parents[2]
GAME = ["--players", "3", "--bots", "1", "--rules", "ravensburger", "-o", "segments=1",
        "-o", "pirates=2", "--level", "easy", "--bot-delay", "0"]

# What a page shows: its players' names (seat order), its turn line, its log (the events'
# types, newest first), the chances' curve (its points) and its state and game numbers.
SHOWN = """
const names = [...document.querySelectorAll('#player-list li.player')].map((li) =>
  (li.querySelector('.name') || li).textContent.replace(/ \\(you\\)$/, '').trim());
const line = document.querySelector('#chances svg.chances-curve polyline');
return {names, turn: document.getElementById('turn').textContent.trim(),
        types: [...document.querySelectorAll('#event-log li.event')].map((li) => li.dataset.type),
        texts: [...document.querySelectorAll('#event-log li.event')].map((li) => li.textContent),
        points: line ? line.getAttribute('points').trim().split(/\\s+/).length : 0,
        seq: Number(document.body.dataset.seq), game: Number(document.body.dataset.game),
        standings: [...document.querySelectorAll('#standings-list li')].map((li) => li.textContent),
        live: (document.getElementById('conn') || {}).dataset.live};
"""


class Evening:
    """The host process (started again on the same ports), and how to read it."""

    def __init__(self, tmp: Path, env: dict[str, str]) -> None:
        self.env = env
        self.port, self.web = free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.web}/"
        self.cmd = [*CLI, "host", "--headless", "--port", str(self.port), "--bind",
                    "127.0.0.1", "--discovery", "off", "--no-mdns", "--state-dir",
                    str(tmp / "host"), "--web", str(self.web), "--no-game-log"]
        self.log = open(tmp / "host.log", "a")  # noqa: SIM115 - closed in stop()
        self.proc: subprocess.Popen | None = None

    def start(self, *args: str) -> None:
        self.proc = subprocess.Popen([*self.cmd, *args], cwd=ROOT, env=self.env,
                                     stdout=self.log, stderr=self.log)
        wait_port(self.port, self.proc)
        wait_port(self.web, self.proc)

    def interrupt(self) -> None:
        """Ctrl-C, as a person quits it."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.log.close()

    def json(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=20) as r:
            return json.load(r)

    def names(self) -> list[str]:
        """Who sits where now, as the host says (bots by name)."""
        table = self.json("tables.json")["tables"][0]
        return [s["name"] for s in table["seats"]]


def shown(driver, window: str) -> dict:
    driver.switch_to.window(window)
    return driver.execute_script(SHOWN)


def winner_of(turn: str, me: str) -> str:
    """The winner a page's turn line names (after its colour chip's letter; "You win!"
    on the winner's own page)."""
    said = turn.split(" ", 1)[1].strip()
    if said.startswith("You win"):
        return me
    assert said.endswith(" wins!"), turn
    return said[: -len(" wins!")]


def terminal_winner(text: str) -> str:
    """The winner a terminal's end screen names: first in its ranking."""
    m = re.search(r"Ranking: 1\. (.+?) \(", text)
    assert m, text
    return m.group(1)


def play_game(driver, phone: str, t: Tmux, rng: random.Random, limit: float = 400) -> None:
    """The phone's guest and the terminal's player both play until the game ends."""
    deadline = time.monotonic() + limit
    driver.switch_to.window(phone)
    while time.monotonic() < deadline:
        step = driver.execute_script(STEP, 1280, rng.randrange(1 << 30))
        text = t.screen("bob")
        if step["state"] == "over" and "GAME OVER" in text:
            return
        if my_turn(text) and "GAME OVER" not in text:
            take_turn_action(t, "bob", text)
        elif step["state"] == "wait":
            time.sleep(0.1)
    raise AssertionError("the game did not end")


def check_the_end(driver, phone: str, tv: str, t: Tmux, names: list[str]) -> str:
    """Every screen names the same winner and the seats as the host does; the winner."""
    driver.switch_to.window(tv)
    wait_for(driver, "/wins?!/.test(document.getElementById('turn').textContent)", "the TV's end")
    on_tv = shown(driver, tv)
    assert on_tv["names"] == names, (on_tv, names)
    winner = winner_of(on_tv["turn"], "")
    assert winner in names
    driver.switch_to.window(phone)
    wait_for(driver, "!document.getElementById('standings').hidden", "the phone's standings")
    on_phone = shown(driver, phone)
    assert on_phone["names"] == names, (on_phone, names)
    assert winner_of(on_phone["turn"], "ann") == winner, (on_phone["turn"], winner)
    assert on_phone["standings"][0].split(" · ")[0].strip().endswith(
        "ann (you)" if winner == "ann" else winner), on_phone["standings"]
    text = wait_screen(t, "bob", lambda x: "GAME OVER" in x, "the terminal's end")
    assert terminal_winner(text) == winner, text
    for name in names:
        assert name in text, (name, text)
    spec = wait_screen(t, "bob:cal", lambda x: "GAME OVER" in x, "the spectator's end")
    assert "SPECTATING" in spec and terminal_winner(spec) == winner, spec
    for name in names:
        assert name in spec, (name, spec)
    no_protocol_words(spec)
    no_protocol_words(text)
    return winner


def test_an_evening_of_two_games_with_a_restart_between(tmp_path: Path, browser) -> None:
    env = terminal_env(tmp_path, XDG_DATA_HOME=str(tmp_path / "data"),
                       XDG_CONFIG_HOME=str(tmp_path / "config"))
    host = Evening(tmp_path, env)
    t = Tmux(f"ctgn-evening-{os.getpid()}", env)
    rng = random.Random(57)
    try:
        host.start(*GAME)
        # The guest gives a name on the page, and takes a seat: the first, the owner.
        viewport(browser, 1280, 900)
        phone = browser.current_window_handle
        browser.get(host.url + "play")
        browser.execute_script("localStorage.clear()")
        browser.get(host.url + "play")
        wait_for(browser, "document.body.dataset.screen === 'name'", "the name asked")
        browser.find_element(By.ID, "name-input").send_keys("ann")
        browser.find_element(By.ID, "name-go").click()
        click_css(browser, "#table-list button.sit[data-table='1']", "Take a seat")
        wait_for_page(browser, "document.body.dataset.screen === 'waiting'", "the waiting room")
        # The terminal player, then the TV.
        t.tmux("new-session", "-d", "-s", "keep", "sleep 900")
        t.start("bob", [*CLI, "join", f"127.0.0.1:{host.port}"])
        wait_screen(t, "bob", lambda x: "lobby of" in x, "the terminal's lobby")
        t.keys("bob", "n")  # the terminal player gives a name in the lobby
        wait_screen(t, "bob", lambda x: "your name:" in x, "the name prompt")
        t.keys("bob", "C-u")
        for _ in range(40):
            t.keys("bob", "BSpace")
        t.keys("bob", "bob", "Enter")
        wait_screen(t, "bob", lambda x: "you: bob" in x, "the name in the header")
        t.keys("bob", "Enter")
        wait_screen(t, "bob", lambda x: "waiting for the owner to start" in x, "bob seated")
        # A spectator in a terminal of its own.
        t.start("cal", [*CLI, "spectate", f"127.0.0.1:{host.port}", "--name", "cal"],
                window_of="bob")
        browser.switch_to.new_window("window")
        tv = browser.current_window_handle
        browser.get(host.url + "table/1")
        wait_for(browser, "document.getElementById('conn').dataset.live === 'yes'", "the TV live")
        names = host.names()
        assert names[0] == "ann" and names[1] == "bob" and names[2], names

        # The first game.
        browser.switch_to.window(phone)
        wait_for(browser, "document.querySelectorAll('#seat-list li.player').length === 3 && "
                 "![...document.querySelectorAll('#seat-list li')].some((li) => /free seat/.test(li.textContent))",
                 "every seat taken, on the phone")
        click_css(browser, "#start:not([hidden])", "Start")
        wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
        play_game(browser, phone, t, rng)
        first_winner = check_the_end(browser, phone, tv, t, names)

        # Ctrl-C, and the host again with --resume: everyone comes back to the same end.
        host.interrupt()
        wait_screen(t, "bob", lambda x: "r try again" in x, "the terminal told the host stopped")
        no_protocol_words(wait_screen(t, "bob:cal", lambda x: "r try again" in x,
                                      "the spectator told the host stopped"))
        host.start("--resume")
        t.keys("bob", "r")  # as a person does once the host is back
        t.keys("bob:cal", "r")
        browser.switch_to.window(phone)
        wait_for(browser, "document.getElementById('conn').dataset.live === 'yes' && "
                 "document.body.dataset.screen === 'game'", "the phone back", timeout=90)
        browser.switch_to.window(tv)
        wait_for(browser, "document.getElementById('conn').dataset.live === 'yes'", "the TV back",
                 timeout=90)
        wait_screen(t, "bob", lambda x: "GAME OVER" in x and "reconnecting" not in x,
                    "the terminal back", timeout=90)
        assert host.names() == names
        # While the host was away the pages' streams were refused: nothing else went wrong.
        for window in (phone, tv):
            browser.switch_to.window(window)
            for entry in browser.get_log("browser"):
                if entry["level"] == "SEVERE":
                    assert entry["source"] == "network" and re.search(
                        r"/(play|table/1)/events - Failed to load resource", entry["message"]), entry
        assert check_the_end(browser, phone, tv, t, names) == first_winner
        for window in (phone, tv):
            assert shown(browser, window)["types"].count("win") <= 1

        # Play again, on the phone: the seats move round, and nothing of the first game
        # is drawn with them.
        browser.switch_to.window(phone)
        ended = shown(browser, phone)
        click_css(browser, "#again:not([hidden])", "Play again")
        wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                               "document.getElementById('end-box').hidden", "the second game")
        again = host.names()
        assert again == names[1:] + names[:1], (again, names)
        on_phone = shown(browser, phone)
        assert on_phone["game"] > ended["seq"], (on_phone, ended["seq"])
        assert "win" not in on_phone["types"], on_phone["texts"]
        assert on_phone["names"] == again, on_phone
        browser.switch_to.window(tv)
        wait_for(browser, "!/wins?!/.test(document.getElementById('turn').textContent)",
                 "the TV's second game")
        on_tv = shown(browser, tv)
        assert "win" not in on_tv["types"], on_tv["texts"]
        assert on_tv["names"] == again, on_tv
        assert on_tv["game"] == on_phone["game"]
        assert on_tv["points"] <= on_tv["seq"] - on_tv["game"] + 1, on_tv
        # A watcher who comes now (after the restart, the new game begun) sees it alone.
        browser.switch_to.new_window("window")
        late = browser.current_window_handle
        browser.get(host.url + "table/1")
        wait_for(browser, "document.getElementById('conn').dataset.live === 'yes' && "
                 "document.querySelectorAll('#event-log li.event').length", "a late TV")
        on_late = shown(browser, late)
        assert on_late["names"] == again and on_late["game"] == on_phone["game"], on_late
        assert "win" not in on_late["types"], on_late["texts"]
        assert on_late["points"] <= on_late["seq"] - on_late["game"] + 1, on_late
        browser.close()
        text = wait_screen(t, "bob", lambda x: "GAME OVER" not in x and "pirates:" in x,
                           "the terminal's second game")
        assert not re.search(r"wins?!", text) and "every pirate" not in text, text
        spec = wait_screen(t, "bob:cal", lambda x: "GAME OVER" not in x and "SPECTATING" in x,
                           "the spectator's second game")
        assert not re.search(r"wins?!", spec) and "every pirate" not in spec, spec
        no_protocol_words(spec)

        # The second game, to its end, with chances of this game only.
        play_game(browser, phone, t, rng)
        on_tv = shown(browser, tv)
        assert on_tv["points"] <= on_tv["seq"] - on_tv["game"] + 1, on_tv
        assert on_tv["types"].count("win") == 1, on_tv["texts"]
        second_winner = check_the_end(browser, phone, tv, t, again)

        # The evening's scoreboard: two games each, the restart between them lost none.
        scores = {row["player"]: row for row in host.json("tables.json")["scores"]}
        assert scores["ann"]["games"] == scores["bob"]["games"] == 2, scores
        bots = [row for row in scores.values() if row["bot"]]  # (a bot counts by its kind)
        assert [row["games"] for row in bots] == [2], scores
        assert sum(row["wins"] for row in scores.values()) == 2, scores
        for winner in {first_winner, second_winner} & {"ann", "bob"}:
            assert scores[winner]["wins"] >= 1, scores

        # The replays: the second game's record holds the second game only.
        deadline = time.monotonic() + 30
        while True:
            games = host.json("games.json")["games"]
            if len(games) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert len(games) == 2, games
        latest = games[0]
        assert latest["actions"] == on_tv["seq"] - on_tv["game"], (latest, on_tv)
        assert latest["winner"].split(" (")[0] == second_winner, latest
        assert games[1]["winner"].split(" (")[0] == first_winner, games[1]
        replay = host.json(f"game/{latest['id']}.json")
        events = [e for step in replay["events"] for e in step]
        assert [e["type"] for e in events].count("win") == 1 and events[-1]["type"] == "win"
        assert [p["label"].split(" (")[0] for p in replay["players"]] == again
        # The first game, ended before the restart, is reviewed after it (its review was
        # due), while the second was played.
        deadline = time.monotonic() + 120
        while host.json(f"game/{games[1]['id']}.json")["review"] is None:
            assert time.monotonic() < deadline, "the first game's review never came"
            time.sleep(1)
        browser.switch_to.window(phone)
        browser.get(host.url + f"game/{latest['id']}")
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay")
        browser.find_element(By.ID, "last").click()
        assert second_winner in browser.find_element(By.ID, "turn").text
        no_errors(browser)
        assert_no_traceback(env)
    finally:
        t.kill()
        host.stop()
        for extra in browser.window_handles[1:]:
            browser.switch_to.window(extra)
            browser.close()
        browser.switch_to.window(browser.window_handles[0])
