"""The game screen: board, players, hand, piles, actions and the event log.

Pure functions of a :class:`~client.model.ClientModel` and a width.
"""
from __future__ import annotations

from collections import Counter

from client.glyphs import color_letters, color_style, end_mark, glyph, marks
from client.keymap import game_keys
from client.landing import place_name
from client.model import DEFAULT_PORT, ClientModel
from client.plain import count
from client.powers import magic_lines_text
from client.text import (
    DIM,
    ERR,
    KEY,
    LAND,
    LAST,
    SEL,
    TITLE,
    WIDE,
    Line,
    clip,
    keys_line,
    pad,
    width_of,
    wrap,
)


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
    frm = (view.get("start_name") or "start") if i == 0 else "sloop at Tortuga"
    to = (view.get("goal_name") or "boat") if i == len(paths) - 1 else "sloop at Cartagena"
    return [(TITLE, str(path.get("name") or "path")),
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
        load = [(DIM, " empty")]
    out: Line = [("bold", marks(model.ascii_only)["boat"] + " "),
                 (number_style(model, pos, model.last_moved()), str(pos)), ("bold", " sloop:")]
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
    names = {s: [("bold" if s == shore else DIM, s.title())] for s in SHORES}
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
        return [(DIM, "no Captain this turn")]
    c = model.seat_color(captain)
    who = "you" if captain == model.seat and not model.spectate else model.seat_name(captain)
    free = bool(view.get("free_sail")) and not int(view.get("actions_taken", 0))
    return [("", "Captain: "), (color_style(c), who),
            ("bold" if free else DIM, ", free sail available" if free else ", free sail used")]


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
    line: Line = [("bold", f"{end_mark(start, True, model.ascii_only)} {start}:")]
    line += _counts_by_color(model, 0)
    line += [("", "   "), ("bold", f"{end_mark(goal, False, model.ascii_only)} {goal}:")]
    line += _counts_by_color(model, boat)
    sel = model.sel_pos
    if not model.spectate and sel in (0, boat):
        line += [(SEL, f" [selected: {start if sel == 0 else goal}]")]
    if model.preview is not None and model.preview.landing == boat:
        line += [(LAND, f" ← lands in the {goal}")]
    return line


def hand_groups(model: ClientModel, hand: list[str]) -> list[Line]:
    """Cards by symbol with counts (dark cards apart), in key order: one group a card.

    Unicode: glyph, key, count (``☠s×2``); ASCII: name, key, count (``skull[s]x2``),
    so the key letter never doubles as the symbol's mark.
    """
    view = model.view
    assert view is not None
    keys = model.keys
    counts = Counter(hand)
    out: list[Line] = []
    for sym in view["symbols"]:
        for card in (sym, sym + "*"):
            n = counts.get(card, 0)
            dark = card.endswith("*")
            if n == 0 and (dark or model.ascii_only):
                continue
            style = "bold" if n else DIM
            key = keys.get(sym, "?").upper() if dark else keys.get(sym, "?")
            if model.ascii_only:
                out.append([(style, sym + ("*" if dark else "")), (KEY, f"[{key}]"),
                            (style, f"x{n}")])
            else:
                out.append([(style, glyph(sym, False, keys) + ("*" if dark else "")),
                            (KEY if n else DIM, key), (style, f"×{n}")])
    return out


def hand_cards(model: ClientModel, hand: list[str]) -> Line:
    """The hand as one line."""
    out: Line = []
    for group in hand_groups(model, hand):
        out += ([("", "  ")] if out else []) + group
    return out or [(DIM, "no cards")]


def hand_lines(model: ClientModel, hand: list[str], width: int) -> list[Line]:
    """``hand: ...`` wrapped to the width."""
    lines: list[Line] = []
    cur: Line = [("", "hand: ")]
    for group in hand_groups(model, hand) or [[(DIM, "no cards")]]:
        if len(cur) > 1 and width_of(cur) + 2 + width_of(group) > width:
            lines.append(cur)
            cur = [("", "      ")]
        cur += ([("", "  ")] if len(cur) > 1 else []) + group
    lines.append(cur)
    return lines


def public_cards(model: ClientModel, hand: list[str]) -> Line:
    """Another player's open hand, compact: glyph and count of each card held."""
    keys = model.keys
    counts = Counter(hand)
    out: Line = []
    for card, n in sorted(counts.items(), key=lambda kv: _card_order(model, kv[0])):
        out += [("bold", glyph(card, model.ascii_only, keys) + ("*" if card.endswith("*") else "")),
                ("", f"{n} ")]
    return out or [(DIM, "no cards")]


def _card_order(model: ClientModel, card: str) -> tuple[int, str]:
    symbols = list((model.view or {}).get("symbols") or [])
    base = card.rstrip("*")
    return (symbols.index(base) if base in symbols else len(symbols), card)


def players_lines(model: ClientModel, width: int) -> list[Line]:
    """One line per seat: turn mark, colour, name, hand, boat count, public cards."""
    view = model.view
    assert view is not None
    m = marks(model.ascii_only)
    letters = color_letters(s.get("color", "") for s in view["seats"])
    boat = int(view.get("boat", len(view["board"]) + 1))
    info = {s.get("seat"): s for s in (model.table_info or {}).get("seats") or []}
    goal = view.get("goal_name") or "boat"
    sloop = sloop_pos(view)
    lines: list[Line] = []
    for s in view["seats"]:
        seat = s["seat"]
        c = str(s.get("color", ""))
        turn = view.get("turn") == seat and not view.get("outcome")
        name = model.seat_name(seat)
        tag = " (you)" if seat == model.seat else ""
        extra = info.get(seat, {})
        if extra.get("bot") and extra.get("connected") is False:
            tag += " away, bot"
        elif extra.get("bot"):
            tag += " bot"
        elif extra.get("connected") is False:
            tag += " (away)"
        in_boat = sum(1 for p in s["pirates"] if p == boat)
        line: Line = [("bold", f"{m['turn'] if turn else ' '} "),
                      (color_style(c), f"{letters.get(c, '?')} {c:<7}"),
                      ("", f"{name[:14]:<14}{tag:<11}"),
                      (DIM, (f" {count(s.get('hand_size', 0), 'card'):>8}  {goal} {in_boat}/"
                            f"{len(s['pirates'])}"))]
        if sloop is not None:
            line.append((DIM, f"  aboard {s['pirates'].count(sloop)}"))
        hand = s.get("hand")
        if hand is not None and seat != model.seat:
            line += [("", "  ")] + public_cards(model, hand)
        lines.append(clip(line, width))
    return lines


def turn_line(model: ClientModel) -> Line:
    view = model.view
    assert view is not None
    if view.get("outcome"):
        winner = (view.get("outcome") or {}).get("winner")
        return [(TITLE + " reverse", " GAME OVER "),
                ("bold", "  You win!" if winner == model.seat else
                 f"  Winner: {model.seat_name(winner)} ({model.seat_color(winner)})")]
    turn = view.get("turn")
    left = int(view.get("actions_max", 0)) - int(view.get("actions_taken", 0))
    who = ("your" if turn == model.seat
           else f"{model.seat_name(turn)}'s ({model.seat_color(turn)})")
    line: Line = [(color_style(model.seat_color(turn)), f"{who} turn"),
                  ("", (f" · action {int(view.get('actions_taken', 0)) + 1} of "
                       f"{view.get('actions_max')} ({left} left, at least "
                       f"{view.get('actions_min', 1)})"))]
    return line


def pending_lines(model: ClientModel) -> list[Line]:
    view = model.view
    assert view is not None
    out: list[Line] = []
    for p in view.get("pending") or []:
        seat = p.get("seat")
        kind = p.get("kind")
        if kind != "discard":  # a power's decision (Black Magic Woman)
            verb = {"take": "take a card", "give": "give a drawn card to each other player",
                    "keep": "keep one card", "stack": "put the cards back on the stock"}
            if seat == model.seat and not model.spectate:
                out.append([(ERR + " reverse", f" You must {verb.get(kind, kind)} "),
                            ("", " ←→ or a card's letter, then Enter")])
            else:
                out.append([("", (f"waiting for {model.seat_name(seat)} to "
                                 f"{verb.get(kind, kind)}"))])
            continue
        if seat == model.seat and not model.spectate:
            picked = " ".join(model.discard_pick)
            out.append([(ERR + " reverse", f" You must {p.get('kind')} {p.get('count')} "),
                        ("", f" picked: {picked}" if picked else ""),
                        ("", " press a card's letter, then Enter")])
        else:
            out.append([("", (f"waiting for {model.seat_name(seat)} to {p.get('kind')} "
                             f"{p.get('count')} card(s)"))])
    return out


def piles_line(model: ClientModel) -> Line:
    view = model.view
    assert view is not None
    keys = model.keys
    disc = view.get("discard") or []
    top = disc[-1] if disc else None
    line: Line = [("", "discard: ")]
    line += [("bold", f"{glyph(top, model.ascii_only, keys)} {top}")] if top else [(DIM, "—")]
    line += [("", f"   stock: {view.get('stock', 0)}")]
    row = view.get("row")
    if row is not None:
        line += [("", "   row: ")]
        line += [("bold", " ".join(glyph(c, model.ascii_only, keys) for c in row) or "—")]
    return line


def action_lines(model: ClientModel, width: int) -> list[Line]:
    """What the player can do now, and the preview of the chosen move."""
    view = model.view
    assert view is not None
    if view.get("outcome"):
        return end_lines(model, width)
    if model.spectate or model.seat is None:
        return [[(TITLE + " reverse", " SPECTATING "), (DIM, " read-only")]] + keys_line(
            game_keys(model), width)
    out: list[Line] = [pirates_line(model)]
    out += since_lines(model, width)
    if not model.legal:
        out.append([(DIM, f"waiting for {model.seat_name(view.get('actor'))}… "),
                    (KEY, "?"), (DIM, " help")])
        return out
    if model.owes_discard():
        if model.preview is not None:
            out.append([(LAND, f" {model.preview.text} "), ("", "  "), (KEY, "Enter"),
                        ("", " confirm · "), (KEY, "Esc"), ("", " cancel")])
        return out
    out += keys_line(game_keys(model), width)
    if model.preview is not None:
        out.append([(LAND, f" {model.preview.text} "), ("", "  "), (KEY, "Enter"),
                    ("", " confirm · "), (KEY, "Esc"), ("", " cancel")])
    return out


def pirates_line(model: ClientModel) -> Line:
    """My pirates by their stable numbers, grouped by where they stand (chosen one marked)."""
    view = model.view
    assert view is not None
    mine = model.my_positions()
    by_pos: dict[int, list[int]] = {}
    for i, p in enumerate(mine):
        by_pos.setdefault(p, []).append(i)
    pir: Line = [("", "pirates:")]
    for p in sorted(by_pos):
        pir.append(("", " "))
        for j, i in enumerate(by_pos[p]):
            if j:
                pir.append(("", ","))
            pir.append((SEL, f"[{i + 1}]") if i == model.sel else (KEY, f"{i + 1}"))
        pir.append(("", f"@{place_name(view, p)}"))
    return pir


def since_lines(model: ClientModel, width: int) -> list[Line]:
    """What the others did since my last action (their landings are underlined on the board)."""
    view = model.view
    assert view is not None
    if model.spectate or model.seat is None or not model.had_a_turn():
        return []
    parts: list[str] = []
    last_who = None
    for e in model.since_my_turn():
        who = model.seat_color(e.get("seat"))
        if who == last_who and parts:
            who = ""  # "blue start→2, start→11" rather than "blue ..., blue ..."
        else:
            last_who = who
        kind = e.get("type")
        frm, to = place_name(view, e.get("from")), place_name(view, e.get("to"))
        who = f"{who} " if who else ""
        if kind == "advance":
            parts.append(f"{who}{frm}→{to}")
        elif kind == "retreat":
            parts.append(f"{who}back {frm}→{to} (+{count(int(e.get('drawn', 0)), 'card')})")
        elif kind == "morgan":
            parts.append(f"{who}pushed {model.seat_color(e.get('owner'))} {frm}→{to}")
        elif kind == "draw":
            parts.append(f"{who}drew")
        elif kind == "discard":
            parts.append(f"{who}discarded {e.get('card', '')}")
        elif kind == "undo":
            parts.append(f"{who}took a move back")
        elif kind == "sail":
            parts.append(f"{who}sailed to {str(e.get('shore', '')).title()}"
                         + (" (Captain, free)" if e.get("free") else ""))
    if not parts:
        return []
    lines = wrap("since your last turn: " + ", ".join(parts), width, LAST)
    if len(lines) > 2:  # a long round: the board's underlines and the log hold the rest
        lines = lines[:2]
        lines[1] = clip(lines[1], width - 2) + [(LAST, " …")]
    return lines


def end_lines(model: ClientModel, width: int) -> list[Line]:
    """The ranking and what to do next."""
    view = model.view
    assert view is not None
    outcome = view.get("outcome") or {}
    ranking = outcome.get("ranking") or []
    line: Line = [(TITLE, "Ranking: ")]
    for i, seat in enumerate(ranking):
        c = model.seat_color(seat)
        line += [("", f"{i + 1}. "), (color_style(c), f"{model.seat_name(seat)} ({c})"),
                 ("", "  ")]
    out: list[Line] = [line]  # (the winner is on the turn line)
    out += summary_lines(model, width)
    if model.seat is not None and model.replay_keys is None:
        out += wrap("You stay at this table for the next game, in which the next seat "
                    "starts" + ("" if model.may_manage() else " (the owner starts it)")
                    + "; l leaves.", width, DIM)
    out += keys_line(game_keys(model), width)
    return out


def summary_lines(model: ClientModel, width: int) -> list[Line]:
    """Turns, time, and each seat's cards played and drawn, retreats and pirates home."""
    view = model.view
    assert view is not None
    stats = model.game_stats()
    boat = int(view.get("boat", len(view["board"]) + 1))
    goal = view.get("goal_name") or "boat"
    head = f"{count(stats['turns'], 'turn')}"
    minutes = stats.get("minutes")
    if minutes is not None:
        head += (" in under a minute" if minutes < 1 else
                 f" in {count(round(minutes), 'minute')}")
    if not stats["whole"]:
        head += " (counted since you came in)"
    out: list[Line] = [[(TITLE, "Summary: "), ("", head)]]
    for s in view["seats"]:
        seat = s["seat"]
        c = str(s.get("color", ""))
        per = stats["seats"].get(seat, {})
        home = sum(1 for p in s["pirates"] if p == boat)
        text = (f"{count(per.get('played', 0), 'card')} played, {per.get('drawn', 0)} drawn, "
                f"{count(per.get('retreats', 0), 'retreat')}, "
                f"{home}/{len(s['pirates'])} in the {goal}")
        out.append(clip([("", "  "), (color_style(c), f"{model.seat_name(seat)[:14]} ({c})"),
                         ("", ": " + text)], width))
    return out


def feed_lines(model: ClientModel, width: int, height: int) -> list[Line]:
    """The event-log and chat lines that fit, ending ``model.log_scroll`` entries back.

    When scrolled back (or when older lines are cut), the first row says how to scroll.
    """
    if height <= 0:
        return []
    end = max(0, len(model.log) - model.log_scroll)
    out: list[Line] = []
    first = end
    for text in reversed(model.log[:end]):
        style = "fg:ansicyan" if text.startswith("<") else ""
        chunk = wrap(text, width, style)
        if len(out) + len(chunk) > height:
            break
        out = chunk + out
        first -= 1
    if (first > 0 or model.log_scroll) and height >= 2:
        hint = (f"↑ {first} earlier · PgUp/PgDn scroll · Tab whole log" if first
                else "the start of the game")
        if model.log_scroll:
            hint += f" · {model.log_scroll} newer below (End)"
        if len(out) >= height:
            out = out[1:]
        out = [clip([(DIM, hint)], width)] + out
    return out


def render_log(model: ClientModel, width: int, height: int) -> list[Line]:
    """The whole game's log on the full screen (Tab)."""
    lines: list[Line] = [[(TITLE + " reverse", " Log of this game "),
                          (DIM, " ↑↓ PgUp/PgDn Home/End scroll · any other key closes")]]
    return lines + feed_lines(model, width, height - 2)


MIN_WIDTH = 60


def too_small(model: ClientModel, need_w: int, need_h: int, width: int, height: int
              ) -> list[Line]:
    """The message shown instead of a cut-off game."""
    text = (f"window too small (need {need_w}x{need_h}, have {width}x{height}): "
            "enlarge the terminal")
    return wrap(text, width, ERR)


PATH_CELL = 12  # "[12 ☠ R B ·]"
PATH_JOIN = 3  # "───" between cells
PATH_ROW = 6  # spaces a printed segment holds: one segment a row
PATH_WIDTH = PATH_ROW * PATH_CELL + (PATH_ROW - 1) * PATH_JOIN + 2
LOG_MIN = 4  # the larger board is drawn only if the log keeps this many rows


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
        line: Line = [("bold", f"{mark} {name}:")] + _counts_by_color(model, pos)
        if not model.spectate and sel == pos:
            line.append((SEL, " [selected]"))
        if prev is not None and prev.landing == pos and pos == boat:
            line.append((LAND, f" ← lands in the {name}"))
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
    counts = [("", f"{mark} {goal_name}:")] + _counts_by_color(
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


def title_line(model: ClientModel, width: int) -> Line:
    """The header: where, which table and rules, and who you are. Who you are always
    shows: the name of the program, the address's default port and the rules give way."""
    view = model.view
    assert view is not None
    if model.spectate or model.seat is None:
        me: Line = [(TITLE + " reverse", " SPECTATING ")]
    else:
        c = model.seat_color(model.seat)
        me = [("", "you: "), (color_style(c), f"{model.name} ({c})")]
    address = model.host_label
    short = address.removesuffix(f":{DEFAULT_PORT}")  # `cartagena join HOST` means this port
    table, rules = f"table {model.table}", str(view.get("rules") or "")
    for brand, parts in ((True, [address, table, rules]), (True, [short, table, rules]),
                         (False, [short, table, rules]), (False, [short, table]),
                         (False, [table]), (False, [])):
        head: Line = [(TITLE, "cartagena-net")] if brand else []
        text = "".join(f"{x} · " for x in parts if x)
        head += [(DIM, (" · " if brand else "") + text)]
        if width_of(head + me) <= width:
            return head + me
    return clip(me, width)


def render_game(model: ClientModel, width: int, height: int) -> list[Line]:
    """The game screen (player, spectator, or finished).

    With room to spare the board is drawn as a winding path of larger cells, and the
    log takes every free row (below, or in a column of its own on wide screens).
    """
    layout = _any_layout(model, width, height)
    if layout is None:  # too small to play: say so, cut nothing silently
        return too_small(model, *needed_size(model, width, height), width, height)
    return layout


def _any_layout(model: ClientModel, width: int, height: int) -> list[Line] | None:
    """The winding path, else the strip with the paths' names, else the bare strip."""
    for path, labels in ((True, True), (False, True), (False, False)):
        layout = _game_layout(model, width, height, path=path, labels=labels)
        if layout is not None:
            return layout
    return None


def needed_size(model: ClientModel, width: int, height: int) -> tuple[int, int]:
    """The smallest height (at this width, or the least width) at which the game draws."""
    w = max(width, MIN_WIDTH)
    lo, hi = 1, max(height, 200)
    while _any_layout(model, w, hi) is None and hi < 2000:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if _any_layout(model, w, mid) is None:
            lo = mid + 1
        else:
            hi = mid
    return w, hi


def _game_layout(model: ClientModel, width: int, height: int, path: bool,
                 labels: bool = True) -> list[Line] | None:
    view = model.view
    assert view is not None
    side = 0
    if width >= WIDE:
        side = min(70, width - 82)
        if path:
            side = width - PATH_WIDTH - 1
            if side < 30:
                return None
    main_w = width - side - (1 if side else 0)
    board = path_lines(model, main_w) if path else None
    if path and board is None:
        return None
    title = title_line(model, main_w)
    web = f" · web: {model.web_url}"
    if model.web_url and sum(len(text) for _, text in title) + len(web) <= main_w:
        title.append((DIM, web))
    watching = int((model.table_info or {}).get("spectators") or 0)
    turn = turn_line(model) + ([(DIM, f" · {watching} watching")] if watching else [])
    top: list[Line] = [title, turn]
    if board is not None:
        top += board
    else:
        top += board_lines(model, main_w, labels)
        top.append(ends_line(model))
    top += players_lines(model, main_w)
    me = model.my_seat_view()
    if me is not None and not model.spectate:
        top += hand_lines(model, me.get("hand") or [], main_w)
    top.append(piles_line(model))
    me_seat = None if model.spectate else model.seat
    top += [[(DIM if i == 0 else "bold", text)] for i, text in
            enumerate(magic_lines_text(view, me_seat))]
    top += pending_lines(model)
    acts = action_lines(model, main_w)
    reserve = 1 + (1 if model.input else 0) + (1 if model.overlay == "quit" else 0)
    room = height - reserve - len(top) - len(acts)
    # a preview adds a line: keep room for it so the board does not change shape under it
    spare = 1 if model.preview is None and model.legal and not model.owes_discard() else 0
    if path and room - spare < (0 if side else LOG_MIN):
        return None
    if labels and not path and room < 0 and named_paths(view):
        return None
    if room < 0 or width < MIN_WIDTH:
        return None
    if side:
        left = top + acts
        right: list[Line] = [[(TITLE, "log & chat")]]
        right += feed_lines(model, side, height - reserve - 1)
        rows = max(len(left), len(right))
        merged: list[Line] = []
        for i in range(rows):
            lpart = pad(left[i] if i < len(left) else [], main_w)
            rpart = right[i] if i < len(right) else []
            merged.append(lpart + [(DIM, "│")] + clip(rpart, side))
        return merged
    log = feed_lines(model, main_w, max(0, room - 1)) if room > 1 else []
    sep: list[Line] = [[(DIM, "─" * main_w if not model.ascii_only else "-" * main_w)]]
    return top + acts + (sep + log if log else [])
