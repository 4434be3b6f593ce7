"""The guest's phone: /play in headless Chromium at 390x844 with touch, 360x640 and
desktop size, through the page's own controls. Nothing on any screen (lobby, the New
table form, waiting room, game, end, replay, the TV pages) is wider than the screen, in
every preset and option mix; every choice about a player names the player (colour,
letter, name); two tabs of one browser do not fight over a seat; a refused password is
asked again, never re-sent; Leave asks first; a New table carries every option; play
again; open hands shown; dark cards drawn as cards."""
from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from tests.web.test_browser import no_errors, viewport, wait_for
from tests.web.test_browser_seats import click_confirm, click_css, wait_for_page

WAIT = 60
SIZES = [(390, 844, True), (360, 640, True), (1280, 800, False)]
QUICK = ["--bot-delay", "0.05"]

# What must fit on the screen: the page's width, and every element's right edge.
FITS_FN = """
function tooWide(w) {
  const out = [];
  if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('body *')) {
    if (!e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    if (r.right > w + 0.5 && !e.closest('.leave-ask[hidden]')) {
      out.push((e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '')) + ' ' + Math.round(r.right));
    }
    if (out.length > 8) break;
  }
  return [out, document.documentElement.scrollWidth <= w];
}"""
FITS = FITS_FN + "\nreturn tooWide(arguments[0]);"


def fits(driver, width: int, where: str) -> None:
    """Nothing on the page is wider than ``width`` (no sideways scrolling)."""
    check_fits(driver.execute_script(FITS, width), width, where)


def check_fits(found: list, width: int, where: str) -> None:
    """What ``tooWide(width)`` found: nothing wider than the page, no sideways scroll."""
    wide, scroll_ok = found
    assert not wide, f"{where} at {width} px: {wide}"
    assert scroll_ok, where


def guest_page(driver, url: str, name: str = "zoe", size=SIZES[0]) -> None:
    viewport(driver, *size)
    driver.delete_all_cookies()
    driver.get(url + "play")
    driver.execute_script(f"localStorage.clear(); localStorage.setItem('cartagena-name', {name!r})")
    driver.get(url + "play")
    wait_for(driver, "document.body.dataset.screen === 'lobby' && "
             "document.querySelector('#new-rules option')", "the lobby with its form")


def new_table(driver, rules: str, players: int, options: dict[str, object] | None = None) -> None:
    """Fill the New table form with the page's controls and send it."""
    driver.execute_script("""
        const s = document.getElementById('new-rules');
        s.value = arguments[0]; s.dispatchEvent(new Event('change'));""", rules)
    players_input = driver.find_element(By.ID, "new-players")
    players_input.clear()
    players_input.send_keys(str(players))
    if options:
        driver.find_element(By.CSS_SELECTOR, "#more-options summary").click()
        for key, value in options.items():
            field = driver.find_element(By.ID, f"option-{key}")
            if isinstance(value, bool):
                if field.is_selected() != value:
                    field.click()
            elif field.tag_name == "select":
                driver.execute_script(
                    "arguments[0].value = arguments[1];"
                    "arguments[0].dispatchEvent(new Event('change'));", field, str(value))
            else:
                field.clear()
                field.send_keys(str(value))
    driver.find_element(By.ID, "new-go").click()
    wait_for_page(driver, "document.body.dataset.screen === 'waiting' && "
                          "!document.getElementById('start').hidden", "our own table, as its owner")


def add_bots_and_start(driver, bots: int) -> None:
    for _ in range(bots):
        n = driver.execute_script("return document.querySelectorAll('#seat-list li').length")
        click_css(driver, "#add-bot:not([hidden])", "Add a bot")
        wait_for(driver, f"document.querySelectorAll('#seat-list .player').length >= {n} && "
                 "[...document.querySelectorAll('#seat-list .player')].filter((li) => / bot/.test(li.textContent)).length >= 1",
                 "a bot seated")
        time.sleep(0.1)
    wait_for(driver, "document.getElementById('add-bot').hidden", "every seat taken")
    click_css(driver, "#start:not([hidden])", "Start")
    wait_for_page(driver, "document.body.dataset.screen === 'game' && document.querySelector('#turn').textContent",
                  "the game starts")


