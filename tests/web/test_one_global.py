"""The pages' scripts leave one global of their own, ``Cartagena`` (every script's part is
in it: ``Cartagena.Board``, ``Cartagena.tr``...), beside ``CARTAGENA_I18N``, the words the
host writes into /i18n.js: on the TV page, /play (the name form, the lobby, the game),
/table/N and a replay, in a real Chromium. A page's own globals are the window's
properties and the global scope's ``const``/``let``/``class`` names (no window property:
Chromium's DevTools protocol lists them) that a page of the host without scripts lacks."""
from __future__ import annotations

from tests.twisted_loop import make_host, run, stop_host
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_seats import click_css

OURS = {"Cartagena", "CARTAGENA_I18N"}
WAIT = 60


def all_globals(driver) -> set[str]:
    keys = driver.execute_script("return Object.keys(window)")
    return set(keys) | set(driver.execute_cdp_cmd("Runtime.globalLexicalScopeNames", {})["names"])


def blank_globals(driver, origin: str) -> set[str]:
    """The globals of a page of ``origin`` without scripts (a secure context, as the
    host's pages on 127.0.0.1 are: about:blank is not), with what the driver's own scripts
    leave."""
    driver.get(origin + "static/favicon.svg")
    driver.find_elements("css selector", "*")[0].click()
    all_globals(driver)
    return all_globals(driver)


def own_globals(driver, blank: set[str]) -> set[str]:
    return all_globals(driver) - blank


def check(driver, blank: set[str], where: str) -> None:
    found = own_globals(driver, blank)
    assert found == OURS, f"{where}: {sorted(found - OURS)} more, {sorted(OURS - found)} missing"
    # the namespace holds every script's part (the page's scripts found them there)
    parts = set(driver.execute_script("return Object.keys(window.Cartagena)"))
    assert {"tr", "nt", "pt", "Names", "I18N", "el"} <= parts, (where, sorted(parts))


def test_the_tv_page_play_and_a_table_page_leave_one_global(browser, host_process):
    host = host_process("--players", "2", "--bots", "1", "--bot-delay", "0.05",
                        "--no-records")
    blank = blank_globals(browser, host.url)
    # the check sees what it must: a const and a function at a script's top
    browser.execute_cdp_cmd("Runtime.evaluate", {"expression": "const Stray = 1; function stray() {}"})
    assert own_globals(browser, blank) == {"Stray", "stray"}
    viewport(browser, 1280, 800)
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    wait_for(browser, "!!document.getElementById('name-input')", "the name form")
    check(browser, blank, "/play, the name form")
    browser.find_element("id", "name-input").send_keys("zoe")
    browser.find_element("id", "name-go").click()
    wait_for(browser, "document.querySelector('#table-list button.sit[data-table=\"1\"]')"
             " && document.querySelector('#new-rules option')", "the lobby and its form")
    check(browser, blank, "/play, the lobby")
    assert "TableForm" in browser.execute_script("return Object.keys(Cartagena)")
    click_css(browser, "#table-list button.sit[data-table='1']")
    wait_for(browser, "!document.getElementById('waiting').hidden", "the waiting room")
    click_css(browser, "#start")
    wait_for(browser, "document.body.dataset.screen === 'game'", "the game starts", WAIT)
    wait_for(browser, "document.querySelectorAll('#board .place').length > 10", "the board")
    check(browser, blank, "/play, the game")
    assert {"Board", "Words", "LiveChances"} <= set(
        browser.execute_script("return Object.keys(Cartagena)"))
    no_errors(browser)
    browser.get(host.url + "table/1")
    wait_for(browser, "document.querySelectorAll('#event-log li').length > 0", "the events")
    check(browser, blank, "/table/1")
    browser.get(host.url)
    wait_for(browser, "document.querySelector('#tables li, #tables a, .table')", "the tables")
    check(browser, blank, "/")
    no_errors(browser)


def test_a_replay_page_leaves_one_global(browser, tmp_path):
    from cartagena_net.records import store
    from tests.records.test_format import bot_game
    from tests.web.test_replay import record_for

    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    rec = record_for(host.host_id, bot_game("jamaica", {"players": 2, "segments": 1}, seed=2))
    store.write(folder, rec)

    async def in_thread():
        import asyncio

        await asyncio.get_running_loop().run_in_executor(None, look)

    def look():
        blank = blank_globals(browser, f"http://127.0.0.1:{host.web.port}/")
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/game/{rec['id']}")
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
        browser.find_element("id", "last").click()
        wait_for(browser, f"document.body.dataset.pos === '{len(rec['moves'])}'", "the end")
        check(browser, blank, "the replay page")
        no_errors(browser)

    try:
        run(in_thread(), timeout=120)
    finally:
        run(stop_host(host))
