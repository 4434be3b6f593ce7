"""Screens as pure functions: a :class:`~client.model.ClientModel` and a size in, lines out.

A line is a list of ``(style, text)`` fragments (prompt_toolkit formatted text). Every
function here returns at most ``height`` lines of at most ``width`` columns and only
reads the model.
"""
from __future__ import annotations

from typing import Any

from cartagena_net.i18n import N_, NP_, _, ngettext, pgettext
from cartagena_net.i18n.words import bot_kind, bot_words, options_words
from client.game_screen import (
    quit_lines,
    render_game,
    render_log,
    status_lines,
    trouble_lines,
)
from client.glyphs import (
    color_name,
    color_style,
    glyph,
    place,
    seat_number,
    seat_words,
    symbol_name,
)
from client.keys import screen_keys
from client.model import ClientModel
from client.notices import notice_block
from client.text import (
    DIM,
    ERR,
    KEY,
    SEL,
    TITLE,
    Line,
    asciify,
    clip,
    keys_line,
    to_formatted,
    to_text,
    width_of,
    wrap,
)

__all__ = ["Line", "render_screen", "to_formatted", "to_text", "width_of"]

# A table's status as the host names it, in the reader's language.
TABLE_STATUS = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}


def table_status(status: Any) -> str:
    text = str(status or "")
    return _(TABLE_STATUS[text]) if text in TABLE_STATUS else text


def render_screen(model: ClientModel, width: int, height: int) -> list[Line]:
    """The whole screen for the model's current state."""
    width = max(20, width)
    height = max(5, height)
    if model.overlay == "help":
        body = render_help(model, width, height)
    elif model.overlay == "log":
        body = render_log(model, width, height - 1)
    elif model.form is not None:
        body = render_form(model, width, height)
    elif model.gone is not None:
        body = render_gone(model, width, height)
    elif model.screen == "browser":
        body = render_browser(model, width, height)
    elif model.screen == "game" and model.view:
        body = render_game(model, width, height)
    elif model.screen == "lobby" or (model.screen == "game" and model.table is not None):
        body = render_waiting(model, width, height) if model.table is not None else render_lobby(
            model, width, height)
    else:
        body = [[(TITLE, "cartagena-net")], [("", _("connecting to {host}…").format(host=model.host_label))], [],
                *keys_line(screen_keys(model), width)]
    bottom = bottom_lines(model, width)
    body = body[: max(0, height - len(bottom))]
    body += [[] for _row in range(height - len(bottom) - len(body))]
    lines = body + bottom
    if model.ascii_only:
        lines = asciify(lines)
    return [clip(x, width) for x in lines]


def bottom_lines(model: ClientModel, width: int) -> list[Line]:
    """The input line, quit question and status line."""
    out: list[Line] = []
    if model.input is not None:
        typed = model.input.text
        if model.input.purpose in ("password", "table-password"):
            typed = "•" * len(typed)  # never shown as typed
        out.append([(KEY, model.input.prompt), ("", typed), (SEL, " ")])
    if model.overlay == "quit":  # wrapped where it is too wide, never cut
        out += quit_lines(model, width)
    for extra in model.extra_lines or []:  # the replay's review: a one-part line wraps
        if len(extra) == 1 and width_of(extra) > width:
            out += wrap(extra[0][1], width, extra[0][0])
        else:
            out.append(extra)
    out += trouble_lines(model, width)  # the host's own client: what is wrong with the host
    out += notice_block(model, width)  # what the host says went wrong (every client)
    out += status_lines(model, width)  # wrapped, never cut (game_screen.status_rows counts)
    return [clip(x, width) for x in out]


