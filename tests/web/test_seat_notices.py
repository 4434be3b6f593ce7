"""A browser seat is told, on its own page, what the host could not do: on a real full
tmpfs under the host's state folder, the guest's action is refused and the page says the
game is paused because the disk is full; once there is room it says the game goes on,
and the guest plays to the end."""
from __future__ import annotations

import random
import re
import time

from selenium.webdriver.common.by import By

from tests.disks import fill, tmpfs
from tests.twisted_loop import make_host, run, stop_host
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_seats import (
    click_choice,
    click_confirm,
    click_css,
    guest_turns,
    wait_for_page,
)

WAIT = 60


def one_action(driver, rng: random.Random) -> str:
    """One of the guest's actions with the page's buttons: 'moved', 'refused' (the
    page's notice shows the host's refusal) or 'over'."""
    while True:
        state = wait_for_page(driver, """(() => {
            if (/wins?!/.test(document.getElementById('turn').textContent)) return 'over';
            const c = document.querySelectorAll('#choices .choice');
            const ok = !document.getElementById('confirm-box').hidden;
            return ok ? 'confirm' : (c.length ? 'choose' : null);
        })()""", "the guest's turn or the end", timeout=WAIT)
        if state == "over":
            return state
        if state == "choose":
            click_choice(driver, rng)
            continue
        wait_for_page(driver, "document.getElementById('confirm-box').hidden || "
                              "!!document.getElementById('preview').textContent", "a preview")
        seq = driver.execute_script("return document.body.dataset.seq")
        driver.execute_script("document.getElementById('notice').textContent = ''")
        if not click_confirm(driver):
            continue
        return wait_for_page(driver, f"""(() => {{
            if (document.body.dataset.seq !== '{seq}') return 'moved';
            return /cannot save the game/.test(document.getElementById('notice').textContent)
                ? 'refused' : null; }})()""", "the action taken or refused")


def pirate_labels(driver) -> list[str]:
    """On the guest's turn: pick ``advance``; the labels of the pirates then offered."""
    click_css(driver, "#choices .choice[data-word='advance']", "advance")
    wait_for(driver, "[...document.querySelectorAll('#choices .choice')].some("
             "(b) => /pirate/.test(b.textContent))", "the pirates offered")
    return driver.execute_script(
        "return [...document.querySelectorAll('#choices .choice')].map((b) => b.textContent)")


def test_a_browser_seat_is_told_of_a_full_disk_and_plays_on_when_there_is_room(browser):
    with tmpfs("1m") as where:
        host = make_host(web_port=0, state_dir=str(where / "state"), bot_delay=0.0,
                         bot_level="easy", reviews=False, rate=1e6, burst=2e6)
        host.create_table("den", "jamaica", {"players": 2},
                          bots=1, bot_kind="greedy")
        url = f"http://127.0.0.1:{host.web.port}/"

        def check():
            viewport(browser, 1280, 900)
            browser.delete_all_cookies()
            browser.get(url + "play")
            browser.execute_script("localStorage.clear()")
            browser.get(url + "play")
            browser.find_element(By.ID, "name-input").send_keys("zoe")
            browser.find_element(By.ID, "name-go").click()
            click_css(browser, "#table-list button.sit[data-table='1']", "a seat")
            click_css(browser, "#start", "the start button")
            wait_for(browser, "document.body.dataset.screen === 'game'", "the game", WAIT)
            rng = random.Random(7)
            for _ in range(3):
                assert one_action(browser, rng) == "moved"
            # The pirates are offered by the host's numbers, the same after a reload.
            wait_for(browser, "!!document.querySelector(\"#choices .choice[data-word='advance']\")",
                     "the guest's turn", WAIT)
            before = pirate_labels(browser)
            assert any(re.search(r"your pirate \d", x) for x in before), before
            browser.refresh()
            wait_for(browser, "document.body.dataset.screen === 'game'", "back after a reload")
            wait_for(browser, "!!document.querySelector(\"#choices .choice[data-word='advance']\")",
                     "the guest's turn again", WAIT)
            assert pirate_labels(browser) == before
            filler = fill(where)
            # The journal's last page may take a few more records: play on until the
            # disk refuses one, the guest's (its action refused) or the bot's (the page
            # then shows the pause while the bot is to play).
            got = None
            for _ in range(200):
                state = wait_for_page(browser, """(() => {
                    if (!document.getElementById('host-notices').hidden) return 'paused';
                    if (/wins?!/.test(document.getElementById('turn').textContent)) return 'over';
                    return document.querySelectorAll('#choices .choice').length ? 'turn' : null;
                })()""", "the guest's turn or the pause", timeout=WAIT)
                assert state != "over", "the game ended before the disk refused anything"
                if state == "paused":
                    got = "paused"
                    break
                got = one_action(browser, rng)
                if got == "refused":
                    break
            assert got in ("refused", "paused"), got
            wait_for(browser, "!document.getElementById('host-notices').hidden",
                     "the pause said on the page", WAIT)
            said = browser.find_element(By.ID, "host-notices").text
            assert "Game paused: the host's disk is full or refuses writes" in said, said
            assert "(the disk is full)" in said  # ENOSPC, worded by the page
            time.sleep(1.0)
            assert browser.find_element(By.ID, "host-notices").is_displayed()  # still paused
            filler.unlink()
            # The refused one plays again (the guest by hand, the bot by itself within
            # seconds): the notice goes, and the page says the game goes on.
            deadline = time.monotonic() + WAIT
            while not browser.execute_script(
                    "return document.getElementById('host-notices').hidden"):
                assert time.monotonic() < deadline, "the notice stayed though there is room"
                if browser.execute_script(
                        "return document.querySelectorAll('#choices .choice').length > 0"):
                    assert one_action(browser, rng) in ("moved", "over")
                time.sleep(0.1)
            assert "room again: the game goes on" in browser.find_element(By.ID, "notice").text
            guest_turns(browser, 10_000)
            assert re.search(r"wins?!", browser.find_element(By.ID, "turn").text)
            no_errors(browser)

        async def serve_while():
            import asyncio

            await asyncio.get_running_loop().run_in_executor(None, check)

        try:
            run(serve_while(), timeout=300)
        finally:
            run(stop_host(host))
