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
    powered = False
    for _ in range(6):
        if not powered and browser.execute_script(
                "const b = document.querySelector('#choices .choice[data-word=\"power\"]');"
                "if (b) b.click(); return !!b;"):
            powered = True  # the powers' screen: which power, then its choices
            clean(browser, "/play, the powers' choices")
            if click_choice(browser, rng):
                clean(browser, "/play, a power's next choice")
            browser.execute_script("document.getElementById('back').click()")
        if click_choice(browser, rng):
            clean(browser, "/play, a choice in the game")
        heard.add(live_text(browser))
        guest_turns(browser, 1)
        heard.add(live_text(browser))
    assert powered, "no power was offered in six turns"
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
    wait_for(browser, "/wins?!/.test(document.getElementById('turn').textContent)", "the end")
    clean(browser, "/play, the game over")
    browser.get(host.url + "table/1")
    wait_for(browser, "document.querySelectorAll('#event-log li').length > 0", "the events")
    clean(browser, "/table/1 after the game")
    browser.get(host.url)
    wait_for(browser, "document.readyState === 'complete'", "the TV page")
    clean(browser, "/ after the game")
    no_errors(browser)


def test_axe_finds_nothing_serious_on_the_replay_page(browser, tmp_path):
    from tests.twisted_loop import run, stop_host
    from tests.web.test_replay import in_a_thread, reviewed_game

    host, rec = reviewed_game(tmp_path / "records", players=2, segments=1, seed=2)

    def check():
        browser.set_script_timeout(60)
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/")
        wait_for(browser, f"document.querySelector('#games [data-game=\"{rec['id']}\"] a')",
                 "the finished game listed")
        clean(browser, "/ with a finished game")
        browser.find_element(By.CSS_SELECTOR, f"#games [data-game='{rec['id']}'] a").click()
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
        clean(browser, "the replay page, at the deal")
        browser.find_element(By.ID, "last").click()
        wait_for(browser, f"document.body.dataset.pos === '{len(rec['moves'])}'", "the end")
        clean(browser, "the replay page, at the end")
        no_errors(browser)

    try:
        run(in_a_thread(check), timeout=120)
    finally:
        run(stop_host(host))


def test_a_whole_game_through_play_with_the_keyboard_alone(browser, host_process):
    """Tab to a move's button and press Enter, Tab to Confirm and press Enter: no mouse,
    no script clicking, from the name form to the game's end."""
    import time

    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    host = host_process("--players", "2", "--bots", "1", "-o", "segments=1", "-o",
                        "pirates=2", "--bot-delay", "0.05", "--no-records")
    viewport(browser, 1280, 800)
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    keys = ActionChains(browser)

    def press(*what: str) -> None:
        for k in what:
            keys.send_keys(k)
        keys.perform()

    def focus_to(script: str, what: str, tabs: int = 120) -> None:
        """Tab until the focused element passes ``script`` (given ``a``, the element)."""
        for _ in range(tabs):
            press(Keys.TAB)
            if browser.execute_script(f"const a = document.activeElement; return !!a && ({script})"):
                return
        raise AssertionError(f"Tab never reached {what}")

    wait_for(browser, "!!document.getElementById('name-input')", "the name form")
    focus_to("a.id === 'name-input'", "the name field")
    press("zoe", Keys.ENTER)
    wait_for(browser, "document.querySelector('#table-list button.sit[data-table=\"1\"]')",
             "the lobby lists the table")
    focus_to("a.matches('#table-list button.sit')", "the table's Sit button")
    press(Keys.ENTER)
    wait_for(browser, "!document.getElementById('start').hidden", "the waiting room")
    focus_to("a.id === 'start'", "Start")
    press(Keys.ENTER)
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts", WAIT)
    deadline = time.monotonic() + 180  # generous: about 3 s here, a loaded machine too
    played = missed = 0
    while not browser.execute_script(
            "return /wins?!/.test(document.getElementById('turn').textContent)"):
        assert time.monotonic() < deadline, "the game did not end: " + browser.execute_script(
            "const a = document.activeElement;"
            "return JSON.stringify({turn: document.getElementById('turn').textContent,"
            " confirm: !document.getElementById('confirm-box').hidden,"
            " choices: [...document.querySelectorAll('#choices .choice')].map("
            "   c => [c.textContent, c.disabled, c.tabIndex]),"
            " focused: a ? a.outerHTML.slice(0, 200) : null,"
            " focusable: document.querySelectorAll('button:not([disabled]), a[href],"
            "   input, select, [tabindex]').length})") + f" played {played} missed {missed}"
        ready = browser.execute_script(
            "return !document.getElementById('confirm-box').hidden ? 'confirm' : "
            "document.querySelectorAll('#choices .choice').length ? 'choice' : ''")
        if not ready:
            time.sleep(0.1)
            continue
        try:
            focus_to("a.id === 'confirm' || a.classList.contains('choice')", "a move", 60)
        except AssertionError:
            missed += 1
            continue  # the page changed under the keys: look again
        confirming = browser.execute_script("return document.activeElement.id") == "confirm"
        press(Keys.ENTER)
        played += confirming
        time.sleep(0.05)
    assert played >= 2
    assert "zoe" in browser.find_element(By.ID, "event-log").text
    no_errors(browser)
