"""A person at a table on a real host (game protocol) while a browser watches it:
moves taken back are not highlighted; a table that goes away says so on its page."""
from __future__ import annotations

import socket

from selenium.webdriver.common.by import By

from protocol import messages
from tests.web.player import Player
from tests.web.test_browser import board_ready, no_errors, viewport, wait_for

LOG = """return [...document.querySelectorAll('#event-log li.event')].map((li) =>
  [li.dataset.type, li.classList.contains('recent'), li.textContent]);"""


def page_at(browser, seq: int) -> None:
    wait_for(browser, f"Number(document.body.dataset.seq) >= {seq}", f"the page shows seq {seq}")


def test_a_move_taken_back_is_not_highlighted(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.2")
    ann = Player(host.port, "ann")
    try:
        ann.send(messages.CreateTable(name="undo", rules="studiogiochi-2017",
                                      options={"players": 2, "story": "whole"}))
        joined = ann.expect(messages.Joined)
        ann.send(messages.AddBot(table=joined.table, kind="greedy"))
        ann.expect(messages.Lobby, lambda m: any(
            t["id"] == joined.table and all(s["name"] for s in t["seats"]) for t in m.tables))
        viewport(browser, 1280, 800)
        browser.get(f"{host.url}table/{joined.table}")
        wait_for(browser, "document.getElementById('conn').dataset.live === 'yes'", "the page is live")
        ann.send(messages.Start(table=joined.table))
        ann.my_turn()
        board_ready(browser)
        advance = next(a for a in ann.state.legal if a.startswith("advance 0 "))
        moved = ann.act(advance)
        assert "undo" in moved.legal
        to = next(e["to"] for e in moved.events if e["type"] == "advance")
        page_at(browser, moved.seq)
        log = browser.execute_script(LOG)
        assert log[0][0] == "advance" and log[0][1], log  # the move, highlighted
        assert browser.execute_script(
            f"return document.querySelector('#board [data-key=\"place:{to}\"]').classList.contains('highlight')")
        back = ann.act("undo")  # taken back (rules D23)
        page_at(browser, back.seq)
        log = browser.execute_script(LOG)
        assert log[0][0] == "undo" and log[1][0] == "advance", log
        assert not log[1][1], "a move taken back is not highlighted"
        assert not browser.execute_script(
            f"return document.querySelector('#board [data-key=\"place:{to}\"]').classList.contains('highlight')")
        # The same move again, kept this time: highlighted again.
        again = ann.act(advance)
        page_at(browser, again.seq)
        log = browser.execute_script(LOG)
        assert log[0][0] == "advance" and log[0][1] and not log[2][1], log
        no_errors(browser)
    finally:
        ann.close()


def test_a_table_that_goes_away_says_so_and_links_to_the_list(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.5")
    ann = Player(host.port, "ann")
    try:
        ann.send(messages.CreateTable(name="short-lived", rules="jamaica", options={"players": 2}))
        tid = ann.expect(messages.Joined).table
        viewport(browser, 390, 844, True)
        browser.get(f"{host.url}table/{tid}")
        wait_for(browser, "document.getElementById('table-name').textContent === 'short-lived'",
                 "the page shows the waiting table")
        wait_for(browser, "document.getElementById('watching').textContent === '1 watching'",
                 "this browser is counted as watching")
        browser.execute_script("window.stillThisPage = 'yes'")
        ann.close()  # the only person leaves before any game: the host removes the table
        wait_for(browser, "document.body.dataset.gone === 'yes'", "the page says the table is gone")
        notice = browser.find_element(By.ID, "notice")
        assert notice.is_displayed() and f"Table {tid} is gone" in notice.text
        assert browser.find_element(By.ID, "conn").text == "table gone"
        assert browser.execute_script("return window.stillThisPage") == "yes"  # told, not reloaded
        browser.find_element(By.ID, "to-tables").click()
        wait_for(browser, "document.querySelectorAll('#tables .table-entry').length === 1", "the list")
        assert browser.find_element(By.CSS_SELECTOR, "#tables .table-entry").get_attribute("data-table") == "1"
        assert f"cartagena join 127.0.0.1:{host.port}" == browser.find_element(By.ID, "join-command").text
        no_errors(browser)
        # The table's address now answers 404 with a page that says so, linking to the list.
        browser.get(f"{host.url}table/{tid}")
        wait_for(browser, "document.getElementById('gone') !== null", "the no-such-table page")
        assert "not on this host" in browser.find_element(By.ID, "gone").text
        assert browser.find_element(By.CSS_SELECTOR, "#gone a").get_attribute("href") == host.url
        logged = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert len(logged) == 1 and f"/table/{tid} " in logged[0] and "404" in logged[0], logged
    finally:
        ann.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_page_follows_the_host_through_a_restart(browser, host_process, tmp_path):
    ports = ("--port", str(free_port()), "--web", str(free_port()))
    game = ("--players", "3", "--bots", "3", "--bot-delay", "0.2", "--state-dir", str(tmp_path))
    host = host_process(*game, *ports)
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    board_ready(browser)
    browser.execute_script("window.stillThisPage = 'yes'")
    wait_for(browser, "Number(document.body.dataset.seq) >= 3", "a few moves")
    host.stop()  # the host goes down: the page waits for it
    wait_for(browser, "document.getElementById('conn').dataset.live === 'no'", "the page sees it")
    seq = int(browser.execute_script("return document.body.dataset.seq"))
    again = host_process(*game, *ports, "--resume")
    assert again.url == host.url
    wait_for(browser, f"Number(document.body.dataset.seq) > {seq}", "the restored game goes on in the page")
    assert browser.find_element(By.ID, "conn").text == "live"
    assert browser.execute_script("return window.stillThisPage") == "yes"  # no reload
    assert browser.execute_script("return document.querySelectorAll('#board .piece').length") > 0
