"""The screen-reader mode's words: the game said in sentences from the client model.

Pure functions of a :class:`client.model.ClientModel` (no I/O): the moves of a turn as
numbered choices in words, each power's decision one question at a time, and the answers
to the commands (``board``, ``hand``, ``pirates``, ``others``, ``log``, ``chances``).
Nothing here says an action's notation or draws a character a screen reader spells out
(no box drawing, no blocks, no arrows): :mod:`client.reader` prints these lines.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cartagena_net.engine.sentences import event_sentence
from cartagena_net.i18n import _, language, ngettext, percent, translation
from client.glyphs import card_count, color_name, symbol_name
from client.landing import advance_to, morgan_to, place_name, retreat_to
from client.powers import describe
from client.reader_events import reader_sentence

AHEAD = 6  # squares said ahead of each of my pirates by ``board``
LOG_SAID = 10  # lines said by ``log``


@dataclass
class Choice:
    """One numbered line of a question: its words, and the action it sends (or the next
    question it opens)."""

    text: str
    action: str | None = None
    then: Question | None = None
    do: Callable[[], None] | None = None  # what a choice outside the game does


@dataclass
class Question:
    """A question with numbered answers (1, 2, ...)."""

    head: str
    choices: list[Choice] = field(default_factory=list)
    back: Question | None = None  # where "back" goes (a question opened from another)


def card_words(card: str) -> str:
    """A card as it is said: ``hat``, ``dark hat`` (a dark card, ``hat*``)."""
    base = card.rstrip("*")
    if base != card:
        return _("dark {card}").format(card=symbol_name(base))
    return symbol_name(base)


def cards_words(cards: list[str]) -> str:
    """Cards with their counts: ``hat ×2, key`` (in the order first held): a count is
    never said bare beside a card's name, where it would sound like a pirate's or a
    space's number ("hat 2")."""
    counts = Counter(cards)
    return ", ".join(card_words(c) if n == 1 else _("{card} ×{n}").format(card=card_words(c), n=n)
                     for c, n in counts.items())


class Spoken:
    """A translation whose moves read "from 4 to 9", not with an arrow (said aloud)."""

    def __init__(self, tr: Any) -> None:
        self.tr = tr
        self.arrow = tr.gettext("from {frm} to {to}")

    def gettext(self, msg: str) -> str:
        return self.tr.gettext(msg).replace("{frm} → {to}", self.arrow)

    def ngettext(self, one: str, many: str, n: int) -> str:
        return self.tr.ngettext(one, many, n).replace("{frm} → {to}", self.arrow)

    def pgettext(self, ctx: str, msg: str) -> str:
        return self.tr.pgettext(ctx, msg)


def seat_words(m: Any, seat: Any) -> str:
    """A seat as it is said: the player's name, or its colour."""
    if not isinstance(seat, int):
        return str(seat)
    if seat == m.seat:
        return _("you")
    return name_of(m, seat)


def name_of(m: Any, seat: int) -> str:
    """The player's name at ``seat``; this player's own before the lobby has it."""
    if seat == m.seat and m.seat is not None and not any(
            s.get("seat") == seat and s.get("name")
            for s in (m.table_info or {}).get("seats") or []):
        return str(m.name)
    return str(m.seat_name(seat))


def place_words(view: Mapping[str, Any], pos: int | None) -> str:
    return place_name(dict(view), pos)


def event_words(m: Any, events: list[Any], lines: list[Any], mine: bool = False) -> list[str]:
    """One sentence per event, with the players' names and no arrows; ``mine``: the
    reader's own events in the second person ("You play hat: from start to 4", "Your
    turn."), as a game says them to its player (a replay names every seat)."""
    view = m.view or {}
    tr = Spoken(translation(language()))
    sloop = (view.get("sloop") or {}).get("pos") if isinstance(view.get("sloop"), dict) else None
    boat = view.get("boat")

    def place(p: int) -> str:
        if sloop is not None and p == sloop:
            return place_words(view, p)
        if p == -1 or p == boat:
            return place_name(dict(view), boat) if boat is not None else str(p)
        return place_words(view, p) if view else str(p)

    def who(seat: int) -> str:
        return name_of(m, seat) if m.view else str(seat)

    out = []
    for e, line in zip(events, lines if len(lines) == len(events) else [""] * len(events),
                       strict=True):
        said = reader_sentence(e, m.seat if mine else None, who, place, card_words) \
            if isinstance(e, dict) else None
        if said is None and isinstance(e, dict):
            said = event_sentence(e, who, place, card_words, tr)
        if said is None:
            said = str(line).replace(" → ", " " + _("to") + " ")
        out.append(said)
    return out


