"""The game screen: the board (:mod:`client.board`), the panels beside it (players, hand,
turn, pending, piles: :mod:`client.panels`), actions and the event log, laid out for the
terminal's size.

Pure functions of a :class:`~client.model.ClientModel` and a width.
"""
from __future__ import annotations

from cartagena_net.i18n import _, ngettext
from client.board import (
    PATH_WIDTH,
    board_lines,
    ends_line,
    named_paths,
    path_lines,
)
from client.glyphs import color_name, color_style, place, symbol_name
from client.landing import place_name
from client.model import DEFAULT_PORT, ClientModel
from client.modes.game import game_help
from client.notices import notice_block
from client.panels import (
    hand_lines,
    pending_lines,
    piles_line,
    players_lines,
    turn_line,
)
from client.plain import quit_question, sentence
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


def action_lines(model: ClientModel, width: int, tight: int = 0) -> list[Line]:
    """What the player can do now, and the preview of the chosen move (``tight``: how
    much of the end's summary gives way, :func:`end_lines`)."""
    view = model.view
    assert view is not None
    if view.get("outcome"):
        return end_lines(model, width, tight)
    if model.spectate or model.seat is None:
        return [[(TITLE + " reverse", " " + _("SPECTATING") + " "),
                 (DIM, " " + _("read-only"))]] + keys_line(
            game_help(model), width)
    out: list[Line] = [pirates_line(model)]
    out += since_lines(model, width)
    if model.replay_keys is not None:  # a recorded game seen from a seat: its own keys
        return out + keys_line(game_help(model), width)
    if not model.legal:
        out.append([(DIM, _("waiting for {who}…").format(
            who=model.seat_name(view.get("actor"))) + " "), (KEY, "?"), (DIM, " " + _("help"))])
        return out
    if model.owes_discard():
        if model.preview is not None:
            out += _preview_lines(model.preview.text, width)
        return out
    out += keys_line(game_help(model), width)
    if model.preview is not None:
        out += _preview_lines(model.preview.text, width)
    return out


def status_rows(model: ClientModel, width: int) -> int:
    """How many lines the status line takes (it wraps: render.bottom_lines)."""
    return len(status_lines(model, width))


def marked_lines(mark: str, text: str, width: int, style: str = "",
                 mark_style: str = ERR + " reverse") -> list[Line]:
    """``text`` after a reversed ``mark`` (`` reconnecting… ``, `` host ``), wrapped under
    itself where it is longer than the line: never cut."""
    indent = width_of([("", mark)]) + 1
    if indent + 10 > width:  # too narrow for the text beside the mark: under it
        return [[(mark_style, mark)]] + wrap(text, width, style)
    rows = wrap(text, width - indent, style)
    out: list[Line] = [[(mark_style, mark), ("", " ")] + rows[0]]
    out += [[("", " " * indent)] + x for x in rows[1:]]
    return out


def status_lines(model: ClientModel, width: int) -> list[Line]:
    """The status line, wrapped (never cut); while reconnecting, marked so. A refusal or
    another error reads as a sentence (a capital, a full stop)."""
    status = sentence(model.status) if model.status_error else str(model.status or "")
    if model.reconnecting:
        return marked_lines(" " + _("reconnecting…") + " ", status, width)
    return wrap(status, width, ERR if model.status_error else DIM)


def trouble_lines(model: ClientModel, width: int) -> list[Line]:
    """The host's own client: what is wrong with the host (its disk), wrapped."""
    if not model.trouble:
        return []
    return marked_lines(" " + _("host") + " ", str(model.trouble), width, ERR)


def quit_lines(model: ClientModel, width: int) -> list[Line]:
    """The quit question and its keys on one line, or where it is too wide the question
    wrapped over its keys: never cut."""
    question = quit_question(model)
    keys: Line = [(KEY, _("y")), ("", " " + _("quit") + " · "), (KEY, _("n")),
                  ("", " " + _("stay"))]
    one: Line = [(ERR + " reverse", " " + question + " "), ("", " "), *keys]
    if width_of(one) <= width:
        return [one]
    rows = [[(ERR + " reverse", " " + "".join(t for _s, t in x) + " ")]
            for x in wrap(question, width - 2)]
    last = rows[-1] + [("", " "), *keys]
    if width_of(last) <= width:  # the keys after the question's last words
        return rows[:-1] + [last]
    return rows + [[("", " "), *keys]]


