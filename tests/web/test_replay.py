"""Finished games on the host's web page: the list, the replay's data (spectator views
only), refusals; and the replay page in headless Chromium, stepped to the end and back
with its own buttons and keys, with the bot's review drawn as a curve."""
from __future__ import annotations

import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from cartagena_net.bots import review as rv
from cartagena_net.records import build, replay, store
from cartagena_net.records.format import player
from tests.records.test_format import bot_game
from tests.twisted_loop import make_host, run, stop_host
from tests.web.http import fetch
from tests.web.test_browser import no_errors, viewport, wait_for

FAST = {"playouts": 4, "iterations": 40}


async def in_a_thread(check) -> None:
    """Run the browser's ``check`` off the reactor's loop, which serves the host meanwhile."""
    import asyncio

    await asyncio.get_running_loop().run_in_executor(None, check)


def reviewed_game(folder, players: int, segments: int, seed: int) -> tuple:
    """A host with a web port, and the record of a finished game of bots on it, with
    its review, in ``folder``: (host, record)."""
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    rec = record_for(host.host_id, bot_game("jamaica", {"players": players,
                                                        "segments": segments}, seed=seed))
    store.write(folder, rec)
    store.write_review(folder, rv.review(rec, seed=1, **FAST))
    return host, rec


def record_for(host_id: str, state, n: int = 1) -> dict:
    game = state.game
    return json.loads(json.dumps(build(
        state, record_id=f"20261124T2{n:05d}Z-{host_id[:8]}-{n}",
        players=[player(s, game.colors[s], f"p{s}") for s in range(game.players)],
        started="2026-11-24T20:00:00Z", ended="2026-11-24T20:30:00Z", end="won")))



def stopped_record(host_id: str) -> dict:
    """The record of a two-player game stopped after 9 actions (no one won), as the host
    ``host_id`` writes it."""
    unfinished = bot_game("jamaica", {"players": 2}, seed=6, stop_after=9)
    return json.loads(json.dumps(build(
        unfinished, record_id=f"20261124T210000Z-{host_id[:8]}-3",
        players=[player(s, unfinished.game.colors[s], f"q{s}") for s in range(2)],
        started="2026-11-24T21:00:00Z", ended="2026-11-24T21:10:00Z", end="stopped")))

def test_the_list_and_the_replays_data_show_only_what_a_spectator_saw(tmp_path):
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)

    async def go():
        state = bot_game("jamaica", {"players": 3, "segments": 2}, seed=5)
        rec = record_for(host.host_id, state)
        store.write(folder, rec)
        other = dict(record_for("ffffffff" * 4, state, 2))
        store.write(folder, other)  # another host's game: not listed here
        spectators = stopped_record(host.host_id)
        store.write(folder, spectators)
        listed = json.loads((await fetch(host.web.port, "/games.json")).body)
        assert [g["id"] for g in listed["games"]] == [spectators["id"], rec["id"]]
        assert listed["games"][1]["winner"] and listed["games"][1]["players"] == ["p0", "p1", "p2"]
        got = await fetch(host.web.port, f"/game/{rec['id']}.json")
        assert got.status == 200
        data = json.loads(got.body)
        assert len(data["views"]) == len(rec["moves"]) + 1 == len(data["events"])
        assert data["moves"][0] == {"seat": rec["moves"][0]["seat"],
                                    "action": rec["moves"][0]["action"]}
        for v in data["views"]:
            assert v["viewer"] == "spectator"
            assert all(s["hand"] is None for s in v["seats"])  # jamaica hands are hidden
        assert data["views"][-1]["outcome"]["winner"] == replay(rec).outcome.winner
        assert data["review"] is None
        page = await fetch(host.web.port, f"/game/{rec['id']}")
        assert page.status == 200 and b"/static/game.js" in page.body
        for bad in ("/game/..%2Fetc", "/game/nope.json", f"/game/{rec['id']}x.json",
                    "/game/" + "9" * 300, f"/game/{rec['id']}/more"):
            assert (await fetch(host.web.port, bad)).status == 404, bad
        refused = await fetch(host.web.port, f"/game/{spectators['id']}.json")
        assert refused.status == 409 and b"spectator" in refused.body
        assert (await fetch(host.web.port, "/")).body.count(b'id="finished"') == 1

    try:
        run(go(), timeout=120)
    finally:
        run(stop_host(host))


