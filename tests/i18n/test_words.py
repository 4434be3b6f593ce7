"""Things said in words in the reader's language: bot kinds and levels, a table's options,
a record's rules, players and times (local, the language's way), the score's header that
`replay --score` shows; never the notation (``greedy-bot``, ``players=3``,
``filibusters=True``, ``jamaica 3p``) nor a raw ``...Z`` time."""
from __future__ import annotations

import os
import re
import time
from datetime import timedelta, timezone

import pytest

from cartagena_net.i18n import language, set_language
from cartagena_net.i18n.when import when
from cartagena_net.i18n.words import (
    bot_row_words,
    bot_words,
    color_word,
    end_word,
    options_words,
    rules_words,
)
from cartagena_net.records import format as fmt
from tests.records.test_format import bot_game, record_of


@pytest.fixture
def swedish():
    before = language()
    set_language("sv")
    yield
    set_language(before)


def test_bot_kinds_and_levels_in_words(swedish):
    assert bot_words("greedy") == "girig bot"
    assert bot_words("random") == "slumpbot"
    assert bot_words("ismcts", "hard") == "tänkande bot, svår"
    assert bot_words("ismcts", think=1.5) == "tänkande bot, 1,5 s"
    assert bot_row_words("ismcts normal") == "tänkande bot, normal"
    assert bot_row_words("ismcts 1.5s") == "tänkande bot, 1,5 s"
    assert bot_row_words("Anne Bonny") == "Anne Bonny (bot)"
    set_language("en")
    assert bot_words("greedy") == "greedy bot" and bot_words("ismcts", "easy") == (
        "thinking bot, easy")


def test_options_and_rules_in_words(swedish):
    assert options_words({"players": 3, "filibusters": True, "colors": "red,blue"}) == (
        "3 spelare, Fribytarna")
    assert options_words({"story": "whole", "morgan": "also", "segments": 1}) == (
        "1 segment, Morgan vid sidan av att flytta bakåt, Hela rymningen")
    assert rules_words("jamaica", {"players": 3}) == "jamaica, 3 spelare"
    assert options_words({"row_size": 0, "hands_public": True}) == (
        "synliga kort, ingen rad med uppåtvända kort")
    assert options_words({"future": 2}) == "future=2"  # an option not known here: as typed
    set_language("en")
    assert rules_words("jamaica", {"players": 3, "filibusters": True}) == (
        "jamaica, 3 players, Filibusters")


def test_the_end_and_the_colours_in_words(swedish):
    assert [end_word(e) for e in ("won", "stopped", "abandoned", "odd")] == [
        "avgjort", "avbrutet", "övergivet", "odd"]
    assert color_word("yellow") == "gul" and color_word("teal") == "teal"


def test_a_records_time_is_local_and_written_the_languages_way(swedish):
    cet = timezone(timedelta(hours=1))
    assert when("2026-11-28T08:40:54Z", cet) == "28 nov 2026 kl. 09:40"
    assert when("2026-05-02T22:05:00Z", timezone(timedelta(hours=2))) == "3 maj 2026 kl. 00:05"
    assert when("not a time") == "not a time"
    set_language("en")
    assert when("2026-11-28T08:40:54Z", cet) == "28 Nov 2026, 09:40"


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="needs time.tzset to change the zone")
def test_the_local_zone_is_the_processes(swedish, monkeypatch):
    monkeypatch.setenv("TZ", "Europe/Stockholm")
    time.tzset()
    try:
        assert when("2026-11-28T08:40:54Z") == "28 nov 2026 kl. 09:40"
        assert when("2026-07-01T08:40:54Z") == "1 juli 2026 kl. 10:40"  # summer time
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert os.environ.get("TZ") is None


def test_the_score_header_in_words_and_the_file_in_english(swedish):
    rec = record_of(bot_game("jamaica", {"players": 3}, 3))
    head = [x for x in fmt.score(rec, words=True).splitlines() if x.startswith("#")]
    text = "\n".join(head)
    assert head[1] == "# regler: jamaica, 3 spelare"
    assert "# plats 0 röd: ann" in text and "# plats 1 blå: bot1 (tänkande bot, svår)" in text
    assert "# började 24 nov 2026 kl. " in text and "(avgjort)" in text and "Z" not in head[3]
    assert "seat 0" not in text and "won" not in text and "# resultat: 1. " in text
    english = fmt.score(rec)  # the file export writes: its format, English
    assert "# rules: jamaica 3p" in english and "# seat 0 red: ann" in english
    assert fmt.rules_text(rec) == "jamaica, 3 spelare"
    assert fmt.player_words(rec["players"][2]) == "bot2 (girig bot)"


def test_whole_numbers_group_their_thousands(swedish):
    from cartagena_net.i18n import whole

    assert [whole(n) for n in (999, 5000, 12000, -1234567)] == [
        "999", "5\u00a0000", "12\u00a0000", "-1\u00a0234\u00a0567"]
    set_language("en")
    assert whole(12000) == "12,000"


def test_the_level_help_writes_numbers_the_swedish_way(capsys):
    from cartagena_net.cli import main

    before = language()
    try:
        with pytest.raises(SystemExit):
            main(["selfplay", "--lang", "sv", "--help"])
    finally:
        set_language(before)
    text = re.sub(r"[ \n]+", " ", capsys.readouterr().out)  # the lines joined, no-break kept
    assert "1,5 s" in text and "5\u00a0000 iterationer" in text and "12\u00a0000 totalt" in text
    assert "1.5" not in text and "5000" not in text and "girig bot" in text


def test_a_reasons_seconds_take_the_decimal_comma():
    from cartagena_net.engine.reasons import reason_text
    from cartagena_net.i18n import translation

    assert reason_text("frame-incomplete", {"seconds": "3", "limit": "2.5"},
                       tr=translation("sv")).endswith("(högst 2,5 s)")


def test_an_option_as_typed_reads_as_the_rules_read_it():
    # a table made with -o pirates=1 keeps the text it was given: it still reads in words
    from cartagena_net.i18n.words import option_words

    assert option_words("pirates", "1") == "1 pirate each"
    assert option_words("magic", "true") == "Black Magic Woman"
    assert option_words("segments", "٣") == "segments=٣"  # only ASCII digits are numbers
