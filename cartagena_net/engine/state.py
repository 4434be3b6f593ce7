"""A game in progress: pirates, cards, whose turn, decisions owed, and the outcome.

This is the core turn: advancing with a card, the whole-turn draw, ending the turn,
decisions owed, turns, the win, undo. The recharges and every personalised version
plug in through ``game.rules`` (see ``rules.py`` and ``versions.py``).
``apply`` is atomic: whatever it raises (a rule error, or any unexpected fault), the
state is left exactly as it was before the call.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from itertools import compress
from typing import TYPE_CHECKING, Any

from . import fields, moves, numbers
from .actions import DRAW, END, UNDO, Action, parse_action
from .board import Board
from .chance import Chance, ReplayChance
from .errors import IllegalActionError
from .events import Advance, Draw, End, Event, Reshuffle, Row, Turn, UndoAdvance, Win
from .fields import (
    CHANCE,
    DICT,
    EVENTS,
    FIXED,
    FORK,
    LIST,
    LIST_OR_NONE,
    LISTS,
    LOG,
    POSITION,
    SHARED,
    WHOLE,
    WITH_EVENTS,
    Field,
)
from .rules import ABSENT, need_action

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

# A decision owed: (seat, count, kind); kind is the action kind that answers it.
Owed = tuple

#: Every field of a :class:`State`, the one place they are named (``fields.py`` makes the
#: slots, the copy, the equality, the undo notes and the saves of it). Columns: the name,
#: how a copy takes it, how an action's save treats it, what equality compares, the value
#: of a blank state (a new list or dict for the list and dict kinds).
FIELDS: tuple[Field, ...] = (
    # The game, its board and its move tables: fixed when the game starts, shared.
    Field("game", SHARED, FIXED, key=True),
    Field("board", SHARED, FIXED, key="spaces"),
    Field("tables", SHARED, FIXED),
    # The position: what an undo puts back, and what equality compares (the occupancy
    # and the pirates home follow from the pirates).
    Field("pirates", LISTS, POSITION, key=True),  # [seat]: sorted positions
    Field("occ", LIST, POSITION),  # [pos]: how many pirates are there
    Field("home", LIST, POSITION),  # [seat]: how many of its pirates are home
    Field("hands", LISTS, POSITION, key=True),  # [seat][kind]: how many cards
    Field("stock", LIST, POSITION, key=True),  # card kinds, drawn from the end
    Field("loose", SHARED, POSITION, key=True, empty=0),  # stock's bottom cards in no order
    Field("discard", LIST, POSITION, key=True),  # card kinds, the top last
    Field("row", LIST_OR_NONE, POSITION, key=True),  # the face-up row, or None
    Field("turn", SHARED, POSITION, key=True, empty=0),  # whose turn
    Field("taken", SHARED, POSITION, key=True, empty=0),  # actions taken this turn
    Field("pending", LIST, POSITION, key=True),  # decisions owed: Owed, the first next
    Field("outcome", SHARED, POSITION, key=True),  # Outcome, once the game is over
    Field("extra", DICT, POSITION, key=True),  # the variants' public state, plain values
    # What happened: only appended to by an action.
    Field("history", LIST, LOG),  # the actions applied
    Field("chance", LIST, LOG),  # the chance outcomes, to replay the game exactly
    Field("events", EVENTS, LOG),  # the events kept (events.py), or None: keeps none
    # The number of the first event kept, and the pirates' numbers as of it (numbers.py).
    Field("events_base", WITH_EVENTS, FIXED, empty=0),
    Field("numbering", WITH_EVENTS, FIXED),
    Field("undo_stack", LIST, WHOLE),  # (position or None, undo event): what undo puts back
    Field("_chance", FORK, CHANCE),  # where chance outcomes come from
)
_TURN = fields.position_index(FIELDS, "turn")  # the turn's place in a position
_CHANCE = fields.log_index(FIELDS, "chance")  # the chance log's in a save's log lengths


@dataclass
class Hidden:
    """What a seat's view hides, for :meth:`State.rebuild`: the unseen cards (``pool``,
    kinds in order), how many go into each hand (``hands``, 0 for a hand the view
    shows), into each variant's hidden places (``held``: (variant, sizes)), and the
    stock's top the viewer knows (``top``, bottom first; the rest goes under it)."""

    pool: list[int]
    hands: list[int]
    held: tuple[tuple[Any, tuple[int, ...]], ...]
    top: list[int]


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner, then every seat from best to worst."""

    winner: int
    ranking: tuple[int, ...]


class State:
    """Mutable game state; copy with :meth:`copy`. Seats are 0..players-1, seat 0 starts.

    The stock is drawn from its end. ``loose`` cards at its bottom are in no order yet:
    a draw that reaches them takes one at random (``chance.pick``). Only a search's
    determinization deals a stock that way; a real game's stock is always in order."""

    __slots__ = fields.slots(FIELDS)

    #: A new state with every field at its empty value (FIELDS), of class ``cls``.
    _blank = staticmethod(fields.blank(FIELDS))

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: Game, chance: Chance, events: bool = True) -> State:
        s = cls._blank(cls)
        s.game = game
        s._chance = chance
        s.board = Board.lay_out(game, s.shuffle)
        s.tables = game.action_tables(s.board.length)
        n = game.players
        s.pirates = [[0] * game.pirates for _ in range(n)]
        s.occ = [0] * (s.board.boat + 1)
        s.occ[0] = n * game.pirates
        s.home = [0] * n
        s.hands = [[0] * game.kinds for _ in range(n)]
        s.row = [] if game.row_size else None
        if events:
            s.events = []
            s.numbering = numbers.start(s.pirates, 0)
        s.stock = list(game.deck)
        s.shuffle(s.stock)
        for seat in range(n):
            for _ in range(game.deal + (game.start_bonus if seat == 0 else 0)):
                s.hands[seat][s.stock.pop()] += 1
        if s.row is not None:
            s._refill_row()
        s.log(Turn(0))
        for setup in game.rules.setups:
            setup(s)
        return s

    @classmethod
    def replay(cls, game: Game, chance: list, actions: list, events: bool = True,
               fallback: Chance | None = None) -> State:
        """Rebuild a game from its recorded chance outcomes and action list.

        The state then plays on: once the recorded outcomes are used up, new ones come
        from ``fallback`` (default: the OS's secure RNG) and are recorded as usual.
        """
        s = cls.new(game, ReplayChance(chance, fallback), events=events)
        for a in actions:
            s.apply(a)
        return s

    @classmethod
    def from_view(cls, game: Game, view: dict[str, Any], chance: Chance) -> State:
        """A whole game consistent with a seat's view: its public part (board, pirates,
        discard pile, row, turn, decisions owed, outcome, the variants' public state),
        what the viewer alone sees (its hand, the Gun's target hand, its power's drawn
        cards, the top of the stock it knows), and the cards the view hides (the other
        hands, another seat's power pool, the rest of the stock) dealt in a fixed order
        so that every count adds up and the acting seat has exactly the game's legal
        actions. A search re-deals the hidden cards (``determinize.py``); the stock
        below what the viewer knows is loose (``loose``). No events, no history, no
        undo. ValueError if the view's counts do not add up."""
        s, hidden = cls.rebuild(game, view, chance)
        s.deal_hidden(hidden, hidden.pool)
        return s

    @classmethod
    def rebuild(cls, game: Game, view: dict[str, Any], chance: Chance) -> tuple[State, Hidden]:
        """The state of :meth:`from_view` before the hidden cards are dealt (the hidden
        hands are empty, so are the hidden places of the variants, and the stock holds
        only the cards the viewer knows on its top), and what :meth:`deal_hidden` deals."""
        s = cls._blank(cls)
        s.game = game
        s._chance = chance
        s.board = Board.of_names(list(view["board"]), game.symbols)
        s.tables = game.action_tables(s.board.length)
        seats = sorted(view["seats"], key=lambda seat: seat["seat"])
        s.pirates = [sorted(int(p) for p in seat["pirates"]) for seat in seats]
        boat = s.board.boat
        s.occ = [0] * (boat + 1)
        for mine in s.pirates:
            for p in mine:
                s.occ[p] += 1
        s.home = [mine.count(boat) for mine in s.pirates]
        index = game.card_index
        variants = game.rules.variants
        shown: dict[int, list[str]] = {}
        for v in variants:
            shown.update(v.shown_hands(view))
        s.hands = []
        hidden_hands = []
        for seat in seats:
            hand = [0] * game.kinds
            cards = seat.get("hand")
            if cards is None:
                cards = shown.get(int(seat["seat"]))
            for card in cards or ():
                hand[index[card]] += 1
            s.hands.append(hand)
            hidden_hands.append(0 if cards is not None else int(seat["hand_size"]))
        s.discard = [index[c] for c in view["discard"]]
        s.row = None if view.get("row") is None else [index[c] for c in view["row"]]
        s.turn, s.taken = int(view["turn"]), int(view["actions_taken"])
        s.pending = [(int(p["seat"]), int(p["count"]), str(p["kind"]))
                     for p in view.get("pending") or ()]
        out = view.get("outcome")
        s.outcome = None if out is None else Outcome(out["winner"], tuple(out["ranking"]))
        # no events, no history, no undo; the pirates' numbers as the view gave them (kept while no pirate moves)
        s.numbering = (None if not all("numbered" in seat for seat in seats) else
                       (0, tuple(tuple(int(p) for p in seat["numbered"]) for seat in seats),
                        ()))
        for v in variants:
            v.from_view(s, view)  # may put the viewer's known cards on top of the stock
        held = tuple((v, v.hidden_held(s, view)) for v in variants)
        # The unseen cards: the deck less every card the state now holds.
        unseen = [0] * game.kinds
        for k in game.deck:
            unseen[k] += 1
        for k in (*s.discard, *(s.row or ()), *s.stock,
                  *(k for v in variants for k in v.held(s))):
            unseen[k] -= 1
        for hand in s.hands:
            for k, n in enumerate(hand):
                unseen[k] -= n
        below = int(view["stock"]) - len(s.stock)
        pool = [k for k, n in enumerate(unseen) for _ in range(n)]
        dealt = sum(hidden_hands) + sum(n for _, sizes in held for n in sizes)
        if min(unseen, default=0) < 0 or below < 0 or len(pool) != dealt + below:
            raise ValueError("the view's hand sizes, stock size and cards do not add up "
                             "to the deck")
        return s, Hidden(pool, hidden_hands, held, list(s.stock))

    def deal_hidden(self, hidden: Hidden, cards: list[int]) -> None:
        """Deal ``cards`` (an order of ``hidden.pool``) into a state from :meth:`rebuild`
        (or a copy of one): the hidden hands first, seat by seat, then the variants'
        hidden places, and the rest under the stock's known top, loose."""
        at = 0
        for seat, n in enumerate(hidden.hands):
            if n:
                hand = self.hands[seat]
                for k in cards[at:at + n]:
                    hand[k] += 1
                at += n
        for v, sizes in hidden.held:
            n = sum(sizes)
            if n:
                v.deal_held(self, sizes, cards[at:at + n])
                at += n
        self.stock = [*cards[at:], *hidden.top]
        self.loose = len(cards) - at
    # The copy, made of FIELDS: every field as its copy kind says.
    copy = fields.copier(FIELDS, doc="""An independent copy: playing on it never changes this
        state, chance included.

        The copy's chance source is a fork of this one (the same future outcomes), or
        ``chance`` if given (e.g. a search's own RNG, which saves forking a seeded one).
        Its events only with ``events=True``; a copy without them keeps only a view's
        numbers of the pirates (``numbering``, never changed in place). The undo
        entries, the events and the pending decisions are never changed in place.""")

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this state exactly (holds hidden information)."""
        return {
            "spec": self.game.spec(),
            "chance": [list(o) for o in self.chance],
            "actions": [str(a) for a in self.history],
        }

    # What equality compares: the FIELDS with a ``key``.
    _key = fields.key(FIELDS)

    def __eq__(self, other: object) -> bool:
        """Same game, same position, same cards in the same places (stock order too)."""
        return isinstance(other, State) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    # -- queries --------------------------------------------------------------------
    @property
    def event_count(self) -> int:
        """Events so far, forgotten ones included: ``view(..., since=n)`` counts from here."""
        return self.events_base + len(self.events or ())

    def forget_events(self, before: int) -> None:
        """Drop the events numbered below ``before`` (a host keeps only what it resends)."""
        if self.events is None:
            return
        drop = min(before - self.events_base, len(self.events))
        if drop > 0:
            if self.numbering is not None:  # the pirates' numbers count them first
                self.numbering = numbers.counted(self, self.events_base + drop)
            del self.events[:drop]
            self.events_base += drop

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def actor(self) -> int | None:
        """The seat that must act now: one owing a decision, else the turn's seat."""
        if self.outcome is not None:
            return None
        return self.pending[0][0] if self.pending else self.turn

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat])

    def symbol_counts(self, seat: int) -> list[int]:
        """How many cards of each symbol ``seat`` holds (a dark card counts as its
        symbol's); what a search's evaluation reads, on the states it dealt."""
        hand = self.hands[seat]
        nsym = len(self.game.symbols)
        if len(hand) == nsym:  # no dark cards
            return list(hand)
        return [a + b for a, b in zip(hand, hand[nsym:])]  # a dark kind is k + nsym

    def retreat_target(self, pos: int) -> int:
        """Nearest space behind ``pos`` on its path with 1 or 2 pirates, or 0 if none."""
        return moves.retreat_target(self.occ, pos, self.board.back[pos])

    def advance_target(self, pos: int, symbol: int) -> int:
        """The next vacant space with ``symbol`` ahead of ``pos`` on its path, else the
        path's end (the sloop at the end of the passage, else the goal)."""
        b = self.board
        return moves.advance_target(self.occ, b.ahead[pos][symbol], b.end[pos])


    def can_undo(self) -> bool:
        """True when the last action of this turn may be taken back (see docs/rules.md, D23):
        it revealed nothing hidden, drew nothing, used no chance, won nothing and left
        nothing owed; an ``undo`` then puts the state back exactly as before it."""
        return bool(self.undo_stack) and not self.pending and self.outcome is None

    def legal_actions(self, undo: bool = False) -> list[Action]:
        """Every action the actor may take now (empty once the game is over).

        ``undo`` is never listed (bots never take back), unless ``undo=True`` and
        :meth:`can_undo` holds: then it comes last.
        """
        if undo and self.can_undo():
            return [*self.legal_actions(), UNDO]
        if self.outcome is not None:
            return []
        if self.pending:
            return self.game.rules.decisions(self)
        g = self.game
        rules = g.rules
        seat = self.turn
        taken = self.taken
        out: list[Action] = []
        if taken < g.actions:
            hand = self.hands[seat]
            tables = self.tables
            # Each space's advances with the kinds held, in kind order.
            by_pos = tables.by_hand.get(tuple(hand))
            if by_pos is None:
                by_pos = tables.advances(hand)
            board = self.board
            if not rules.checks:  # one pass: every space's advances, then the retreats
                moves.sweep(self.occ, self.pirates[seat], board.back, board.boat, by_pos,
                            tables.retreat if rules.swept_retreats else None, out)
            else:
                kinds = list(compress(range(len(hand)), hand))  # the kinds held
                nsym = len(g.symbols)
                boat = board.boat
                prev = -1
                for p in self.pirates[seat]:  # sorted: a space's pirates listed once
                    if p == prev:
                        continue
                    if p == boat:
                        break
                    prev = p
                    for k, a in zip(kinds, by_pos[p], strict=True):
                        to = self.advance_target(p, k % nsym)
                        if rules.refusal(self, seat, seat, p, to, "advance") is None:
                            out.append(a)
        for legal in rules.legal:
            legal(self, seat, out)
        if taken >= g.min_actions:
            out.append(END)
        if taken == 0 and not any(self.hands[seat]) and self._may_draw(seat):
            out.append(DRAW)
        return out

    def _may_draw(self, seat: int) -> bool:
        if any(self.hands[seat]):
            return False
        if self.game.empty_hand_draw == "always":
            return True
        return not any(v.can_recharge(self, seat) for v in self.game.rules.recharges)

    # -- applying actions -------------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` for the actor (``seat``, if given, must be the actor).

        Raises :class:`InvalidActionError` for bad notation and
        :class:`IllegalActionError` (its ``rule`` names the rule) for a forbidden action;
        either way the state is unchanged.
        """
        if isinstance(action, str):
            action = self.tables.by_text.get(action) or parse_action(action)
        if self.outcome is not None:
            raise IllegalActionError("game-over")
        kind = action.kind
        rules = self.game.rules
        if kind == "advance" and rules.plain_advance and not self.pending:
            self._plain_advance(action, seat)
            return
        if (kind in rules.seat_kinds and self.row is None and not self.loose
                and len(self.stock) > rules.seat_draws):
            self._seat_action(action, seat, rules.seat_draws)  # no reshuffle, no other seat's
            return
        saved = self._save()
        try:
            if kind == "undo":
                self._undo(seat)
            else:
                note = self._apply(action, seat)
                if note is not None or self.undo_stack:
                    self._note_undo(action, saved, note)
        except BaseException:
            self._restore(saved)
            raise

    def apply_unchecked(self, action: Action) -> None:
        """Apply one of ``legal_actions()`` for the actor, without the atomic save and
        the undo notes: the search's fast path, on its own copies. The same position as
        :meth:`apply` for a legal action; anything else may leave the state half
        changed."""
        if action.kind == "advance" and self.game.rules.plain_advance and not self.pending:
            g = self.game  # an advance as _plain_advance makes it, without the checks
            k = g.card_index[action.card]
            self._advance_plain(self.turn, action, k,
                                self.advance_target(action.pos, k % len(g.symbols)))
            return
        self._apply(action, None)

    def _plain_advance(self, action: Action, seat: int | None) -> None:
        """:meth:`apply` of an advance where no variant refuses or follows a move and
        nothing is owed (``rules.plain_advance``): every check first, then only what an
        advance changes, each put back if anything fails (the same atomicity as the
        whole save, for a fraction of its cost). The undo entry is the advance itself:
        :meth:`_undo` moves the pirate back and returns the card."""
        actor = self.turn
        if seat is not None and seat != actor:
            self._not_your_turn(actor)
        g = self.game
        taken = self.taken
        if taken >= g.actions:
            need_action(self)
        pos = action.pos
        k, target = self._advance_move(actor, pos, action.card)
        hand, mine, occ, home = self.hands[actor], self.pirates[actor], self.occ, self.home
        discard, history, events, stack = self.discard, self.history, self.events, self.undo_stack
        saved = (hand[k], mine[:], occ[pos], occ[target], home[actor], len(discard),
                 len(history), None if events is None else len(events), len(stack),
                 self.pending)
        turn = self.turn
        try:
            self._advance_plain(actor, action, k, target)
            if self.outcome is None and self.turn == turn:
                stack.append((None, (UndoAdvance, pos, target, k)))
            elif stack:
                self.undo_stack = []
        except BaseException:
            (hand[k], mine[:], occ[pos], occ[target], home[actor], ndiscard, nhistory,
             nevents, nstack, self.pending) = saved
            del discard[ndiscard:], history[nhistory:], stack[nstack:]
            if nevents is not None:
                del events[nevents:]  # type: ignore[index]
            self.undo_stack, self.turn, self.taken, self.outcome = stack, turn, taken, None
            raise

    def _advance_plain(self, actor: int, action: Action, k: int, target: int) -> None:
        """What an advance changes where no variant follows a move: the card played,
        then the win or, its actions used up, the next turn."""
        won = self._play_card(actor, action.pos, target, k)
        self.taken += 1
        if self.taken >= self.game.actions and not won:
            self._next_turn()
        self.history.append(action)

    def _not_your_turn(self, actor: int) -> None:
        raise IllegalActionError("not-your-move", {"color": self.game.colors[actor]},
                                 "not-your-turn")

    def _note_undo(self, action: Action, saved: tuple, note: tuple | None) -> None:
        """Keep what an action changed, if it may be taken back (D23); else forget all.
        ``note``: what an undo of it would log, the event's class and its fields after the
        seat (``(UndoAdvance, frm, to, card)``, a variant's ``undo_note``)."""
        position = saved[0]
        if (note is not None and self.outcome is None and not self.pending
                and self.turn == position[_TURN] and len(self.chance) == saved[1][_CHANCE]):
            self.undo_stack.append((position, note))
        elif self.undo_stack:
            self.undo_stack = []

    def _undo(self, seat: int | None) -> None:
        actor = self.actor
        if seat is not None and seat != actor:
            self._not_your_turn(actor)
        if not self.can_undo():
            raise IllegalActionError("undo-not-allowed")
        position, undone = self.undo_stack.pop()
        if position is None:  # a plain advance (_plain_advance): move back, card back
            _, pos, target, k = undone
            self.move_pirate(actor, target, pos)
            self.hands[actor][k] += 1
            self.discard.pop()
            self.taken -= 1
        else:
            stack = self.undo_stack
            # The entry may be shared with copies of this state: put back a copy of it.
            self._set_position(self._copy_position(position))
            self.undo_stack = stack
        self.log(undone[0](actor, *undone[1:]))
        self.history.append(UNDO)

    # Made of FIELDS: ``_position()``, the POSITION fields copied deep (what an undo
    # puts back: pirates, cards, turn, decisions owed, outcome, the variants' state),
    # ``_set_position(pos)``, which puts one back as it is, and ``_copy_position(pos)``.
    _position, _set_position = fields.position(FIELDS)
    _copy_position = staticmethod(fields.copy_position(FIELDS))
    # ``_log_lengths()``, each LOG field's length; ``_cut_logs(lengths)`` cuts them back.
    _log_lengths, _cut_logs = fields.logs(FIELDS)
    # ``_save()``: everything ``_apply`` may change, copied deep enough to put back
    # (position, logs' lengths, the undo stack, a replay's place); ``_restore(saved)``.
    _save, _restore = fields.save(FIELDS, ReplayChance)

    def _seat_action(self, action: Action, seat: int | None, draws: int) -> None:
        """:meth:`apply` of an action that changes no seat's pirates or hand but the
        actor's (``rules.seat_kinds``: an end, a draw, a retreat, where no variant follows
        an action), never undoable, taken while the stock holds more cards than it may
        draw (``rules.seat_draws``: no reshuffle) and no row or loose card is dealt from
        it. It saves only what such an action may change: the actor's pirates and hand,
        the occupancy, the stock's top cards (``draws`` of them), the turn, the variants'
        ``extra``, the logs' lengths (written out: ``tests/engine/test_fields.py`` checks
        them against the declared logs); and puts back just those if anything raises."""
        pending = self.pending
        actor = pending[0][0] if pending else self.turn  # (the game is not over)
        mine, hand = self.pirates[actor], self.hands[actor]
        stock, events = self.stock, self.events
        nstock = len(stock)
        top = stock[nstock - draws:]
        saved = (mine[:], hand[:], self.occ[:], self.home[actor], self.turn,
                 self.taken, pending[:], self.extra.copy(), (len(self.history),
                 len(self.chance), None if events is None else len(events)))
        try:
            self._apply(action, seat)
            if self.undo_stack:  # never undoable: nothing before it may be taken back
                self.undo_stack = []
        except BaseException:
            (self.pirates[actor], self.hands[actor], self.occ, self.home[actor], self.turn,
             self.taken, self.pending, self.extra, lengths) = saved
            self.stock = stock
            stock[nstock - len(top):] = top
            self._cut_logs(lengths)
            self.outcome = None
            raise

    def _apply(self, action: Action, seat: int | None) -> tuple | None:
        """Apply for the actor; return the note an undo would log, if it may be undone."""
        actor = self.pending[0][0] if self.pending else self.turn
        if seat is not None and seat != actor:
            self._not_your_turn(actor)
        kind = action.kind
        if self.pending and kind != self.pending[0][2]:
            _, owed, what = self.pending[0]
            raise IllegalActionError(f"owes-{what}", {"color": self.game.colors[actor],
                                                      "n": owed}, "decision-owed")
        g = self.game
        note = None
        if kind == "end":
            if self.taken < g.min_actions:
                raise IllegalActionError("min-actions", {"actions": g.min_actions})
            self.log(End(actor))
            self._next_turn()
        elif kind == "draw":
            if self.taken or not self._may_draw(actor):
                raise IllegalActionError(
                    "draw-not-stuck" if g.empty_hand_draw == "stuck" else "draw-not-allowed",
                    rule="draw-not-allowed")
            self.log(Draw(actor, tuple(self.draw_cards(actor, 1))))
            self._next_turn()
        else:
            if kind == "advance":
                if self.taken >= g.actions:
                    need_action(self)
                note = self._advance(actor, action.pos, action.card)
                cost = 1
            else:
                handler = g.rules.handlers.get(kind)
                if handler is None:
                    raise IllegalActionError(*ABSENT.get(
                        kind, ("unknown-action", {"action": kind}, "unknown")))
                cost = handler.apply(self, actor, action)
                if kind in g.rules.undoable:
                    note = handler.undo_note(self, action)
            self.taken += cost
            if self.taken >= g.actions and not self.pending and self.outcome is None:
                self._next_turn()
        self.history.append(action)
        return note

    def own_pirate(self, seat: int, pos: int) -> None:
        if pos not in self.pirates[seat]:
            raise IllegalActionError("no-pirate-there", {"color": self.game.colors[seat],
                                                         "place": self.place_arg(pos)})

    def _advance(self, seat: int, pos: int, card: str) -> tuple:
        k, target = self._advance_move(seat, pos, card)
        if not self._play_card(seat, pos, target, k):
            for hook in self.game.rules.card_hooks:
                hook(self, seat, k)
        return (UndoAdvance, pos, target, k)

    def _play_card(self, seat: int, pos: int, target: int, k: int) -> bool:
        """Card kind ``k`` from ``seat``'s hand to the discard pile, its pirate from
        ``pos`` to ``target`` (logged); whether that won the game."""
        self.hands[seat][k] -= 1
        self.discard.append(k)
        self.move_pirate(seat, pos, target)
        if self.events is not None:
            self.log(Advance(seat, pos, target, k))
        return target == self.board.boat and self.check_win(seat)

    def _advance_move(self, seat: int, pos: int, card: str) -> tuple[int, int]:
        """(card kind, landing) of ``seat`` advancing from ``pos`` with ``card``, or
        IllegalActionError; changes nothing."""
        g = self.game
        k = g.card_index.get(card)
        if k is None:
            raise IllegalActionError("unknown-card", {"card": card})
        hand = self.hands[seat]
        if not hand[k]:
            raise IllegalActionError("card-not-in-hand", {"card": card})
        if pos == self.board.boat:
            raise IllegalActionError("advance-from-boat", {"place": g.goal_name})
        if pos not in self.pirates[seat]:
            self.own_pirate(seat, pos)  # raises
        b = self.board
        target = moves.advance_target(self.occ, b.ahead[pos][k % len(g.symbols)], b.end[pos])
        rules = g.rules
        if rules.checks:
            rules.check(self, seat, seat, pos, target, "advance")
        return k, target

    # -- mechanics --------------------------------------------------------------------
    def move_pirate(self, seat: int, frm: int, to: int) -> None:
        mine = self.pirates[seat]
        mine.remove(frm)
        insort(mine, to)
        self.occ[frm] -= 1
        self.occ[to] += 1
        boat = self.board.boat
        if frm == boat:
            self.home[seat] -= 1
        if to == boat:
            self.home[seat] += 1

    def check_win(self, seat: int) -> bool:
        if self.home[seat] < self.game.pirates:
            return False
        rank = sorted(range(self.game.players),
                      key=lambda s: (s != seat, -self.home[s], -sum(self.pirates[s]), s))
        self.outcome = Outcome(seat, tuple(rank))
        self.pending = []
        self.log(Win(seat))
        return True

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.game.players
        self.taken = 0
        if self.events is not None:
            self.log(Turn(self.turn))
        for hook in self.game.rules.turn_hooks:
            hook(self)

    def draw_cards(self, seat: int, n: int) -> list[int]:
        """Draw up to ``n`` cards (fewer only when stock, row and discard are all empty)."""
        hand = self.hands[seat]
        drawn = []
        for _ in range(n):
            if self.row is not None:
                if not self.row:
                    self._refill_row()
                    if not self.row:
                        break
                k = self.row.pop(0)
                if not self.row:
                    self._refill_row()
            else:
                if not self.stock:
                    self._reshuffle()
                    if not self.stock:
                        break
                k = self._pop_stock()
            hand[k] += 1
            drawn.append(k)
        return drawn

    def _pop_stock(self) -> int:
        """The top card of the stock (not empty). Once the draws reach its loose cards,
        any one of them at random."""
        stock = self.stock
        n = len(stock)
        if n <= self.loose:
            i = self._chance.pick(n)
            stock[i], stock[-1] = stock[-1], stock[i]
            self.loose = n - 1
        return stock.pop()

    def _settle(self) -> None:
        """Put the stock's loose cards in a random order: it is all in order then."""
        if self.loose:
            loose = self.stock[:self.loose]
            self._chance.shuffle(loose)
            self.stock[:self.loose] = loose
            self.loose = 0

    def _reshuffle(self) -> None:
        if self.discard:
            self.stock = self.discard
            self.discard = []
            self.shuffle(self.stock)
            self.log(Reshuffle(len(self.stock)))
            for hook in self.game.rules.reshuffle_hooks:
                hook(self)

    def _refill_row(self) -> None:
        self._settle()  # the row is dealt from the top of the stock, in order
        if len(self.stock) < self.game.row_size and self.discard:
            # The stock alone cannot fill the row: the discard pile is shuffled in under it
            # (the stock's own cards stay on top, dealt first).
            rest = self.stock
            self._reshuffle()
            self.stock += rest
        n = min(self.game.row_size, len(self.stock))
        if n:
            self.row = [self.stock.pop() for _ in range(n)]
            self.log(Row(tuple(self.row)))

    def shuffle(self, items: list[int]) -> None:
        self._chance.shuffle(items)
        self.chance.append(tuple(items))

    def log(self, event: Event | None) -> None:
        """Keep ``event`` (``events.py``), where this state keeps events. None: nothing to
        keep (a hot path's, on a state that keeps none: no event built for nothing)."""
        if self.events is not None:
            self.events.append(event)

    def place_arg(self, pos: int) -> str | int:
        """Position ``pos`` as a reason's ``place`` field: the place's word (the start's,
        ``sloop``, the goal's) or a space's number."""
        return self.board.word(pos, self.game.start_name, self.game.goal_name)

    # -- set-up positions (puzzles, tests, rule examples) ----------------------------
    def setup(
        self,
        pirates: list[list[int]],
        hands: list[list[str]] | None = None,
        turn: int = 0,
        **extra: Any,
    ) -> None:
        """Place every pirate (and optionally every hand) by hand; cards are conserved.

        ``extra`` sets a variant's public state, e.g. ``shore="tortuga"`` (the Whole
        Jailbreak's sloop); each variant checks its own.
        """
        g, board = self.game, self.board
        boat = board.boat
        if len(pirates) != g.players or any(len(p) != g.pirates for p in pirates):
            raise ValueError(f"give {g.pirates} positions for each of {g.players} seats")
        occ = [0] * (boat + 1)
        for mine in pirates:
            for p in mine:
                if not 0 <= p <= boat:
                    raise ValueError(f"position {p} is off the board (0..{boat})")
                occ[p] += 1
        if any(c > 3 for p, c in enumerate(occ) if board.is_space(p)):
            raise ValueError("at most 3 pirates on a space")
        if hands is not None:
            if len(hands) != g.players:
                raise ValueError("give a hand for every seat")
            pool = self.stock + [k for h in self.hands for k in range(g.kinds) for _ in range(h[k])]
            new = [[0] * g.kinds for _ in range(g.players)]
            for seat, cards in enumerate(hands):
                for c in cards:
                    k = g.card_index[c]
                    if k not in pool:
                        raise ValueError(f"no {c} card left to give")
                    pool.remove(k)
                    new[seat][k] += 1
            self.hands, self.stock = new, pool
        placed = [sorted(p) for p in pirates]
        if self.events is not None and placed != self.pirates:  # numbered afresh by place
            self.numbering = numbers.start(placed, self.event_count)
        self.pirates = placed
        self.occ = occ
        self.home = [p.count(boat) for p in self.pirates]
        self.turn, self.taken, self.pending, self.outcome = turn, 0, [], None
        self.undo_stack = []
        self.extra = dict(extra)
        for setup in g.rules.setups:
            setup(self)
        unknown = set(extra) - set(g.rules.extra_keys)
        if unknown:
            raise ValueError(f"this game has no {', '.join(sorted(unknown))} to set")


def legal_actions(state: State, undo: bool = False) -> list[Action]:
    """What the acting seat may do now (the same as ``state.legal_actions()``)."""
    return state.legal_actions(undo)


#: ``copy_position(pos)``: a deep copy of a :meth:`State._position` tuple.
copy_position = State._copy_position
