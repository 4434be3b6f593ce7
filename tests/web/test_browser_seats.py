"""A guest plays from headless Chromium (at phone and desktop size) on /play, beside a
terminal-protocol player over TCP and a bot, through the page's own controls, to the end
of the game; the page is reloaded and its network cut in the middle, and the guest gets
its seat back each time."""
from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
import urllib.request

import msgpack
import pytest
from selenium.webdriver.common.by import By

from tests.web.conftest import browser_session
from tests.web.test_browser import no_errors, viewport, wait_for

WAIT = 60


class TcpPlayer(threading.Thread):
    """A terminal client's part, over a blocking socket: it sits, starts the game once
    the guest sits too, and plays a random legal action whenever it may."""

    def __init__(self, port: int, players: int, table: int = 1) -> None:
        super().__init__(daemon=True)
        self.table = table
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.players = players
        self.rng = random.Random(3)
        self.outcome = None
        self.error: BaseException | None = None
        self.stopped = False
        self.send({"type": "hello", "versions": [1], "name": "ann", "role": "player"})
        self.expect("welcome")
        self.send({"type": "join_table", "table": table, "spectate": False})
        self.expect("joined")

    def send(self, msg: dict) -> None:
        body = msgpack.packb(msg)
        self.sock.sendall(len(body).to_bytes(4, "big") + body)

    def recv(self) -> dict:
        head = self._exact(4)
        return msgpack.unpackb(self._exact(int.from_bytes(head, "big")), raw=False)

    def _exact(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
        return buf

    def expect(self, kind: str) -> dict:
        while True:
            msg = self.recv()
            if msg["type"] == kind:
                return msg

    def run(self) -> None:
        try:
            started = False
            while not self.stopped:
                msg = self.recv()
                if msg["type"] == "ping":
                    self.send({"type": "pong", "nonce": msg["nonce"]})
                elif msg["type"] == "lobby" and not started:
                    table = next(t for t in msg["tables"] if t["id"] == self.table)
                    if sum(1 for s in table["seats"] if s.get("name")) == self.players:
                        self.send({"type": "start", "table": self.table})
                        started = True
                elif msg["type"] == "state":
                    if msg["view"]["outcome"] is not None:
                        self.outcome = msg["view"]["outcome"]
                        return
                    legal = [a for a in msg["legal"] if a != "undo"]
                    if legal:
                        time.sleep(0.02)
                        self.send({"type": "action", "table": self.table, "seq": msg["seq"],
                                   "action": self.rng.choice(legal)})
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            if not self.stopped:
                self.error = exc


def said_aloud(line: str) -> str:
    """An event's line as the pages' live regions say it (i18n.js eventSpoken): "a → b"
    said "from a to b", a move taken back said as one, the sentence ended."""
    said = re.sub(r"^(.*) takes back: (\S+) → (\S+) \((.+)\)$",
                  r"\1 takes back the \4: the pirate goes back from \3 to \2, and the \4 returns "
                  r"to the hand", line.strip())
    said = re.sub(r"(\S+) → (\S+)", r"from \1 to \2", said)
    return said if said[-1:] in ".!?…" else said + "."


def wait_for_page(driver, script: str, what: str, timeout: float = WAIT):
    """wait_for, saying what the page showed when it times out."""
    from selenium.common.exceptions import TimeoutException

    try:
        return wait_for(driver, script, what, timeout)
    except TimeoutException:
        shown = driver.execute_script(
            "return ['screen', 'doing', 'choices', 'turn', 'notice', 'conn'].map((id) => "
            "id === 'screen' ? document.body.dataset.screen : "
            "(document.getElementById(id) || {}).innerText)")
        raise AssertionError(f"{what}: the page showed {shown}") from None


def click_choice(driver, rng: random.Random) -> bool:
    """Click one of the page's choice buttons (found and clicked at once, so a state
    arriving in between cannot leave a stale button)."""
    return driver.execute_script(
        "const c = document.querySelectorAll('#choices .choice');"
        "if (!c.length) return false; c[arguments[0] % c.length].click(); return true;",
        rng.randrange(1 << 30))


def click_css(driver, css: str, what: str = "") -> None:
    """Find and click the element ``css`` in one step (the lobby list is drawn again when
    the tables change: a button found first could be gone by the click), once a person
    could: shown and enabled (a script's click reaches a hidden button, such as the
    start button before the page knows its seat owns the table, and is lost)."""
    wait_for_page(driver, f"(() => {{ const b = document.querySelector({css!r});"
                          "if (!b || b.disabled || !b.getClientRects().length || b.closest('[hidden]'))"
                          " return false; b.click(); return true; })()",
                  what or f"a click on {css}")


def click_confirm(driver) -> bool:
    """Click the page's Confirm button if it shows, with a preview of the move."""
    return driver.execute_script(
        "const box = document.getElementById('confirm-box');"
        "if (box.hidden || !document.getElementById('preview').textContent) return false;"
        "document.getElementById('confirm').click(); return true;")


def guest_turns(driver, actions: int) -> int:
    """Play ``actions`` of the guest's actions with the page's buttons (or until the game
    ends); the actions played."""
    played = 0
    while played < actions:
        state = wait_for_page(driver, """(() => {
            if (document.querySelector('#turn') && /wins?!/.test(document.getElementById('turn').textContent)) return 'over';
            const c = document.querySelectorAll('#choices .choice');
            const ok = !document.getElementById('confirm-box').hidden;
            return ok ? 'confirm' : (c.length ? 'choose' : null);
        })()""", "the guest's turn or the end", timeout=WAIT)
        if state == "over":
            return played
        if state == "choose":
            click_choice(driver, random.Random(played))
            continue
        # Confirm shows with a preview of the move (unless a state came and hid it).
        wait_for_page(driver, "document.getElementById('confirm-box').hidden || "
                              "!!document.getElementById('preview').textContent",
                      "a preview of the move beside Confirm")
        seq = driver.execute_script("return document.body.dataset.seq")
        if not click_confirm(driver):
            continue  # the page changed under the click: look again
        wait_for_page(driver, f"document.body.dataset.seq !== '{seq}'", "the action's new state")
        played += 1
    return played


@pytest.mark.parametrize("size", [(390, 844, True), (1280, 800, False)],
                         ids=["phone", "desktop"])
def test_a_guest_plays_a_whole_game_in_the_browser_and_comes_back_after_a_reload(
        browser, host_process, size):
    host = host_process("--players", "3", "--bots", "1", "-o", "segments=4",
                        "-o", "pirates=3", "--bot-delay", "0.05")
    width, height, mobile = size
    viewport(browser, width, height, mobile)
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    name = browser.find_element(By.ID, "name-input")
    name.send_keys("zoe")
    ann = TcpPlayer(host.port, players=3)
    browser.find_element(By.ID, "name-go").click()
    wait_for(browser, "document.querySelector('#table-list button.sit[data-table=\"1\"]')",
             "the lobby lists the table")
    click_css(browser, "#table-list button.sit[data-table='1']")
    ann.start()
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts", WAIT)
    cookies = {c["name"]: c for c in browser.get_cookies()}
    seat_cookie = next(c for n, c in cookies.items() if n.startswith("cartagena_seat_"))
    assert seat_cookie["httpOnly"] and seat_cookie["sameSite"] == "Strict"
    assert not browser.execute_script("return document.cookie.includes('cartagena_seat_')")
    played = guest_turns(browser, 3)
    # Reloaded in the middle: the same seat comes back, and the game goes on.
    browser.refresh()
    wait_for(browser, "document.body.dataset.screen === 'game'", "the seat back after a reload")
    # The screen reader's live region speaks the last move again, not every move the
    # catch-up carries (the page's log shows them all).
    wait_for(browser, "document.querySelectorAll('#event-log li.event').length > 1",
             "the recent moves in the log")
    spoken, lines = browser.execute_script(
        "return [document.getElementById('live').textContent, [...document.querySelectorAll("
        "'#event-log li.event')].map((li) => li.textContent).filter(Boolean)]")
    # the log lists the newest first; the live region says it in words ("from 3 to 5")
    assert spoken.removesuffix(" Your turn.") == said_aloud(lines[0]), (spoken, lines)
    played += guest_turns(browser, 3)
    # The browser's network cut, then back: the page reconnects to its seat.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    time.sleep(2.0)
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(browser, "document.getElementById('conn').textContent === 'live'",
             "the page live again", WAIT)
    played += guest_turns(browser, 10_000)
    ann.join(WAIT)
    assert ann.error is None, ann.error
    assert ann.outcome is not None and played >= 7
    text = browser.find_element(By.ID, "turn").text
    assert re.search(r"wins?!", text), text
    assert "Your turn" not in browser.title
    no_errors(browser)


@pytest.mark.parametrize("rules", [
    ["--rules", "tortuga"],
    # two pirates each: the sloop must still carry every pirate to the island, in a
    # game a third as long as with six
    ["--rules", "studiogiochi-2017", "-o", "story=whole", "-o", "pirates=2"],
    ["--rules", "studiogiochi-2017", "-o", "magic=true", "-o", "filibusters=true",
     "-o", "morgan=also"],
], ids=["tortuga", "whole-story", "magic-filibusters-morgan"])
def test_a_guest_plays_every_rule_mix_to_the_end(browser, host_process, rules):
    """Every action of these rules (sail and Captain, the powers' multi-step choices,
    discards owed out of turn, Morgan's pushes) is picked word by word on the page."""
    host = host_process("--players", "3", "--bots", "1", *rules, "--bot-delay", "0.05")
    viewport(browser, 1280, 800)
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.setItem('cartagena-name', 'zoe')")
    ann = TcpPlayer(host.port, players=3)
    browser.get(host.url + "play")
    wait_for(browser, "document.querySelector('#table-list button.sit[data-table=\"1\"]')",
             "the lobby lists the table")
    click_css(browser, "#table-list button.sit[data-table='1']")
    ann.start()
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts", WAIT)
    played = guest_turns(browser, 100_000)
    ann.join(WAIT)
    assert ann.error is None, ann.error
    assert ann.outcome is not None and played >= 3
    assert re.search(r"wins?!", browser.find_element(By.ID, "turn").text)
    no_errors(browser)


def test_a_guest_behind_the_host_password_opens_its_own_table_adds_a_bot_and_plays(
        browser, host_process):
    """The host asks for its password on the page; the guest then owns a table it made
    with the page's form, adds a bot and starts the game itself. --no-spectators closes
    watching, not the guests' seats."""
    host = host_process("--players", "2", "--bots", "2", "--password", "sesame",
                        "--no-spectators", "--bot-delay", "0.05")
    viewport(browser, 390, 844, True)
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    browser.find_element(By.ID, "name-input").send_keys("zoe")
    browser.find_element(By.ID, "name-go").click()
    wait_for(browser, "!document.getElementById('secret-form').hidden", "the password asked")
    browser.find_element(By.ID, "secret-input").send_keys("wrong")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "!document.getElementById('secret-form').hidden && "
             "/not right/.test(document.getElementById('secret-label').textContent)",
             "a wrong password said so")
    browser.find_element(By.ID, "secret-input").send_keys("sesame")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "document.body.dataset.screen === 'lobby' && "
             "document.querySelector('#new-rules option[value=\"jamaica\"]')", "the lobby")
    # Watching is closed on this host: the page says so, and nothing else changes.
    click_css(browser, "#table-list button.watch[data-table='1']")
    wait_for(browser, "/spectator/i.test(document.getElementById('notice').textContent)",
             "watching refused")
    players = browser.find_element(By.ID, "new-players")
    players.clear()
    players.send_keys("2")
    browser.find_element(By.ID, "new-go").click()
    wait_for(browser, "document.body.dataset.screen === 'waiting' && "
             "!document.getElementById('add-bot').hidden", "our own table, as its owner")
    browser.find_element(By.ID, "add-bot").click()
    wait_for(browser, "document.getElementById('add-bot').hidden", "the bot seated")
    browser.find_element(By.ID, "start").click()
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts")
    assert guest_turns(browser, 6) == 6  # (whole games are played in the tests above)
    no_errors(browser)


