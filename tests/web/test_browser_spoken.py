"""The pages for a keyboard and a screen reader, in headless Chromium against a real
host (an outside tester's findings): on /play the keyboard goes on to the next choice
after each step of a move (never back to the top of the page); the live regions speak
moves in words, never an arrow ("from start to 3"), and a move taken back as one; the
choice buttons are named in words ("1: dagger, lands on 4"), not "1d dagger→ 4"; the
replay and the TV page have a polite live region that says the action just shown, not
the whole log; the TV pages' links and language switch are a thumb's size."""
from __future__ import annotations

import re
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.web.conftest import browser_session
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_phone import guest_page, record_ids
from tests.web.test_browser_seats import click_css, wait_for_page
from tests.web.test_browser_seats import said_aloud as spoken

WAIT = 60
ARROW = "→"

# What the keyboard is on: the focused element, and where it should be after a step.
FOCUS = """
const a = document.activeElement;
const first = document.querySelector('#choices .choice');
const confirm = !document.getElementById('confirm-box').hidden ? document.getElementById('confirm') : null;
return {tag: a ? a.tagName : null, id: a ? a.id : null, word: a && a.dataset ? a.dataset.word || null : null,
        next: a === (first || confirm || document.getElementById('doing')),
        prefix: document.body.dataset.prefix, seq: document.body.dataset.seq,
        live: document.getElementById('live').textContent};"""


def check_names(driver) -> list[str]:
    """Every choice button's accessible name (Chromium's own computation): in words, its
    key's digit then a colon, no arrow, no letter badge or chip glued to a word; a card
    said by its name and where it lands. (Read again if the buttons are drawn again
    under the reading.)"""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(5):
        try:
            return read_names(driver)
        except StaleElementReferenceException:
            time.sleep(0.05)
    return read_names(driver)


def read_names(driver) -> list[str]:
    names = []
    for i, b in enumerate(driver.find_elements(By.CSS_SELECTOR, "#choices .choice")):
        name, word, kind = b.accessible_name, b.get_attribute("data-word"), b.get_attribute("data-kind")
        names.append(name)
        assert ARROW not in name and "·" not in name, name
        if i < 9:
            assert name.startswith(f"{i + 1}: ") and name[len(f"{i + 1}: "):][:1].strip(), name
        if kind == "card" and not word.endswith("*"):
            assert re.fullmatch(rf"{i + 1}: {word}(, lands (on \d+|in the \w+))?", name), name
        if kind == "verb" and word in ("advance", "retreat"):
            assert name == f"{i + 1}: {word}", name
        if kind == "pos":
            assert re.fullmatch(rf"{i + 1}: your pirate( \d)? (on \d+( \(\w+\))?|at the \w+)(, lands (on \d+|in the \w+))?", name), name
    return names


