"""The game screen: board, players, hand, piles, actions and the event log.

Pure functions of a :class:`~client.model.ClientModel` and a width.
"""
from __future__ import annotations

from collections import Counter

from client.glyphs import color_letters, color_style, glyph, marks
from client.model import ClientModel
from client.text import (
    DIM,
    ERR,
    KEY,
    LAND,
    SEL,
    TITLE,
    WIDE,
    Line,
    clip,
    keys_line,
    pad,
    wrap,
)


def board_lines(model: ClientModel, width: int) -> list[Line]:
    """The passage as a wrapped strip of numbered cells with the pirates on them."""
    view = model.view
    assert view is not None
    board = view["board"]
    keys = model.keys
    letters = color_letters(s.get("color", "") for s in view["seats"])
    on: dict[int, list[str]] = {}
    for s in view["seats"]:
        for p in s["pirates"]:
            on.setdefault(p, []).append(str(s.get("color", "")))
    digits = len(str(len(board)))
    cell_w = digits + 1 + 3 + 1
    per_row = max(1, (width + 1) // cell_w)
    prev = model.preview
    sel = model.sel_pos
    lines: list[Line] = []
    cur: Line = []
    for i, sym in enumerate(board):
        pos = i + 1
        num_style = DIM
        if prev is not None and prev.landing == pos:
            num_style = LAND
        elif sel == pos and not model.spectate:
            num_style = SEL
        cell: Line = [(num_style, f"{pos:>{digits}}"), ("bold", glyph(sym, model.ascii_only, keys))]
        here = on.get(pos, [])
        for c in here[:3]:
            cell.append((color_style(c), letters.get(c, "?")))
        empty = 3 - min(3, len(here))
        if empty and prev is not None and prev.landing == pos:
            cell.append((LAND, "◆"))  # where the previewed move lands
            empty -= 1
        cell.append((DIM, ("." if model.ascii_only else "·") * empty))
        if cur:
            cur.append(("", " "))
        cur.extend(cell)
        if pos % per_row == 0:
            lines.append(cur)
            cur = []
    if cur:
        lines.append(cur)
    return lines


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
    """The start and the boat with their counts by colour."""
    view = model.view
    assert view is not None
    m = marks(model.ascii_only)
    boat = int(view.get("boat", len(view["board"]) + 1))
    start, goal = view.get("start_name") or "start", view.get("goal_name") or "boat"
    line: Line = [("bold", f"{m['start']} {start} 0:")] + _counts_by_color(model, 0)
    line += [("", "   "), ("bold", f"{m['boat']} {goal} {boat}:")] + _counts_by_color(model, boat)
    sel = model.sel_pos
    if not model.spectate and sel in (0, boat):
        line += [(SEL, f" [selected: {start if sel == 0 else goal}]")]
    if model.preview is not None and model.preview.landing == boat:
        line += [(LAND, f" ← lands in the {goal}")]
    return line


def hand_cards(model: ClientModel, hand: list[str]) -> Line:
    """Cards by symbol with counts (dark cards apart), in key order."""
    view = model.view
    assert view is not None
    keys = model.keys
    counts = Counter(hand)
    out: Line = []
    for sym in view["symbols"]:
        for card in (sym, sym + "*"):
            n = counts.get(card, 0)
            if n == 0 and card.endswith("*"):
                continue
            style = "bold" if n else DIM
            label = glyph(sym, model.ascii_only, keys) + ("*" if card.endswith("*") else "")
            if out:
                out.append(("", "  "))
            out += [(style, label), (KEY if n else DIM, keys.get(sym, "?")
                                     if not card.endswith("*") else keys.get(sym, "?").upper()),
                    (style, f"×{n}" if not model.ascii_only else f"x{n}")]
    return out


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
    lines: list[Line] = []
    for s in view["seats"]:
        seat = s["seat"]
        c = str(s.get("color", ""))
        turn = view.get("turn") == seat and not view.get("outcome")
        name = model.seat_name(seat)
        tag = " (you)" if seat == model.seat else ""
        extra = info.get(seat, {})
        if extra.get("bot"):
            tag += " bot"
        elif extra.get("connected") is False:
            tag += " (away)"
        in_boat = sum(1 for p in s["pirates"] if p == boat)
        line: Line = [("bold", f"{m['turn'] if turn else ' '} "),
                      (color_style(c), f"{letters.get(c, '?')} {c:<7}"),
                      ("", f"{name[:14]:<14}{tag:<8}"),
                      (DIM, (f" {s.get('hand_size', 0):>2} cards  {goal} {in_boat}/"
                            f"{len(s['pirates'])}"))]
        hand = s.get("hand")
        if hand is not None and seat != model.seat:
            line += [("", "  ")] + public_cards(model, hand)
        lines.append(clip(line, width))
    return lines


def turn_line(model: ClientModel) -> Line:
    view = model.view
    assert view is not None
    if view.get("outcome"):
        return [(TITLE + " reverse", " GAME OVER ")]
    turn = view.get("turn")
    left = int(view.get("actions_max", 0)) - int(view.get("actions_taken", 0))
    who = "your" if turn == model.seat else f"{model.seat_name(turn)}'s"
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
        return [[(TITLE + " reverse", " SPECTATING "), (DIM, " read-only · "),
                 (KEY, "c"), ("", " chat · "), (KEY, "l"), ("", " leave · "),
                 (KEY, "q"), ("", " quit · "), (KEY, "?"), ("", " help")]]
    out: list[Line] = []
    mine = model.my_positions()
    boat = int(view.get("boat", len(view["board"]) + 1))
    pir: Line = [("", "pirates: ")]
    for i, p in enumerate(mine):
        where = "S" if p == 0 else ("B" if p == boat else str(p))
        if p == model.sel_pos:
            pir += [(SEL, f"[{i + 1}@{where}]"), ("", " ")]
        else:
            pir += [(KEY, f"{i + 1}"), ("", f"@{where} ")]
    out.append(pir)
    if not model.legal:
        out.append([(DIM, f"waiting for {model.seat_name(view.get('actor'))}… "),
                    (KEY, "?"), (DIM, " help")])
        return out
    kinds = model.legal_kinds()
    if model.owes_discard():
        if model.preview is not None:
            out.append([(LAND, f" {model.preview.text} "), ("", "  "), (KEY, "Enter"),
                        ("", " confirm · "), (KEY, "Esc"), ("", " cancel")])
        return out
    pairs = [("1-9/←→", "pirate")]
    if "advance" in kinds:
        pairs.append(("letter", "play card"))
    if "retreat" in kinds:
        pairs.append(("r", "retreat"))
    if "end" in kinds:
        pairs.append(("e", "end turn"))
    if "draw" in kinds:
        pairs.append(("w", "draw"))
    if "morgan" in kinds:
        pairs.append(("m", "Morgan"))
    pairs += [("c", "chat"), ("?", "help")]
    out += keys_line(pairs, width)
    if model.preview is not None:
        out.append([(LAND, f" {model.preview.text} "), ("", "  "), (KEY, "Enter"),
                    ("", " confirm · "), (KEY, "Esc"), ("", " cancel")])
    return out


def end_lines(model: ClientModel, width: int) -> list[Line]:
    """The ranking and what to do next."""
    view = model.view
    assert view is not None
    outcome = view.get("outcome") or {}
    ranking = outcome.get("ranking") or []
    winner = outcome.get("winner")
    line: Line = [(TITLE, "Ranking: ")]
    for i, seat in enumerate(ranking):
        c = model.seat_color(seat)
        line += [("", f"{i + 1}. "), (color_style(c), f"{model.seat_name(seat)} ({c})"),
                 ("", "  ")]
    out: list[Line] = [
        [(TITLE + " reverse", " GAME OVER "),
         ("bold", f"  {'You win!' if winner == model.seat else 'Winner: ' + model.seat_name(winner)}")],
        line,
    ]
    pairs = [("l", "leave table"), ("q", "quit")]
    if model.seat is not None and (model.is_owner or model.table_info is None):
        pairs = [("p", "play again (same table)")] + pairs
    elif model.seat is not None:
        out.append([(DIM, "the table's owner can start another game")])
    out += keys_line(pairs, width)
    return out


def feed_lines(model: ClientModel, width: int, height: int) -> list[Line]:
    """The newest event-log and chat lines that fit."""
    if height <= 0:
        return []
    out: list[Line] = []
    for text in reversed(model.log):
        style = "fg:ansicyan" if text.startswith("<") else ""
        chunk = wrap(text, width, style)
        if len(out) + len(chunk) > height:
            break
        out = chunk + out
    return out


def render_game(model: ClientModel, width: int, height: int) -> list[Line]:
    """The game screen (player, spectator, or finished)."""
    view = model.view
    assert view is not None
    side = 0
    if width >= WIDE:
        side = min(70, width - 82)
    main_w = width - side - (1 if side else 0)
    title: Line = [(TITLE, "cartagena-net"),
                   (DIM, f" · {model.host_label} · table {model.table} · {view.get('rules')} · ")]
    if model.spectate or model.seat is None:
        title.append((TITLE + " reverse", " SPECTATING "))
    else:
        c = model.seat_color(model.seat)
        title += [("", "you: "), (color_style(c), f"{model.name} ({c})")]
    web = f" · web: {model.web_url}"
    if model.web_url and sum(len(text) for _, text in title) + len(web) <= main_w:
        title.append((DIM, web))
    watching = int((model.table_info or {}).get("spectators") or 0)
    turn = turn_line(model) + ([(DIM, f" · {watching} watching")] if watching else [])
    top: list[Line] = [title, turn]
    top += board_lines(model, main_w)
    top.append(ends_line(model))
    top += players_lines(model, main_w)
    me = model.my_seat_view()
    if me is not None and not model.spectate:
        top.append([("", "hand: ")] + hand_cards(model, me.get("hand") or []))
    top.append(piles_line(model))
    top += pending_lines(model)
    acts = action_lines(model, main_w)
    reserve = 1 + (1 if model.input else 0) + (1 if model.overlay == "quit" else 0)
    room = height - reserve - len(top) - len(acts)
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
    if room < 0:  # a very small terminal: keep the action lines, cut the middle
        top = top[: max(0, len(top) + room)]
    log = feed_lines(model, main_w, max(0, room - 1)) if room > 1 else []
    sep: list[Line] = [[(DIM, "─" * main_w if not model.ascii_only else "-" * main_w)]]
    return top + acts + (sep + log if log else [])