def render_help(model: ClientModel, width: int, height: int) -> list[Line]:
    """The ``?`` overlay: the keys of this screen, for this person, with these rules; where
    it is longer than the window, a part of it and how to scroll (never cut)."""
    keys = model.keys
    lines: list[Line] = [[(TITLE + " reverse", " " + _("Help — any key closes") + " ")], []]
    lines += keys_line(screen_keys(model, now=False), width)
    if keys and model.screen == "game" and model.seat is not None and not model.spectate:
        sym = [(k, f"{glyph(s, model.ascii_only, keys)} {symbol_name(s)}")
               for s, k in keys.items()]
        lines.append([("", _("Cards (a card's letter previews it; Enter plays it):"))])
        lines += keys_line(sym, width)
    if model.view:
        lines.append([])
        goal = place(model.view.get("goal_name") or "boat")
        end = _("else the {goal}").format(goal=goal)
        if model.view.get("sloop"):
            end = _("else the end of its path: the sloop, or the {goal}").format(goal=goal)
        lines += wrap(_("Advance: play a card, the pirate jumps to the next free space of its "
                        "symbol ({end}). Retreat: back to the nearest space with 1 or 2 "
                        "pirates, draw that many cards.").format(end=end), width, DIM)
        if model.view.get("sloop"):
            lines += wrap(_(
                "The sloop: at the end of the underground passage pirates board it (Cartagena); f "
                "sails it to Tortuga (with a pirate of yours aboard) or back (with one of "
                "yours still in the passage) for one action. From the sloop at Tortuga a card "
                "lands a pirate on the island path, on to the cove. At most 3 of a colour "
                "aboard. Whoever has the most pirates aboard when the turn begins is the "
                "Captain: one free sail before the first action."), width, DIM)
    room = height - len(bottom_lines(model, width))
    if len(lines) <= room:
        model.help_top = 0
        return lines
    shown = max(1, room - 1)
    top = model.help_top = min(model.help_top, len(lines) - shown)
    more = _("↑↓ PgUp/PgDn scroll ({first}–{last} of {n}) · any other key closes").format(
        first=top + 1, last=top + shown, n=len(lines))
    return lines[top:top + shown] + [[(TITLE, more)]]


def render_gone(model: ClientModel, width: int, height: int) -> list[Line]:
    """The client stopped talking to the host, and says why."""
    lines: list[Line] = [[(TITLE, "cartagena-net"), (DIM, f" · {model.host_label}")], []]
    lines += wrap(model.gone or "", width, ERR)
    lines.append([])
    lines += keys_line(screen_keys(model), width)
    return lines


def render_browser(model: ClientModel, width: int, height: int) -> list[Line]:
    """Hosts found on the LAN, live."""
    lines: list[Line] = [[(TITLE, "cartagena-net"), ("", " · " + _("hosts on the LAN")),
                          (DIM, "   " + _("you: {name}").format(name=model.name))], []]
    if not model.hosts:
        lines.append([(DIM, _("looking for hosts… (or press a to type an address)"))])
        for i, text in enumerate(model.discovery_help):
            lines += wrap(text, width, TITLE if i == 0 else "")
    for i, h in enumerate(model.hosts):
        tables = list(getattr(h, "tables", []) or [])
        sel = i == model.browser_index
        free = getattr(h, "free_seats", None)
        lines.append([
            (SEL if sel else TITLE, f" {h.name} "),
            ("", f"  {h.address}:{h.port}"),
            (DIM, f"  v{getattr(h, 'version', '?')}  "
                  + (_tables_text(getattr(h, "n_tables", len(tables)), free)
                     if getattr(h, "tables_known", True) else _("tables unknown"))),
        ])
        for t in tables[:4]:
            if isinstance(t, dict):
                lines.append([(DIM, (f"     {t.get('name', '')}: {t.get('rules', '')}, "
                                    f"{table_status(t.get('status'))}"))])
    lines.append([])
    lines += keys_line(screen_keys(model), width)
    return lines


def _tables_text(n: Any, free: Any) -> str:
    """``2 tables, 3 free seats`` (each with its plural)."""
    count = int(n) if isinstance(n, int) else 0
    text = ngettext("{n} table", "{n} tables", count).format(n=n)
    if isinstance(free, int):
        text += ", " + ngettext("{n} free seat", "{n} free seats", free).format(n=free)
    return text


def _options_text(options: dict[str, Any] | None) -> str:
    """A table's options (the seat colours show with the seats themselves)."""
    return options_words(options)


def _seat_text(seat: dict[str, Any], owner: Any) -> str:
    who = seat.get("name") or (_("bot") if seat.get("bot") else "—")
    if seat.get("bot") and seat.get("name") and seat.get("connected") is False:
        who = _("{name} (away; a {kind} plays)").format(name=who, kind=bot_kind(seat["bot"]))
    elif seat.get("bot"):
        who = _("{name} ({kind})").format(name=who,
                                          kind=bot_words(seat["bot"], seat.get("level")))
    if seat.get("name") and not seat.get("bot") and seat.get("connected") is False:
        who += " " + _("(away)")
    if owner is not None and seat.get("seat") == owner:
        who += " ★"
    return f"{color_name(str(seat.get('color', '?')))}: {who}"


