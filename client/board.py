"""The board, drawn: the compact rows of numbered spaces, or the winding path of larger
cells when there is room, with the paths' names, the sloop of the Whole Jailbreak and its
Captain, and the start and the goal with their counts.

Pure functions of a :class:`~client.model.ClientModel` and a width.
"""
from __future__ import annotations

from cartagena_net.i18n import NP_, _, pgettext
from client.glyphs import color_letters, color_style, end_mark, glyph, marks
from client.model import ClientModel
from client.text import (
    DIM,
    LAND,
    LAST,
    SEL,
    TITLE,
    Line,
    width_of,
)

# The places the engine names (start and goal, paths), as a player reads them.
PLACE_NAMES = {
    "start": NP_("place", "start"), "sloop": NP_("place", "sloop"),
    "jail": NP_("place", "jail"), "flooded sloop": NP_("place", "flooded sloop"),
    "cove": NP_("place", "cove"), "meeting place": NP_("place", "meeting place"),
    "rowboat": NP_("place", "rowboat"), "boat": NP_("place", "boat"),
    "passage": NP_("place", "passage"),
    "underground passage": NP_("place", "underground passage"),
    "island path": NP_("place", "island path"), "jungle path": NP_("place", "jungle path"),
    "path": NP_("place", "path"),
}


def place(name: str) -> str:
    """A place's name in the reader's language (an unknown one as the host named it)."""
    return pgettext("place", PLACE_NAMES[name]) if name in PLACE_NAMES else name


def number_style(model: ClientModel, pos: int, last: set[int]) -> str:
    """How a space's number is drawn: previewed landing, chosen pirate, others' last move."""
    if model.preview is not None and model.preview.landing == pos:
        return LAND
    if model.sel_pos == pos and not model.spectate:
        return SEL
    return LAST if pos in last else DIM


def _pirates_on(view: dict) -> dict[int, list[str]]:
    on: dict[int, list[str]] = {}
    for s in view["seats"]:
        for p in s["pirates"]:
            on.setdefault(p, []).append(str(s.get("color", "")))
    return on