SEAT_LABELS_FN = """
function seatLabels() {
const seats = [...document.querySelectorAll('#player-list li.player')].map((li) => ({
  seat: Number(li.dataset.seat), name: li.querySelector('.name').textContent.replace(/ \\(you\\)$/, ''),
  letter: li.querySelector('.chip').textContent, color: li.querySelector('.chip').dataset.color}));
return [...document.querySelectorAll('#choices .choice')].map((b) => ({
  word: b.dataset.word, kind: b.dataset.kind, text: b.textContent,
  chip: b.querySelector('.chip') ? b.querySelector('.chip').textContent : null,
  prefix: document.body.dataset.prefix, seats}));
}
function shownText() {
  return ['hand', 'choices', 'doing', 'preview', 'piles', 'player-list']
    .map((id) => document.getElementById(id).innerText).join(' ');
}"""
SEAT_LABELS = SEAT_LABELS_FN + "\nreturn [seatLabels(), shownText()];"


def check_labels(driver, seen: dict[str, int]) -> None:
    """Every choice about a player names it (its letter chip, name and colour); no choice
    about a player is named as a place; no card is shown as text with '*'."""
    check_label_data(*driver.execute_script(SEAT_LABELS), seen)


def check_label_data(labels: list, shown: str, seen: dict[str, int]) -> None:
    """check_labels on what ``seatLabels()`` and ``shownText()`` read from the page."""
    for c in labels:
        words = (c["prefix"].split() if c["prefix"] else []) + [c["word"]]
        verb = words[0]
        seat_word = ((verb in ("give", "morgan") and len(words) == 2)
                     or (verb == "power" and len(words) == 3 and words[1].rstrip("*") == "gun"))
        assert (c["kind"] == "seat") == seat_word, c
        if seat_word:
            seat = next(s for s in c["seats"] if s["seat"] == int(c["word"]))
            assert c["chip"] == seat["letter"], c
            assert seat["name"] in c["text"] and seat["color"] in c["text"], c
            assert "pirate on" not in c["text"] and "space" not in c["text"], c
            seen[" ".join(words[:-1])] = seen.get(" ".join(words[:-1]), 0) + 1
        if c["kind"] == "pos":
            assert "pirate" in c["text"], c
        assert "*" not in c["text"], c
    assert "*" not in shown, shown


# One step of a game on the page, in one script: what the screen is, and where a move is
# to be made, what the checks read (the labels, the width) and then the click itself.
STEP = SEAT_LABELS_FN + FITS_FN + """
const w = arguments[0], pick = arguments[1];
if (document.body.dataset.screen !== 'game') return {state: 'wait'};
if (!document.getElementById('end-box').hidden) return {state: 'over'};
const confirm = !document.getElementById('confirm-box').hidden;
const c = document.querySelectorAll('#choices .choice');
if (!confirm && !c.length) return {state: 'wait'};
const seen = {state: confirm ? 'confirm' : 'choose', labels: seatLabels(), shown: shownText(),
              fits: tooWide(w), clicked: false};
if (!confirm) {
  c[pick % c.length].click();
} else if (document.getElementById('preview').textContent) {
  document.getElementById('confirm').click();
  seen.clicked = true;
}
return seen;"""