def test_play_the_keyboard_goes_on_to_each_next_choice_and_the_page_speaks_words(
        browser, host_process):
    """Tab to the first move's button, then Enter alone plays: after each word picked the
    keyboard is on the next step's first choice (or Confirm, the move described to it),
    after Confirm on the next action's first choice or on the question, one Tab from the
    first choice. The buttons are named in words, the live region speaks moves in words."""
    host = host_process("--players", "2", "--bots", "1", "-o", "segments=2", "-o", "pirates=2",
                        "--bot-delay", "0.05", "--no-records")
    guest_page(browser, host.url, size=(1280, 800, False))
    click_css(browser, "#table-list button.sit[data-table='1']")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn")
    keys = ActionChains(browser)

    def press(key: str) -> None:
        keys.send_keys(key).perform()

    for _ in range(80):  # Tab from the top of the page to the first move, as a person does
        press(Keys.TAB)
        if browser.execute_script("return document.activeElement.matches('#choices .choice')"):
            break
    else:
        raise AssertionError("Tab never reached a move")
    confirmed = steps = 0
    heard: list[str] = []
    names: list[str] = []
    deadline = time.monotonic() + 120
    while confirmed < 5:
        assert time.monotonic() < deadline, browser.execute_script(FOCUS)
        if browser.execute_script("return /wins?!/.test(document.getElementById('turn').textContent)"):
            break
        at = browser.execute_script(FOCUS)
        assert at["tag"] != "BODY", ("the keyboard is lost", at)
        if at["id"] == "doing":
            # the question, between turns: one Tab is the first move, once there is one
            if not browser.execute_script("return document.querySelectorAll('#choices .choice').length"):
                time.sleep(0.05)
                continue
            press(Keys.TAB)
            at = browser.execute_script(FOCUS)
            assert at["word"] is not None and at["next"], ("one Tab from the question", at)
        assert at["word"] is not None or at["id"] == "confirm", at
        names += check_names(browser)
        press(Keys.ENTER)
        steps += 1
        if at["id"] == "confirm":
            wait_for_page(browser, f"document.body.dataset.seq !== {at['seq']!r}", "the action's new state")
            confirmed += 1
        else:
            wait_for_page(browser, f"document.body.dataset.prefix !== {at['prefix']!r} || "
                                   f"document.body.dataset.seq !== {at['seq']!r}", "the word picked")
        wait_for(browser, "document.activeElement !== document.body", "the keyboard on the next step", 5)
        after = browser.execute_script(FOCUS)
        # (after Confirm, the question may already have the next turn's moves under it:
        # the bots play fast, and the keyboard stays where it was put)
        step = "Confirm" if at["id"] == "confirm" else "a word"
        assert after["next"] or (at["id"] == "confirm" and after["id"] == "doing"), (
            (f"after {step}, the keyboard is not on the next choice, Confirm or the "
            "question"), at, after)
        heard.append(after["live"])
    assert confirmed >= 3 and steps > confirmed, (confirmed, steps)
    assert any(re.match(r"1: (advance|retreat)$", n) for n in names), names
    # The live region: moves in words, never an arrow.
    assert not [h for h in heard if ARROW in h], heard
    assert any(re.search(r" from (start|\d+) to (\d+|boat)\b", h) for h in heard), heard
    # The choices are a group named by their question; Confirm is described by the move.
    assert browser.find_element(By.ID, "choices").get_attribute("aria-labelledby") == "doing"
    assert browser.find_element(By.ID, "confirm").get_attribute("aria-describedby") == "preview"
    no_errors(browser)


EVENTS = """
const view = {seats: [{seat: 0, color: 'red'}, {seat: 1, color: 'blue'}], boat: 13,
              start_name: 'start', goal_name: 'boat', board: [], symbols: []};
const who = (s) => ['zoe', 'ann'][s];
const events = [
  {type: 'advance', seat: 0, card: 'hat', from: 0, to: 3},
  {type: 'retreat', seat: 0, from: 11, to: 6, cards: ['hat']},
  {type: 'undo', action: 'advance', seat: 0, card: 'hat', from: 0, to: 3},
  {type: 'morgan', seat: 0, owner: 1, from: 4, to: 7, drawn: 1},
  {type: 'advance', seat: 1, card: 'skull', from: 9, to: 13},
  {type: 'no such kind', text: 'zoe does 1 → 2'},
];
return [events.map((e) => Cartagena.eventSpoken(e, view, who)), events.map((e) => Cartagena.eventLine(e, view, who)),
        Cartagena.spokenText(['zoe plays hat: from start to 3', 'Your turn', 'zoe wins!'])];"""


