"""The TV in the room and the phone in the hand (issue 59), in headless Chromium.

The TV page (/table/N) at 1920x1080 and 1280x720 fits with no scrolling, its smallest
text is at least a 60th of the screen's height (18 px, 12 px), nothing on the board
covers a place's label, no name is cut, the last move is drawn square by square with the
acting seat marked, the join QR code shows between games (not during one), and a game's
end shows the standings and the evening's scores. On the phone (/play at 390x844 with
touch and 360x740) every visible control is at least 44x44 CSS px and every field's text
at least 16 px. No page shows developer text (option keys, Python booleans, ISO times,
"3p", bot kinds); the powers' screens say what they ask and show the cards a power
draws or looks at, with whose they are."""
from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from tests.web.conftest import browser_session
from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_phone import (
    add_bots_and_start,
    guest_page,
    new_table,
    record_ids,
)

WAIT = 90
TV_SIZES = [(1920, 1080, False), (1280, 720, False)]
PHONE_SIZES = [(390, 844, True), (360, 740, True)]

# Developer text: an option as KEY=VALUE, a Python boolean, an ISO time, "3p", a bot's
# kind as the code names it.
DEVELOPER = re.compile(r"\b\w+=\w+|\bTrue\b|\bFalse\b|\d{4}-\d\d-\d\dT\d\d:\d\d|\b\d+p\b"
                       r"|\bismcts\b|\bgreedy\b(?! bot)|\(default\)=|\*")  # "greedy bot" is its name

# What a TV page shows: its size, the smallest text on screen (an SVG text's size times
# the scale it is drawn at; text clipped away by a panel that keeps only its newest lines
# is not on screen), names cut, and a piece over a place's label.
STAGE = """
const out = {scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
                      innerWidth, innerHeight], small: [], cut: [], covered: [], outside: []};
function clipped(e) {
  const r = e.getBoundingClientRect();
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflow === 'visible' && cs.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    if (r.top >= b.bottom - 1 || r.bottom > b.bottom + 1) return true;
  }
  return false;
}
let min = 1e9;
for (const e of document.querySelectorAll('body *')) {
  if (!e.getClientRects().length || e.closest('[hidden]')) continue;
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const cs = getComputedStyle(e);
  if (cs.visibility === 'hidden') continue;
  let size = parseFloat(cs.fontSize);
  if (e instanceof SVGElement) { const m = e.getScreenCTM(); size *= m ? Math.hypot(m.a, m.b) : 1; }
  if (clipped(e)) continue;
  const r = e.getBoundingClientRect();
  if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) out.outside.push(e.textContent.slice(0, 30));
  if (size < min) min = size;
  out.small.push([size, (e.id || e.getAttribute('class') || e.tagName) + ': ' + e.textContent.trim().slice(0, 24)]);
}
out.small.sort((a, b) => a[0] - b[0]);
out.small = out.small.slice(0, 5);
out.min = min;
for (const e of document.querySelectorAll('.name, .chance-name, .score-name, #table-name')) {
  if (!e.getClientRects().length) continue;
  if (e.scrollWidth > e.clientWidth + 1 || /…$/.test(e.textContent)) out.cut.push(e.textContent);
}
for (const place of document.querySelectorAll('#board .place')) {
  const labels = [...place.querySelectorAll('.place-label, .num, .letter, .place-count')].map((x) => x.getBoundingClientRect());
  const layer = document.querySelector(`#board .pieces[data-key="${place.dataset.key}"]`);
  for (const p of [...place.querySelectorAll('.piece'), ...(layer ? layer.querySelectorAll('.piece') : [])]) {
    const b = p.getBoundingClientRect();
    for (const l of labels) {
      const w = Math.min(b.right, l.right) - Math.max(b.left, l.left), h = Math.min(b.bottom, l.bottom) - Math.max(b.top, l.top);
      if (w > 2 && h > 2) out.covered.push(place.dataset.key);
    }
  }
}
// Every pawn is on top: the element at its centre is the pawn (or its letter). (The
// pawns' layer lets clicks through to the place: it is asked to catch them here.)
const layers = [...document.querySelectorAll('#board .pieces')];
layers.forEach((l) => { l.style.pointerEvents = 'auto'; });
for (const p of document.querySelectorAll('#board .piece')) {
  const b = p.querySelector('.pawn').getBoundingClientRect();
  const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  if (at && !p.contains(at)) out.covered.push('pawn ' + p.dataset.seat + ' under ' + (at.getAttribute('class') || at.tagName));
}
layers.forEach((l) => { l.style.pointerEvents = ''; });
out.shown = ['player-list', 'stock', 'discard', 'event-log', 'chances', 'turn'].filter((id) => {
  const e = document.getElementById(id);
  if (!e || !e.getClientRects().length || e.closest('[hidden]')) return false;
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.top < innerHeight && r.left < innerWidth;
});
out.events = [...document.querySelectorAll('#event-log li')].filter((li) => {
  if (!li.getClientRects().length) return false;
  const r = li.getBoundingClientRect(), box = document.getElementById('event-log').getBoundingClientRect();
  return r.bottom <= Math.min(innerHeight, box.bottom) + 0.5;
}).length;
out.events_drawn = [...document.querySelectorAll('#event-log li')].filter((li) => li.getClientRects().length).length;
out.text = document.body.innerText;
return out;"""