def _preview_lines(text: str, width: int) -> list[Line]:
    """The preview and its keys on one line, or where it is too wide the preview
    (wrapped) over its keys: never cut."""
    keys: Line = [(KEY, "Enter"), ("", " " + _("confirm") + " · "), (KEY, "Esc"),
                  ("", " " + _("cancel"))]
    one: Line = [(LAND, f" {text} "), ("", "  "), *keys]
    if width_of(one) <= width:
        return [one]
    said = [[(LAND, " " + "".join(t for _s, t in x) + " ")] for x in wrap(text, width - 2)]
    return said + [[("", " "), *keys]]


def pirates_line(model: ClientModel) -> Line:
    """My pirates by their stable numbers, grouped by where they stand (chosen one marked)."""
    view = model.view
    assert view is not None
    mine = model.my_positions()
    by_pos: dict[int, list[int]] = {}
    for i, p in enumerate(mine):
        by_pos.setdefault(p, []).append(i)
    pir: Line = [("", _("pirates:"))]
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
        who = color_name(model.seat_color(e.get("seat")))
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
            n = int(e.get("drawn", 0))
            parts.append(who + ngettext("back {frm}→{to} (+{n} card)",
                                        "back {frm}→{to} (+{n} cards)", n).format(
                frm=frm, to=to, n=n))
        elif kind == "morgan":
            parts.append(who + _("pushed {owner} {frm}→{to}").format(
                owner=color_name(model.seat_color(e.get("owner"))), frm=frm, to=to))
        elif kind == "draw":
            parts.append(who + _("drew"))
        elif kind == "discard":
            parts.append(who + _("discarded {card}").format(
                card=symbol_name(str(e.get("card", "")))))
        elif kind == "undo":
            parts.append(who + _("took a move back"))
        elif kind == "sail":
            shore = str(e.get("shore", "")).title()
            parts.append(who + (_("sailed to {shore} (Captain, free)") if e.get("free")
                                else _("sailed to {shore}")).format(shore=shore))
    if not parts:
        return []
    lines = wrap(_("since your last turn: {moves}").format(moves=", ".join(parts)), width, LAST)
    if len(lines) > 2:  # a long round: the board's underlines and the log hold the rest
        lines = lines[:2]
        lines[1] = clip(lines[1], width - 2) + [(LAST, " …")]
    return lines


END_TIGHT = 4  # the ways the end's lines give way where the window is short (end_lines)


def end_lines(model: ClientModel, width: int, tight: int = 0) -> list[Line]:
    """The ranking and what to do next. Where the window is short, ``tight`` gives way,
    in turn: the summary's line of each seat (1), the whole summary (2), tonight's
    scoreboard (3); the ranking, the sentence on the next game and the keys stay."""
    view = model.view
    assert view is not None
    outcome = view.get("outcome") or {}
    ranking = outcome.get("ranking") or []
    line: Line = [(TITLE, _("Ranking:") + " ")]
    for i, seat in enumerate(ranking):
        c = color_name(model.seat_color(seat))
        line += [("", f"{i + 1}. "), (color_style(model.seat_color(seat)), f"{model.seat_name(seat)} ({c})"),
                 ("", "  ")]
    out: list[Line] = [line]  # (the winner is on the turn line)
    if tight < 2:
        out += summary_lines(model, width)[:1 if tight else None]
    if model.scores and model.replay_keys is None and tight < 3:
        out += wrap(model.scoreboard_text(), width, DIM)
    if model.seat is not None and model.replay_keys is None:
        out += wrap(_("You stay at this table for the next game, in which the next seat "
                      "starts; l leaves.") if model.may_manage() else _(
            "You stay at this table for the next game, in which the next seat starts (the "
            "owner starts it); l leaves."), width, DIM)
    out += keys_line(game_help(model), width)
    return out


