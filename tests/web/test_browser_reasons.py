"""A host's reasons on /play in a Swedish Chromium: the refusal of a start with empty
seats, sent by the host as data, is worded by the page in Swedish (the host's English
line never shown), and a hint's, a bye's and the engine's refusal of options (a New
table's ``bad-rules``) go through the same templates."""
from __future__ import annotations

from tests.web.conftest import browser_session
from tests.web.test_browser import wait_for
from tests.web.test_browser_phone import QUICK, guest_page, new_table
from tests.web.test_browser_seats import click_css, wait_for_page
from tests.web.test_browser_swedish import ENGLISH


def test_a_refusal_a_hint_and_a_bye_worded_in_swedish_on_play(host_process):
    with browser_session("sv-SE") as driver:
        host = host_process(*QUICK)
        guest_page(driver, host.url, "zoe")
        new_table(driver, "jamaica", 3)
        wait_for_page(driver, "document.body.dataset.screen === 'waiting'", "the waiting room")
        click_css(driver, "#start:not([hidden])", "Starta partiet")  # two seats empty
        wait_for(driver, "!document.getElementById('notice').hidden", "the refusal")
        notice = driver.execute_script("return document.getElementById('notice').textContent")
        assert notice == ("platser som fortfarande är tomma: blå, gul; vänta på spelare "
                          "eller lägg till bottar"), notice
        assert not ENGLISH.search(notice), notice
        said = driver.execute_script("""return [
            Cartagena.hintText({kind: 'retreat', spaces: 1, cards: 2}),
            Cartagena.hintText({kind: 'jump', spaces: 9, pirates: 2, power: 'hook', gain: 7,
                      next: 'advance 0 key'}),
            Cartagena.reasonText('host-ended', null),
            Cartagena.reasonText('card-not-in-hand', {card: 'skull'}),
            Cartagena.reasonText('no-chest-there', {place: 6}),
            Cartagena.reasonText('discard-too-many', {cards: 1, given: 2}),
            Cartagena.reasonText('a-reason-of-tomorrow', {}),
            Cartagena.reasonText('seat-taken', {seat: 1}),
            Cartagena.reasonText('discard-too-many', {cards: 'one', given: 2}),
            Cartagena.reasonText('preset-players', {preset: 'jamaica', lo: 2, hi: 5}),
            Cartagena.reasonText('option-number-not', {option: 'segments', value: "'x'"})]""")
        assert said == [
            "den här piraten flyttar 1 ruta bakåt och plockar upp 2 kort",
            "kraften hos krok: de här två piraterna hoppar 9 rutor",  # no points, no notation
            "värden avslutade partiet",
            "du har ingen dödskalle på handen",
            "ingen stängd kista på ruta 6",
            "du ska slänga 1 kort, inte 2",
            None, None, None,
            "jamaica är för 2 till 5 spelare",  # a bad-rules error: the engine's reason
            "alternativet segments tar ett heltal, inte 'x'"], said
        move = driver.execute_script("""return Cartagena.hintText({kind: 'jump', spaces: 12,
            before: 31, after: 36, move: {why: 'hint-advance', args: {card: 'skull',
            pirate: 2, from: 'start', to: 12}}})""")
        assert move == ("spela dödskalle: din pirat 2 vid start hoppar till ruta 12, första "
                        "lediga dödskalle — din vinstchans 31 % → 36 %"), move
