"""The web view in headless Chromium, on a real host playing a bot game."""
from __future__ import annotations

import base64

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.web.png import colours, decode

WAIT = 45


def viewport(driver, width: int, height: int, mobile: bool = False) -> None:
    driver.get_log("browser")  # start each page with an empty console log
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    # A phone has a touch screen (and a coarse pointer), a desktop a mouse.
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {
        "enabled": mobile, "maxTouchPoints": 5 if mobile else 1})


def wait_for(driver, script: str, what: str, timeout: float = WAIT):
    """Wait until the JavaScript expression is truthy; return its value."""
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(
        lambda d: d.execute_script("return " + script), message=what)


def board_ready(driver) -> None:
    wait_for(driver, "document.querySelectorAll('#board .place').length > 10", "the board is drawn")


def no_errors(driver) -> None:
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def test_live_board_players_and_turn_change_without_reload(browser, host_process):
    host = host_process("--players", "4", "--bots", "4", "--bot-delay", "0.4")
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    board_ready(browser)
    page = browser.execute_script("""
        const q = (s) => [...document.querySelectorAll(s)];
        const space = document.querySelector('#board .place.space');
        return {places: q('#board .place').length, spaces: q('#board .place.space').length,
                start: document.querySelector('#board .place.start').textContent,
                firstPos: space.dataset.pos, firstShape: space.querySelectorAll('use.shape').length,
                firstLetter: space.querySelector('.letter').textContent,
                players: q('#player-list li.player').map((li) => li.textContent),
                turns: q('#player-list li.turn').length,
                turn: document.getElementById('turn').textContent,
                stock: document.getElementById('stock').textContent};""")
    assert page["places"] == page["spaces"] + 2 and page["spaces"] >= 30
    assert "pirates" in page["start"]
    # Each space shows its number, its symbol (an SVG shape) and its letter.
    assert page["firstPos"] == "1" and page["firstShape"] == 1 and len(page["firstLetter"]) == 1
    assert len(page["players"]) == 4
    assert all("card" in p for p in page["players"])
    assert len({p.split("card")[0] for p in page["players"]}) == 4  # bots' names differ
    assert page["turns"] == 1 and "to play" in page["turn"]
    assert page["stock"].startswith("Stock")
    browser.execute_script("window.stillThisPage = 'yes'")
    # The sequence number, the pieces and the log in one script (one turn of the page's
    # event loop), so an update cannot land between them.
    state = """return [Number(document.body.dataset.seq),
        [...document.querySelectorAll('#board .piece')].map(p => p.parentNode.dataset.key
            + p.dataset.seat + p.dataset.count).join(),
        document.getElementById('event-log').textContent];"""
    seq, snapshot, log = browser.execute_script(state)
    wait_for(browser, f"Number(document.body.dataset.seq) > {seq}", "an update arrives")
    wait_for(browser, "document.querySelectorAll('#board .place.highlight').length > 0", "moves are highlighted")
    assert browser.execute_script("return window.stillThisPage") == "yes"  # no reload
    _, after, after_log = browser.execute_script(state)
    assert after != snapshot or after_log != log
    assert browser.find_element(By.ID, "conn").text == "live"
    no_errors(browser)


SIZES = {"phone": (390, 844, True), "tv": (1920, 1080, False)}


def check_screenshot(browser, url: str, name: str, path) -> dict:
    """Load ``url`` at the size ``name``; the board fits and is painted; saved to ``path``.
    Returns the board's box and the viewport (left, top, right, bottom, width, height)."""
    w, h, mobile = SIZES[name]
    viewport(browser, w, h, mobile)
    browser.get(url)
    board_ready(browser)
    box = browser.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight];")
    left, top, right, bottom, vw, vh = box
    assert vw == w
    # The whole board fits the width and is big: most of it on a phone, the main part on a TV.
    assert left >= 0 and right <= w + 1 and (right - left) >= (0.85 if mobile else 0.55) * w
    assert top < vh and bottom - top > 0.3 * min(vh, right - left)
    browser.save_screenshot(str(path))
    shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {"x": 0, "y": 0, "width": w, "height": h, "scale": 0.25}})
    width, height, rows = decode(base64.b64decode(shot["data"]))
    assert abs(width - w / 4) <= 1 and abs(height - h / 4) <= 1
    seen = colours(rows, step=1)
    assert len(seen) > 50, "the screenshot is blank"
    assert max(seen.values()) < 0.8 * sum(seen.values()), "one colour fills the screen"
    # The board's tiles are painted (sand colour) inside the board's box.
    q = 4
    inside = colours(rows, (int(left / q), int(top / q), int(right / q), int(min(bottom, vh) / q)), step=1)
    sand = sum(n for (r, g, b), n in inside.items() if abs(r - 0xf3) < 8 and abs(g - 0xe6) < 8 and abs(b - 0xc4) < 8)
    assert sand > 0.15 * sum(inside.values()), f"{name}: the board's tiles are not painted"
    return {"board": (left, top, right, bottom), "viewport": (vw, vh)}


def test_screenshots_at_phone_and_tv_sizes(browser, host_process, tmp_path):
    host = host_process("--players", "3", "--bots", "3", "--bot-delay", "0.3")
    for name in SIZES:
        check_screenshot(browser, host.url + "table/1", name, tmp_path / f"{name}.png")
        # The basic game: one track, no path names, no sloop.
        assert browser.execute_script(
            "return document.querySelectorAll('#board .path-title, #board .place.dock').length") == 0
    no_errors(browser)


def test_ranking_at_the_end(browser, host_process):
    host = host_process("--players", "3", "--bots", "3", "--bot-delay", "0")
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    wait_for(browser, "!document.getElementById('ranking').hidden", "the ranking shows")
    ranking = browser.find_elements(By.CSS_SELECTOR, "#ranking-list li")
    assert len(ranking) == 3
    assert "wins" in browser.find_element(By.ID, "turn").text
    assert browser.find_element(By.ID, "status-badge").text == "finished"
    no_errors(browser)


def test_password_is_asked_and_checked(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.5", "--password", "sea dog")
    viewport(browser, 1280, 800)
    browser.delete_all_cookies()
    browser.get(host.url + "table/1")
    wait_for(browser, "!document.getElementById('password-form').hidden", "the password is asked")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .place")
    browser.find_element(By.ID, "password-input").send_keys("landlubber")
    browser.find_element(By.CSS_SELECTOR, "#password-form button").click()
    wait_for(browser, "!document.getElementById('password-wrong').hidden", "a wrong password is refused")
    browser.find_element(By.ID, "password-input").send_keys("sea dog")
    browser.find_element(By.CSS_SELECTOR, "#password-form button").click()
    board_ready(browser)
    assert browser.find_element(By.ID, "password-form").get_attribute("hidden") is not None
    browser.delete_all_cookies()


def test_lobby_lists_the_tables_and_links_to_them(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.5", "--table-name", "Tortuga Bay")
    viewport(browser, 390, 844, True)
    browser.get(host.url)
    wait_for(browser, "document.querySelectorAll('#tables .table-entry').length == 1", "the table is listed")
    entry = browser.find_element(By.CSS_SELECTOR, "#tables .table-entry")
    assert "Tortuga Bay" in entry.text and "playing" in entry.text and "Jamaica" in entry.text
    entry.find_element(By.CSS_SELECTOR, "a.table-link").click()
    board_ready(browser)
    assert browser.current_url.endswith("/table/1")
    no_errors(browser)
