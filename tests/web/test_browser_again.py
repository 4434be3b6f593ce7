"""Play again on the phone: the new game starts clean. Nothing of the game before (its
events, its move marks, its chances and their curve) is drawn with the new game's seats
(the seats move round at Play again, so an old event would be told of the wrong
player)."""
from __future__ import annotations

import json
import random
import re
import urllib.request

from selenium.webdriver.common.by import By

from tests.web.test_browser import no_errors, wait_for
from tests.web.test_browser_phone import (
    QUICK,
    SIZES,
    guest_page,
    new_table,
    play_to_end,
)
from tests.web.test_browser_seats import click_css, wait_for_page

WAIT = 60

# What the phone shows of the game: its log (the events' types and texts), the chances'
# curve (how many points it has) and the state it is at.
SHOWN = """
const log = [...document.querySelectorAll('#event-log li.event')];
const line = document.querySelector('#chances svg.chances-curve polyline');
return {types: log.map((li) => li.dataset.type), texts: log.map((li) => li.textContent),
        points: line ? line.getAttribute('points').trim().split(/\\s+/).length : 0,
        bars: [...document.querySelectorAll('#chances li.chance')].map((li) => Number(li.dataset.chance)),
        seq: Number(document.body.dataset.seq), game: Number(document.body.dataset.game),
        turn: document.getElementById('turn').textContent};
"""


# Every text the page's live region takes from now on (window.heard).
HEAR = """window.heard = [];
new MutationObserver(() => window.heard.push(document.getElementById('live').textContent))
  .observe(document.getElementById('live'), {childList: true, characterData: true, subtree: true});"""


def test_play_again_on_the_phone_draws_nothing_of_the_game_before(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url, name="ann", size=SIZES[2])
    browser.find_element(By.ID, "new-chances").click()  # the players see the chances
    new_table(browser, "jamaica", 2, {"segments": 2, "pirates": 2})
    click_css(browser, "#add-bot:not([hidden])", "Add a bot")
    wait_for(browser, "document.getElementById('add-bot').hidden", "the bot seated")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
    assert play_to_end(browser, random.Random(5), [SIZES[2]]) >= 1
    ended = browser.execute_script(SHOWN)
    assert "win" in ended["types"]  # the first game's end is in its log
    assert re.search(r"wins?!", ended["turn"])
    # Play again: the seats move round (the bot starts), then it is our turn. What the
    # phone's and the TV's live regions say from now on is kept.
    phone = browser.current_window_handle
    browser.switch_to.new_window("tab")
    ours = next(t["id"] for t in json.loads(urllib.request.urlopen(
        host.url + "tables.json", timeout=10).read())["tables"]
        if any(s.get("name") == "ann" for s in t["seats"]))
    browser.get(host.url + f"table/{ours}")
    wait_for(browser, "document.querySelectorAll('#board .place').length > 10", "the TV page")
    tv = browser.current_window_handle
    for handle in (tv, phone):
        browser.switch_to.window(handle)
        browser.execute_script(HEAR)
    click_css(browser, "#again:not([hidden])", "Play again")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.getElementById('end-box').hidden && "
                           "document.querySelectorAll('#choices .choice').length",
                  "our first turn of the new game")
    now = browser.execute_script(SHOWN)
    # A screen reader is told of the new game first, and never of the last one's end,
    # on the phone and on the TV.
    heard = browser.execute_script("return window.heard")
    browser.switch_to.window(tv)
    wait_for(browser, "window.heard.length > 0", "the TV's live region")
    heard_tv = browser.execute_script("return window.heard")
    browser.switch_to.window(phone)
    for said in (heard, heard_tv):
        assert said and said[0].startswith("A new game begins."), said
        assert not any("wins" in h for h in said), said
    first = ended["seq"] + 1  # the new game's first state (seq goes on from the last)
    assert "win" not in now["types"], now["texts"]  # no event of the game before
    assert not any("wins" in text for text in now["texts"]), now["texts"]
    assert now["types"] and now["types"][-1] == "turn", now["texts"]  # the new game's first
    # The chances' curve: at most a point for each state of this game, none of the last.
    assert now["points"] <= now["seq"] - first + 1, now
    assert now["bars"] != [1, 0] and now["bars"] != [0, 1], now  # not the last game's end
    # No move mark of the game before: the places marked are this game's moves only.
    marks = browser.execute_script("return document.querySelectorAll('#board rect.moved').length")
    moves = sum(1 for t in now["types"] if t in ("advance", "retreat", "sail", "morgan"))
    assert marks <= moves, now["texts"]
    no_errors(browser)