def stage_fits(driver, where: str, need: tuple[str, ...] = ()) -> dict:
    """The TV page fits the window (no scrolling either way), its smallest text is a 60th
    of the window's height or more, no name is cut and no piece covers a label."""
    time.sleep(0.2)  # a resize draws again after 150 ms: the page drawn for this size
    wait_for(driver, "document.body.dataset.size === `${innerWidth}x${innerHeight}`",
             f"{where}: the page drawn for the window's size")
    got = driver.execute_script(STAGE)
    sw, sh, w, h = got["scroll"]
    assert sw <= w and sh <= h, f"{where}: the page scrolls ({sw}x{sh} in {w}x{h})"
    assert got["min"] >= h / 60 - 0.05, f"{where}: text under {h / 60:.1f} px: {got['small']}"
    assert not got["cut"], f"{where}: names cut: {got['cut']}"
    assert not got["covered"], f"{where}: a piece covers a label at {got['covered']}"
    assert not got["outside"], f"{where}: text outside the screen: {got['outside']}"
    for part in need:
        assert part in got["shown"], f"{where}: {part} is not on the screen ({got['shown']})"
    if "event-log" in need:  # the newest events, whole lines, never one cut
        assert got["events"] >= 2 and got["events"] == got["events_drawn"], (where, got["events"], got["events_drawn"])
    assert not DEVELOPER.search(got["text"]), f"{where}: {DEVELOPER.search(got['text'])!r}"
    return got


@pytest.mark.parametrize("mix", [
    ("--rules", "tortuga", "--players", "5", "--bots", "5", "--table-name",
     "The Flying Dutchman's long Saturday night table by the harbour"),
    ("--rules", "web-2008", "--players", "6", "--bots", "6"),
    ("--rules", "studiogiochi-2017", "--players", "4", "--bots", "4", "-o", "story=whole",
     "-o", "magic=true"),
    ("--rules", "jamaica", "--players", "5", "--bots", "5", "-o", "segments=12"),
    ("--rules", "hispaniola", "--players", "4", "--bots", "4"),
    ("--rules", "ravensburger-advanced", "--players", "5", "--bots", "5"),
    ("--rules", "studiogiochi-2017", "--players", "3", "--bots", "3", "-o", "story=island",
     "-o", "filibusters=true", "-o", "morgan=also"),
], ids=["tortuga-5", "web-2008-6", "whole-magic-4", "jamaica-12-segments", "hispaniola-4",
        "ravensburger-advanced-5", "island-filibusters-morgan-3"])