def test_an_event_said_aloud_reads_from_and_to_and_a_move_taken_back_as_one(
        browser, host_process):
    """The live regions' sentences (i18n.js eventSpoken): the engine's templates with
    "{frm} → {to}" said "from {frm} to {to}" (the terminal's screen-reader mode's words),
    in English and in Swedish; the log's lines keep their arrows."""
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.5", "--no-records")
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    wait_for(browser, "!!(window.Cartagena && Cartagena.eventSpoken)", "the page's words")
    said, shown, joined = browser.execute_script(EVENTS)
    assert said == [
        "zoe plays hat: from start to 3",
        "zoe retreats from 11 to 6 and draws hat",
        ("zoe takes back the hat: the pirate goes back from 3 to start, and the hat returns "
        "to the hand"),
        "zoe moves ann's pirate from 4 to 7 and draws 1 card",
        "ann plays skull: from 9 to boat",
        "zoe does 1 to 2",
    ], said
    assert shown[0] == "zoe plays hat: start → 3" and shown[2] == "zoe takes back: start → 3 (hat)", shown
    assert joined == "zoe plays hat: from start to 3. Your turn. zoe wins!"
    with browser_session("sv-SE") as sv:
        sv.get(host.url + "table/1")
        wait_for(sv, "!!(window.Cartagena && Cartagena.eventSpoken)", "the page's words")
        said_sv, shown_sv, _ = sv.execute_script(EVENTS)
        assert not [s for s in said_sv if ARROW in s], said_sv
        assert "från start till 3" in said_sv[0] and "från 11 till 6" in said_sv[1], said_sv
        assert ARROW in shown_sv[0], shown_sv


def test_the_replay_says_each_action_it_shows_in_a_polite_live_region(browser, tmp_path):
    from tests.twisted_loop import run, stop_host
    from tests.web.test_replay import in_a_thread, reviewed_game

    host, rec = reviewed_game(tmp_path / "records", players=2, segments=1, seed=2)
    last = len(rec["moves"])

    def recent(driver) -> list[str]:
        """The log's lines of the action shown, oldest first (the log is newest first)."""
        return driver.execute_script(
            "return [...document.querySelectorAll('#event-log li.recent')].map((li) => li.textContent).reverse()")

    def live(driver) -> str:
        return driver.execute_script("return document.getElementById('live').textContent")

    def check():
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/game/{rec['id']}")
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
        region = browser.find_element(By.ID, "live")
        assert region.get_attribute("aria-live") == "polite"
        assert live(browser) == ""  # nothing said before a step
        browser.find_element(By.ID, "forward").click()
        wait_for(browser, "document.body.dataset.pos === '1'", "the first action")
        lines = recent(browser)
        assert lines and live(browser) == " ".join(spoken(x) for x in lines), (live(browser), lines)
        for _ in range(3):  # each step says its own action, not the log
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait_for(browser, "document.body.dataset.pos === '4'", "the fourth action")
        lines, log = recent(browser), browser.execute_script(
            "return document.querySelectorAll('#event-log li').length")
        assert live(browser) == " ".join(spoken(x) for x in lines) and log > len(lines), (live(browser), lines)
        browser.find_element(By.ID, "last").click()
        wait_for(browser, f"document.body.dataset.pos === '{last}'", "the end")
        assert ARROW not in live(browser) and "wins" in live(browser), live(browser)
        browser.find_element(By.ID, "first").click()
        wait_for(browser, "document.body.dataset.pos === '0'", "the deal")
        assert re.fullmatch(r"the deal\. p[01] to play\.", live(browser)), live(browser)
        no_errors(browser)

    try:
        run(in_a_thread(check), timeout=120)
    finally:
        run(stop_host(host))


# The TV's live region and the line above the board, read at once.
TV_SAID = """(() => {
const line = document.getElementById('last-move');
return {live: document.getElementById('live').textContent,
        line: line.dataset.empty ? '' : line.lastChild.textContent, seq: document.body.dataset.seq,
        log: [...document.querySelectorAll('#event-log li')].map((li) => li.textContent)};
})()"""


def test_the_tv_says_each_new_move_and_after_a_reload_only_the_newest(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "1.2", "--no-records")
    viewport(browser, 1280, 720)
    browser.get(host.url + "table/1")
    assert browser.find_element(By.ID, "live").get_attribute("aria-live") == "polite"
    wait_for(browser, "document.querySelectorAll('#event-log li').length >= 6", "a few moves", WAIT)
    browser.refresh()
    got = wait_for(browser, f"document.getElementById('live').textContent && {TV_SAID}",
                   "the live region after a reload")
    # One sentence, the newest move's (as the line above the board), not the whole log.
    assert got["live"] == spoken(got["line"]), got
    assert len(got["log"]) >= 6 and not any(spoken(x) in got["live"] for x in got["log"][3:]), got
    assert ARROW not in got["live"]
    # The next state: its moves said as they happen, in words.
    wait_for(browser, f"document.body.dataset.seq !== {got['seq']!r} && "
                      f"document.getElementById('live').textContent !== {got['live']!r}", "the next move", WAIT)
    now = browser.execute_script(f"return {TV_SAID}")
    assert ARROW not in now["live"] and now["live"].strip(), now
    no_errors(browser)