def step(driver, rng: random.Random) -> str:
    """One click for this guest if it may act: 'over', 'clicked' or 'wait'."""
    state = driver.execute_script("""
        if (/wins?!/.test(document.getElementById('turn').textContent)) return 'over';
        if (!document.getElementById('confirm-box').hidden) return 'confirm';
        return document.querySelectorAll('#choices .choice').length ? 'choose' : 'wait';""")
    if state == "choose":
        return "clicked" if click_choice(driver, rng) else "wait"
    if state == "confirm":
        return "clicked" if click_confirm(driver) else "wait"
    return state


def moves_by_player(url: str) -> dict[str, int]:
    """The actions each player made in the game the host at ``url`` kept (its record, as
    its replay page gets it), by the player's label ("zoe", or a bot's "name (kind)");
    waits for the record to be written."""
    deadline = time.monotonic() + WAIT
    while True:
        with urllib.request.urlopen(url + "games.json", timeout=10) as r:
            games = json.load(r)["games"]
        if games or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert len(games) == 1, games
    with urllib.request.urlopen(url + f"game/{games[0]['id']}.json", timeout=30) as r:
        rec = json.load(r)
    label = {p["seat"]: p["label"] for p in rec["players"]}
    counts = dict.fromkeys(label.values(), 0)
    for m in rec["moves"]:
        counts[label[m["seat"]]] += 1
    return counts