def play_to_end(driver, rng: random.Random, widths: list[tuple[int, int, bool]],
                seen: dict[str, int] | None = None, limit: float = 300) -> int:
    """Click the page's choices until the game ends; checks the width (changing the screen
    size every few actions) and the labels before every click. The actions played."""
    played = clicks = 0
    size = None
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        want = widths[(clicks // 7) % len(widths)]
        if want != size:
            size = want
            viewport(driver, *size)
        step = driver.execute_script(STEP, size[0], rng.randrange(1 << 30))
        if step["state"] == "over":
            return played
        if step["state"] == "wait":
            time.sleep(0.05)
            continue
        clicks += 1
        check_label_data(step["labels"], step["shown"], seen if seen is not None else {})
        check_fits(step["fits"], size[0], "the game")
        played += step["clicked"]
    raise AssertionError(f"the game did not end in {limit} s ({played} actions)")


def record_ids(url: str) -> list[str]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        with urllib.request.urlopen(url + "games.json", timeout=10) as r:
            games = json.load(r)["games"]
        if games:
            return [g["id"] for g in games]
        time.sleep(0.3)
    raise AssertionError("no record of the game")


def every_page_fits(driver, url: str, where: str, table: int = 1) -> None:
    """The TV's pages (the tables, the table's live view) and the replay fit every size:
    each loaded at the narrowest phone's, then the window made each size in turn (the
    pages draw themselves again when it changes)."""
    narrow = min(SIZES)

    def every_size(what: str) -> None:
        for size in [narrow, *(s for s in SIZES if s != narrow)]:
            if size != narrow:
                viewport(driver, *size)
                time.sleep(0.3)  # the pages draw again 150 ms after a resize
            fits(driver, size[0], f"{where}: {what}")

    for path in ("", f"table/{table}"):
        viewport(driver, *narrow)
        driver.get(url + path)
        wait_for(driver, "document.readyState === 'complete'", "the page")
        time.sleep(0.4)
        every_size(f"/{path}")
    ids = record_ids(url)
    viewport(driver, *narrow)
    driver.get(url + f"game/{ids[0]}")
    wait_for(driver, "!document.getElementById('controls').hidden", "the replay")
    every_size("the replay")
    viewport(driver, *narrow)
    driver.find_element(By.ID, "last").click()
    time.sleep(0.2)
    every_size("the replay's end")


MIXES = {
    "jamaica": ("jamaica", 2, {}),
    "tortuga": ("tortuga", 3, {}),
    "hispaniola": ("hispaniola", 2, {}),
    "ravensburger": ("ravensburger", 2, {}),
    "ravensburger-advanced": ("ravensburger-advanced", 2, {}),
    "web-2008": ("web-2008", 6, {}),
    "2017-island": ("studiogiochi-2017", 2, {"story": "island"}),
    "2017-whole": ("studiogiochi-2017", 3, {"story": "whole", "magic": True}),
    "2017-magic-filibusters-morgan": ("studiogiochi-2017", 3, {
        "magic": True, "filibusters": True, "morgan": "also"}),
    "2017-morgan-instead": ("studiogiochi-2017", 2, {"morgan": "instead", "hand_limit": 3}),
}


@pytest.mark.parametrize("mix", list(MIXES))
def test_every_screen_of_every_mix_fits_a_phone_and_names_players(browser, host_process, mix):
    """A guest makes the table with the New table form (the options through its
    controls), adds bots, plays it to the end once with the page's buttons, the screen's
    size changing every few actions, plays again, and every screen fits; then the TV
    pages and the replay fit too. (The lobby and the form, the same before any mix is
    chosen, fit every size in test_the_new_table_form_offers_every_option_...)"""
    rules, players, options = MIXES[mix]
    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url, size=SIZES[0])
    whole = options.get("story") == "whole"
    # The Whole Jailbreak's least board (3 segments a path) with one pirate each: random
    # clicks through the passage, the sloop and the island take long enough with one.
    small = {"segments": 3 if whole else 2, "pirates": 1 if whole else 2}
    new_table(browser, rules, players, {**small, **options})
    for size in SIZES:
        viewport(browser, *size)
        fits(browser, size[0], "the waiting room")
    table = max(json.load(urllib.request.urlopen(host.url + "tables.json"))["tables"],
                key=lambda t: t["id"])  # ours: the newest
    assert table["rules"] == rules
    for key, value in {**small, **options}.items():
        assert table["options"][key] == value, (key, table["options"])
    add_bots_and_start(browser, players - 1)
    seen: dict[str, int] = {}
    assert play_to_end(browser, random.Random(mix), SIZES, seen) >= 1
    for size in SIZES:
        viewport(browser, *size)
        fits(browser, size[0], "the end")
    assert re.search(r"wins?!", browser.find_element(By.ID, "turn").text)
    if options.get("morgan") == "instead":
        assert seen.get("morgan"), seen  # Morgan's pushes were offered, and named players
    # Play again, as the terminal's "p": the same table, a new game.
    click_css(browser, "#again:not([hidden])", "Play again")
    wait_for_page(browser, "document.getElementById('end-box').hidden && "
                           "document.body.dataset.screen === 'game' && !/wins?!/.test(document.getElementById('turn').textContent)",
                  "a new game at the same table")
    no_errors(browser)
    every_page_fits(browser, host.url, mix, table["id"])


def test_choices_about_players_are_named_as_players_in_every_step(browser, host_process):
    """Every verb whose argument is a seat (give, morgan, power gun) names the player in
    that step, and the pirates and cards of the other steps as such (from the real view
    of a running Black Magic Woman game; words.js is the page's own)."""
    host = host_process("--players", "3", "--bots", "2", "--rules", "studiogiochi-2017",
                        "-o", "magic=true", "-o", "morgan=also", *QUICK)
    guest_page(browser, host.url)
    click_css(browser, "#table-list button.sit[data-table='1']")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
    got = browser.execute_script("""
        const view = { seats: [{seat: 0, color: 'red'}, {seat: 1, color: 'blue'}, {seat: 2, color: 'yellow'}],
          board: ['parrot', 'hook', 'gun'], boat: 4, symbols: ['parrot', 'hook', 'gun'], start_name: 'jail', goal_name: 'sloop' };
        const names = ['zoe', 'ann', 'bob'];
        const ctx = { view, seat: 0, seatName: (i) => names[i], symbolLetters: {parrot: 'p', hook: 'h', gun: 'g'},
          chip: (c) => { const s = document.createElement('span'); s.className = 'chip'; s.textContent = c[0].toUpperCase(); return s; } };
        const cases = {
          'give 1 parrot': [1, 2], 'morgan 2 1': [1, 2], 'power gun 1': [2], 'power gun* 2': [2],
          'advance 1 hook': [1, 2], 'retreat 3': [1], 'power chest 2': [2], 'power parrot parrot 1 hook': [2, 3, 4],
          'power hook* gun 3': [2, 3], 'take hook*': [1], 'discard hook* gun': [1, 2], 'keep gun': [1], 'stack parrot*': [1],
        };
        const out = {};
        for (const [action, idx] of Object.entries(cases)) {
          const words = action.split(' ');
          out[action] = idx.map((i) => { const n = Cartagena.Words.label(words, i, ctx);
            return [Cartagena.Words.kindAt(words, i), n.textContent, !!n.querySelector('svg.icon'), !!n.querySelector('svg.icon.dark')]; });
        }
        return out;""")
    assert got["give 1 parrot"][0][:2] == ["seat", "B ann · blue"]
    assert got["give 1 parrot"][1][0] == "card" and got["give 1 parrot"][1][2]
    assert got["morgan 2 1"][0][:2] == ["seat", "Y bob · yellow"]
    assert got["morgan 2 1"][1][0] == "pos" and got["morgan 2 1"][1][1].startswith("bob's pirate on 1")
    assert got["power gun 1"][0][:2] == ["seat", "B ann · blue"]
    assert got["power gun* 2"][0][:2] == ["seat", "Y bob · yellow"]
    assert got["advance 1 hook"][0][1].startswith("your pirate on 1") and got["advance 1 hook"][1][0] == "card"
    assert got["retreat 3"][0][1].startswith("your pirate on 3")
    assert got["power chest 2"][0][1].startswith("your pirate on 2")
    assert [k for k, *_ in got["power parrot parrot 1 hook"]] == ["card", "pos", "card"]
    assert [k for k, *_ in got["power hook* gun 3"]] == ["card", "pos"]
    for action in ("take hook*", "stack parrot*"):  # dark cards drawn as dark cards
        kind, text, icon, dark = got[action][0]
        assert kind == "card" and icon and dark and "*" not in text
    assert got["discard hook* gun"][0][3] and not got["discard hook* gun"][1][3]
    # And in the running game, the seat-taking steps the page offers name players.
    seen: dict[str, int] = {}
    deadline = time.monotonic() + 240
    rng = random.Random(5)
    while not seen and time.monotonic() < deadline:
        state = browser.execute_script(
            "return !document.getElementById('end-box').hidden ? 'over' : "
            "(!document.getElementById('confirm-box').hidden ? 'confirm' : "
            "(document.querySelectorAll('#choices .choice').length ? 'choose' : 'wait'))")
        if state == "over":
            break
        check_labels(browser, seen)
        # Prefer the verbs whose next step is about a player, to reach it often.
        picked = browser.execute_script("""
            const c = [...document.querySelectorAll('#choices .choice')];
            const want = c.find((b) => ['morgan', 'give'].includes(b.dataset.word) || (document.body.dataset.prefix === 'power' && /^gun/.test(b.dataset.word)))
              || c.find((b) => b.dataset.word === 'power');
            if (want) { want.click(); return true; } return false;""")
        if not picked and state == "choose":
            browser.execute_script(
                "const c = document.querySelectorAll('#choices .choice'); if (c.length) c[arguments[0] % c.length].click();",
                rng.randrange(1 << 30))
        elif state == "confirm":
            click_confirm(browser)
        time.sleep(0.03)
    assert seen, "no choice about a player was offered in the game"
    no_errors(browser)


def test_two_tabs_the_newest_takes_the_seat_once_and_the_other_offers_it_back(
        browser, host_process):
    host = host_process("--players", "2", "--bots", "1", "-o", "segments=2", "-o", "pirates=2",
                        *QUICK)
    guest_page(browser, host.url)
    click_css(browser, "#table-list button.sit[data-table='1']")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game")
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    second = browser.current_window_handle
    try:
        viewport(browser, *SIZES[0])
        browser.get(host.url + "play")
        wait_for_page(browser, "document.body.dataset.screen === 'game'", "the seat in the new tab")
        browser.switch_to.window(first)
        wait_for_page(browser, "document.body.dataset.screen === 'moved'", "the first tab: moved")
        assert "another tab" in browser.find_element(By.ID, "moved").text
        assert browser.find_element(By.ID, "take-back").is_displayed()
        assert not browser.find_element(By.ID, "game").is_displayed()
        assert not browser.execute_script(
            "return [...document.querySelectorAll('#choices .choice, #confirm')].some((b) => b.offsetParent)")
        streams = browser.execute_script("return document.body.dataset.streams")
        browser.switch_to.window(second)
        streams2 = browser.execute_script("return document.body.dataset.streams")
        time.sleep(6)  # nobody reconnects on its own: no fight over the seat
        assert browser.execute_script("return document.body.dataset.screen") == "game"
        assert browser.execute_script("return document.body.dataset.streams") == streams2
        browser.switch_to.window(first)
        assert browser.execute_script("return document.body.dataset.streams") == streams
        assert browser.execute_script("return document.body.dataset.screen") == "moved"
        # Taken back here: this tab plays, the other one says the seat moved.
        browser.find_element(By.ID, "take-back").click()
        wait_for_page(browser, "document.body.dataset.screen === 'game'", "the seat back in the first tab")
        browser.switch_to.window(second)
        wait_for_page(browser, "document.body.dataset.screen === 'moved'", "the second tab: moved")
        browser.close()
    finally:
        browser.switch_to.window(first)
    assert play_to_end(browser, random.Random(2), [SIZES[0]]) >= 1
    no_errors(browser)


def test_a_wrong_host_password_is_asked_again_and_never_sent_again(browser, host_process):
    host = host_process("--players", "2", "--bots", "2", "--password", "sesame", *QUICK)
    viewport(browser, *SIZES[1])
    browser.delete_all_cookies()
    browser.get(host.url + "play")
    browser.execute_script("localStorage.clear(); localStorage.setItem('cartagena-name', 'zoe')")
    browser.get(host.url + "play")
    wait_for(browser, "!document.getElementById('secret-form').hidden", "the password asked")
    fits(browser, 360, "the password form")
    before = int(browser.execute_script("return document.body.dataset.streams"))
    browser.find_element(By.ID, "secret-input").send_keys("wrong")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "!document.getElementById('secret-form').hidden && "
             "/not right/.test(document.getElementById('secret-label').textContent)",
             "the wrong password said so")
    opened = int(browser.execute_script("return document.body.dataset.streams"))
    assert opened <= before + 1  # the one stream that carried the typed password
    time.sleep(7)  # and none after it: the refused password is not sent again
    assert int(browser.execute_script("return document.body.dataset.streams")) == opened
    assert browser.execute_script("return document.getElementById('conn').dataset.live") == "no"
    browser.find_element(By.ID, "secret-input").send_keys("sesame")
    browser.find_element(By.ID, "secret-go").click()
    wait_for(browser, "document.body.dataset.screen === 'lobby' && "
             "document.getElementById('conn').dataset.live === 'yes' && "
             "document.querySelector('#table-list li')", "the lobby")
    no_errors(browser)


