"""The little steps of a guest's evening on /play: a notice that stops being true goes; a
password host asks its password alone (no name form, no empty lobby under it) and the
name form never becomes a dead button; a reload goes straight back to the game (no
lobby or waiting room on the way); the game's end shows the final standings; the tab's
title says "Your turn" only while the seat is ours."""
from __future__ import annotations

import random
import re

from selenium.webdriver.common.by import By

from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_phone import (
    QUICK,
    SIZES,
    guest_page,
    new_table,
    play_to_end,
)
from tests.web.test_browser_seats import click_css, wait_for_page

# Every screen the page shows from its first script on, in order (installed before the
# page's own scripts run, so nothing it shows is missed).
SCREENS = """
window.__screens = [];
new MutationObserver(() => {
  const s = document.body && document.body.dataset.screen;
  if (s && window.__screens[window.__screens.length - 1] !== s) window.__screens.push(s);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-screen', 'hidden']});
"""


def shown(driver, element_id: str) -> bool:
    return driver.execute_script(
        "const e = document.getElementById(arguments[0]); return !!e && !e.hidden && "
        "e.getClientRects().length > 0", element_id)


def test_the_seats_empty_notice_goes_once_the_bots_sit(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url, size=SIZES[2])
    new_table(browser, "jamaica", 3, {"segments": 2, "pirates": 1})
    click_css(browser, "#start:not([hidden])", "Start, two seats still empty")
    wait_for(browser, "!document.getElementById('notice').hidden && "
             "/empty/.test(document.getElementById('notice').textContent)", "the seats-empty refusal")
    click_css(browser, "#add-bot:not([hidden])", "Add a bot")
    wait_for(browser, "[...document.querySelectorAll('#seat-list .player')].filter((li) => / bot/.test(li.textContent)).length === 1",
             "a bot seated")
    assert shown(browser, "notice")  # a seat is still empty: still true
    click_css(browser, "#add-bot:not([hidden])", "Add a bot")
    wait_for(browser, "document.getElementById('add-bot').hidden", "every seat taken")
    wait_for(browser, "document.getElementById('notice').hidden", "the notice gone")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
    no_errors(browser)


def test_a_password_host_asks_it_alone_and_the_name_form_never_stays(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--password", "sesame", *QUICK)
    viewport(browser, *SIZES[0])
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    wait_for(browser, "document.body.dataset.screen === 'name'", "the name asked first")
    browser.find_element(By.ID, "name-input").send_keys("zoe")
    browser.find_element(By.ID, "name-go").click()
    wait_for(browser, "!document.getElementById('secret-form').hidden", "the password asked")
    assert not shown(browser, "name-form") and not shown(browser, "lobby")
    browser.find_element(By.ID, "secret-input").send_keys("wrong")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "!document.getElementById('secret-form').hidden && "
             "/not right/.test(document.getElementById('secret-label').textContent)",
             "the wrong password said so")
    assert not shown(browser, "name-form") and not shown(browser, "lobby")
    assert "No table yet" not in browser.find_element(By.TAG_NAME, "body").text
    browser.find_element(By.ID, "secret-input").send_keys("sesame")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "document.body.dataset.screen === 'lobby' && "
             "document.querySelector('#table-list li.table-item')", "the lobby with its table")
    # A saved name: the password alone again, over no lobby.
    browser.delete_all_cookies()
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SCREENS})
    browser.get(host.url + "play")
    wait_for(browser, "!document.getElementById('secret-form').hidden", "the password asked")
    assert not shown(browser, "lobby") and not shown(browser, "name-form")
    assert "lobby" not in browser.execute_script("return window.__screens")
    no_errors(browser)


def test_a_reload_goes_straight_to_the_game_whose_end_shows_the_standings(browser, host_process):
    host = host_process("--players", "2", "--bots", "1", "-o", "segments=2", "-o", "pirates=2",
                        *QUICK)
    guest_page(browser, host.url, name="ann", size=SIZES[2])
    click_css(browser, "#table-list button.sit[data-table='1']", "Take a seat")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn")
    assert "Your turn" in browser.title
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SCREENS})
    browser.refresh()
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn again")
    screens = browser.execute_script("return window.__screens")
    assert "lobby" not in screens and "waiting" not in screens, screens
    assert play_to_end(browser, random.Random(3), [SIZES[2]]) >= 1
    wait_for(browser, "!document.getElementById('standings').hidden", "the final standings")
    ranks = browser.execute_script(
        "return [...document.querySelectorAll('#standings-list li')].map((li) => li.textContent)")
    winner = browser.find_element(By.ID, "turn").text
    assert len(ranks) == 2, ranks
    first = ranks[0].split(" · ")[0]
    assert ("You win" in winner) == ("(you)" in first), (winner, ranks)
    assert all(re.search(r" \d/\d in the (boat|sloop|cove|rowboat)", r) for r in ranks), ranks
    # Play again; at our turn the title says so, and no longer once we left the seat.
    click_css(browser, "#again:not([hidden])", "Play again")
    wait_for_page(browser, "document.getElementById('end-box').hidden && "
                           "document.querySelectorAll('#choices .choice').length", "our turn")
    wait_for(browser, "/Your turn/.test(document.title)", "the title says it is our turn")
    click_css(browser, "#game-leave", "Leave")
    click_css(browser, "#leave-yes", "Leave, confirmed")
    wait_for(browser, "document.body.dataset.screen === 'lobby'", "the lobby")
    assert "Your turn" not in browser.title
    no_errors(browser)


def test_the_owner_adds_a_hard_and_a_normal_bot_from_the_bot_choice(browser, host_process):
    """The waiting room's bot choice (44x44 px at least, like the button beside it) offers
    the host's level, easy, normal, hard and random in words; the seats name each level."""
    from selenium.webdriver.support.ui import Select

    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url, size=SIZES[0])
    new_table(browser, "jamaica", 3, {"segments": 2, "pirates": 1})
    wait_for(browser, "!document.getElementById('bot-level').hidden", "the bot choice")
    choice = Select(browser.find_element(By.ID, "bot-level"))
    assert [o.text for o in choice.options] == [
        "the host's level", "greedy bot, easy", "thinking bot, normal",
        "thinking bot, hard", "random bot"]
    for element_id in ("bot-level", "add-bot"):
        box = browser.find_element(By.ID, element_id).rect
        assert box["width"] >= 44 and box["height"] >= 44, (element_id, box)
    for level in ("hard", "normal"):
        choice.select_by_value(level)
        click_css(browser, "#add-bot:not([hidden])", f"Add a {level} bot")
        wait_for(browser, "[...document.querySelectorAll('#seat-list .player')].some((li) => "
                 f"li.textContent.includes('thinking bot, {level}'))", f"the {level} bot seated")
    wait_for(browser, "document.getElementById('bot-level').hidden", "every seat taken")
    seats = browser.find_element(By.ID, "seat-list").text
    assert "ismcts" not in seats and "thinking bot, hard" in seats
    no_errors(browser)
