"""The panels beside the board on the game screen: the players, the hand, whose turn it
is, what is pending (a discard, a power's decision) and the piles.

Pure functions of a :class:`~client.model.ClientModel` and a width.
"""
from __future__ import annotations

from collections import Counter

from cartagena_net.i18n import _, ngettext, percent
from client.board import (
    place,
    sloop_pos,
)
from client.glyphs import (
    card_count,
    color_letters,
    color_name,
    color_style,
    glyph,
    marks,
    symbol_name,
)
from client.model import ClientModel
from client.text import (
    DIM,
    ERR,
    KEY,
    TITLE,
    Line,
    clip,
    width_of,
    wrap,
)


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
                out.append([(style, symbol_name(sym) + ("*" if dark else "")), (KEY, f"[{key}]"),
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
    return out or [(DIM, _("no cards"))]


def hand_lines(model: ClientModel, hand: list[str], width: int) -> list[Line]:
    """``hand: ...`` wrapped to the width."""
    lines: list[Line] = []
    head = _("hand:") + " "
    cur: Line = [("", head)]
    for group in hand_groups(model, hand) or [[(DIM, _("no cards"))]]:
        if len(cur) > 1 and width_of(cur) + 2 + width_of(group) > width:
            lines.append(cur)
            cur = [("", " " * width_of([("", head)]))]
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
    return out or [(DIM, _("no cards"))]


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
        tag = " " + _("(you)") if seat == model.seat else ""
        extra = info.get(seat, {})
        if extra.get("bot") and extra.get("connected") is False:
            tag += " " + _("away, bot")
        elif extra.get("bot"):
            tag += " " + _("bot")
        elif extra.get("connected") is False:
            tag += " " + _("(away)")
        in_boat = sum(1 for p in s["pirates"] if p == boat)
        line: Line = [("bold", f"{m['turn'] if turn else ' '} "),
                      (color_style(c), f"{letters.get(c, '?')} {color_name(c):<7}"),
                      ("", f"{name[:14]:<14}{tag:<11}"),
                      (DIM, (f" {card_count(s.get('hand_size', 0)):>8}  {place(goal)} {in_boat}/"
                            f"{len(s['pirates'])}"))]
        if sloop is not None:
            line.append((DIM, "  " + _("aboard {n}").format(n=s["pirates"].count(sloop))))
        line += chance_part(model, seat, c)
        hand = s.get("hand")
        if hand is not None and seat != model.seat:
            line += [("", "  ")] + public_cards(model, hand)
        lines.append(clip(line, width))
    return lines


def chance_part(model: ClientModel, seat: int, color: str) -> Line:
    """The seat's live chance of winning and a short curve of it over the game (when
    the host sends chances: to spectators, and to players if the table shows them)."""
    from client.learn import spark

    chances = model.chances.latest
    view = model.view or {}
    if not chances or len(chances) != len(view.get("seats") or ()):
        return []
    curve = spark([p[seat] for _, p in model.chances.points], 8, model.ascii_only)
    pct = percent(round(chances[seat] * 100))  # "45%", in Swedish "45 %"
    return [(DIM, "  " + _("win") + " "), ("bold", pct.rjust(len(percent(100)))),
            (color_style(color), f" {curve}")]


def turn_line(model: ClientModel) -> Line:
    view = model.view
    assert view is not None
    replay = model.replay_keys is not None  # a recorded game: nobody's "you" plays now
    if view.get("outcome"):
        winner = (view.get("outcome") or {}).get("winner")
        return [(TITLE + " reverse", " " + _("GAME OVER") + " "),
                ("bold", "  " + (_("You win!") if winner == model.seat and not replay else _(
                    "Winner: {name} ({color})").format(
                    name=model.seat_name(winner), color=color_name(model.seat_color(winner)))))]
    turn = view.get("turn")
    left = int(view.get("actions_max", 0)) - int(view.get("actions_taken", 0))
    who = (_("your turn") if turn == model.seat and not replay
           else _("{name}'s ({color}) turn").format(
               name=model.seat_name(turn), color=color_name(model.seat_color(turn))))
    line: Line = [(color_style(model.seat_color(turn)), who),
                  ("", " · " + _("action {n} of {most} ({left} left, at least {least})").format(
                      n=int(view.get("actions_taken", 0)) + 1, most=view.get("actions_max"),
                      left=left, least=view.get("actions_min", 1)))]
    return line


def pending_lines(model: ClientModel, width: int | None = None) -> list[Line]:
    """Decisions owed now (a discard, a power's choice); a line too wide for ``width``
    goes on in the next, never cut."""
    out = _pending(model)
    if width is None:
        return out
    fitted: list[Line] = []
    for line in out:
        if width_of(line) <= width:
            fitted.append(line)
            continue
        head: Line = []
        for part in line:  # the parts that fit, then the rest wrapped below them
            if width_of(head + [part]) <= width:
                head.append(part)
                continue
            rest = "".join(t for _s, t in line[len(head):]).strip()
            fitted.append(head)
            fitted += [[("", " ")] + x for x in wrap(rest, width - 1)]
            break
    return fitted


def _pending(model: ClientModel) -> list[Line]:
    view = model.view
    assert view is not None
    out: list[Line] = []
    for p in view.get("pending") or []:
        seat = p.get("seat")
        kind = p.get("kind")
        if kind != "discard":  # a power's decision (Black Magic Woman)
            verb = {"take": _("take a card"), "give": _("give a drawn card to each other player"),
                    "keep": _("keep one card"), "stack": _("put the cards back on the stock")}
            if seat == model.seat and not model.spectate:
                out.append([(ERR + " reverse", " " + _("You must {what}").format(
                    what=verb.get(kind, kind)) + " "),
                            ("", " " + _("←→ or a card's letter, then Enter"))])
            else:
                out.append([("", _("waiting for {who} to {what}").format(
                    who=model.seat_name(seat), what=verb.get(kind, kind)))])
            continue
        if seat == model.seat and not model.spectate:
            picked = " ".join(symbol_name(c) for c in model.discard_pick)
            n = int(p.get("count") or 0)
            out.append([(ERR + " reverse", " " + ngettext(
                "You must discard {n} card", "You must discard {n} cards", n).format(n=n) + " "),
                        ("", " " + _("picked: {cards}").format(cards=picked) if picked else ""),
                        ("", " " + _("press a card's letter, then Enter"))])
        else:
            n = int(p.get("count") or 0)
            out.append([("", ngettext("waiting for {who} to discard {n} card",
                                      "waiting for {who} to discard {n} cards", n).format(
                who=model.seat_name(seat), n=n))])
    return out


def piles_line(model: ClientModel) -> Line:
    view = model.view
    assert view is not None
    keys = model.keys
    disc = view.get("discard") or []
    top = disc[-1] if disc else None
    line: Line = [("", _("discard:") + " ")]
    line += ([("bold", f"{glyph(top, model.ascii_only, keys)} {symbol_name(top)}")] if top
             else [(DIM, "—")])
    line += [("", "   " + _("stock: {n}").format(n=view.get("stock", 0)))]
    row = view.get("row")
    if row is not None:
        line += [("", "   " + _("row:") + " ")]
        line += [("bold", " ".join(glyph(c, model.ascii_only, keys) for c in row) or "—")]
    return line
