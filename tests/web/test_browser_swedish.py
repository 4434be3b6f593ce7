"""The pages in Swedish, in real headless Chromium set to Swedish (``--lang=sv-SE`` and
``intl.accept_languages``): /play through a whole game with a second guest in an English
browser at the same table, each page in its own reader's words (no English interface word
left on the Swedish one but names and the notation; "1 kort", never "1 cards"); the TV
pages and a replay in Swedish while an English browser sees English; the language switch
remembered across a reload, in a SameSite=Strict cookie, at 360 px."""
from __future__ import annotations

import random
import re
import time

import pytest

from tests.web.conftest import browser_session
from tests.web.test_browser import viewport, wait_for
from tests.web.test_browser_phone import QUICK, fits, guest_page, new_table, record_ids
from tests.web.test_browser_seats import click_css, wait_for_page

# English interface words the pages use; none may be left on a Swedish page. (Swedish
# words that are English too, "start", "bot", "OK", "Hint"'s "Tips"... are not listed.)
ENGLISH = re.compile(r"\b(the|your|you|turn|plays?|cards?|stock|discard|confirm|back|players?|"
                     r"events|leave|seat|seats|wins?|home|action|draws?|retreats?|pirates?|empty|"
                     r"watching|waiting|tables?|hints?|chances|sound|skull|dagger|key|bottle|"
                     r"hat|red|blue|yellow|green|purple|boat|free|moves|replay|rules|"
                     r"finished|playing|owner|game|over|chose|pick|lands|aboard|of|and|on|at)\b",
                     re.IGNORECASE)


@pytest.fixture(scope="module")
def swedish():
    with browser_session("sv-SE") as driver:
        yield driver


@pytest.fixture(scope="module")
def english():
    with browser_session("en-US") as driver:
        yield driver


def text(driver) -> str:
    """What the page shows, names and notation taken out: the seats' names, the rules'
    preset name, options as KEY=VALUE, the host's address and paths, the language switch's own names, and a
    table's name the host made ("vm's table": a name, in its maker's language)."""
    shown = driver.execute_script("return document.body.innerText")
    shown = re.sub(r"zoe|ann|Cartagena|jamaica|English|Svenska|https?://\S+|\d+\.\d+\.\d+\.\d+(:\d+)?"
                   r"|cartagena join \S+|bot[ -]?\d*|/play\b|\S+'s table|\b[a-z_]+=\S+", " ", shown)
    return shown


def no_english(driver, where: str) -> None:
    shown = text(driver)
    left = sorted({m.group(0) for m in ENGLISH.finditer(shown)})
    assert not left, f"{where}: English words {left} in: {shown[:1500]}"
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def step(driver, rng: random.Random) -> str:
    return driver.execute_script("""
        if (document.body.dataset.screen !== 'game') return 'wait';
        if (!document.getElementById('end-box').hidden) return 'over';
        const box = document.getElementById('confirm-box');
        if (!box.hidden && document.getElementById('preview').textContent) {
          document.getElementById('confirm').click(); return 'played'; }
        const c = document.querySelectorAll('#choices .choice');
        if (c.length) { c[arguments[0] % c.length].click(); return 'picked'; }
        return 'wait';""", rng.randrange(1 << 30))


def test_a_whole_game_on_play_in_swedish_beside_an_english_guest(swedish, english,
                                                                    host_process):
    host = host_process(*QUICK)
    rng = random.Random(46)
    guest_page(swedish, host.url, "zoe", (360, 640, True))
    assert swedish.execute_script("return document.documentElement.lang") == "sv"
    no_english(swedish, "the lobby")
    assert "nytt bord" in text(swedish).lower()
    # The screens not shown yet: two tabs, the password form, Leave's question, the Hint box.
    hidden = swedish.execute_script(
        "return ['moved', 'secret-form', 'leave-ask', 'hint-box', 'game']"
        ".map((id) => document.getElementById(id).textContent).join(' ')")
    left = sorted({m.group(0) for m in ENGLISH.finditer(hidden)})
    assert not left and "Ta tillbaka den hit" in hidden and "Tips" in hidden, (left, hidden)
    # A short board (the words, not the length, are checked): made with the form's
    # options, which show in Swedish too.
    new_table(swedish, "jamaica", 3, {"segments": 3, "pirates": 3})
    no_english(swedish, "the waiting room")
    click_css(swedish, "#add-bot:not([hidden])", "Add a bot")
    wait_for(swedish, "[...document.querySelectorAll('#seat-list .player')]"
                      ".filter((li) => / bot/.test(li.textContent)).length === 1", "a bot")
    guest_page(english, host.url, "ann", (390, 844, True))
    assert english.execute_script("return document.documentElement.lang") == "en"
    assert "new table" in english.execute_script("return document.body.innerText").lower()
    wait_for_page(english, "(() => { const li = [...document.querySelectorAll('#table-list "
                           "li.table-item')].find((x) => /zoe/.test(x.textContent));"
                           "const b = li && li.querySelector('.sit');"
                           "if (!b || b.disabled) return false; b.click(); return true; })()",
                  "Take a seat at zoe's table")
    wait_for_page(english, "document.body.dataset.screen === 'waiting'", "ann seated")
    wait_for(swedish, "document.getElementById('add-bot').hidden", "every seat taken")
    no_english(swedish, "the full waiting room")
    click_css(swedish, "#start:not([hidden])", "Starta partiet")
    wait_for_page(swedish, "document.body.dataset.screen === 'game'", "the game starts")
    seen_sv: set[str] = set()
    deadline = time.monotonic() + 400
    checks = 0
    over = set()
    while len(over) < 2:
        assert time.monotonic() < deadline, "the game did not end"
        moved = False
        for name, driver in (("sv", swedish), ("en", english)):
            state = step(driver, rng)
            if state == "over":
                over.add(name)
            moved |= state in ("played", "picked")
            if name == "sv" and state in ("played", "picked", "over") and checks % 3 == 0:
                no_english(swedish, f"the game ({state})")
                fits(swedish, 360, "the game in Swedish")
                seen_sv.add(swedish.execute_script(
                    "return document.getElementById('event-log').innerText"))
            checks += 1
        if not moved:
            time.sleep(0.05)
    no_english(swedish, "the end")
    sv_page = swedish.execute_script("return document.body.innerText")
    en_page = english.execute_script("return document.body.innerText")
    # The Swedish end, and Swedish event lines rendered from the events' data.
    assert re.search(r"vinner!|Partiet är slut", sv_page), sv_page[:800]
    log = "\n".join(seen_sv)
    assert re.search(r"spelar \S+:|går bakåt|på tur|drar", log), log[:800]
    assert not re.search(r"\b1 cards\b", sv_page + en_page)
    assert re.search(r"\b\d+ kort\b", sv_page)
    # The English guest at the same table kept English all along.
    assert re.search(r"\bwins?!|The game is over", en_page), en_page[:800]
    assert "players" in en_page.lower() and "events" in en_page.lower()
    assert "spelare" not in en_page.lower()
    assert re.search(r"\b(plays|retreats)\b", en_page) and "kort" not in en_page
    assert english.execute_script("return document.documentElement.lang") == "en"


