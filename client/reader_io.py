"""The screen-reader mode's input and output: standard input read line by line by a
thread (:class:`LineReader`), and the lines said (:class:`Speaker`), one sentence a line,
broken between words at a terminal's width (a pipe's never).

Standard input is read by a thread that hands each line to the reactor
(``callFromThread``): the same on Linux, macOS and Windows (where a console or a pipe
cannot be watched by the selector loop), and the reactor never waits for a line.
"""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Any, TextIO

from cartagena_net.i18n import _
from client.reader_words import Question


def notation_free(line: str) -> str:
    """A line as it is said: the arrows of a move read as a word."""
    return line.replace(" → ", " " + _("to") + " ").replace("→", " " + _("to") + " ")


def wrap_words(text: str, width: int | None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words only (a word
    wider than the line stands alone on its own, whole); None: one line."""
    from client.text import word_lines

    if width is None or width < 2:
        return [text]
    return word_lines(text, width)


def terminal_width(out: TextIO) -> int | None:
    """The columns of the terminal ``out`` writes to (None: a pipe or a file, whose lines
    are never broken)."""
    try:
        if not out.isatty():
            return None
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None


class LineReader:
    """Standard input read by a thread; each line handed to the reactor."""

    def __init__(self, reactor: Any, stream: TextIO, on_line: Callable[[str], None],
                 on_end: Callable[[], None]) -> None:
        self.reactor = reactor
        self.stream = stream
        self.on_line = on_line
        self.on_end = on_end
        self.thread = threading.Thread(target=self._run, name="stdin lines", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError, UnicodeDecodeError):
                line = ""
            if not line:
                with contextlib.suppress(Exception):  # the reactor may be gone
                    self.reactor.callFromThread(self.on_end)
                return
            with contextlib.suppress(Exception):
                self.reactor.callFromThread(self.on_line, line[:2000])


class Speaker:
    """Where the lines go: one sentence a line, flushed at once."""

    def __init__(self, out: TextIO, width: Callable[[], int | None] | None = None) -> None:
        self.out = out
        self.said: list[str] = []
        # A terminal's lines are broken between words, a column short of its width (a
        # line as wide as the terminal makes some consoles add an empty one).
        self.width = width if width is not None else lambda: terminal_width(out)

    def say(self, line: str) -> None:
        text = notation_free(str(line)).strip()
        if not text:
            return
        self.said.append(text)
        del self.said[:-200]
        width = self.width()
        try:
            self.out.write("\n".join(wrap_words(text, width - 1 if width else None)) + "\n")
            self.out.flush()
        except (OSError, ValueError):
            pass

    def ask(self, q: Question) -> None:
        self.say(q.head)
        for i, c in enumerate(q.choices, 1):
            self.say(f"{i}. {c.text}")
        if q.back is not None:
            self.say(_("0. Back"))