def test_leave_asks_first_and_sits_away_from_the_moves(browser, host_process):
    host = host_process("--players", "2", "--bots", "1", *QUICK)
    guest_page(browser, host.url)
    click_css(browser, "#table-list button.sit[data-table='1']")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#choices .choice').length", "our turn")
    for size in SIZES:
        viewport(browser, *size)
        gap = browser.execute_script("""
            const leave = document.getElementById('game-leave').getBoundingClientRect();
            const moves = [...document.querySelectorAll('#choices .choice, #confirm, #back, #again')]
              .filter((b) => b.offsetParent).map((b) => b.getBoundingClientRect());
            return Math.min(...moves.map((m) => Math.max(leave.top - m.bottom, m.top - leave.bottom)));""")
        assert gap >= 150, (size, gap)  # not a slip of the thumb away from a move
    viewport(browser, *SIZES[0])
    browser.execute_script("document.getElementById('game-leave').scrollIntoView()")
    browser.find_element(By.ID, "game-leave").click()
    assert browser.find_element(By.ID, "leave-ask").is_displayed()
    fits(browser, 390, "the leave question")
    browser.find_element(By.ID, "leave-no").click()
    assert not browser.find_element(By.ID, "leave-ask").is_displayed()
    time.sleep(0.5)
    assert browser.execute_script("return document.body.dataset.screen") == "game"
    seats = json.load(urllib.request.urlopen(host.url + "tables.json"))["tables"][0]["seats"]
    assert any(s["name"] == "zoe" for s in seats)
    assert any(c["name"].startswith("cartagena_seat_") for c in browser.get_cookies())
    browser.find_element(By.ID, "game-leave").click()
    browser.find_element(By.ID, "leave-yes").click()
    wait_for(browser, "document.body.dataset.screen === 'lobby'", "back in the lobby")
    wait_for(browser, "true", "")
    deadline = time.monotonic() + 10
    while any(c["name"].startswith("cartagena_seat_") for c in browser.get_cookies()):
        assert time.monotonic() < deadline, "the seat's cookie is forgotten"
        time.sleep(0.1)
    no_errors(browser)