# ---------------------------------------------------------------- the turn's question


def pirate_number(m: Any, pos: int) -> int:
    """The number of my pirate that moves from ``pos`` (the lowest one there)."""
    return m.pirates.index(pos) + 1 if pos in m.pirates else 0


def move_words(m: Any, action: str) -> str:
    """One action of mine in words."""
    view = m.view or {}
    w = action.split()
    kind = w[0]
    try:
        if kind == "advance":
            pos, card = int(w[1]), w[2]
            to = advance_to(view, pos, card.rstrip("*"))
            return _("Play the {card}: your pirate {n} at {frm} goes to {to}").format(
                card=card_words(card), n=pirate_number(m, pos), frm=place_words(view, pos),
                to=place_words(view, to))
        if kind == "retreat":
            pos = int(w[1])
            land, draw = retreat_to(view, pos) or (pos, 0)
            return _("Go back: your pirate {n} at {frm} goes back to {to} and draws {cards}"
                     ).format(n=pirate_number(m, pos), frm=place_words(view, pos),
                              to=place_words(view, land), cards=card_count(draw))
        if kind == "end":
            return _("End your turn")
        if kind == "draw":
            return _("Draw a card instead of moving (your whole turn)")
        if kind == "undo":
            return _("Take back your last move")
        if kind == "sail":
            sloop = view.get("sloop") or {}
            here = str(sloop.get("shore") or "cartagena")
            there = "tortuga" if here == "cartagena" else "cartagena"
            return _("Sail the sloop from {frm} to {to}").format(frm=here.title(),
                                                               to=there.title())
        if kind == "morgan":
            seat, pos = int(w[1]), int(w[2])
            land, draw = morgan_to(view, pos, seat)
            return _("Morgan pushes {who}'s pirate at {frm} on to {to}; you draw {cards}"
                     ).format(who=seat_words(m, seat), frm=place_words(view, pos),
                              to=place_words(view, land), cards=card_count(draw))
        if kind == "discard":
            return _("Discard {cards}").format(cards=", ".join(card_words(c) for c in w[1:]))
        if kind == "take":
            power = (view.get("magic") or {}).get("power") or {}
            return _("Take the {card} from {who}").format(
                card=card_words(w[1]), who=seat_words(m, power.get("target")))
        if kind == "give":
            return _("Give the {card} to {who}").format(card=card_words(w[2]),
                                                        who=seat_words(m, int(w[1])))
        if kind == "keep":
            return _("Keep the {card}").format(card=card_words(w[1]))
        if kind in ("stack", "power"):
            return power_words(m, action)
    except (IndexError, ValueError, KeyError, TypeError):
        pass
    return _("a move this client cannot describe")


def power_words(m: Any, action: str) -> str:
    """A power or a Lantern's stacking in words (no arrows)."""
    view = m.view or {}
    w = action.split()
    kind = w[1].rstrip("*") if w[0] == "power" and len(w) > 1 else ""
    if kind == "parrot":
        pos, sym = int(w[3]), w[4]
        to = advance_to(view, pos, sym)
        return _("Play two parrots ({cards}) as a {card}: your pirate {n} at {frm} goes to {to}"
                 ).format(cards=_("{a} and {b}").format(a=card_words(w[1]), b=card_words(w[2])),
                          card=card_words(sym), n=pirate_number(m, pos),
                          frm=place_words(view, pos), to=place_words(view, to))
    if kind == "hook":
        pos = int(w[3])
        to = advance_to(view, pos, w[2].rstrip("*"))
        return _("Play the {card} and the {second} for the hook's power, two actions: two of "
                 "your pirates at {frm} go to {to}").format(
            card=card_words(w[1]), second=card_words(w[2]), frm=place_words(view, pos),
            to=place_words(view, to))
    if kind == "gun":
        return _("Play the {card} for its power: look at {who}'s cards and take one").format(
            card=card_words(w[1]), who=seat_words(m, int(w[2])))
    if kind == "rum":
        return _("Play the {card} for its power: draw {cards}, keep two and give one to each "
                 "other player").format(card=card_words(w[1]),
                                        cards=card_count(len(view.get("seats") or []) + 1))
    if kind == "lantern":
        return _("Play the {card} for its power: draw four cards, keep one and put the other "
                 "three back in your order").format(card=card_words(w[1]))
    if kind == "chest":
        return _("Play the {card} for its power: open the chest at {place}").format(
            card=card_words(w[1]), place=place_words(view, int(w[2])))
    text, _land, _frm = describe(view, action)
    return text.replace("*", "")