def test_the_list_has_each_game_the_host_records_without_reading_the_folder_again(
        tmp_path, monkeypatch):
    """A game the host records is in the next list; the folder is read once for the
    list (and again every ``RESCAN`` seconds), so a record copied in by hand shows at
    the next reading, not at once."""
    from cartagena_net.web import games as web_games

    monkeypatch.setattr(web_games, "LIST_TTL", 0.0)
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    state = bot_game("jamaica", {"players": 2, "segments": 1}, seed=2)

    async def listed() -> list[str]:
        return [g["id"] for g in json.loads((await fetch(host.web.port, "/games.json")).body)
                ["games"]]

    async def go():
        first = record_for(host.host_id, state, 1)
        store.write(folder, first)
        assert await listed() == [first["id"]]
        recorded = record_for(host.host_id, state, 3)
        store.write(folder, recorded)
        host.record_written(str(folder), recorded)  # as a game's end writes it
        by_hand = record_for(host.host_id, state, 2)
        store.write(folder, by_hand)  # copied in: not told
        assert await listed() == [recorded["id"], first["id"]]
        host.web.newest.read_at -= web_games.RESCAN  # ten minutes later
        assert await listed() == [recorded["id"], by_hand["id"], first["id"]]

    try:
        run(go(), timeout=60)
    finally:
        run(stop_host(host))


def test_a_finished_game_is_replayed_on_the_tv_with_its_review(browser, tmp_path):
    host, rec = reviewed_game(tmp_path / "records", players=2, segments=1, seed=2)
    last = len(rec["moves"])


    def check():
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/")
        wait_for(browser, f"document.querySelector('#games [data-game=\"{rec['id']}\"] a')",
                 "the finished game listed")
        browser.find_element(By.CSS_SELECTOR, f"#games [data-game='{rec['id']}'] a").click()
        wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
        assert browser.execute_script("return document.body.dataset.pos") == "0"
        assert "to play" in browser.find_element(By.ID, "turn").text
        curves = browser.execute_script("return document.querySelectorAll('#curve polyline.curve-line').length")
        assert curves == 2
        for _ in range(3):
            browser.find_element(By.ID, "forward").click()
        assert browser.execute_script("return document.body.dataset.pos") == "3"
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
        wait_for(browser, f"document.body.dataset.pos === '{last}'", "the end")
        assert "wins!" in browser.find_element(By.ID, "turn").text
        browser.find_element(By.ID, "turn-back").click()
        assert int(browser.execute_script("return document.body.dataset.pos")) < last
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
        wait_for(browser, "document.body.dataset.pos === '0'", "the deal")
        browser.find_element(By.ID, "last").click()
        wait_for(browser, f"document.body.dataset.pos === '{last}'", "the end again")
        assert "Chances here" in browser.find_element(By.ID, "advice").text
        # Every move the advice names is said in words, never in the engine's notation.
        said = browser.execute_script("""
            const out = [];
            for (let k = 1; k <= arguments[0]; k++) {
              const s = document.getElementById('slider'); s.value = String(k);
              s.dispatchEvent(new Event('input'));
              out.push(document.getElementById('advice').textContent);
            }
            return out;""", last)
        # ... the same for every seat, as the terminal's review says it ("hat from 4"),
        # never as a hint speaks to the player who asks ("your pirate", "end your turn").
        assert any(re.search(r": [a-z]+ from (start|[0-9]+)[;.]", line) for line in said), said
        for line in said:
            assert not re.search(r"(advance|retreat) [0-9]+ ?[a-z]*$|(advance|retreat) [0-9]", line), line
            assert not re.search(r"\byour?\b|\bundo\b", line), line
        browser.find_element(By.ID, "first").click()
        wait_for(browser, "document.body.dataset.pos === '0'", "the deal again")
        no_errors(browser)

    try:
        run(in_a_thread(check), timeout=120)
    finally:
        run(stop_host(host))


