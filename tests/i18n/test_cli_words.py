"""The command line's own outputs in Swedish (records' scoreboard and list, review's
summary), with the language's ordinals, decimal comma and percent sign, and the same
functions in English as before."""
from __future__ import annotations

from cartagena_net import i18n
from cartagena_net.cli.records import end_word, format_scoreboard
from cartagena_net.cli.review import summary

BOARD = [
    {"player": "ann", "bot": False, "games": 3, "wins": 2, "places": [2, 1], "unfinished": 1,
     "rating": 1.5},
    {"player": "ismcts normal", "bot": True, "games": 3, "wins": 1, "places": [1, 2],
     "unfinished": 0, "rating": -0.25},
]
REC = {"id": "g1", "players": [{"kind": "person", "name": "ann"},
                               {"kind": "bot", "name": "Bonny", "bot": "greedy"}]}
REV = {"method": {"playouts": 1, "search": 200}, "turning": [0],
       "moves": [{"seat": 0, "played": "advance 0 skull", "best": "retreat 3",
                  "loss": 0.25}],
       "positions": [{"chances": [0.5, 0.5]}, {"chances": [0.25, 0.75]}]}


def test_the_scoreboard_and_the_review_in_swedish():
    i18n.set_language("sv")
    board = format_scoreboard(BOARD, "/x").splitlines()
    assert board[0].split() == ["spelare", "partier", "vinster", "styrketal", "placeringar"]
    assert board[1].split() == ["ann", "3", "2", "1,5", "1:a", "2,", "2:a", "1;", "1",
                                "oavslutat"]  # one game: the singular
    assert board[2].startswith("tänkande bot, normal ") and "-0,2" in board[2]  # in words
    assert board[3].startswith("en bots rad är alla platser av den sorten och nivån")
    assert board[4].startswith("placeringar: bland spelarna i varje parti; styrketal: "
                               "openskills Plackett-Luce")
    assert format_scoreboard([], "/x") == "inga partier sparade i /x än"
    assert end_word("stopped") == "avbrutet" and end_word("odd") == "odd"
    assert end_word("won") == "avgjort"  # a record's end, not the bot's "vann"
    two = format_scoreboard([{**BOARD[0], "unfinished": 2}], "/x").splitlines()
    assert two[1].endswith("2 oavslutade")
    text = summary(REC, REV).splitlines()
    assert text[0] == "analys av g1 (1 utspelning per ställning, sökning 200 iterationer)"
    assert text[1] == ("drag 1: ann spelade advance 0 skull; boten hade spelat retreat 3 "
                       "(-25\u00a0%); chanser 50\u00a0% -> 25\u00a0%")  # the notation stays as it is


def test_the_same_in_english():
    i18n.set_language("en")
    board = format_scoreboard(BOARD, "/x").splitlines()
    assert board[0].split() == ["player", "games", "wins", "rating", "places"]
    assert board[1].split() == ["ann", "3", "2", "1.5", "1st", "2,", "2nd", "1;", "1",
                                "unfinished"]
    text = summary(REC, REV).splitlines()
    assert text[0] == "review of g1 (1 playout a position, search 200 iterations)"
    assert text[1] == ("action 1: ann played advance 0 skull; the bot would have played "
                       "retreat 3 (-25%); chances 50% -> 25%")


def test_ordinals_in_both_languages():
    from cartagena_net.cli.records import _ordinal

    i18n.set_language("en")
    assert [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th"]
    i18n.set_language("sv")
    assert [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1:a", "2:a", "3:e", "4:e", "11:e", "12:e", "13:e", "21:a", "22:a", "23:e", "101:a",
        "111:e"]