def render_lobby(model: ClientModel, width: int, height: int) -> list[Line]:
    """Tables on the host, with rules and seats."""
    lines: list[Line] = [[(TITLE, "cartagena-net"), ("", " · " + _("lobby of {host}").format(host=model.host_label)),
                          (DIM, "   " + _("you: {name} ({color})").format(
                              name=model.name, color=_("any") if model.color == "any"
                              else color_name(str(model.color))))]
                         + ([(DIM, "   " + _("web view: {url}").format(url=model.web_url))]
                            if model.web_url else []), []]
    if not model.tables:
        lines.append([(DIM, _("no tables yet: press t to create one"))])
    for i, t in enumerate(model.tables):
        sel = i == model.lobby_index
        lock = " " + _("[password]") if t.get("password") else ""
        lock += " " + _("[hints]") if t.get("hints") else ""
        lock += " " + _("[chances shown]") if t.get("player_chances") else ""
        row: Line = [(SEL if sel else TITLE, f" {t.get('id')}: {t.get('name')} "),
                     ("", f"  {t.get('rules')}  "), (DIM, _options_text(t.get("options"))),
                     ("", f"  {table_status(t.get('status'))}  " + ngettext(
                         "{n} watching", "{n} watching", int(t.get("spectators") or 0)).format(
                         n=t.get("spectators", 0)) + lock)]
        if width_of(row) <= width:
            lines.append(row)
        else:  # too wide: the options and the rest wrapped under the table's name
            lines.append(row[:2])
            rest = (_options_text(t.get("options")) + row[3][1]).strip()
            lines += [[("", "    ")] + x for x in wrap(rest, width - 4, DIM)]
        seats = ", ".join(_seat_text(s, t.get("owner")) for s in t.get("seats") or [])
        lines += [[("", "    ")] + x for x in wrap(seats, width - 4, DIM)]
    tonight = model.scoreboard_text()
    if tonight:
        lines.append([])
        lines += wrap(tonight, width, TITLE)
    if model.join_url:
        lines.append([])
        lines += wrap(_("Guests play from a phone or any browser: {url}").format(
            url=model.join_url), width, TITLE)
    saved = model.saved_seat
    if saved and model.saved_seat_free():
        lines.append([])
        lines += wrap(_("An earlier run of this client left your seat {seat} at table "
                        "{table}: press r to take it back.").format(
            seat=seat_number(saved.get("seat")),
            table=saved.get("table")), width, TITLE)
    lines.append([])
    lines += keys_line(screen_keys(model), width)
    chat = [f"<{s}> {t}" for s, t in model.chat[-5:]]
    if chat:
        lines.append([])
        lines += [[(DIM, c)] for c in chat]
    if model.join_url:  # its QR code, where the screen has room for it
        from client.qr import QR_STYLE, qr_lines

        code = qr_lines(model.join_url)
        if len(lines) + len(code) + 2 <= height and len(code[0]) <= width:
            lines.append([])
            lines += [[(QR_STYLE, row)] for row in code]
    return lines


def render_waiting(model: ClientModel, width: int, height: int) -> list[Line]:
    """The table we sit at, before the game starts."""
    info = model.table_info or {}
    owner = info.get("owner")
    role = _("watching") if model.seat is None else seat_words(model.seat)
    head: Line = [(TITLE, _("Table {n}: {name}").format(n=model.table, name=info.get("name", ""))),
                  ("", f"  {info.get('rules', '')} "), (DIM, _options_text(info.get("options")))]
    lines: list[Line] = [head] if width_of(head) <= width else [head[:2]] + [
        [("", "  ")] + x for x in wrap(_options_text(info.get("options")), width - 2, DIM)]
    rows = len(lines)
    lines += [
        [("", table_status(info.get("status", "waiting")) + " · " + _(
            "you: {name}, {role}").format(name=model.name, role=role)),
         (DIM, "  " + _("(you own this table)") if model.is_owner else "")],
        [(DIM, _("watch in a browser: {url}").format(url=model.web_url))]
        if model.web_url else [],
    ]
    if model.hosting:
        lines.insert(rows + 1, [(DIM, _("friends join with: {command}").format(
            command=f"cartagena join {model.host_label}"))])
    if model.web_url or model.hosting:
        lines.append([])
    for i, s in enumerate(info.get("seats") or []):
        sel = i == model.seat_index and model.may_manage()
        style = color_style(str(s.get("color", "")))
        lines.append([(SEL if sel else "", " ▸ " if sel else "   "),
                      (style, _seat_text(s, owner))])
    lines.append([])
    if not model.may_manage():
        lines.append([(DIM, _("waiting for the owner to start…"))])
    lines += keys_line(screen_keys(model), width)
    chat = [f"<{s}> {t}" for s, t in model.chat[-6:]]
    if chat:
        lines.append([])
        lines += [[(DIM, c)] for c in chat]
    return lines