def test_the_tv_page_lists_a_stopped_game_with_how_it_ended(browser, tmp_path):
    """A game no one won is listed with its end in words ("stopped"), beside a won one
    with its winner: the list's line once named a function that was gone, and the whole
    list stayed unshown."""
    folder = tmp_path / "records"
    host = make_host(web_port=0, records_dir=str(folder), reviews=False)
    won = record_for(host.host_id, bot_game("jamaica", {"players": 2, "segments": 1}, seed=2))
    store.write(folder, won)
    stopped = stopped_record(host.host_id)
    store.write(folder, stopped)


    def check():
        viewport(browser, 1280, 900)
        browser.get(f"http://127.0.0.1:{host.web.port}/")
        wait_for(browser, "document.querySelectorAll('#games .game-entry').length === 2",
                 "both finished games listed")
        lines = {li.get_attribute("data-game"): li.text
                 for li in browser.find_elements(By.CSS_SELECTOR, "#games .game-entry")}
        # Who won is said as such, and a game no one won is said unfinished (the winner
        # was once only a fourth name after the players').
        assert lines[stopped["id"]].endswith(" · q0, q1 · unfinished (stopped)"), lines
        assert re.search(r" · p0, p1 · won by p[01]$", lines[won["id"]]), lines
        ends = {li.get_attribute("data-game"): li.find_element(By.CSS_SELECTOR, ".game-end").get_attribute("data-end")
                for li in browser.find_elements(By.CSS_SELECTOR, "#games .game-entry")}
        assert ends == {stopped["id"]: "stopped", won["id"]: "won"}, ends
        assert browser.find_element(By.ID, "finished").is_displayed()
        no_errors(browser)

    try:
        run(in_a_thread(check), timeout=120)
    finally:
        run(stop_host(host))


# A place's text and badges, against its tile (CSS px): a text's bottom above the inner
# edge of a highlight's border (web.css .moved: 7 wide around 3 units in), a badge inside
# the tile; each as [key, what, by how many px it is out].
PLACE_TEXT_OUT = """
const out = [];
for (const g of document.querySelectorAll('#board .place')) {
  const tile = g.querySelector('.tile').getBoundingClientRect(), k = tile.width / 100;
  const inner = tile.bottom - 6.5 * k;
  for (const t of g.querySelectorAll('.place-count, .place-label')) {
    const r = t.getBoundingClientRect();
    if (r.bottom > inner + 0.5) out.push([g.dataset.key, t.textContent, r.bottom - inner]);
  }
  const layer = document.querySelector(`#board .pieces[data-key="${g.dataset.key}"]`);
  for (const b of [...g.querySelectorAll('.badge'), ...(layer ? layer.querySelectorAll('.badge') : [])]) {
    const r = b.getBoundingClientRect();
    const over = Math.max(r.right - tile.right, tile.left - r.left, r.bottom - tile.bottom, tile.top - r.top);
    if (over > 0.5) out.push([g.dataset.key, 'badge', over]);
  }
}
return out;"""


def test_the_replay_keeps_text_whole_names_its_controls_and_keys_its_curve(browser, tmp_path):
    """At the end of a game the highlighted goal keeps its count whole ("11 pirates" was
    cut by the highlight's border); on a 360 px phone the start's number badges stay on
    their tile; the controls have their real names (not glyphs) and a thumb's size; the
    review's curve has a key: each seat's line, and the turning points' dot."""
    host, rec = reviewed_game(tmp_path / "records", players=3, segments=2, seed=5)
    last = len(rec["moves"])


    def check():
        for size in ((1920, 1080, False), (1280, 900, False), (390, 844, True), (360, 740, True)):
            viewport(browser, *size)
            browser.get(f"http://127.0.0.1:{host.web.port}/game/{rec['id']}")
            wait_for(browser, "document.body.dataset.loaded === 'yes'", "the replay loaded")
            start = browser.execute_script(PLACE_TEXT_OUT)
            assert browser.execute_script(
                "return document.querySelectorAll('#board .badge').length") >= 3
            assert not start, (size, "at the deal", start)
            browser.find_element(By.ID, "last").click()
            wait_for(browser, f"document.body.dataset.pos === '{last}'", "the end")
            assert browser.execute_script(
                "return document.querySelectorAll('#board .place.goal.highlight').length") == 1
            end = browser.execute_script(PLACE_TEXT_OUT)
            assert not end, (size, "at the end", end)
            if size[0] < 600:
                names = browser.execute_script("""
                    return [...document.querySelectorAll('#controls button, #slider')].map((b) => {
                      const r = b.getBoundingClientRect();
                      return [b.id, b.getAttribute('aria-label'), r.width, r.height];
                    });""")
                assert [n[1] for n in names] == [
                    "the deal", "previous turn", "previous action", "position in the game",
                    "next action", "next turn", "the end"], names
                small = [n for n in names if n[3] < 44 or n[2] < 44]
                assert not small, small
        legend = browser.execute_script("""
            return [...document.querySelectorAll('#curve-legend li')].map((li) =>
              [li.dataset.seat ?? null, li.textContent, !!li.querySelector('.chip, .turning')]);""")
        assert [row[0] for row in legend] == ["0", "1", "2", None], legend
        assert all(row[2] for row in legend), legend
        assert legend[-1][1] == "turning point", legend
        no_errors(browser)

    try:
        run(in_a_thread(check), timeout=180)
    finally:
        run(stop_host(host))