def test_the_tv_page_fits_a_tv_and_reads_from_the_sofa(browser, host_process, mix):
    host = host_process(*mix, "--bot-delay", "0.6")
    for size in TV_SIZES:
        viewport(browser, *size)
        browser.get(host.url + "table/1")
        wait_for(browser, "document.querySelectorAll('#board .place').length > 10 && "
                          "document.querySelector('#board .way') && "
                          "!document.getElementById('chances-panel').hidden",
                 "a move drawn on the board, and the chances", WAIT)
        need = ("player-list", "stock", "discard", "event-log", "turn", "chances")
        stage_fits(browser, f"{mix[1]} at {size[0]}x{size[1]}", need)
        if mix[1] == "tortuga":  # open hands: every hand on the screen
            hands = browser.execute_script(
                "return [...document.querySelectorAll('#player-list .hand')].filter((h) => {"
                "const r = h.getBoundingClientRect(); return r.bottom <= innerHeight && r.height > 0; }).length")
            assert hands == 5
            assert browser.find_element(By.ID, "row").is_displayed()  # the face-up row
        # The last move: its line above the board, its way square by square in the mover's
        # colour, the seat that moved marked in the list; the join code hidden in play.
        way = browser.execute_script("""
            const w = document.querySelector('#board .way');
            return {seat: w.dataset.seat, points: w.getAttribute('points').split(' ').length,
                    acted: [...document.querySelectorAll('#player-list li.acted')].map((li) => li.dataset.seat),
                    line: document.getElementById('last-move').innerText,
                    join: document.getElementById('join-box').hidden};""")
        assert way["points"] >= 2 and way["line"].strip() and way["join"]
        assert way["acted"], way
    # The same page as the window goes from one size to the other: it draws again.
    viewport(browser, *TV_SIZES[0])
    stage_fits(browser, f"{mix[1]} back at 1920x1080")
    no_errors(browser)


def test_between_games_the_tv_shows_the_join_code_and_at_the_end_the_standings(
        browser, host_process):
    host = host_process("--players", "3", "--bots", "1", "--bot-delay", "0")
    for size in TV_SIZES:
        viewport(browser, *size)
        browser.get(host.url + "table/1")
        wait_for(browser, "document.getElementById('join-qr').complete && "
                          "document.getElementById('join-qr').naturalWidth > 0", "the QR code")
        got = stage_fits(browser, f"waiting at {size[0]}x{size[1]}")
        box = browser.execute_script("""
            const q = document.getElementById('join-qr').getBoundingClientRect();
            return {w: q.width, h: q.height, url: document.getElementById('join-url').textContent,
                    waiting: document.getElementById('waiting-note').innerText, host: location.host};""")
        assert box["w"] >= 0.3 * size[1] and box["h"] == box["w"], box  # big: scanned from a sofa
        assert box["url"] == box["host"] + "/play"
        assert box["waiting"] == "Waiting for the game to start"
        assert got["text"].count("Waiting for the game to start") == 1
    svg = urllib.request.urlopen(host.url + "play/qr.svg").read()
    assert svg.startswith(b"<svg") and b"path" in svg
    # The lobby page shows the same code and address.
    browser.get(host.url)
    wait_for(browser, "document.getElementById('join-qr').naturalWidth > 0", "the lobby's QR code")
    assert browser.find_element(By.ID, "play-url").text.endswith("/play")
    # A whole game of bots: at its end the standings and the evening's scores, and the code.
    end = host_process("--players", "6", "--bots", "6", "--bot-delay", "0", "--rules", "web-2008",
                       "-o", "segments=1")
    for size in TV_SIZES:
        viewport(browser, *size)
        browser.get(end.url + "table/1")
        wait_for(browser, "!document.getElementById('ranking').hidden && "
                          "!document.getElementById('tonight').hidden && "
                          "!document.getElementById('join-box').hidden", "the end of the game", WAIT)
        got = stage_fits(browser, f"the end at {size[0]}x{size[1]}")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#ranking-list li")) == 6
        # no "Events" heading left with no line under it beside the standings
        assert not browser.find_element(By.ID, "log-panel").is_displayed()
        scores = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#scores li")]
        assert scores and all("win" in s and "game" in s for s in scores), scores
        assert "greedy bot" in got["text"]  # the bots' kind in words
        # The board's box shrinks after it was drawn, with nothing new to draw (the line
        # above it grows): the board is drawn again for its box, its text as large as before.
        floor = "return document.getElementById('board').style.getPropertyValue('--floor')"
        drawn = browser.execute_script(floor)
        browser.execute_script("document.getElementById('last-move').style.paddingBottom = '35vh'")
        stage_fits(browser, f"the end at {size[0]}x{size[1]}, the board's box smaller")
        assert browser.execute_script(floor) != drawn
    no_errors(browser)


