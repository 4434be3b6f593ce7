"""A mixed table plays to the end, each reader in its own language: a real host (its own
process, English), a Swedish terminal client under tmux (``LANG=sv_SE.UTF-8``), an
English Chromium on /play (``Accept-Language: en-US``) and a bot, all at one table. The
terminal's every screen is Swedish (no English interface word but names and the
notation); the page is English with no Swedish word on it, at the start, during the
game and at the end."""
from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from tests.client.test_tmux import (
    CLI,
    Tmux,
    assert_no_traceback,
    terminal_env,
    wait_screen,
)
from tests.client.test_tmux_swedish import (
    SWEDISH,
    english_left,
    names_on,
    plurals_right,
    sv_take_turn_action,
    sv_turn,
)
from tests.web.conftest import browser_session
from tests.web.test_browser import wait_for
from tests.web.test_browser_phone import guest_page
from tests.web.test_browser_seats import click_css, wait_for_page
from tests.web.test_browser_swedish import step

pytestmark = pytest.mark.tmux

HOST = ["--name", "Havanna", "--table-name", "Port Royal", "--rules", "ravensburger",
        "--option", "segments=1", "--option", "pirates=3", "--players", "3", "--bots", "1",
        "--bot-delay", "0.05"]
PEOPLE = ("Port Royal", "Havanna", "ann", "bo", "ravensburger", "cartagena-net")

# Swedish words the page would show if it spoke Swedish (its interface's words and the
# game's); none may be on the English page. Letters å, ä and ö are looked for apart.
SWEDISH_WORDS = re.compile(
    r"\b(din|tur|turer|spelare|händelser|partiet|kort|väntar|bord|plocka|flytta|bakåt|"
    r"framåt|dödskalle|dolk|nyckel|flaska|hatt|slupen|pirater|vinner|och|är|på|av|"
    r"drag|lämna|bekräfta|tillbaka|röd|blå|gul|grön|lila|draghögen|slänghögen|"
    r"åskådare|starta|ägaren)\b", re.IGNORECASE)


@pytest.fixture
def browser():
    """An English Chromium (its ``Accept-Language`` says en-US)."""
    with browser_session("en-US") as driver:
        yield driver


def page_text(driver) -> str:
    shown = driver.execute_script("return document.body.innerText")
    for name in PEOPLE:  # whole words: "bo" in "rowboat" stays
        shown = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", shown)
    return re.sub(r"Svenska|https?://\S+|\d+\.\d+\.\d+\.\d+(:\d+)?|cartagena join \S+", " ",
                  shown)


def english_page(driver, where: str) -> str:
    """The page's text; it is English and has no Swedish word."""
    shown = page_text(driver)
    swedish = sorted({m.group(0) for m in SWEDISH_WORDS.finditer(shown)})
    assert not swedish and not re.search("[åäöÅÄÖ]", shown), \
        f"{where}: Swedish {swedish} on the English page: {shown[:1500]}"
    assert driver.execute_script("return document.documentElement.lang") == "en", where
    severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe
    return shown


def swedish_screen(text: str, where: str) -> None:
    left = english_left(text, names_on(text) + PEOPLE)
    assert left == [], f"{where}: English words {left} on the Swedish terminal:\n{text}"


def test_a_mixed_table_swedish_terminal_english_browser_and_a_bot(
        tmp_path: Path, browser, host_process) -> None:
    host = host_process(*HOST)
    env = terminal_env(tmp_path, **SWEDISH)
    t = Tmux(f"ctgn-mixtable-{os.getpid()}", env)
    rng = random.Random(4646)
    try:
        # The English guest sits first (the table's owner) ...
        guest_page(browser, host.url, "ann", (1024, 768, False))
        wait_for(browser, "document.querySelector('#table-list li.table-item .sit')",
                 "the host's table in the lobby")
        shown = english_page(browser, "the lobby")
        assert "New table" in shown and "Take a seat" in shown, shown[:800]
        wait_for_page(browser, "(() => { const b = document.querySelector("
                               "'#table-list li.table-item .sit');"
                               "if (!b || b.disabled) return false; b.click(); return true; })()",
                      "Take a seat at Port Royal")
        wait_for_page(browser, "document.body.dataset.screen === 'waiting'", "ann seated")
        # ... then the Swedish terminal joins the same table.
        t.start("bo", [*CLI, "join", f"127.0.0.1:{host.port}", "--name", "bo"])
        lobby = wait_screen(t, "bo", lambda x: "lobbyn hos" in x and "Enter sätt dig" in x,
                            "bo's lobby", timeout=120)
        swedish_screen(lobby, "the lobby")
        t.keys("bo", "Enter")
        waiting = wait_screen(t, "bo", lambda x: "väntar på att ägaren startar…" in x,
                              "bo's waiting room", timeout=120)
        swedish_screen(waiting, "the waiting room")
        wait_for(browser, "[...document.querySelectorAll('#seat-list .player')]"
                          ".some((li) => /\\bbo\\b/.test(li.textContent))", "bo at the table")
        shown = english_page(browser, "the waiting room")
        assert "Start the game" in shown, shown[:800]
        click_css(browser, "#start:not([hidden])", "Start the game")
        wait_for_page(browser, "document.body.dataset.screen === 'game'", "the game starts")

        screens: list[str] = []
        pages: list[str] = []
        over: set[str] = set()
        moves = 0
        deadline = time.monotonic() + 900
        while len(over) < 2:
            assert time.monotonic() < deadline, "the game did not end"
            acted = False
            screen = t.screen("bo")
            if "PARTIET ÄR SLUT" in screen:
                over.add("terminal")
            elif sv_turn(screen):
                screen = wait_screen(t, "bo", sv_turn, "bo's turn")
                swedish_screen(screen, f"bo's turn {moves}")
                screens.append(screen)
                sv_take_turn_action(t, "bo", screen, screens)
                acted = True
            state = step(browser, rng)
            if state == "over":
                over.add("browser")
            elif state in ("played", "picked"):
                acted = True
                if len(pages) < 40 and moves % 3 == 0:
                    pages.append(english_page(browser, f"the game, move {moves}"))
            moves += acted
            assert moves < 600, "the game does not end"
            if not acted:
                time.sleep(0.1)

        # The terminal: Swedish throughout, its end in Swedish.
        end = wait_screen(t, "bo", lambda x: "PARTIET ÄR SLUT" in x, "bo's end screen")
        screens.append(end)
        assert "Placering:" in end and "Sammanfattning:" in end, end
        plurals_right(end, "kort spelat", "kort spelade")
        plurals_right(end, "tur", "turer")
        for screen in screens:
            swedish_screen(screen, "a screen of the game")
        assert sum("din tur" in x for x in screens) >= 3, "bo played a few turns"
        # The page: English during the game and at its end.
        assert pages, "the page was looked at during the game"
        assert any(re.search(r"\b(plays|retreats|draws)\b", p) for p in pages), pages[-1][:800]
        final = english_page(browser, "the end")
        assert re.search(r"\bwins?!|The game is over", final), final[:800]
        low = final.lower()
        assert "players" in low and "events" in low
        assert not re.search(r"\b1 cards\b", final)
        pct = browser.execute_script(
            "return [...document.querySelectorAll('.chance-pct')].map((x) => x.textContent)")
        assert all(re.fullmatch(r"\d+%", p) for p in pct), pct  # English writes 45%

        t.keys("bo", "q")
        wait_screen(t, "bo", lambda x: "EXIT=0" in x, "bo's client to exit", timeout=60)
        assert_no_traceback(env)
    finally:
        t.kill()
