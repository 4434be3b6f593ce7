"""The screen-reader mode's next game at the same table (`cartagena play --screen-reader`,
over pipes): the end says how to play again (again, play again, start), help at the end
lists it, the new game is announced, and "You play COLOUR." names the player's colour in
every game, though the seats move round between games (a new seat number, the same
colour)."""
from __future__ import annotations

import re
import time

from tests.client.test_reader import NUMBERED, Game, wait_for

SMALL = ["--rules", "ravensburger", "--players", "3", "--seed", "5", "-o", "segments=1",
         "-o", "pirates=1"]


def answer_until(game: Game, want: str, limit: float = 120.0) -> list[str]:
    """Answer every numbered question with 1 until ``want`` is said; the lines said."""
    got: list[str] = []
    asked = False
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        line = game.next_line(0.3)
        if line is None:
            assert not game.ended, "\n".join(game.said[-30:])
            if asked:
                game.type("1")
                asked = False
            continue
        got.append(line)
        if line == want:
            return got
        if NUMBERED.match(line) and not line.startswith("0. "):
            asked = True
    raise AssertionError(f"never said {want!r}:\n" + "\n".join(game.said[-30:]))


def lines_until(game: Game, want: str, limit: float = 30.0) -> list[str]:
    """The lines said until one starting with ``want`` (:func:`wait_for`, sooner)."""
    return wait_for(game, want, limit)


def my_colour(seat_lines: list[str]) -> str:
    mine = [x for x in seat_lines if x.endswith("(you)")]
    assert len(mine) == 1, seat_lines
    m = re.match(r"Seat \d+, (\w+): ", mine[0])
    assert m, mine
    return m.group(1)


def test_the_next_game_is_offered_announced_and_names_the_right_colour(tmp_path):
    game = Game(tmp_path, "en", SMALL)
    try:
        said = lines_until(game, "You play ")
        first = said[-1]
        assert first.startswith("You play red."), said
        answer_until(game, "The game is over.")
        end = lines_until(game, "You stay at this table")[-1]
        assert "type again to play again" in end, end
        game.type("help")
        helped = lines_until(game, "The game is over: ")[-1]
        assert "again (or play again, or start)" in helped, helped
        for typed in ("again", "play again", "start"):
            game.type(typed)
            said = lines_until(game, "A new game begins.")
            assert not any(x.startswith("I do not know") for x in said), said
            assert not any(x.startswith("You play ") for x in said), said  # not before it
            intro = lines_until(game, "You play ")
            assert len(intro) == 1, intro  # at once after the announcement
            answer_until(game, "The game is over.")
            lines_until(game, "You stay at this table")
            game.type("seats")  # (the seats of the game just played)
            lines_until(game, "Seats:")
            seats = [x for x in (game.next_line(5.0) for _n in range(3)) if x]
            assert intro[0] == f"You play {my_colour(seats)}. Type help for the commands.", (
                intro, seats)
            assert my_colour(seats) == "red"  # the same colour, wherever the seat moved
        game.type("quit")
        game.type("1")
        game.proc.wait(timeout=30)
    finally:
        if game.proc.poll() is None:
            game.proc.kill()
    assert game.proc.returncode == 0