def summary_lines(model: ClientModel, width: int) -> list[Line]:
    """Turns, time, and each seat's cards played and drawn, retreats and pirates home."""
    view = model.view
    assert view is not None
    stats = model.game_stats()
    boat = int(view.get("boat", len(view["board"]) + 1))
    goal = place(view.get("goal_name") or "boat")
    turns = int(stats["turns"])
    head = ngettext("{n} turn", "{n} turns", turns).format(n=turns)
    minutes = stats.get("minutes")
    if minutes is not None:
        n = round(minutes)
        head += " " + (_("in under a minute") if minutes < 1 else ngettext(
            "in {n} minute", "in {n} minutes", n).format(n=n))
    if not stats["whole"]:  # came in (or back, after a host's restart) after the start
        head += " " + _("(counted from the moves this screen saw)")
    out: list[Line] = [[(TITLE, _("Summary:") + " "), ("", head)]]
    for s in view["seats"]:
        seat = s["seat"]
        c = str(s.get("color", ""))
        per = stats["seats"].get(seat, {})
        home = sum(1 for p in s["pirates"] if p == boat)
        played, retreats = int(per.get("played", 0)), int(per.get("retreats", 0))
        drawn = int(per.get("drawn", 0))
        text = ", ".join((
            ngettext("{n} card played", "{n} cards played", played).format(n=played),
            ngettext("{n} drawn", "{n} drawn", drawn).format(n=drawn),
            ngettext("{n} retreat", "{n} retreats", retreats).format(n=retreats),
            _("{home}/{all} in the {goal}").format(home=home, all=len(s["pirates"]),
                                                   goal=goal)))
        who: Line = [("", "  "), (color_style(c),
                                  f"{model.seat_name(seat)[:14]} ({color_name(c)})")]
        if width_of(who) + width_of([("", ": " + text)]) <= width:
            out.append(who + [("", ": " + text)])
        else:  # too wide for one line: the numbers wrapped under the name, never cut
            out.append(who + [("", ":")])
            out += [[("", "    ")] + x for x in wrap(text, width - 4)]
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
        # the top: the game's start only when this screen saw it (a screen that came in,
        # or came back, later holds the host's recent moves alone)
        hint = (_("↑ {n} earlier · PgUp/PgDn scroll · Tab whole log").format(n=first) if first
                else _("the start of the game") if model.history_whole
                else _("earlier moves are not kept on this screen"))
        if model.log_scroll:
            hint += " · " + _("{n} newer below (End)").format(n=model.log_scroll)
        heading = wrap(hint, width, DIM)[:max(1, height - 1)]  # wrapped where narrow, not cut
        out = heading + out[max(0, len(out) + len(heading) - height):]
    return out


def render_log(model: ClientModel, width: int, height: int) -> list[Line]:
    """The whole game's log on the full screen (Tab)."""
    lines: list[Line] = [[(TITLE + " reverse", " " + _("Log of this game") + " "),
                          (DIM, " " + _("↑↓ PgUp/PgDn Home/End scroll · any other key closes"))]]
    return lines + feed_lines(model, width, height - 2)


MIN_WIDTH = 60


def too_small(model: ClientModel, need_w: int, need_h: int, width: int, height: int
              ) -> list[Line]:
    """The message shown instead of a cut-off game."""
    text = _("window too small (need {need}, have {have}): enlarge the terminal").format(
        need=f"{need_w}x{need_h}", have=f"{width}x{height}")
    return wrap(text, width, ERR)


LOG_MIN = 4  # the larger board is drawn only if the log keeps this many rows
TURN_SLACK = 4  # rows a turn may add under the board (kept free when the path is chosen)


