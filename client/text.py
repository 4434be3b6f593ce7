"""Lines of styled text: the building blocks of every screen.

A line is a list of ``(style, text)`` fragments (prompt_toolkit formatted text).
"""
from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

Line = list[tuple[str, str]]

DIM = "fg:ansibrightblack"
KEY = "bold fg:ansicyan"
ERR = "bold fg:ansired"
TITLE = "bold"
SEL = "reverse"
LAND = "bg:ansigreen fg:ansiblack bold"
LAST = "fg:ansiyellow bold underline"  # the others' last moves
WIDE = 118  # from this width on, the log and chat get their own column


def width_of(line: Line) -> int:
    """Columns taken by a line."""
    return sum(get_cwidth(text) for _, text in line)


def clip(line: Line, width: int) -> Line:
    """Cut a line to ``width`` columns, keeping styles."""
    out: Line = []
    used = 0
    for style, text in line:
        w = get_cwidth(text)
        if used + w <= width:
            out.append((style, text))
            used += w
            continue
        part = ""
        for ch in text:
            cw = get_cwidth(ch)
            if used + cw > width:
                break
            part += ch
            used += cw
        if part:
            out.append((style, part))
        break
    return out


def pad(line: Line, width: int) -> Line:
    """Clip or pad with spaces to exactly ``width`` columns."""
    line = clip(line, width)
    gap = width - width_of(line)
    return line + [("", " " * gap)] if gap > 0 else line


def word_lines(text: str, width: int) -> list[str]:
    """``text`` broken between words into lines of at most ``width`` columns (a word
    wider than a line stands alone on its own, whole)."""
    lines: list[str] = []
    cur = ""
    for word in text.split(" "):
        if cur and get_cwidth(cur) + 1 + get_cwidth(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    lines.append(cur)
    return lines


def wrap(text: str, width: int, style: str = "") -> list[Line]:
    """Word-wrap plain text into lines (a word wider than the screen cut at its edge)."""
    return [clip([(style, line)], width) for line in word_lines(text, width)]


ASCII_FALLBACK = {
    "·": ".", "→": "->", "←": "<-", "↑": "^", "↓": "v", "—": "-", "–": "-", "…": "...",
    "▶": ">", "▸": ">", "◂": "<", "★": "*", "│": "|", "─": "-", "×": "x", "•": "*",
    "◆": "+", "≈": "~", "⛴": "@", "⛱": "C",
}


def asciify(lines: list[Line]) -> list[Line]:
    """The ``--ascii`` fallback: every character outside ASCII replaced."""
    def conv(text: str) -> str:
        if text.isascii():
            return text
        return "".join(c if c.isascii() else ASCII_FALLBACK.get(c, "?") for c in text)

    return [[(style, conv(text)) for style, text in line] for line in lines]


def to_text(lines: list[Line]) -> str:
    """Plain text of lines (for tests and captures)."""
    return "\n".join("".join(t for _, t in line) for line in lines)


def to_formatted(lines: list[Line]) -> list[tuple[str, str]]:
    """One prompt_toolkit formatted-text list for a screen."""
    out: list[tuple[str, str]] = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def keys_line(pairs: list[tuple[str, str]], width: int) -> list[Line]:
    """``key what · key what`` wrapped to the width."""
    lines: list[Line] = []
    cur: Line = []
    for key, what in pairs:
        frag: Line = [(KEY, key), ("", f" {what}")]
        sep: Line = [(DIM, " · ")] if cur else []
        if cur and width_of(cur) + width_of(sep) + width_of(frag) > width:
            lines.append(cur)
            cur, sep = [], []
        if not cur and width_of(frag) > width:  # one pair wider than the line: wrapped
            indent = get_cwidth(key) + 1
            said = wrap(what, max(10, width - indent))
            lines.append([(KEY, key), ("", " ")] + said[0])
            lines += [[("", " " * indent)] + x for x in said[1:-1]]
            cur = [("", " " * indent)] + said[-1] if len(said) > 1 else lines.pop()
            continue
        cur = cur + sep + frag
    if cur:
        lines.append(cur)
    return [clip(x, width) for x in lines]
