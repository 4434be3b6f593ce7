"""axe-core on every page and screen, in headless Chromium against a real host: the TV
page (/), a table's page (/table/N), /play (the name form, the lobby, the waiting room,
the game, a power's choices, the game over) and the replay page. No serious or critical
finding; the game screen's live region speaks each move as it happens, and the turn."""
from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.axe import violations
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_seats import click_choice, click_css, guest_turns

WAIT = 60


def clean(driver, where: str) -> None:
    found = violations(driver)
    assert found == [], f"{where}: " + "\n".join(found)


def live_text(driver) -> str:
    return driver.execute_script("return document.getElementById('live').textContent")


def test_axe_finds_nothing_serious_on_the_pages_and_the_live_region_speaks(
        browser, host_process):
    import random

    host = host_process("--players", "2", "--bots", "1", "--rules", "studiogiochi-2017",
                        "-o", "magic=true", "-o", "segments=4", "-o", "pirates=2",
                        "--bot-delay", "0.3", "--no-records")
    browser.set_script_timeout(60)
    viewport(browser, 1280, 800)
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    wait_for(browser, "!!document.getElementById('name-input')", "the name form")
    clean(browser, "/play, the name form")
    assert browser.execute_script("return document.querySelectorAll('main').length") == 1
    browser.find_element(By.ID, "name-input").send_keys("zoe")
    browser.find_element(By.ID, "name-go").click()
    wait_for(browser, "document.querySelector('#table-list button.sit[data-table=\"1\"]')",
             "the lobby lists the table")
    clean(browser, "/play, the lobby")
    click_css(browser, "#table-list button.sit[data-table='1']")
    wait_for(browser, "!document.getElementById('waiting').hidden", "the waiting room")
    clean(browser, "/play, the waiting room")
    click_css(browser, "#start")
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts", WAIT)
    wait_for(browser, "document.getElementById('live').textContent !== ''", "the live region")
    clean(browser, "/play, the game")
    heard = {live_text(browser)}
    rng = random.Random(4)
    # a power's choices (the Black Magic Woman): its buttons named like every other
    powers = browser.execute_script(
        "return [...document.querySelectorAll('#choices .choice')].map((b) => b.textContent)")
    assert all(p.strip() for p in powers)
    for _ in range(6):
        if click_choice(browser, rng):
            clean(browser, "/play, a choice in the game")
        heard.add(live_text(browser))
        guest_turns(browser, 1)
        heard.add(live_text(browser))
    assert len(heard) >= 3, heard  # it changed as the moves happened
    assert any("Your turn" in h for h in heard), heard
    # the TV page and the table's page while the game is on
    browser.execute_script("window.open(arguments[0], 'tv')", host.url)
    browser.switch_to.window("tv")
    wait_for(browser, "!!document.querySelector('#tables li, #tables a, .table')",
             "the TV page's tables", WAIT)
    clean(browser, "/ during a game")
    browser.get(host.url + "table/1")
    wait_for(browser, "document.querySelectorAll('#event-log li').length > 0", "the events")
    clean(browser, "/table/1 during a game")
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    guest_turns(browser, 100_000)
    wait_for(browser, "/wins!/.test(document.getElementById('turn').textContent)", "the end")
    clean(browser, "/play, the game over")
    browser.get(host.url + "table/1")
    wait_for(browser, "document.querySelectorAll('#event-log li').length > 0", "the events")
    clean(browser, "/table/1 after the game")
    browser.get(host.url)
    wait_for(browser, "document.readyState === 'complete'", "the TV page")
    clean(browser, "/ after the game")
    no_errors(browser)