def title_line(model: ClientModel, width: int) -> Line:
    """The header: where, which table and rules, and who you are. Who you are always
    shows: the name of the program, the address's default port and the rules give way."""
    view = model.view
    assert view is not None
    if model.spectate or model.seat is None:
        me: Line = [(TITLE + " reverse", " " + _("SPECTATING") + " ")]
    else:
        c = model.seat_color(model.seat)
        me = [("", _("you:") + " "), (color_style(c), f"{model.name} ({color_name(c)})")]
    address = model.host_label
    short = address.removesuffix(f":{DEFAULT_PORT}")  # `cartagena join HOST` means this port
    table, rules = _("table {n}").format(n=model.table), str(view.get("rules") or "")
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
    layout = _any_layout(model, width, height, remember=True)
    if layout is None:  # too small to play: say so, cut nothing silently
        return too_small(model, *needed_size(model, width, height), width, height)
    return layout


LAYOUTS = ((True, True), (False, True), (False, False))  # (winding path, paths' names)


def _any_layout(model: ClientModel, width: int, height: int,
                remember: bool = False) -> list[Line] | None:
    """The winding path, else the strip with the paths' names, else the bare strip.

    ``remember``: the screen's own drawing. The board's shape is chosen for the terminal
    size and kept while the size (and the game) stays: the rows the rest of the screen
    needs change with every action (a preview, a decision owed), and the board would
    otherwise switch between the winding path and the strip within a turn. A layout given
    up at this size is not tried again until the size changes."""
    view = model.view or {}
    key = (width, height, model.table, view.get("rules"), repr(view.get("options")))
    memo = model.board_layout
    start = memo[1] if remember and memo is not None and memo[0] == key else 0
    for i in range(start, len(LAYOUTS)):
        path, labels = LAYOUTS[i]
        # A first pick of the winding path leaves room for what a turn may add below it
        # (a power's lines, decisions owed, more actions), so that it can be kept.
        slack = TURN_SLACK if remember and path and (memo is None or memo[0] != key) else 0
        layout = _game_layout(model, width, height, path=path, labels=labels, slack=slack)
        if layout is not None:
            if remember:
                model.board_layout = (key, i)
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
                 labels: bool = True, slack: int = 0) -> list[Line] | None:
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
    web = " · " + (_("guests: {url}").format(url=model.join_url) if model.join_url
                   else _("web: {url}").format(url=model.web_url))
    if model.web_url and sum(len(text) for _style, text in title) + len(web) <= main_w:
        title.append((DIM, web))
    watching = int((model.table_info or {}).get("spectators") or 0)
    turn = turn_line(model) + ([(DIM, " · " + ngettext("{n} watching", "{n} watching",
                                                       watching).format(n=watching))]
                               if watching else [])
    top: list[Line] = [title, turn]
    if board is not None:
        top += board
    else:
        top += board_lines(model, main_w, labels)
        top.append(ends_line(model))
    top += players_lines(model, main_w)
    reserve = (status_rows(model, width) + (1 if model.input else 0)
               + (len(quit_lines(model, width)) if model.overlay == "quit" else 0)
               + len(trouble_lines(model, width)) + len(notice_block(model, width)))
    # the end gives way where the window is short (end_lines), the hand and piles last
    ends = END_TIGHT + 1 if view.get("outcome") else 1
    for tight in range(ends):
        rest: list[Line] = []
        me = model.my_seat_view()
        if me is not None and not model.spectate and tight < END_TIGHT:
            rest += hand_lines(model, me.get("hand") or [], main_w)
        if tight < END_TIGHT:
            rest.append(piles_line(model))
        me_seat = None if model.spectate else model.seat
        rest += [x for i, text in enumerate(magic_lines_text(view, me_seat))
                 for x in wrap(text, main_w, DIM if i == 0 else "bold")]
        rest += pending_lines(model, main_w)
        acts = action_lines(model, main_w, tight)
        room = height - reserve - len(top) - len(rest) - len(acts)
        if room >= (LOG_MIN if path and not side else 0):
            break
    top += rest
    # a preview adds a line: keep room for it so the board does not change shape under it
    spare = 1 if model.preview is None and model.legal and not model.owes_discard() else 0
    if path and room - spare - slack < (0 if side else LOG_MIN):
        return None
    if labels and not path and room < 0 and named_paths(view):
        return None
    if room < 0 or width < MIN_WIDTH:
        return None
    if side:
        left = top + acts
        right: list[Line] = [[(TITLE, _("log & chat"))]]
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