def power_kind_words(kind: str) -> str:
    card = symbol_name(kind)
    return {
        "gun": _("{card}: look at a player's cards and take one"),
        "rum": _("{card}: draw cards, keep two and give one to each other player"),
        "lantern": _("{card}: draw four cards, keep one, put three back in your order"),
        "chest": _("{card}: open a chest under one of your pirates"),
        "parrot": _("{card}: play two parrots as any card"),
        "hook": _("{card}: move two pirates with one card"),
    }.get(kind, "{card}").format(card=card)


def turn_question(m: Any) -> Question | None:
    """What I may do now as a numbered question (None: nothing is asked of me)."""
    legal = [a for a in m.legal if a]
    if not legal or m.view is None:
        return None
    kinds = {a.split()[0] for a in legal}
    view = m.view
    if "give" in kinds:
        gives = [a for a in legal if a.startswith("give ")]
        cards = list(dict.fromkeys(a.split()[2] for a in gives))
        q = Question(_("Rum: which card do you give?"))
        for c in cards:
            sub = Question(_("Rum: to whom do you give the {card}?").format(card=card_words(c)),
                           back=q)
            sub.choices = [Choice(seat_words(m, int(a.split()[1])), a) for a in gives
                           if a.split()[2] == c]
            q.choices.append(Choice(_("The {card}").format(card=card_words(c)), then=sub)
                             if len(sub.choices) > 1 else Choice(move_words(m, sub.choices[0]
                                                                            .action or ""),
                                                                 sub.choices[0].action))
        return q
    if "take" in kinds:
        power = (view.get("magic") or {}).get("power") or {}
        return Question(_("Gun: which of {who}'s cards do you take?").format(
            who=seat_words(m, power.get("target"))),
            [Choice(move_words(m, a), a) for a in legal if a.startswith("take ")])
    if "keep" in kinds:
        return Question(_("Lantern: which card do you keep?"),
                        [Choice(move_words(m, a), a) for a in legal if a.startswith("keep ")])
    if "stack" in kinds:
        return Question(_("Lantern: which card goes back on the stock next?"),
                        [Choice(move_words(m, a), a) for a in legal if a.startswith("stack ")])
    if "discard" in kinds:
        return Question(_("You must discard: which cards?"),
                        [Choice(move_words(m, a), a) for a in legal if a.startswith("discard ")])
    q = Question(_("Your moves:") if int(view.get("actions_taken") or 0) == 0 else ngettext(
        "You have done {n} action this turn. Your moves:",
        "You have done {n} actions this turn. Your moves:",
        int(view.get("actions_taken") or 0)).format(n=int(view.get("actions_taken") or 0)))
    advances = sorted((a for a in legal if a.startswith("advance ")),
                      key=lambda a: (pirate_number(m, int(a.split()[1])), a.split()[2]))
    q.choices += [Choice(move_words(m, a), a) for a in advances]
    q.choices += [Choice(move_words(m, a), a) for a in legal if a.startswith("retreat ")]
    powers = [a for a in legal if a.startswith("power ")]
    if powers:
        q.choices.append(Choice(_("Use a card's power (Black Magic Woman)"),
                                then=power_question(m, powers, q)))
    morgans = [a for a in legal if a.startswith("morgan ")]
    if morgans:
        sub = Question(_("Morgan: whose pirate does he push?"), back=q)
        sub.choices = [Choice(move_words(m, a), a) for a in morgans]
        q.choices.append(Choice(_("Call Morgan: push a pirate forward and draw cards"),
                                then=sub))
    for kind in ("sail", "draw", "end", "undo"):
        q.choices += [Choice(move_words(m, a), a) for a in legal if a == kind]
    known = {c.action for c in q.choices if c.action} | set(powers) | set(morgans)
    q.choices += [Choice(move_words(m, a), a) for a in legal if a not in known]
    return q