def test_the_new_table_form_offers_every_option_with_the_engines_defaults(browser, host_process):
    """The form offers every option of every preset with the engine's defaults, checks
    the bounds and shows the host's refusal; the lobby and the form, opened with each
    preset, fit every size."""
    from cartagena_net.engine import OPTIONS, PRESETS, make_game

    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url, size=SIZES[1])
    for size in SIZES:  # the lobby, and the form opened with each preset: every size fits
        viewport(browser, *size)
        fits(browser, size[0], "the lobby")
    browser.find_element(By.CSS_SELECTOR, "#more-options summary").click()
    names = browser.execute_script(
        "return [...document.querySelectorAll('#option-fields [data-option]')].map((e) => e.dataset.option)")
    assert sorted(names) == sorted(n for n in OPTIONS if n != "players")
    assert browser.execute_script(
        "return [...document.querySelectorAll('#new-rules option')].map((o) => o.value)") == list(PRESETS)
    read = """
        const out = {};
        for (const e of document.querySelectorAll('#option-fields [data-option]'))
          out[e.dataset.option] = e.type === 'checkbox' ? e.checked : e.value;
        out.players = document.getElementById('new-players').value;
        out.range = [document.getElementById('new-players').min, document.getElementById('new-players').max];
        return out;"""
    for name, preset in PRESETS.items():
        browser.execute_script("const s = document.getElementById('new-rules'); s.value = arguments[0];"
                               "s.dispatchEvent(new Event('change'));", name)
        for size in SIZES:
            viewport(browser, *size)
            fits(browser, size[0], f"the New table form, opened, {name}")
        shown = browser.execute_script(read)
        spec = make_game(name).spec()
        assert shown["range"] == [str(n) for n in preset.players]
        assert shown["players"] == str(spec["players"])
        for key, value in spec.items():
            if key in ("preset", "players"):
                continue
            want = value if isinstance(value, bool) else ",".join(value) if isinstance(value, list) else str(value)
            assert shown[key] == want, (name, key, shown[key], value)
    # A story changes other defaults: shown as the engine makes them.
    browser.execute_script("const s = document.getElementById('new-rules'); s.value = 'studiogiochi-2017';"
                           "s.dispatchEvent(new Event('change'));"
                           "const t = document.getElementById('option-story'); t.value = 'whole';"
                           "t.dispatchEvent(new Event('change'));")
    shown = browser.execute_script(read)
    whole = make_game("studiogiochi-2017", story="whole").spec()
    assert shown["segments"] == str(whole["segments"]) and shown["island_segments"] == "3"
    # The form's checks are the option's bounds; the host's refusal is shown as it says it.
    field = browser.find_element(By.ID, "option-pirates")
    field.clear()
    field.send_keys("9")
    browser.find_element(By.ID, "new-go").click()
    time.sleep(0.5)
    assert browser.execute_script("return document.body.dataset.screen") == "lobby"
    assert not browser.execute_script("return document.getElementById('option-pirates').validity.valid")
    browser.find_element(By.ID, "new-reset").click()
    assert browser.execute_script(read)["pirates"] == str(make_game("studiogiochi-2017").spec()["pirates"])
    browser.execute_script("const s = document.getElementById('new-rules'); s.value = 'jamaica';"
                           "s.dispatchEvent(new Event('change'));")
    field = browser.find_element(By.ID, "option-board")
    field.send_keys("zzz")
    browser.find_element(By.ID, "new-go").click()
    wait_for(browser, "!document.getElementById('notice').hidden && document.getElementById('notice').textContent",
             "the host's refusal shown")
    assert browser.execute_script("return document.body.dataset.screen") == "lobby"
    no_errors(browser)


