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


def _reviewed() -> tuple[dict, dict, str, str, int]:
    """A real game's record, and a review of it kept without its moves' words (as an
    older version kept them) whose one turning point is an advance played where the bot
    would have moved back; the two moves' notation and where they are."""
    from cartagena_net.bots.review import state_at

    from ..records.test_format import bot_game, record_of

    rec = record_of(bot_game("jamaica", {"players": 2, "segments": 2}, seed=4))
    moves = rec["moves"]
    for k, m in enumerate(moves):
        legal = [str(a) for a in state_at(rec, k).legal_actions()]
        backs = [a for a in legal if a.startswith("retreat")]
        if m["action"].startswith("advance") and backs:
            break
    rev = {"method": {"playouts": 1, "search": 200}, "turning": [k],
           "moves": [{"seat": m["seat"], "played": m["action"], "best": m["action"],
                      "loss": 0.0} for m in moves],
           "positions": [{"chances": [0.5, 0.5]} for _ in range(len(moves) + 1)]}
    rev["moves"][k].update(best=backs[0], loss=0.25)
    rev["positions"][k + 1]["chances"] = [0.25, 0.75] if moves[k]["seat"] == 0 else [0.75, 0.25]
    return rec, rev, moves[k]["action"], backs[0], k


def summary_player(rec: dict, k: int) -> str:
    from cartagena_net.records.format import player_label

    return player_label(rec["players"][rec["moves"][k]["seat"]])


def _worded(rec: dict, k: int, action: str) -> str:
    from cartagena_net.bots.review import state_at
    from cartagena_net.engine import SPECTATOR, view
    from client.powers import move_words

    return move_words(view(state_at(rec, k), SPECTATOR), action)


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
    rec, rev, played, best, k = _reviewed()
    who = summary_player(rec, k)
    text = summary(rec, rev).splitlines()
    assert text[0] == f"analys av {rec['id']} (1 utspelning per ställning, sökning 200 iterationer)"
    # the moves in words, from the position (never the notation), in Swedish
    assert text[1] == "dragen som kostade mest, det dyraste först:"
    assert text[2] == (f"drag {k + 1}: {who}: {_worded(rec, k, played)}; bättre: "
                       f"{_worded(rec, k, best)} "
                       "(-25\u00a0%); chanser 50\u00a0% -> 25\u00a0%")
    assert played not in text[2] and best not in text[2]
    assert "från" in text[2] and "tillbaka från" in text[2]


def test_the_same_in_english():
    i18n.set_language("en")
    board = format_scoreboard(BOARD, "/x").splitlines()
    assert board[0].split() == ["player", "games", "wins", "rating", "places"]
    assert board[1].split() == ["ann", "3", "2", "1.5", "1st", "2,", "2nd", "1;", "1",
                                "unfinished"]
    rec, rev, played, best, k = _reviewed()
    who = summary_player(rec, k)
    text = summary(rec, rev).splitlines()
    assert text[0] == f"review of {rec['id']} (1 playout a position, search 200 iterations)"
    assert text[1] == "the actions that cost the most, the costliest first:"
    assert text[2] == (f"action {k + 1}: {who}: {_worded(rec, k, played)}; better: "
                       f"{_worded(rec, k, best)} "
                       "(-25%); chances 50% -> 25%")
    assert played not in text[2] and " from " in text[2] and "back from" in text[2]


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
