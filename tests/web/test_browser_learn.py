"""Learning at the table in headless Chromium: the TV page shows each seat's chance of
winning, changing as a bots-only game goes on; a guest at a hints table presses Hint and
sees the bot's move previewed with its reason in the screen's words, played only when
confirmed."""
from __future__ import annotations

import json

from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_seats import click_css, wait_for_page

WAIT = 90

CHANCES = """return [...document.querySelectorAll('#chances li.chance')].map(
    (li) => Number(li.dataset.chance));"""


def test_the_tv_page_shows_chances_that_change_as_a_bots_game_goes_on(browser, host_process):
    host = host_process("--players", "4", "--bots", "4", "--bot-delay", "0.3")
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    wait_for(browser, "!document.getElementById('chances-panel').hidden", "the chances", WAIT)
    first = browser.execute_script(CHANCES)
    assert len(first) == 4 and abs(sum(first) - 1) < 0.01
    assert all(0 < p < 1 for p in first)
    texts = browser.execute_script(
        "return [...document.querySelectorAll('#chances .chance-pct')].map((x) => x.textContent)")
    assert all(t.endswith("%") for t in texts)
    wait_for(browser, "(() => { const v = [...document.querySelectorAll('#chances li.chance')]"
             ".map((li) => Number(li.dataset.chance)); "
             f"const was = {json.dumps(first)}; "
             "return v.length === was.length && v.some((x, i) => Math.abs(x - was[i]) > 1e-6); })()",
             "the chances to change as the game goes on", WAIT)
    wait_for(browser, "document.querySelectorAll('#chances .chances-curve polyline').length === 4",
             "the curve over the game", WAIT)
    later = browser.execute_script(CHANCES)
    assert len(later) == 4 and abs(sum(later) - 1) < 0.01
    no_errors(browser)


def test_a_guest_at_a_hints_table_asks_and_sees_the_bots_move_previewed(browser, host_process):
    host = host_process("--players", "2", "--bots", "1", "--hints", "--bot-delay", "0.05",
                        "-o", "segments=2")
    viewport(browser, 390, 844, True)
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear(); localStorage.setItem('cartagena-name', 'zoe')")
    browser.get(host.url + "play")
    wait_for(browser, "document.querySelector('#table-list li[data-table=\"1\"]')",
             "the lobby lists the table")
    assert "hints" in browser.execute_script(
        "return document.querySelector('#table-list li[data-table=\"1\"]').textContent")
    click_css(browser, "#table-list button.sit[data-table='1']")
    wait_for_page(browser, "document.body.dataset.screen === 'waiting' && "
                           "!document.getElementById('start').hidden", "the owner's Start")
    click_css(browser, "#start", "the owner starts the game")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "!document.getElementById('hint-box').hidden && "
                           "!document.getElementById('hint').disabled",
                  "the guest's turn, with the Hint button", WAIT)
    seq = browser.execute_script("return document.body.dataset.seq")
    browser.find_element("id", "hint").click()
    wait_for_page(browser, "!document.getElementById('hint-reason').hidden",
                  "the hint's reason", WAIT)
    shown = browser.execute_script("""return {
        reason: document.getElementById('hint-reason').textContent,
        preview: document.getElementById('preview').textContent,
        picked: document.body.dataset.prefix,
        confirm: !document.getElementById('confirm-box').hidden,
        seq: document.body.dataset.seq};""")
    assert shown["reason"].startswith("Hint: ")
    said = shown["reason"][len("Hint: "):]  # the move in the screen's words, no notation
    words = shown["picked"].split()
    assert words[0] in ("advance", "retreat", "end") and not said.startswith(words[0])
    assert "points" not in said and shown["picked"] not in said
    if words[0] == "advance":
        assert said.startswith(f"play the {words[2]}: your pirate ")
    assert shown["confirm"] and shown["preview"]  # previewed, as if picked...
    assert shown["seq"] == seq  # ... not played
    browser.find_element("id", "confirm").click()  # Confirm plays it
    wait_for_page(browser, f"document.body.dataset.seq !== '{seq}'", "the hinted move played")
    no_errors(browser)
