"""A QR code of a short text (the address guests open), drawn with Unicode half blocks:
two rows of modules per line of text, dark modules as ink on the terminal's background,
with the quiet zone the standard asks for. Made by ``segno`` (pure Python)."""
from __future__ import annotations

QUIET = 2  # modules of blank border (phones read 2 well on a dark or light terminal)


def qr_lines(text: str) -> list[str]:
    """The QR code of ``text`` as lines of ``█ ▀ ▄`` and spaces (light on dark: a
    terminal's background is the code's dark part, so the blocks are the light ones)."""
    import segno

    matrix = [list(row) for row in segno.make(text, error="m", micro=False).matrix]
    size = len(matrix)
    blank = [0] * (size + 2 * QUIET)
    rows = [blank] * QUIET + [[0] * QUIET + r + [0] * QUIET for r in matrix] + [blank] * QUIET
    if len(rows) % 2:
        rows.append(blank)
    out = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        # light (0) modules are drawn: a block where both are light, a half where one is
        out.append("".join(" ▄▀█"[(0 if a else 2) + (0 if b else 1)]
                           for a, b in zip(top, bottom, strict=True)))
    return out