def power_question(m: Any, powers: list[str], back: Question) -> Question:
    """The card powers: first which power, then (where it has several) which use of it."""
    by_kind: dict[str, list[str]] = {}
    for a in powers:
        by_kind.setdefault(a.split()[1].rstrip("*"), []).append(a)
    q = Question(_("Which card's power?"), back=back)
    for kind, acts in by_kind.items():
        if len(acts) == 1:
            q.choices.append(Choice(power_words(m, acts[0]), acts[0]))
            continue
        sub = Question(power_kind_words(kind) + ". " + _("Which one?"), back=q)
        sub.choices = [Choice(power_words(m, a), a) for a in acts]
        q.choices.append(Choice(power_kind_words(kind), then=sub))
    return q


# ---------------------------------------------------------------- the commands' answers


def pirates_words(view: Mapping[str, Any], places: list[int]) -> str:
    """``1 at start, 2 at 5, 3 in the sloop`` for pirates numbered in order."""
    return ", ".join(_("{n} at {place}").format(n=i + 1, place=place_words(view, p))
                     for i, p in enumerate(places))


def my_pirates_lines(m: Any) -> list[str]:
    if m.view is None or m.my_seat_view() is None:
        return [_("You have no pirates: you are watching.")]
    return [_("Your pirates: {list}.").format(list=pirates_words(m.view, m.my_positions()))]


def hand_lines(m: Any) -> list[str]:
    me = m.my_seat_view()
    if m.view is None or me is None:
        return [_("You hold no cards: you are watching.")]
    hand = [str(c) for c in me.get("hand") or []]
    if not hand:
        return [_("Your hand is empty.")]
    return [_("Your hand, {cards}: {list}.").format(cards=card_count(len(hand)),
                                                   list=cards_words(hand))]


def others_lines(m: Any) -> list[str]:
    view = m.view
    if view is None:
        return [_("No game yet.")]
    out = []
    for s in view["seats"]:
        if s["seat"] == m.seat:
            continue
        numbered = s.get("numbered") if isinstance(s.get("numbered"), list) else sorted(
            s["pirates"])
        hand = s.get("hand")
        cards = (_("holds {list}").format(list=cards_words([str(c) for c in hand])) if hand
                 else _("holds {cards}").format(cards=card_count(int(s.get("hand_size") or 0))))
        out.append(_("{who}, {color}: {cards}; pirates {list}.").format(
            who=m.seat_name(s["seat"]), color=color_name(str(s.get("color", ""))), cards=cards,
            list=pirates_words(view, [int(p) for p in numbered])))
    return out or [_("Nobody else is at the table.")]


def whose_pirates(m: Any, view: Mapping[str, Any], pos: int) -> str:
    """Whose pirates stand at ``pos``: ``your pirate``, ``2 of Anne's pirates`` (empty:
    nobody's), in the seats' order."""
    out = []
    for s in view.get("seats") or []:
        n = sum(1 for p in s.get("pirates") or [] if int(p) == pos)
        if not n:
            continue
        mine = s.get("seat") == m.seat and m.seat is not None
        name = "" if mine else m.seat_name(s["seat"])
        if n == 1:  # (the web page's words for one pirate)
            out.append(_("your pirate") if mine else _("{name}'s pirate").format(name=name))
        else:
            out.append(ngettext("{n} of your pirates", "{n} of your pirates", n).format(n=n)
                       if mine else ngettext("{n} of {name}'s pirates",
                                             "{n} of {name}'s pirates", n).format(n=n, name=name))
    return ", ".join(out)