def board_lines(model: ClientModel, width: int, labels: bool = True) -> list[Line]:
    """The board as a wrapped strip of numbered cells with the pirates on them, path by
    path (each named, with ``labels``), the Whole Jailbreak's sloop on a line of its own
    between the underground passage and the island path."""
    view = model.view
    assert view is not None
    board = view["board"]
    keys = model.keys
    letters = color_letters(s.get("color", "") for s in view["seats"])
    on = _pirates_on(view)
    digits = len(str(len(board)))
    cell_w = digits + 1 + 3 + 1
    per_row = max(1, (width + 1) // cell_w)
    prev = model.preview
    last = model.last_moved()

    def cell(pos: int) -> Line:
        out: Line = [(number_style(model, pos, last), f"{pos:>{digits}}"),
                     ("bold", glyph(board[pos - 1], model.ascii_only, keys))]
        here = on.get(pos, [])
        for c in here[:3]:
            out.append((color_style(c), letters.get(c, "?")))
        empty = 3 - min(3, len(here))
        if empty and prev is not None and prev.landing == pos:
            out.append((LAND, "◆"))  # where the previewed move lands
            empty -= 1
        return out + [(DIM, ("." if model.ascii_only else "·") * empty)]

    lines: list[Line] = []
    sloop = sloop_pos(view)
    named = labels and named_paths(view)
    for i, path in enumerate(paths_of(view)):
        if sloop is not None and i and sloop < int(path["first"]):
            lines.append(sloop_line(model, width))
        if named:
            lines.append(path_label(view, i))
        cur: Line = []
        for n, pos in enumerate(range(int(path["first"]), int(path["last"]) + 1)):
            if cur:
                cur.append(("", " "))
            cur.extend(cell(pos))
            if (n + 1) % per_row == 0:
                lines.append(cur)
                cur = []
        if cur:
            lines.append(cur)
    return lines


def paths_of(view: dict) -> list[dict]:
    """The view's paths (one path of every space for views that name none)."""
    return list(view.get("paths") or [{"name": "", "first": 1, "last": len(view["board"])}])


def named_paths(view: dict) -> bool:
    """The island stories name their paths on the board (the escape has just one)."""
    return view.get("story") in ("island", "whole") and bool(view.get("paths"))


def sloop_pos(view: dict) -> int | None:
    sloop = view.get("sloop")
    return int(sloop["pos"]) if isinstance(sloop, dict) else None


def path_label(view: dict, i: int) -> Line:
    """``underground passage 1–18: jail → sloop at Cartagena``."""
    paths = paths_of(view)
    path = paths[i]
    frm = place(view.get("start_name") or "start") if i == 0 else _("sloop at Tortuga")
    to = place(view.get("goal_name") or "boat") if i == len(paths) - 1 else _(
        "sloop at Cartagena")
    return [(TITLE, place(str(path.get("name") or "path"))),
            (DIM, f" {path['first']}–{path['last']}: {frm} → {to}")]


SHORES = ("cartagena", "tortuga")


def sloop_piece(model: ClientModel) -> Line:
    """``⛴ 19 sloop: R×1 B×2``: the sloop's number (chosen, previewed), its load by colour."""
    view = model.view
    assert view is not None
    pos = sloop_pos(view)
    assert pos is not None
    load = _counts_by_color(model, pos)
    if load == [(DIM, " —")]:
        load = [(DIM, " " + _("empty"))]
    out: Line = [("bold", marks(model.ascii_only)["boat"] + " "),
                 (number_style(model, pos, model.last_moved()), str(pos)),
                 ("bold", " " + _("sloop:"))]
    out += load
    if model.preview is not None and model.preview.landing == pos:
        out.append((LAND, " ◆"))
    return out


def sloop_line(model: ClientModel, width: int, span: int = 0, cartagena_left: bool = True
               ) -> Line:
    """The sea between the shores with the sloop (and its load) at the one where it lies;
    with ``span`` 0 the Captain follows on the same line, else the line is ``span`` wide."""
    view = model.view
    assert view is not None
    shore = str((view.get("sloop") or {}).get("shore") or "cartagena")
    piece = sloop_piece(model)
    names = {s: [("bold" if s == shore else DIM, s.title())] for s in SHORES}  # proper names
    left, right = SHORES if cartagena_left else SHORES[::-1]
    captain = [] if span else [("", "  ")] + captain_text(model)
    if not span:
        span = min(60, max(30, width - width_of(captain)))
    sea_w = max(3, span - width_of(names[left] + names[right] + piece) - 4)
    sea: Line = [(DIM, marks(model.ascii_only)["sea"] * sea_w)]
    middle = piece + [("", " ")] + sea if shore == left else sea + [("", " ")] + piece
    return names[left] + [("", " ")] + middle + [("", " ")] + names[right] + captain


def captain_text(model: ClientModel) -> Line:
    """This turn's Captain and whether the free sail is still there (rules D28, D29)."""
    view = model.view
    assert view is not None
    captain = view.get("captain")
    if captain is None:
        return [(DIM, _("no Captain this turn"))]
    c = model.seat_color(captain)
    who = _("you") if captain == model.seat and not model.spectate else model.seat_name(captain)
    free = bool(view.get("free_sail")) and not int(view.get("actions_taken", 0))
    return [("", _("Captain: ")), (color_style(c), who),
            ("bold" if free else DIM,
             _(", free sail available") if free else _(", free sail used"))]


def _counts_by_color(model: ClientModel, pos: int) -> Line:
    view = model.view
    assert view is not None
    letters = color_letters(s.get("color", "") for s in view["seats"])
    out: Line = []
    for s in view["seats"]:
        n = sum(1 for p in s["pirates"] if p == pos)
        if n:
            c = str(s.get("color", ""))
            out += [("", " "), (color_style(c), f"{letters.get(c, '?')}×{n}" if not
                                model.ascii_only else f"{letters.get(c, '?')}x{n}")]
    return out or [(DIM, " —")]


def ends_line(model: ClientModel) -> Line:
    """The start and the goal with their counts by colour."""
    view = model.view
    assert view is not None
    boat = int(view.get("boat", len(view["board"]) + 1))
    start, goal = view.get("start_name") or "start", view.get("goal_name") or "boat"
    line: Line = [("bold", f"{end_mark(start, True, model.ascii_only)} {place(start)}:")]
    line += _counts_by_color(model, 0)
    line += [("", "   "), ("bold", f"{end_mark(goal, False, model.ascii_only)} {place(goal)}:")]
    line += _counts_by_color(model, boat)
    sel = model.sel_pos
    if not model.spectate and sel in (0, boat):
        line += [(SEL, " " + _("[selected: {place}]").format(
            place=place(start if sel == 0 else goal)))]
    if model.preview is not None and model.preview.landing == boat:
        line += [(LAND, " " + _("← lands in the {place}").format(place=place(goal)))]
    return line


PATH_CELL = 12  # "[12 ☠ R B ·]"
PATH_JOIN = 3  # "───" between cells
PATH_ROW = 6  # spaces a printed segment holds: one segment a row
PATH_WIDTH = PATH_ROW * PATH_CELL + (PATH_ROW - 1) * PATH_JOIN + 2
def path_lines(model: ClientModel, width: int) -> list[Line] | None:
    """The passage as a winding path, one printed segment a row, from the start to the
    goal (larger cells: number, symbol and up to three pirates). None if too narrow."""
    view = model.view
    assert view is not None
    if width < PATH_WIDTH:
        return None
    board = view["board"]
    keys = model.keys
    letters = color_letters(s.get("color", "") for s in view["seats"])
    on = _pirates_on(view)
    prev, sel, last = model.preview, model.sel_pos, model.last_moved()
    boat = int(view.get("boat", len(board) + 1))
    h, v = ("-", "|") if model.ascii_only else ("─", "│")
    dot = "." if model.ascii_only else "·"

    closed = {c["pos"] for c in (view.get("magic") or {}).get("chests") or ()
              if c.get("closed")}
    chest = "#" if model.ascii_only else "▪"

    def cell(pos: int) -> Line:
        num_style = number_style(model, pos, last)
        out: Line = [("", "["), (num_style, f"{pos:>2}"), ("", " "),
                     ("bold", glyph(board[pos - 1], model.ascii_only, keys)),
                     ("bold", chest) if pos in closed else ("", " ")]
        here = on.get(pos, [])
        marks_: Line = [(color_style(c), letters.get(c, "?")) for c in here[:3]]
        if len(here) > 3:
            marks_[-1] = (DIM, "+")
        if len(marks_) < 3 and prev is not None and prev.landing == pos:
            marks_.append((LAND, "◆"))
        marks_ += [(DIM, dot)] * (3 - len(marks_))
        for i, mk in enumerate(marks_):
            out += ([("", " ")] if i else []) + [mk]
        return out + [("", "]")]

    def ends(pos: int, name: str, mark: str) -> Line:
        line: Line = [("bold", f"{mark} {place(name)}:")] + _counts_by_color(model, pos)
        if not model.spectate and sel == pos:
            line.append((SEL, " " + _("[selected]")))
        if prev is not None and prev.landing == pos and pos == boat:
            line.append((LAND, " " + _("← lands in the {place}").format(place=place(name))))
        return line

    def col(index: int) -> int:  # the middle of the cell at ``index`` (0..5) of a row
        return 1 + index * (PATH_CELL + PATH_JOIN) + PATH_CELL // 2

    def connector(at: int, text: Line) -> Line:
        """The turn down to the next row, with a note beside it (a path's name)."""
        if not text:
            return [("", " " * col(at)), (DIM, v)]
        if col(at) + 3 + width_of(text) <= width:
            return [("", " " * col(at)), (DIM, v), ("", "  ")] + text
        return [("", " " * max(0, col(at) - width_of(text) - 2))] + text + [("", "  "), (DIM, v)]

    named = named_paths(view)
    starts = {int(p["first"]): i for i, p in enumerate(paths_of(view))}
    sloop = sloop_pos(view)
    start_name = view.get("start_name") or "start"
    at = 0  # where the path stands now: the index of its last cell
    lines: list[Line] = [ends(0, start_name, end_mark(start_name, True, model.ascii_only)),
                         connector(at, path_label(view, 0) if named else [])]
    rows = path_rows(view)
    for r, spaces in enumerate(rows):
        if spaces == [sloop]:  # the sea: Cartagena where the passage ends, then Tortuga
            lines[-1] = connector(at, captain_text(model))
            left = at == 0
            span = col(PATH_ROW - 1) - col(0) + 9
            lines.append([("", " " * (col(0) - 4))]
                         + sloop_line(model, width, span, cartagena_left=left))
            at = PATH_ROW - 1 if left else 0
            nxt = starts.get(rows[r + 1][0]) if r + 1 < len(rows) else None
            lines.append(connector(at, path_label(view, nxt) if named and nxt else []))
            continue
        n = len(spaces)
        if at + n - 1 < PATH_ROW:  # on to the right from here
            first, shown, at = at, spaces, at + n - 1
        elif at - n + 1 >= 0:  # back to the left from here
            first, shown, at = at - n + 1, list(reversed(spaces)), at - n + 1
        else:
            first, shown, at = 0, spaces, n - 1
        line: Line = [("", " " + " " * first * (PATH_CELL + PATH_JOIN))]
        for i, pos in enumerate(shown):
            if i:
                line.append((DIM, h * PATH_JOIN))
            line += cell(pos)
        lines.append(line)
        lines.append(connector(at, []))  # the turn to the next row
    goal_name = view.get("goal_name") or "boat"
    mark = end_mark(goal_name, False, model.ascii_only)
    goal = ends(boat, goal_name, mark)
    counts = [("", f"{mark} {place(goal_name)}:")] + _counts_by_color(
        model, boat)  # the same place for everyone, whatever is selected or previewed
    indent = max(0, min(col(at) - 2, width - width_of(counts) - 12))
    lines.append([("", " " * indent)] + goal)
    return lines


def path_rows(view: dict) -> list[list[int]]:
    """The spaces row by row: each path cut into printed segments of six, the sloop (the
    Whole Jailbreak) a row of its own between the two paths."""
    board = view["board"]
    paths = view.get("paths") or [{"first": 1, "last": len(board)}]
    rows: list[list[int]] = []
    done = 0
    for path in paths:
        first, last = int(path["first"]), int(path["last"])
        between = list(range(done + 1, first))  # the sloop, between the paths
        if between:
            rows.append(between)
        rows += [list(range(i, min(i + PATH_ROW - 1, last) + 1))
                 for i in range(first, last + 1, PATH_ROW)]
        done = last
    if done < len(board):
        rows.append(list(range(done + 1, len(board) + 1)))
    return rows