TARGETS = """
return [...document.querySelectorAll(arguments[0])].filter((e) => e.getClientRects().length).map((e) => {
  const r = e.getBoundingClientRect();
  return [e.id || e.className, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10];
});"""


def test_the_tv_pages_links_and_language_switch_are_a_thumbs_size(browser, host_process):
    """/table/N's "all tables" link and language switch, and /'s play link, tables' and
    games' links: 44 CSS px high at least (the link back 44 wide too), on a TV and a phone."""
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0", "-o", "segments=1",
                        "-o", "pirates=1")
    record_ids(host.url)  # a finished game, listed on /
    sizes = ((1920, 1080, False), (1280, 720, False), (390, 844, True))
    viewport(browser, *sizes[0])
    browser.get(host.url + "table/1")
    wait_for(browser, "document.readyState === 'complete' && document.getElementById('lang')", "the switch")
    for size in sizes:  # the window made each size in turn: the page's own CSS, no reload
        viewport(browser, *size)
        time.sleep(0.3)
        found = browser.execute_script(TARGETS, "#bar .back, #lang")
        assert len(found) == 2, found
        small = [f for f in found if f[2] < 44 or (f[0] == "back" and f[1] < 44)]
        assert not small, (size, small)
    viewport(browser, *sizes[0])
    browser.get(host.url)
    wait_for(browser, "document.querySelector('#tables .table-link') && document.querySelector('#games .game-link')",
             "the tables and the finished games")
    for size in sizes:
        viewport(browser, *size)
        time.sleep(0.3)
        found = browser.execute_script(TARGETS, "#play-link, .table-link, .game-link, #lang")
        assert {f[0] for f in found} >= {"play-link", "table-link", "game-link"}, found
        small = [f for f in found if f[2] < 44]
        assert not small, (size, small)
    no_errors(browser)


IN_MOVE = """(() => { const a = document.activeElement;
  return !!a && (a.id === 'doing' || a.matches('#choices .choice') || a.id === 'confirm'); })()"""


def test_play_the_keyboard_comes_to_the_game_when_it_starts_and_to_take_back_a_moved_seat(
        browser, host_process):
    """Start (a button that then hides) leaves the keyboard on the game: the question or
    the first move, never the page itself; a second tab of the same browser takes the
    seat, and the first one's keyboard is on "Take it back here", described by why; taken
    back, the keyboard is on the game again."""
    host = host_process("--players", "2", "--bots", "1", "-o", "segments=2", "-o", "pirates=2",
                        "--bot-delay", "0.3", "--no-records")
    guest_page(browser, host.url, size=(390, 844, True))
    click_css(browser, "#table-list button.sit[data-table='1']")
    wait_for_page(browser, "!document.getElementById('start').hidden", "the Start button")
    browser.find_element(By.ID, "start").send_keys(Keys.ENTER)  # by the keyboard
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
    wait_for(browser, IN_MOVE, "the keyboard on the game", 10)
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(host.url + "play")
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game, in tab 2")
    wait_for(browser, IN_MOVE, "tab 2's keyboard on the game", 10)
    browser.close()
    browser.switch_to.window(first)
    wait_for(browser, "document.body.dataset.screen === 'moved' && "
                      "document.activeElement.id === 'take-back'", "the moved tab's keyboard", 10)
    name = browser.find_element(By.ID, "take-back")
    assert name.accessible_name == "Take it back here"
    assert "another tab" in browser.execute_script(
        "return [...document.getElementById('take-back').getAttribute('aria-describedby')"
        ".split(' ')].map((i) => document.getElementById(i).textContent).join(' ')")
    name.send_keys(Keys.ENTER)
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the seat taken back")
    wait_for(browser, IN_MOVE, "the keyboard on the game again", 10)
    no_errors(browser)
