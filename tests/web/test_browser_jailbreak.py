"""The 2017 stories in headless Chromium, on a real host playing a bot game: the Whole
Jailbreak's two paths, the sloop with its load at its shore, the Captain and the sails;
the island path on its own."""
from __future__ import annotations

from tests.web.test_browser import (
    SIZES,
    board_ready,
    check_screenshot,
    no_errors,
    viewport,
    wait_for,
)

WHOLE = ("--rules", "studiogiochi-2017", "-o", "story=whole")
SLOW_WAIT = 150  # a bot game reaches its first sail after some turns

# Every render of the board, recorded by the page's own DOM (nothing is missed between
# two polls): the sloop's shore and load, what is highlighted, the Captain.
RECORD = """
window.renders = [];
const board = document.getElementById('board');
new MutationObserver(() => {
  const dock = board.querySelector('.place.dock[data-sloop="yes"]');
  if (!dock) return;
  const pieces = [...dock.querySelectorAll('.piece')];
  const sail = document.querySelector('#event-log li.event[data-type="sail"]');
  window.renders.push({
    seq: Number(document.body.dataset.seq), shore: dock.dataset.shore,
    load: dock.dataset.load.split(',').map(Number),
    drawn: pieces.map((p) => [Number(p.dataset.seat), Number(p.dataset.count)]),
    aboard: [...document.querySelectorAll('#player-list .aboard')].map((e) => e.textContent),
    highlighted: dock.classList.contains('highlight'),
    left: !!board.querySelector('.place.dock[data-sloop="no"] .left'),
    recentSail: !!document.querySelector('#event-log li.recent[data-type="sail"]'),
    lastSail: sail ? sail.textContent : null,
    captain: [...document.querySelectorAll('#player-list li.player')]
      .filter((li) => li.querySelector('.tag.captain')).map((li) => Number(li.dataset.seat)),
  });
}).observe(board, { childList: true });
window.stillThisPage = 'yes';
"""

LAYOUT = """
const q = (s) => [...document.querySelectorAll(s)];
const spaces = (track) => q(`#board .place.space[data-track="${track}"]`).map((g) => Number(g.dataset.pos));
return {
  titles: q('#board .path-title').map((t) => t.textContent),
  passage: spaces('path-0'), island: spaces('path-1'),
  first: q('#board .place[data-track="path-0"]').map((g) => g.classList[1]),
  second: q('#board .place[data-track="path-1"]').map((g) => g.classList[1]),
  start: document.querySelector('#board .place.start .place-label').textContent,
  goal: document.querySelector('#board .place.goal .place-label').textContent,
  docks: q('#board .place.dock').map((g) => [g.dataset.shore, g.dataset.sloop]),
  sloopShape: q('#board .place.dock .sloop .hull').length,
  sloopTitle: (document.querySelector('#board .place.dock[data-sloop="yes"] title') || {}).textContent,
  empty: q('#board .place.space').filter((g) => !g.dataset.symbol || g.dataset.symbol === 'null').length,
};
"""


def test_whole_jailbreak_paths_sloop_and_sails_live(browser, host_process):
    host = host_process("--players", "3", "--bots", "3", "--bot-delay", "0.12", *WHOLE)
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    board_ready(browser)
    browser.execute_script(RECORD)
    page = browser.execute_script(LAYOUT)
    # Two paths with their names, numbered on across the sloop (rules D25).
    assert page["titles"] == ["Underground passage", "Island path"]
    assert page["passage"] == list(range(1, len(page["passage"]) + 1)) and len(page["passage"]) >= 18
    sloop_pos = len(page["passage"]) + 1
    assert page["island"] == list(range(sloop_pos + 1, sloop_pos + 1 + len(page["island"])))
    assert len(page["island"]) >= 18 and page["empty"] == 0
    # The jail, the passage, Cartagena's shore; Tortuga's shore, the island path, the cove.
    assert page["first"][0] == "start" and page["first"][-1] == "dock"
    assert page["second"][0] == "dock" and page["second"][-1] == "goal"
    assert page["start"] == "jail" and page["goal"] == "cove"
    assert sorted(page["docks"]) == [["cartagena", "yes"], ["tortuga", "no"]]  # the sloop starts at Cartagena
    assert page["sloopShape"] == 1 and page["sloopTitle"].startswith("the sloop at Cartagena")

    # The game goes on until the sloop sails to Tortuga.
    wait_for(browser, "window.renders.some((r) => r.shore === 'tortuga')", "the sloop sails to Tortuga",
             timeout=SLOW_WAIT)
    renders = browser.execute_script("return window.renders")
    assert browser.execute_script("return window.stillThisPage") == "yes"  # no reload
    first = next(r for r in renders if r["shore"] == "tortuga")
    # A sail is a move: the sloop's new shore is highlighted, the one it left marked, and
    # the sail is highlighted in the event log.
    assert first["highlighted"] and first["left"] and first["recentSail"], first
    assert "Tortuga" in first["lastSail"]
    for r in renders:
        # The load by colour: each seat's pirates aboard, drawn at the shore where the sloop lies.
        assert sorted(r["drawn"]) == [[seat, n] for seat, n in enumerate(r["load"]) if n], r
        assert all(n <= 3 for n in r["load"])
        assert r["aboard"] == [f"{n} aboard" for n in r["load"]]
    assert sum(first["load"]) >= 1  # it sailed with someone aboard (rules D26)
    # Soon some turn begins with pirates aboard: its player is shown as the Captain.
    wait_for(browser, "window.renders.some((r) => r.captain.length)", "a Captain is shown",
             timeout=SLOW_WAIT)
    renders = browser.execute_script("return window.renders")
    assert all(len(r["captain"]) <= 1 for r in renders)
    assert renders[0]["shore"] == "cartagena" and browser.execute_script("return window.stillThisPage") == "yes"
    no_errors(browser)


def test_whole_jailbreak_screenshots_at_phone_and_tv_sizes(browser, host_process, tmp_path):
    host = host_process("--players", "4", "--bots", "4", "--bot-delay", "0.5", *WHOLE)
    for name in SIZES:
        found = check_screenshot(browser, host.url + "table/1", name, tmp_path / f"whole-{name}.png")
        vw, vh = found["viewport"]
        # Both path names and the sloop are drawn, with a real size, inside the page's width.
        boxes = browser.execute_script("""
            return [...document.querySelectorAll('#board .path-title, #board .place.dock[data-sloop="yes"]')]
              .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });""")
        assert len(boxes) == 3
        for left, top, width, height in boxes:
            assert left >= 0 and left + width <= vw + 1 and width > 20 and height > 10
        if name == "tv":  # the whole board is on a TV screen at once
            assert all(top + height <= vh for left, top, width, height in boxes)
    no_errors(browser)


def test_island_story_draws_the_island_path(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.5",
                        "--rules", "studiogiochi-2017", "-o", "story=island")
    viewport(browser, 1280, 800)
    browser.get(host.url + "table/1")
    board_ready(browser)
    page = browser.execute_script(LAYOUT)
    assert page["titles"] == ["Island path"]
    assert page["island"] == [] and page["passage"] == list(range(1, len(page["passage"]) + 1))
    assert page["first"][0] == "start" and page["first"][-1] == "goal"
    assert page["start"] == "flooded sloop" and page["goal"] == "cove"
    assert page["docks"] == [] and page["sloopShape"] == 0  # no sloop to sail
    wait_for(browser, "document.querySelector('#player-list .home').textContent.includes('in the cove')",
             "the players' count of pirates in the cove")
    no_errors(browser)
