"""`cartagena replay --screen-reader`: a kept game line by line, for a screen reader.

The replay viewer's positions (:class:`client.replay.ReplayViewer`, the same model the
full-screen replay draws) said in sentences: Enter (or ``next``) plays the next action and
says its events; ``back``, ``turn``, ``start``, ``end``, ``seat N`` and ``spectator``
move and change the viewpoint; ``board``, ``hand``, ``pirates``, ``others`` and ``log``
answer as in a game. No network, no terminal needed: standard input and output only.
"""
from __future__ import annotations

import sys
from typing import Any, TextIO

from cartagena_net.engine import SPECTATOR
from cartagena_net.i18n import N_, _
from client.reader import Speaker, command_word, is_number
from client.reader_words import (
    LOG_SAID,
    board_lines,
    event_words,
    hand_lines,
    my_pirates_lines,
    others_lines,
    outcome_lines,
)

MOVES: dict[str, str] = {"next": N_("next"), "turn": N_("turn"), "end": N_("end"),
                         "seat": N_("seat"), "spectator": N_("spectator")}
HELP = N_("Enter or next: the next action; back: the action before; turn: the next turn; "
          "start, end; seat N: see the game as seat N; spectator; board, hand, pirates, "
          "others, log; quit.")


def replay_word(text: str) -> str | None:
    low = text.strip().lower()
    for name, msgid in MOVES.items():
        if low in (name, _(msgid).lower()):
            return name
    return command_word(low)


def run_reader_replay(record: dict[str, Any], review: dict[str, Any] | None = None,
                      inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Say the record's game as the reader asks, until ``quit`` or the input ends."""
    from client.replay import ReplayViewer

    viewer = ReplayViewer(record, review=review)
    speaker = Speaker(out if out is not None else sys.stdout)
    say = speaker.say
    m = viewer.model

    def where() -> None:
        say(_("Action {n} of {last}, turn {turn} of {turns}.").format(
            n=viewer.pos, last=viewer.last, turn=viewer.turn_number(),
            turns=len(viewer.turn_starts)))

    def events_since(before: int) -> None:
        new = m.history[before:] if len(m.history) >= before else []
        for line in event_words(m, new, [str(e.get("text", "")) for e in new]):
            say(line)
        if m.game_over and viewer.pos == viewer.last:
            for line in outcome_lines(m):
                say(line)

    say(_("Replay of {table}: {players}.").format(
        table=record.get("table") or record.get("id"),
        players=", ".join(str(p.get("name")) for p in record.get("players") or [])))
    where()
    say(_(HELP))
    for raw in inp if inp is not None else sys.stdin:
        text = raw.strip()
        word, _sep, rest = text.partition(" ")
        name = "next" if not text else replay_word(word)
        before = len(m.history)
        if name == "next":
            if viewer.pos >= viewer.last:
                say(_("That was the last action."))
                continue
            viewer.step(1)
            events_since(before)
        elif name == "back":
            viewer.step(-1)
            where()
        elif name == "turn":
            viewer.turn(1)
            events_since(before)
            where()
        elif name == "start":
            viewer.go(0)
            where()
        elif name == "end":
            viewer.go(viewer.last)
            where()
            events_since(len(m.history))
        elif name == "seat" and is_number(rest) and 1 <= int(rest) <= len(viewer.players):
            viewer.see_as(int(rest) - 1)
            say(_("Seen as {who}.").format(who=m.name))
        elif name == "spectator":
            viewer.see_as(SPECTATOR)
            say(_("Seen as a spectator."))
        elif name == "board":
            for line in board_lines(m):
                say(line)
        elif name == "hand":
            for line in hand_lines(m):
                say(line)
        elif name == "pirates":
            for line in my_pirates_lines(m):
                say(line)
        elif name == "others":
            for line in others_lines(m):
                say(line)
        elif name == "log":
            h = m.history[-LOG_SAID:]
            for line in event_words(m, h, [str(e.get("text", "")) for e in h]):
                say(line)
        elif name == "help":
            say(_(HELP))
        elif name == "quit":
            break
        else:
            say(_("I do not know {text}: type a number, or help.").format(text=repr(text[:40])))
    say(_("Goodbye."))
    return 0