CONTROLS = """
const bad = [];
for (const e of document.querySelectorAll('button, select, input, textarea, summary, a.back, #lang')) {
  if (!e.getClientRects().length || e.closest('[hidden]')) continue;
  const cs = getComputedStyle(e);
  if (cs.visibility === 'hidden' || cs.display === 'none') continue;
  const r = e.getBoundingClientRect();
  const name = (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '')) + ' ' + (e.innerText || e.value || '').trim().slice(0, 20);
  if (r.width < 44 - 0.01 || r.height < 44 - 0.01) bad.push(name + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
  if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) && parseFloat(cs.fontSize) < 16) bad.push('text of ' + name + ' ' + cs.fontSize);
}
return [bad, document.body.innerText];"""


def thumbs(driver, where: str) -> None:
    """Every visible control is a thumb's size, every field's text 16 px or more, and
    nothing on the screen is developer text; at both phone sizes."""
    for size in PHONE_SIZES:
        viewport(driver, *size)
        time.sleep(0.3)
        bad, text = driver.execute_script(CONTROLS)
        assert not bad, f"{where} at {size[0]}x{size[1]}: {bad}"
        found = DEVELOPER.search(text)
        assert not found, f"{where} at {size[0]}x{size[1]}: {found.group(0)!r} in {text[max(0, found.start() - 60):found.end() + 60]!r}"