# The new-table form's fields (the names stay the form's own keys).
FORM_FIELDS = {"rules": NP_("form", "rules"), "players": NP_("form", "players"),
               "bots": NP_("form", "bots"), "name": NP_("form", "name"),
               "options": NP_("form", "options"), "hints": NP_("form", "hints"),
               "chances": NP_("form", "players see the chances"),
               "password": NP_("form", "password"), "bot_kind": NP_("form", "bots' level")}
BOT_KIND_WORDS = {"ismcts": N_("the host's level"), "greedy": N_("easy"), "easy": N_("easy"),
                  "normal": N_("normal"), "hard": N_("hard"), "random": N_("random")}


def _option_value(model: ClientModel, f: Any, name: str) -> tuple[str, bool]:
    """An option row's value as shown, and whether it is the rules' own (dim)."""
    spec = f.spec(name)
    value = f.chosen.get(spec.name)
    arrows = not spec.typed
    if value is None or value == "":
        own = (model.preset_values.get(f.presets[f.preset]) or {}).get(spec.name)
        shown = _yes_no(own) if isinstance(own, bool) else (
            ",".join(map(str, own)) if isinstance(own, (list, tuple)) else
            ("" if own is None else str(own)))
        text = _("rules' value: {value}").format(value=shown) if shown else _("rules' value")
        return (f"◂ {text} ▸" if arrows else text), True
    text = _yes_no(value) if isinstance(value, bool) else str(value)
    return (f"◂ {text} ▸" if arrows else text), False


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def render_form(model: ClientModel, width: int, height: int) -> list[Line]:
    """The new-table form: its rows (scrolled to keep the chosen one in sight), then what
    the chosen row means."""
    f = model.form
    assert f is not None
    values = {"rules": f"◂ {f.presets[f.preset]} ▸", "players": f"◂ {f.players} ▸",
              "bots": f"◂ {f.bots} ▸", "name": f.name, "options": f.options or pgettext("options", "(none)"),
              "hints": f"◂ {_yes_no(f.hints)} ▸", "chances": f"◂ {_yes_no(f.chances)} ▸",
              "password": "•" * len(f.password) if f.password else pgettext("password",
                                                                             "(none)"),
              "bot_kind": f"◂ {_(BOT_KIND_WORDS.get(f.bot_kind, f.bot_kind))} ▸"}
    lines: list[Line] = [[(TITLE, _("New table"))], []]
    rows = f.FIELDS
    labels = {n: pgettext("form", FORM_FIELDS[n]) if n in FORM_FIELDS else n[4:]
              for n in rows}
    room = max(8, *(width_of([("", x)]) for x in labels.values()))
    shown = max(3, height - 9)
    first = min(max(0, f.row - shown // 2), max(0, len(rows) - shown))
    if first:
        lines.append([(DIM, " ↑")])
    for i in range(first, min(len(rows), first + shown)):
        name = rows[i]
        sel = i == f.row
        dim = False
        if name in values:
            value = values[name]
        else:
            value, dim = _option_value(model, f, name)
        lines.append([(SEL if sel else "", " " + labels[name].ljust(room)), ("", "  "),
                      (TITLE if sel else DIM if dim else "", value)])
    if first + shown < len(rows):
        lines.append([(DIM, " ↓")])
    lines.append([])
    title = model.preset_titles.get(f.presets[f.preset], "")
    spec = f.spec(rows[f.row])
    if spec is not None:
        lines += wrap(f"{spec.name}: {_(spec.help)}", width, DIM)
    elif rows[f.row] == "options":
        lines += wrap(_("options are KEY=VALUE words, e.g. segments=4 pirates=5"), width, DIM)
    elif rows[f.row] == "hints":
        lines += wrap(_("the seated players may ask the bot for a hint on their turn"),
                      width, DIM)
    elif rows[f.row] == "chances":
        lines += wrap(_("the players' own screens show each seat's chance of winning "
                        "(watchers always see them)"), width, DIM)
    elif rows[f.row] == "bot_kind":
        lines += wrap(_("the bots the form seats: the host's searching bot at the level it "
                        "runs (normal unless it was started with --level), an easy, a normal "
                        "or a hard one, or one that plays at random"), width, DIM)
    elif rows[f.row] == "password":
        lines += wrap(_("others need it to sit or watch here; none: anyone may"), width, DIM)
    elif title:
        lines += wrap(f"{f.presets[f.preset]}: {_(title)}", width)
    lines += keys_line([("↑↓", _("field")), ("←→", _("change")), (_("type"), _("text")),
                        ("Enter", _("create")), ("Esc", _("cancel"))], width)
    return lines
