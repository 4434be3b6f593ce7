"""Live chances and hints on the terminal: plain text, no prompt_toolkit.

``chances_lines`` draws each seat's chance of winning (from ``state.chances``) as a bar
and a sparkline of how it moved over the game; ``hint_line`` says a ``hint`` message in
one line. The model keeps what the host sent (``chances`` and the curve, the last hint);
the screens call these to draw it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cartagena_net.i18n import _, percent
from client.plain import hint_reason

SPARKS = "▁▂▃▄▅▆▇█"
ASCII_SPARKS = "_.-=+*#@"
CURVE_KEEP = 400


class ChanceCurve:
    """Each seat's chances over the game, one point per state number (the newest kept
    when several come for one)."""

    def __init__(self) -> None:
        self.points: list[tuple[int, list[float]]] = []
        self.latest: list[float] | None = None

    def reset(self) -> None:
        self.points, self.latest = [], None

    def take(self, msg: Mapping[str, Any]) -> bool:
        """Take a ``state`` message's chances; True if they changed."""
        chances = msg.get("chances")
        if not isinstance(chances, list) or not chances:
            return False
        values = [float(c) for c in chances]
        seq = int(msg.get("seq") or 0)
        if self.points and self.points[-1][0] == seq:
            self.points[-1] = (seq, values)
        elif not self.points or self.points[-1][0] < seq:
            self.points.append((seq, values))
            if len(self.points) > CURVE_KEEP:
                del self.points[1:-1:2]
        changed = values != self.latest
        self.latest = values
        return changed


def spark(values: Sequence[float], width: int, ascii_only: bool = False) -> str:
    """The last ``width`` values (each 0..1) as a line of block characters."""
    marks = ASCII_SPARKS if ascii_only else SPARKS
    top = len(marks) - 1
    return "".join(marks[max(0, min(top, round(v * top)))] for v in list(values)[-width:])


def chances_lines(curve: ChanceCurve, names: Sequence[str], width: int = 40,
                  ascii_only: bool = False) -> list[str]:
    """A line a seat: its name, its chance as a bar and in percent, and its curve."""
    chances = curve.latest
    if not chances or len(chances) != len(names):
        return []
    name_w = min(12, max(len(n) for n in names))
    bar_w = max(5, min(20, (width - name_w - 8) // 2))
    spark_w = max(0, width - name_w - bar_w - 4 - len(percent(100)))
    full, empty = ("#", ".") if ascii_only else ("█", "░")
    out = []
    pct_w = len(percent(100))  # as the language writes it: "45%", "45 %"
    for seat, (name, p) in enumerate(zip(names, chances, strict=True)):
        filled = round(p * bar_w)
        line = (f"{name[:name_w]:<{name_w}} {full * filled}{empty * (bar_w - filled)} "
                f"{percent(round(p * 100)):>{pct_w}}")
        if spark_w:
            line += " " + spark([pts[seat] for _seq, pts in curve.points], spark_w, ascii_only)
        out.append(line)
    return out


def hint_line(msg: Mapping[str, Any], view: Mapping[str, Any] | None = None) -> str:
    """A ``hint`` message in one line: the move in words and why (a host that words the
    move, ``why.move``; else the move worded from the position's ``view``)."""
    from client.powers import move_words

    why = msg.get("why")
    reason = hint_reason(why)
    if reason is not None and isinstance(why, Mapping) and isinstance(why.get("move"), Mapping):
        return _("hint: {action}").format(action=reason)  # the move in words, and why
    action = str(msg.get("action") or "?")
    if view is not None:
        action = move_words(dict(view), action)
    reason = reason or msg.get("reason") or ""
    return _("hint: {action}").format(action=action) + (f" — {reason}" if reason else "")


def hint_preview(view: Mapping[str, Any], msg: Mapping[str, Any]) -> Any:
    """The hinted move as the client's preview: where an advance or a retreat lands (the
    board marks it); Enter plays it like any preview."""
    from client.landing import advance_to, place_name, retreat_to
    from client.uistate import Preview

    action = str(msg.get("action") or "")
    words = action.split()
    land = frm = None
    try:
        if words[0] == "advance" and len(words) >= 3:
            frm = int(words[1])
            land = advance_to(dict(view), frm, words[2].removesuffix("*"))
        elif words[0] == "retreat" and len(words) >= 2:
            frm = int(words[1])
            got = retreat_to(dict(view), frm)
            land = got[0] if got else None
    except (KeyError, ValueError, TypeError, IndexError):
        land = frm = None
    where = ""
    if land is not None and frm is not None:
        where = f" ({place_name(dict(view), frm)} → {place_name(dict(view), land)})"
    # The reason is on the status line (hint_line): the preview's own line keeps room
    # for its keys. A host that words the move (``why.move``): the move in words.
    why = msg.get("why")
    move = why.get("move") if isinstance(why, Mapping) else None
    if isinstance(move, Mapping):  # a host that words the move: no notation here either
        if land is not None and frm is not None:
            short = f"{place_name(dict(view), frm)} → {place_name(dict(view), land)}"
        else:
            short = hint_reason({"move": move}) or action
        return Preview(action, _("hint: {action}").format(action=short), land, frm)
    from client.powers import move_words

    words_of = move_words(dict(view), action)
    return Preview(action, _("hint: {action}").format(action=words_of) + where, land, frm)