def test_a_2017_black_magic_table_from_the_page_against_a_terminal_player(browser, host_process):
    """The issue's whole evening: a guest makes a 2017 table with the Black Magic Woman on
    the page, a terminal player and a bot join, it is played to the end at phone size
    without a sideways scroll, and played again."""
    from tests.web.test_browser_seats import TcpPlayer

    host = host_process("--players", "2", "--bots", "2", *QUICK)
    guest_page(browser, host.url)
    new_table(browser, "studiogiochi-2017", 3, {"magic": True, "segments": 2, "pirates": 2})
    tid = json.load(urllib.request.urlopen(host.url + "tables.json"))["tables"][-1]["id"]
    ann = TcpPlayer(host.port, players=99, table=tid)  # the guest, as owner, starts
    ann.start()
    add_bots_and_start(browser, 1)
    assert play_to_end(browser, random.Random(8), SIZES[:2]) >= 1
    ann.join(WAIT)
    assert ann.error is None and ann.outcome is not None
    assert not browser.find_element(By.ID, "again").get_attribute("hidden")


def test_open_hands_and_twelve_face_up_cards_at_360_px(browser, host_process, tmp_path):
    """Tortuga at 360 px with touch: every other player's open hand shown as cards, the
    twelve face-up cards wrapped in their own box, no keyboard digits on the choices."""
    host = host_process("--players", "3", "--bots", "2", "--rules", "tortuga", *QUICK)
    guest_page(browser, host.url, size=SIZES[1])
    click_css(browser, "#table-list button.sit[data-table='1']")
    click_css(browser, "#start:not([hidden])", "Start")
    wait_for_page(browser, "document.body.dataset.screen === 'game' && "
                           "document.querySelectorAll('#piles .row-cards .card-word').length === 12",
                  "the game with its face-up row")
    fits(browser, 360, "tortuga's game")
    hands = browser.execute_script("""
        return [...document.querySelectorAll('#player-list li.player')].map((li) => ({
          seat: li.dataset.seat, you: / \\(you\\)/.test(li.textContent),
          count: Number((li.textContent.match(/(\\d+) cards/) || [])[1]),
          shown: li.querySelectorAll('.open-hand .card-word').length}));""")
    assert len(hands) == 3
    for h in hands:
        if not h["you"]:
            assert h["shown"] == h["count"] > 0, hands
    assert browser.execute_script("return matchMedia('(pointer: coarse)').matches")
    assert browser.execute_script(
        "return [...document.querySelectorAll('#choices .choice .key')].every((k) => !k.offsetParent)")
    browser.save_screenshot(str(tmp_path / "tortuga-360.png"))
    no_errors(browser)