def board_lines(m: Any) -> list[str]:
    """Where every pirate stands, along the track from the goal back to the start, then
    the squares just ahead of each of my pirates."""
    view = m.view
    if view is None:
        return [_("No game yet.")]
    at: dict[int, list[str]] = {}
    for s in view["seats"]:
        counts = Counter(int(p) for p in s["pirates"])
        for pos, n in counts.items():
            at.setdefault(pos, []).append(
                ngettext("{n} of yours", "{n} of yours", n).format(n=n) if s["seat"] == m.seat
                else ngettext("{n} of {who}'s", "{n} of {who}'s", n).format(
                    n=n, who=m.seat_name(s["seat"])))
    out = [_("Along the track, from the goal back to the start:")]
    for pos in sorted(at, reverse=True):
        out.append(_("At {place}: {who}.").format(place=place_words(view, pos),
                                                   who=", ".join(at[pos])))
    board = view.get("board") or []
    boat = int(view.get("boat", len(board) + 1))
    paths = view.get("paths") or [{"first": 1, "last": boat - 1}]
    for pos in sorted(set(m.my_positions())):
        if pos >= boat:
            continue
        path = next((p for p in paths if int(p.get("first", 1)) <= pos <= int(p.get("last", 0))),
                    None)
        last = int(path["last"]) if path else boat - 1
        first = pos + 1 if pos >= 1 or path is None else int(paths[0].get("first", 1))
        squares = []
        for q in range(max(first, 1), min(last, max(first, 1) + AHEAD - 1) + 1):
            if not 1 <= q <= len(board):
                continue
            sym = symbol_name(str(board[q - 1])) if board[q - 1] else _("empty")
            owners = whose_pirates(m, view, q)
            squares.append(_("{n} {card}").format(n=q, card=sym) + (
                f" ({owners})" if owners else ""))
        if squares:
            out.append(_("Ahead of your pirate {n} at {place}: {squares}.").format(
                n=pirate_number(m, pos), place=place_words(view, pos),
                squares=", ".join(squares)))
    return out


def chances_lines(m: Any) -> list[str]:
    chances = m.chances.latest
    view = m.view or {}
    seats = view.get("seats") or []
    if not chances or len(chances) != len(seats):
        return [_("No chances of winning are shown at this table now.")]
    return [_("Chances of winning: {list}.").format(list=", ".join(
        _("{who} {p}").format(who=name_of(m, s["seat"]), p=percent(round(p * 100)))
        for s, p in zip(seats, chances, strict=True)))]


def outcome_lines(m: Any) -> list[str]:
    view = m.view or {}
    outcome = view.get("outcome") or {}
    ranking = outcome.get("ranking") or []
    winner = outcome.get("winner")
    out = [_("The game is over.")]
    if isinstance(winner, int):
        out.append(_("You won!") if winner == m.seat else _("{who} won.").format(
            who=name_of(m, winner)))
    if ranking:
        out.append(_("Ranking: {list}.").format(list=", ".join(
            _("{n}. {who}").format(n=i + 1, who=name_of(m, s)) for i, s in enumerate(ranking))))
    return out


def standings_lines(m: Any) -> list[str]:
    """``scores`` (``standings``): during a game, how many of each player's pirates are in
    the goal, in the seats' order; once it is over, the final ranking again."""
    view = m.view
    if view is None:
        return [_("No game yet.")]
    if m.game_over:
        return outcome_lines(m)
    board = view.get("board") or []
    boat = int(view.get("boat", len(board) + 1))
    goal = place_words(view, boat)
    out = []
    for s in view.get("seats") or []:
        pirates = [int(p) for p in s.get("pirates") or []]
        home = sum(1 for p in pirates if p >= boat)
        who = _("you") if s.get("seat") == m.seat and m.seat is not None else name_of(
            m, s["seat"])
        out.append(ngettext("{color} ({who}): {n} of {total} pirate in the {goal}.",
                            "{color} ({who}): {n} of {total} pirates in the {goal}.",
                            len(pirates)).format(
            color=color_name(str(s.get("color") or "")), who=who, n=home, total=len(pirates),
            goal=goal))
    return out
