"""A page whose host is gone looks it, in headless Chromium: the TV page (1920x1080) and
a seat's phone (390x844) show a banner and dim the board and whose turn it is, and the
phone's title no longer says "Your turn", until the host is back. On the TV the last
move is in big letters and the chances' curve is tall, each line with its seat's chip."""
from __future__ import annotations

import socket

from selenium.webdriver.common.by import By

from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_phone import guest_page
from tests.web.test_browser_phone_steps import QUICK
from tests.web.test_browser_seats import click_css, wait_for_page

WAIT = 60
OFFLINE = ("document.body.dataset.offline === 'yes' && "
           "!document.getElementById('offline').hidden")
ONLINE = ("document.body.dataset.offline === 'no' && "
          "document.getElementById('offline').hidden")
DIMMED = "return Number(getComputedStyle(document.getElementById('game')).opacity)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_tv_page_shows_big_moves_a_keyed_curve_and_when_the_host_is_gone(
        browser, host_process):
    web = free_port()
    args = ("--players", "3", "--bots", "3", "--bot-delay", "0.5", "--web", str(web))
    host = host_process(*args)
    viewport(browser, 1920, 1080)
    browser.get(host.url + "table/1")
    wait_for(browser, "document.getElementById('last-move').dataset.empty === '' && "
             "document.querySelectorAll('#chances .chances-curve polyline').length === 3", "a curve", WAIT)
    sizes = browser.execute_script("""
        const px = (id) => parseFloat(getComputedStyle(document.getElementById(id)).fontSize);
        const line = document.querySelector('#event-log li');
        return {move: px('last-move'), name: px('table-name'),
                event: line ? parseFloat(getComputedStyle(line).fontSize) : 0,
                curve: document.querySelector('#chances .chances-curve').getBoundingClientRect().height,
                chips: [...document.querySelectorAll('#chances .curve-ends .chip')].map((c) => c.dataset.seat).sort()};""")
    assert sizes["move"] >= 1.3 * sizes["name"] and sizes["move"] >= 1.8 * sizes["event"], sizes
    assert sizes["curve"] >= 70, sizes  # it was a 40 px strip
    assert sizes["chips"] == ["0", "1", "2"], sizes
    no_errors(browser)
    assert browser.execute_script("return document.body.dataset.offline || 'no'") == "no"
    assert browser.execute_script(DIMMED) == 1
    host.stop()
    wait_for(browser, OFFLINE, "the page says the host is gone", WAIT)
    assert browser.execute_script(DIMMED) < 0.6
    banner = browser.find_element(By.ID, "offline")
    assert banner.is_displayed() and "No connection to the host" in banner.text
    assert banner.size["height"] >= 30
    host_process(*args)  # the host again, at the same web port
    wait_for(browser, ONLINE + " && document.getElementById('conn').dataset.live === 'yes'",
             "live again", WAIT)
    assert browser.execute_script(DIMMED) == 1


def test_a_seat_at_its_turn_says_when_the_host_is_gone_and_drops_your_turn(
        browser, host_process, tmp_path):
    web = free_port()
    args = ("--players", "2", "--bots", "1", "-o", "segments=2", "--web", str(web),
            "--state-dir", str(tmp_path / "state"), *QUICK)
    host = host_process(*args)
    guest_page(browser, host.url, name="ann")
    click_css(browser, "#table-list button.sit[data-table='1']", "Take a seat")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn")
    wait_for(browser, "/Your turn/.test(document.title)", "the title says it is our turn")
    no_errors(browser)
    host.stop()
    wait_for(browser, OFFLINE, "the page says the host is gone", WAIT)
    assert "Your turn" not in browser.title
    assert browser.execute_script(DIMMED) < 0.6
    assert browser.find_element(By.ID, "offline").is_displayed()
    host_process(*args)  # the host back, with the game: the seat is ours again
    wait_for(browser, ONLINE + " && document.getElementById('conn').dataset.live === 'yes'",
             "live again", WAIT)
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn again")
    wait_for(browser, "/Your turn/.test(document.title)", "the title says it is our turn again")
    assert browser.execute_script(DIMMED) == 1


def test_the_tv_board_keeps_its_place_when_a_game_s_first_move_comes(browser, host_process):
    """The last-move line keeps its place, empty, before a game's first move: the board
    does not jump down when the first move comes."""
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "2.5",
                        "--web", str(free_port()))
    viewport(browser, 1920, 1080)
    browser.get(host.url + "table/1")
    board_top = "document.getElementById('board').getBoundingClientRect().top"
    wait_for(browser, "document.getElementById('last-move').dataset.empty === 'yes' && "
             "document.querySelectorAll('#board .space, #board g').length > 0",
             "a game before its first move", WAIT)
    before = browser.execute_script(f"return {board_top}")
    wait_for(browser, "document.getElementById('last-move').dataset.empty === ''",
             "the first move", WAIT)
    assert browser.execute_script(f"return {board_top}") == before
    # the names a finished game keeps (common.js, for the TV and the phone): the first
    # name each seat is seen with once it is over, whoever leaves or sits down after
    kept = browser.execute_script("""
        const k = Cartagena.keptNames();
        return [k(false, 1, "bob"), k(true, 1, "bob"), k(true, 1, null), k(true, 1, "dan"),
                k(true, 2, null), k(false, 1, "dan"), k(true, 1, "dan")];""")
    assert kept == ["bob", "bob", "bob", "bob", None, "dan", "dan"]
    no_errors(browser)