def test_every_phone_control_is_a_thumbs_size_and_says_no_developer_text(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.05")
    viewport(browser, *PHONE_SIZES[0])
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear()")
    browser.get(host.url + "play")
    wait_for(browser, "document.body.dataset.screen === 'name'", "the name screen")
    thumbs(browser, "the name screen")
    guest_page(browser, host.url, name="ann")
    browser.find_element(By.CSS_SELECTOR, "#more-options summary").click()
    thumbs(browser, "the lobby with every option")
    # Every option's words: the form's choices and help say no notation.
    for preset in ("studiogiochi-2017", "tortuga", "web-2008"):
        browser.execute_script("const s = document.getElementById('new-rules'); s.value = arguments[0];"
                               "s.dispatchEvent(new Event('change'));", preset)
        thumbs(browser, f"the form with {preset}")
    browser.find_element(By.CSS_SELECTOR, "#more-options summary").click()
    browser.find_element(By.ID, "new-hints").click()
    new_table(browser, "studiogiochi-2017", 3, {"magic": True, "morgan": "island", "story": "whole",
                                                 "filibusters": True})
    options = browser.find_element(By.ID, "waiting-options").text
    assert "3 players" in options and "Black Magic Woman" in options and "Whole Jailbreak" in options
    thumbs(browser, "the waiting room")
    add_bots_and_start(browser, 2)
    wait_for(browser, "!document.getElementById('hint-box').hidden", "the Hint button")
    thumbs(browser, "the game")
    # "←" asks before it leaves a game; Stay stays.
    browser.find_element(By.CSS_SELECTOR, "#bar .back").click()
    wait_for(browser, "!document.getElementById('leave-ask').hidden", "the question")
    assert "list of tables" in browser.find_element(By.ID, "leave-ask-text").text
    thumbs(browser, "the question before leaving")
    browser.find_element(By.ID, "leave-no").click()
    assert browser.execute_script("return document.body.dataset.screen") == "game"
    assert browser.current_url.endswith("/play")
    no_errors(browser)


def test_two_guests_of_one_name_make_two_tables_of_two_names(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.05")
    guest_page(browser, host.url, name="Ann")
    new_table(browser, "jamaica", 2)
    with browser_session() as other:
        guest_page(other, host.url, name="Ann")
        wait_for(other, "document.querySelectorAll('#table-list li').length >= 2", "both tables listed")
        new_table(other, "jamaica", 2)
        names = [browser.find_element(By.ID, "title").text, other.find_element(By.ID, "title").text]
    assert names == ["Ann's table", "Ann's table 2"], names


# One step of a game that prefers the Black Magic Woman's powers: what the screen says
# and shows, then a click.
POWER_STEP = """
const pick = arguments[0];
if (document.body.dataset.screen !== 'game') return {state: 'wait'};
if (!document.getElementById('end-box').hidden) return {state: 'over'};
const confirm = !document.getElementById('confirm-box').hidden;
const c = [...document.querySelectorAll('#choices .choice')];
if (!confirm && !c.length) return {state: 'wait'};
const seq = document.body.dataset.seq;
const out = {state: confirm ? 'confirm' : 'choose', seq, doing: document.getElementById('doing').innerText,
  turn: document.getElementById('turn').innerText, text: document.body.innerText,
  power: document.getElementById('power-box').hidden ? null : [...document.querySelectorAll('#power-box .power-cards')].map(
    (p) => ({kind: p.dataset.kind, title: p.querySelector('.power-title').innerText, cards: p.querySelectorAll('.card-word').length})),
  preview: document.getElementById('preview').innerText, prefix: document.body.dataset.prefix,
  choices: c.map((b) => ({word: b.dataset.word, kind: b.dataset.kind, text: b.innerText,
    label: [...b.querySelectorAll('svg.icon')].map((i) => i.getAttribute('aria-label'))}))};
if (!confirm) {
  const powers = c.filter((b) => b.dataset.kind === 'power');
  const use = c.find((b) => b.dataset.word === 'power');
  (powers.length ? powers[pick % powers.length] : use && pick % 4 ? use : c[pick % c.length]).click();
} else if (window.lastConfirmed !== seq + document.body.dataset.prefix) {
  window.lastConfirmed = seq + document.body.dataset.prefix;
  document.getElementById('confirm').click();
}
return out;"""

ASKS = {"give": "give one drawn card to each other player", "keep": "keep", "stack": "back on top of the stock",
        "take": "'s hand", "discard": "discard"}


def test_the_powers_screens_say_what_they_ask_and_show_the_cards(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.05")
    guest_page(browser, host.url, name="zoe")
    new_table(browser, "studiogiochi-2017", 3, {"magic": True, "segments": 4})
    add_bots_and_start(browser, 2)
    rng = random.Random(59)
    seen: dict[str, int] = {}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        step = browser.execute_script(POWER_STEP, rng.randrange(1 << 30))
        if step["state"] == "over":
            break
        if step["state"] == "wait":
            time.sleep(0.05)
            continue
        found = DEVELOPER.search(step["text"])
        assert not found, f"{found.group(0)!r} in {step['text'][max(0, found.start() - 80):found.end() + 40]!r}"
        for choice in step["choices"]:  # a card is named for the eye and the screen reader
            if choice["kind"] == "card":
                assert choice["label"] and all(choice["label"]), choice
                assert choice["label"][0].split(" (")[0] in choice["text"], choice
        if step["state"] == "confirm":
            # The move is said once: in the Confirm box, not also in the line above it.
            assert step["preview"].strip() and "You chose" not in step["doing"], step
            continue
        owed = re.search(r"· (.*)$", step["turn"], re.DOTALL)
        if step["prefix"] == "" and owed and step["power"] is not None:
            kind = next(k for k in ("give", "keep", "stack", "take", "discard") if step["choices"][0]["word"] == k)
            seen[kind] = seen.get(kind, 0) + 1
            # The instruction line says what the page asks, the turn line too; never
            # "discard" for a power's decision.
            assert ASKS[kind] in step["doing"].lower(), (kind, step["doing"])
            assert ASKS[kind] in step["turn"].lower(), (kind, step["turn"])
            if kind != "discard":
                assert "discard" not in step["doing"].lower() + step["turn"].lower()
            # The cards the power shows are on the screen, under whose they are.
            kinds = {p["kind"]: p for p in step["power"]}
            if kind == "take":
                assert kinds["hand"]["cards"] >= 1 and "'s hand" in kinds["hand"]["title"]
            elif kind in ("give", "keep"):
                assert kinds["pool"]["cards"] >= 1 and "you drew" in kinds["pool"]["title"]
    assert seen, "no power's decision came up"
    no_errors(browser)


def test_the_finished_games_and_a_replay_say_no_developer_text_in_english_and_swedish(host_process):
    host = host_process("--players", "3", "--bots", "3", "--bot-delay", "0", "--bot-kind", "ismcts",
                        "--think", "0.02", "--workers", "1", "--rules", "studiogiochi-2017",
                        "-o", "magic=true", "-o", "segments=2")
    ids = record_ids(host.url)
    listed = json.load(urllib.request.urlopen(host.url + "games.json"))["games"][0]
    assert listed["options"]["players"] == 3 and listed["options"]["magic"] is True
    assert listed["people"][0]["bot"] == "ismcts"
    for lang, words in (("en-GB", ("3 players", "Black Magic Woman", "thinking bot")),
                        ("sv", ("3 spelare", "Black Magic Woman", "tänkande bot"))):
        with browser_session(lang) as driver:
            viewport(driver, 1280, 720)
            driver.get(host.url)
            wait_for(driver, "document.querySelectorAll('#games li').length >= 1", "the finished games")
            text = driver.execute_script("return document.body.innerText")
            found = DEVELOPER.search(text)
            assert not found, (lang, found.group(0), text)
            for word in words:
                assert word in text, (lang, word, text)
            driver.get(host.url + f"game/{ids[0]}")
            wait_for(driver, "!document.getElementById('controls').hidden", "the replay")
            text = driver.execute_script("return document.body.innerText")
            found = DEVELOPER.search(text)
            assert not found, (lang, found.group(0), text)
            no_errors(driver)


def test_the_swedish_form_says_every_option_and_value_in_swedish(host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.05")
    with browser_session("sv") as driver:
        guest_page(driver, host.url, name="zoe", size=PHONE_SIZES[0])
        driver.execute_script("const s = document.getElementById('new-rules'); s.value = 'studiogiochi-2017';"
                              "s.dispatchEvent(new Event('change'));")
        driver.find_element(By.CSS_SELECTOR, "#more-options summary").click()
        shown = driver.execute_script(
            "return [...document.querySelectorAll('#option-fields option, #option-fields .option-name')]"
            ".map((o) => o.textContent)")
        for english in ("stuck", "always", "off", "instead", "escape", "whole", "island", "morgan",
                        "hand_limit", "story"):
            assert english not in shown, (english, shown)
        assert "Berättelse" in shown and "Hela rymningen" in shown
        thumbs(driver, "the Swedish form")
        driver.find_element(By.CSS_SELECTOR, "#more-options summary").click()
        new_table(driver, "studiogiochi-2017", 2, {"magic": True, "morgan": "also"})
        text = driver.find_element(By.ID, "waiting-options").text
        assert "2 spelare" in text and "Morgan" in text and "=" not in text
