"""A QR code of a short text (the address guests open), drawn with Unicode half blocks:
two rows of modules per line of text, with the quiet zone the standard asks for (4
modules). Made by ``segno`` (pure Python).

The code must scan on a dark terminal and on a light one alike, so it never relies on
the terminal's own colours: every cell is drawn with both colours set, dark modules in
black ink (the half blocks' foreground) on white paper (their background), quiet zone
included. :data:`QR_STYLE` is that pair for prompt_toolkit; :func:`qr_ansi_lines` the
same lines with ANSI colours, for a plain terminal.
"""
from __future__ import annotations

QUIET = 4  # modules of light border all round (ISO/IEC 18004)
QR_STYLE = "fg:#000000 bg:#ffffff"  # ink on paper, whatever the terminal's theme
# 256-colour black (16) on white (231): not remapped by terminal themes, unlike the 16 ANSI
# colours (a theme's "black" may be grey, its "white" dark).
ANSI_ON = "\x1b[38;5;16;48;5;231m"
ANSI_OFF = "\x1b[0m"


def qr_lines(text: str) -> list[str]:
    """The QR code of ``text`` as lines of ``█ ▀ ▄`` and spaces: a glyph's ink is the
    dark modules, its background the light ones (draw them with :data:`QR_STYLE`)."""
    import segno

    matrix = [list(row) for row in segno.make(text, error="m", micro=False).matrix]
    size = len(matrix)
    blank = [0] * (size + 2 * QUIET)
    rows = [blank] * QUIET + [[0] * QUIET + r + [0] * QUIET for r in matrix] + [blank] * QUIET
    if len(rows) % 2:
        rows.append(blank)
    out = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        # dark (1) modules are inked: a full block where both are dark, a half where one is
        out.append("".join(" ▄▀█"[(2 if a else 0) + (1 if b else 0)]
                           for a, b in zip(top, bottom, strict=True)))
    return out


def qr_ansi_lines(text: str) -> list[str]:
    """:func:`qr_lines` with black ink on white paper set by ANSI escapes on every line."""
    return [f"{ANSI_ON}{line}{ANSI_OFF}" for line in qr_lines(text)]
