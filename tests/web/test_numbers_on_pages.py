"""What the host's pages say in figures and glyphs: the replay learns of a review written
after it was first asked for; the evening's scoreboard counts two bots of one kind at a
table as one player; hand sizes read "1 card"; the replay's buttons are drawn, not left
to a font that may lack the glyph."""
from __future__ import annotations

import json
import time

from selenium.webdriver.common.by import By

from cartagena_net.bots import review as rv
from cartagena_net.host import recorder
from cartagena_net.records import build, store
from cartagena_net.records.format import player, utc_text
from tests.records.test_format import bot_game
from tests.twisted_loop import make_host, run, stop_host
from tests.web.http import fetch
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_replay import FAST, record_for


async def in_thread(check):
    import asyncio

    await asyncio.get_running_loop().run_in_executor(None, check)


def test_a_replay_asked_for_before_its_review_learns_of_it(tmp_path):
    """``/game/ID.json`` was cached whole the first time: 15 minutes after the review was
    written it still said ``review: null``."""
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=3)
    rec = record_for(host.host_id, state)
    store.write(folder, rec)

    async def go():
        import asyncio

        first = json.loads((await fetch(host.web.port, f"/game/{rec['id']}.json")).body)
        assert first["review"] is None and len(first["views"]) == len(rec["moves"]) + 1
        store.write_review(folder, rv.review(rec, seed=1, **FAST))
        deadline = time.monotonic() + 15
        while True:
            got = json.loads((await fetch(host.web.port, f"/game/{rec['id']}.json")).body)
            if got["review"] is not None or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.5)
        assert got["review"] is not None, "the replay never learnt of its review"
        assert got["review"]["record"] == rec["id"]
        assert {k: v for k, v in got.items() if k != "review"} == {
            k: v for k, v in first.items() if k != "review"}  # the replay itself kept
        again = json.loads((await fetch(host.web.port, f"/game/{rec['id']}.json")).body)
        assert again == got

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


def test_an_open_replay_page_draws_the_review_once_it_is_written(browser, tmp_path):
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=4)
    rec = record_for(host.host_id, state)
    store.write(folder, rec)

    def check():
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/game/{rec['id']}")
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
        assert not browser.find_element(By.ID, "review").is_displayed()
        browser.find_element(By.ID, "forward").click()
        browser.find_element(By.ID, "forward").click()
        store.write_review(folder, rv.review(rec, seed=1, **FAST))
        wait_for(browser, "document.querySelectorAll('#curve polyline.curve-line').length === 2",
                 "the review drawn on the open page", timeout=40)
        assert browser.execute_script("return document.body.dataset.pos") == "2"
        assert "Chances here" in browser.find_element(By.ID, "advice").text
        # No step button uses a glyph a font may lack (⏮⏪⏩⏭ drew as empty boxes):
        # only the triangles and the bar of the basic geometric shapes, or a drawing.
        for bid in ("first", "turn-back", "back", "forward", "turn-forward", "last"):
            button = browser.find_element(By.ID, bid)
            text = button.text.strip()
            drawn = browser.execute_script(
                "return arguments[0].querySelectorAll('svg path').length", button)
            assert drawn or (text and set(text) <= set("\u25c0\u25b6|")), (bid, text)
            assert not any("\u23e9" <= c <= "\u23ef" for c in text), (bid, text)
        # A hand of one card reads "1 card", never "1 cards", at every step.
        last = len(rec["moves"])
        seen_one = False
        for pos in range(last + 1):
            browser.execute_script(
                "document.getElementById('slider').value = arguments[0];"
                "document.getElementById('slider').dispatchEvent(new Event('input'));", pos)
            text = browser.find_element(By.ID, "player-list").text
            assert "1 cards" not in text.replace("11 cards", "").replace("21 cards", ""), text
            seen_one = seen_one or " 1 card " in text
        assert seen_one, "no hand of one card in the whole game: pick another seed"
        no_errors(browser)

    try:
        run(in_thread(check), timeout=180)
    finally:
        run(stop_host(host))


def test_the_lobby_page_counts_two_bots_of_one_kind_as_one_player(browser, tmp_path):
    """Two games, each won by one of two greedy bots at the table: the page said "2 wins
    in 4 games". It says 2 in 2, and what a bot row is."""
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    state = bot_game("jamaica", {"players": 3, "segments": 1}, seed=2)
    now = time.time()
    for n, ranking in enumerate(([0, 1, 2], [2, 1, 0])):
        g = state.game
        rec = json.loads(json.dumps(build(
            state, record_id=recorder.record_id(now - 600 + n, host.host_id, n + 1),
            players=[player(0, g.colors[0], "Blackbeard", bot="greedy"),
                     player(1, g.colors[1], "ann"),
                     player(2, g.colors[2], "Calico Jack", bot="greedy")],
            started=utc_text(now - 600 + n), ended=utc_text(now - 60 + n), end="won")))
        rec["outcome"] = {"winner": ranking[0], "ranking": ranking}
        host.evening.add(rec)

    def check():
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/")
        wait_for(browser, "document.querySelectorAll('#scores li').length === 2", "the scores")
        rows = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#scores li")]
        assert rows == ["greedy bot: 2 wins in 2 games", "ann: 0 wins in 2 games"], rows
        note = browser.find_element(By.ID, "scores-note")
        assert note.is_displayed() and "two at one table are one player" in note.text
        no_errors(browser)

    try:
        run(in_thread(check), timeout=120)
    finally:
        run(stop_host(host))