def test_two_browser_seats_at_phone_and_desktop_size_a_terminal_seat_and_two_bots(
        browser, host_process):
    host = host_process("--players", "5", "--bots", "2", "-o", "segments=3",
                        "-o", "pirates=3", "--bot-delay", "0.05")
    with browser_session() as second:
        viewport(browser, 390, 844, True)
        viewport(second, 1280, 800)
        ann = TcpPlayer(host.port, players=5)
        for driver, name in ((browser, "zoe"), (second, "max")):
            driver.delete_all_cookies()
            driver.get(host.url + "play")
            driver.execute_script(f"localStorage.setItem('cartagena-name', '{name}')")
            driver.get(host.url + "play")
            wait_for(driver, "document.querySelector('#table-list button.sit[data-table=\"1\"]')"
                     " && !document.querySelector('#table-list button.sit[data-table=\"1\"]').disabled",
                     "a free seat listed")
            click_css(driver, "#table-list button.sit[data-table='1']")
            wait_for(driver, "document.body.dataset.screen === 'waiting'", "seated")
        ann.start()
        rng = random.Random(9)
        clicks = {"zoe": 0, "max": 0}
        deadline = time.monotonic() + 400
        over = set()
        while len(over) < 2 and time.monotonic() < deadline:
            idle = True
            for driver, name in ((browser, "zoe"), (second, "max")):
                if name in over:
                    continue
                got = step(driver, rng)
                if got == "over":
                    over.add(name)
                elif got == "clicked":
                    clicks[name] += 1
                    idle = False
            if idle:
                time.sleep(0.05)
        assert over == {"zoe", "max"}, clicks
        ann.join(WAIT)
        assert ann.error is None and ann.outcome is not None
        # Every action of each guest's seat came from a click on its page (none from a
        # bot standing in for a guest whose page stopped offering its turn), and each
        # had turns (how many depends on the deal and on the other seats).
        made = moves_by_player(host.url)
        assert made["zoe"] >= 1 and made["max"] >= 1, made
        assert clicks["zoe"] >= made["zoe"] and clicks["max"] >= made["max"], (clicks, made)
        for driver in (browser, second):
            no_errors(driver)