def test_the_tv_pages_and_a_replay_in_swedish_and_the_switch_is_remembered(
        swedish, english, host_process):
    host = host_process("--players", "2", "--bots", "2", "--bot-delay", "0.02")
    for driver in (swedish, english):
        driver.get("about:blank")  # a page of an earlier test's host no longer reconnects
        driver.delete_all_cookies()
        viewport(driver, 360, 640, True)  # and its console log is emptied
    ids = record_ids(host.url)  # the bots' game is over: a replay exists
    # The tables and the table's live page: Swedish for one, English for the other.
    swedish.get(host.url)
    wait_for(swedish, "document.readyState === 'complete' && document.getElementById('lang')",
             "the tables")
    time.sleep(0.5)
    no_english(swedish, "the tables")
    assert "Spela från en terminal" in text(swedish)
    fits(swedish, 360, "the tables in Swedish")
    swedish.get(host.url + "table/1")
    wait_for(swedish, "document.querySelectorAll('#board .place').length > 10", "the board")
    time.sleep(0.5)
    no_english(swedish, "the TV page")
    shown = text(swedish)
    low = shown.lower()  # headings are set in capitals by the style sheet
    assert "spelare" in low and "händelser" in low and "kort" in low
    english.get(host.url + "table/1")
    wait_for(english, "document.querySelectorAll('#board .place').length > 10", "the board")
    time.sleep(0.5)
    shown = english.execute_script("return document.body.innerText").lower()
    assert "players" in shown and "events" in shown and "spelare" not in shown
    # A replay in Swedish, its moves from their data.
    swedish.get(host.url + f"game/{ids[0]}")
    wait_for(swedish, "!document.getElementById('controls').hidden", "the replay")
    swedish.find_element("id", "last").click()
    time.sleep(0.3)
    no_english(swedish, "the replay")
    assert "drag" in text(swedish).lower()
    assert swedish.execute_script(
        "return document.getElementById('last').title").startswith("slutet")
    fits(swedish, 360, "the replay in Swedish")
    # The switch: an English browser chooses Swedish; it stays Swedish after a reload,
    # remembered in a SameSite=Strict cookie of a known language.
    english.get(host.url)
    wait_for(english, "document.getElementById('lang')", "the switch")
    fits(english, 360, "the tables with the switch")
    english.execute_script("const s = document.getElementById('lang'); s.value = 'sv';"
                           "s.dispatchEvent(new Event('change'));")
    wait_for(english, "document.documentElement.lang === 'sv' && document.readyState === "
                      "'complete'", "the page in Swedish")
    cookie = english.get_cookie("cartagena_lang")
    assert cookie["value"] == "sv" and cookie.get("sameSite") == "Strict", cookie
    english.refresh()
    wait_for(english, "document.readyState === 'complete' && document.getElementById('lang')",
             "the reloaded page")
    assert english.execute_script("return document.documentElement.lang") == "sv"
    assert english.execute_script("return document.getElementById('lang').value") == "sv"
    time.sleep(0.3)
    no_english(english, "the tables after the switch")
    english.get(host.url + "table/1")
    wait_for(english, "document.querySelectorAll('#board .place').length > 10", "the board")
    assert "spelare" in english.execute_script("return document.body.innerText").lower()
    # ... and back to English.
    english.execute_script("const s = document.getElementById('lang'); s.value = 'en';"
                           "s.dispatchEvent(new Event('change'));")
    wait_for(english, "document.documentElement.lang === 'en' && document.readyState === "
                      "'complete'", "the page in English again")
    english.delete_all_cookies()
