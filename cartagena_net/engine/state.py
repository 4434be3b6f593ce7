"""A game in progress: pirates, cards, whose turn, decisions owed, and the outcome.

Every rule lives here. ``apply`` is atomic: whatever it raises (a rule error, or any
unexpected fault), the state is left exactly as it was before the call.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import Any

from . import moves
from .actions import DRAW, END, Action, parse_action
from .board import Board
from .chance import Chance, ReplayChance
from .errors import IllegalActionError
from .game import Game

Event = tuple  # ("advance", seat, from, to, card), ("retreat", seat, from, to, cards), ...


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner, then every seat from best to worst."""

    winner: int
    ranking: tuple[int, ...]


class State:
    """Mutable game state; copy with :meth:`copy`. Seats are 0..players-1, seat 0 starts."""

    __slots__ = (
        "_chance",
        "_tables",
        "board",
        "chance",
        "discard",
        "events",
        "events_base",
        "game",
        "hands",
        "history",
        "home",
        "occ",
        "outcome",
        "pending",
        "pirates",
        "row",
        "stock",
        "taken",
        "turn",
    )

    # -- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, game: Game, chance: Chance, events: bool = True) -> State:
        s = cls.__new__(cls)
        s.game = game
        s._chance = chance
        s.chance = []
        s.board = Board.lay_out(game, s._shuffle)
        s._tables = game.action_tables(s.board.length)
        n = game.players
        s.pirates = [[0] * game.pirates for _ in range(n)]
        s.occ = [0] * (s.board.boat + 1)
        s.occ[0] = n * game.pirates
        s.home = [0] * n
        s.hands = [[0] * game.kinds for _ in range(n)]
        s.discard = []
        s.row = [] if game.row_size else None
        s.turn = 0
        s.taken = 0
        s.pending = []
        s.outcome = None
        s.events = [] if events else None
        s.events_base = 0
        s.history = []
        s.stock = list(game.deck)
        s._shuffle(s.stock)
        for seat in range(n):
            for _ in range(game.deal + (game.start_bonus if seat == 0 else 0)):
                s.hands[seat][s.stock.pop()] += 1
        if s.row is not None:
            s._refill_row()
        s._log(("turn", 0))
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

    def copy(self, events: bool = False, chance: Chance | None = None) -> State:
        """An independent copy: playing on it never changes this state, chance included.

        The copy's chance source is a fork of this one (the same future outcomes), or
        ``chance`` if given (e.g. a search's own RNG, which saves forking a seeded one).
        """
        c = State.__new__(State)
        c.game, c.board, c._tables = self.game, self.board, self._tables
        c._chance = chance if chance is not None else self._chance.fork()
        c.pirates = [list(p) for p in self.pirates]
        c.occ = list(self.occ)
        c.home = list(self.home)
        c.hands = [list(h) for h in self.hands]
        c.stock = list(self.stock)
        c.discard = list(self.discard)
        c.row = None if self.row is None else list(self.row)
        c.turn, c.taken, c.outcome = self.turn, self.taken, self.outcome
        c.pending = list(self.pending)
        c.events = list(self.events) if events and self.events is not None else None
        c.events_base = self.events_base if c.events is not None else 0
        c.history = list(self.history)
        c.chance = list(self.chance)
        return c

    def record(self) -> dict[str, Any]:
        """Everything needed to rebuild this state exactly (holds hidden information)."""
        return {
            "spec": self.game.spec(),
            "chance": [list(o) for o in self.chance],
            "actions": [str(a) for a in self.history],
        }

    def _key(self) -> tuple:
        return (self.game, self.board.spaces, self.pirates, self.hands, self.stock,
                self.discard, self.row, self.turn, self.taken, self.pending, self.outcome)

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

    def retreat_target(self, pos: int) -> int:
        """Nearest space behind ``pos`` with 1 or 2 pirates, or 0 if none (no retreat)."""
        return moves.retreat_target(self.occ, pos)

    def advance_target(self, pos: int, symbol: int) -> int:
        """The next vacant space with ``symbol`` ahead of ``pos``, else the boat."""
        return moves.advance_target(self.occ, self.board.ahead[pos][symbol], self.board.boat)

    def morgan_target(self, pos: int) -> tuple[int, int]:
        """(space, cards drawn) for pushing a pirate at ``pos`` forward (Morgan)."""
        return moves.morgan_target(self.occ, pos, self.board.boat)

    def legal_actions(self) -> list[Action]:
        """Every action the actor may take now (empty once the game is over)."""
        if self.outcome is not None:
            return []
        t = self._tables
        if self.pending:
            hand = self.hands[self.pending[0][0]]
            return [t.discard[k] for k in range(len(hand)) if hand[k]]
        g = self.game
        seat = self.turn
        out: list[Action] = []
        if self.taken < g.actions:
            hand = self.hands[seat]
            kinds = [k for k in range(len(hand)) if hand[k]]
            boat = self.board.boat
            mine = self.pirates[seat]
            prev = -1
            if kinds:
                adv = t.advance
                for p in mine:
                    if p != prev:
                        if p == boat:
                            break
                        prev = p
                        row = adv[p]
                        out += [row[k] for k in kinds]
            if g.morgan != "instead":
                prev = -1
                ret = t.retreat
                occ, behind = self.occ, moves.retreat_target
                for p in mine:
                    if p != prev:
                        prev = p
                        if p and behind(occ, p):
                            out.append(ret[p])
            if g.morgan != "off":
                for owner in range(g.players):
                    if owner != seat:
                        prev = -1
                        row = t.morgan[owner]
                        for p in self.pirates[owner]:
                            if p != prev and p != boat:
                                prev = p
                                out.append(row[p])
        if self.taken >= g.min_actions:
            out.append(END)
        if self.taken == 0 and self._may_draw(seat):
            out.append(DRAW)
        return out

    def _may_draw(self, seat: int) -> bool:
        if any(self.hands[seat]):
            return False
        if self.game.empty_hand_draw == "always":
            return True
        can_recharge = self.game.morgan != "off" and any(
            p != self.board.boat for o in range(self.game.players) if o != seat
            for p in self.pirates[o]
        )
        if self.game.morgan != "instead":
            can_recharge = can_recharge or any(p and self.retreat_target(p)
                                               for p in self.pirates[seat])
        return not can_recharge

    # -- applying actions -------------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` for the actor (``seat``, if given, must be the actor).

        Raises :class:`InvalidActionError` for bad notation and
        :class:`IllegalActionError` (its ``rule`` names the rule) for a forbidden action;
        either way the state is unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action)
        if self.outcome is not None:
            raise IllegalActionError("the game is over", "game-over")
        saved = self._save()
        try:
            self._apply(action, seat)
        except BaseException:
            self._restore(saved)
            raise

    def apply_unchecked(self, action: Action) -> None:
        """Apply one of ``legal_actions()`` for the actor, without the atomic save: the
        search's fast path, on its own copies. The same result as :meth:`apply` for a
        legal action; anything else may leave the state half changed."""
        self._apply(action, None)

    def _save(self) -> tuple:
        """Everything ``_apply`` may change, copied deep enough to put back."""
        ch = self._chance
        return (
            [list(p) for p in self.pirates], list(self.occ), list(self.home),
            [list(h) for h in self.hands], list(self.stock), list(self.discard),
            None if self.row is None else list(self.row), self.turn, self.taken,
            list(self.pending), self.outcome, len(self.history), len(self.chance),
            None if self.events is None else len(self.events),
            ch._next if isinstance(ch, ReplayChance) else None,
        )

    def _restore(self, saved: tuple) -> None:
        (self.pirates, self.occ, self.home, self.hands, self.stock, self.discard, self.row,
         self.turn, self.taken, self.pending, self.outcome, nhist, nchance, nevents,
         replay_next) = saved
        del self.history[nhist:]
        del self.chance[nchance:]
        if nevents is not None and self.events is not None:
            del self.events[nevents:]
        if replay_next is not None:
            self._chance._next = replay_next  # type: ignore[union-attr]

    def _apply(self, action: Action, seat: int | None) -> None:
        actor = self.pending[0][0] if self.pending else self.turn
        if seat is not None and seat != actor:
            who = self.game.colors[actor]
            raise IllegalActionError(f"it is {who}'s move, not yours", "not-your-turn")
        kind = action.kind
        if self.pending and kind != "discard":
            owed = self.pending[0][1]
            raise IllegalActionError(
                f"{self.game.colors[actor]} must first discard {owed} card(s) (Filibusters)",
                "decision-owed")
        if kind == "discard":
            self._discard(actor, action.cards)
        elif kind == "end":
            if self.taken < self.game.min_actions:
                raise IllegalActionError(
                    f"at least {self.game.min_actions} action(s) before ending the turn",
                    "min-actions")
            self._log(("end", actor))
            self._next_turn()
        elif kind == "draw":
            if self.taken or not self._may_draw(actor):
                raise IllegalActionError(
                    "drawing as the whole turn is only allowed at the start of a turn with "
                    "no cards" + (" and no legal retreat" if self.game.empty_hand_draw
                                  == "stuck" else ""), "draw-not-allowed")
            self._log(("draw", actor, tuple(self._draw(actor, 1))))
            self._next_turn()
        else:
            if self.taken >= self.game.actions:
                raise IllegalActionError("no actions left this turn", "no-actions-left")
            if kind == "advance":
                self._advance(actor, action.pos, action.card)
            elif kind == "retreat":
                self._retreat(actor, action.pos)
            elif kind == "morgan":
                self._morgan(actor, action.seat, action.pos)
            else:  # pragma: no cover - parse_action admits no other kind
                raise IllegalActionError(f"unknown action {kind!r}", "unknown")
            self.taken += 1
            if self.taken >= self.game.actions and not self.pending and self.outcome is None:
                self._next_turn()
        self.history.append(action)

    def _own_pirate(self, seat: int, pos: int) -> None:
        if pos not in self.pirates[seat]:
            raise IllegalActionError(
                f"{self.game.colors[seat]} has no pirate at {self._place(pos)}", "no-pirate-there")

    def _advance(self, seat: int, pos: int, card: str) -> None:
        g = self.game
        k = g.card_index.get(card)
        if k is None:
            raise IllegalActionError(
                f"there is no {card!r} card in {g.preset}; cards: {', '.join(g.card_names)}",
                "unknown-card")
        hand = self.hands[seat]
        if not hand[k]:
            raise IllegalActionError(f"you hold no {card} card", "card-not-in-hand")
        if pos == self.board.boat:
            raise IllegalActionError("a pirate in the boat cannot advance", "advance-from-boat")
        self._own_pirate(seat, pos)
        nsym = len(g.symbols)
        target = self.advance_target(pos, k % nsym)
        hand[k] -= 1
        self.discard.append(k)
        self._move(seat, pos, target)
        self._log(("advance", seat, pos, target, k))
        if self._check_win(seat):
            return
        if g.filibusters and k >= nsym:
            for i in range(1, g.players):
                other = (seat + i) % g.players
                over = sum(self.hands[other]) - g.hand_limit
                if over > 0:
                    self.pending.append((other, over))
                    self._log(("owe", other, over))

    def _retreat(self, seat: int, pos: int) -> None:
        if self.game.morgan == "instead":
            raise IllegalActionError("in this game Morgan replaces retreating", "no-retreat")
        if pos == 0:
            raise IllegalActionError("a pirate at the start cannot retreat", "retreat-from-start")
        self._own_pirate(seat, pos)
        target = self.retreat_target(pos)
        if not target:
            raise IllegalActionError(
                "no space behind holds 1 or 2 pirates, and nothing retreats to the start",
                "no-retreat-target")
        n = self.occ[target]
        self._move(seat, pos, target)
        self._log(("retreat", seat, pos, target, tuple(self._draw(seat, n))))

    def _morgan(self, seat: int, owner: int, pos: int) -> None:
        g = self.game
        if g.morgan == "off":
            raise IllegalActionError("the Morgan option is off in this game", "morgan-off")
        if not 0 <= owner < g.players:
            raise IllegalActionError(f"there is no seat {owner}", "no-such-seat")
        if owner == seat:
            raise IllegalActionError("Morgan moves an opponent's pirate, not your own",
                                     "morgan-own-pirate")
        if pos == self.board.boat:
            raise IllegalActionError("a pirate in the boat cannot be moved on", "morgan-boat")
        self._own_pirate(owner, pos)
        target, n = self.morgan_target(pos)
        self._move(owner, pos, target)
        self._log(("morgan", seat, owner, pos, target, tuple(self._draw(seat, n))))
        self._check_win(owner)

    def _discard(self, seat: int, cards: tuple[str, ...]) -> None:
        if not self.pending:
            raise IllegalActionError("no discard is owed now", "discard-not-owed")
        owed = self.pending[0][1]
        if len(cards) > owed:
            raise IllegalActionError(f"you owe {owed} discard(s), not {len(cards)}",
                                     "discard-too-many")
        g = self.game
        hand = list(self.hands[seat])
        ks = []
        for c in cards:
            k = g.card_index.get(c)
            if k is None or not hand[k]:
                raise IllegalActionError(f"you hold no {c} card to discard", "card-not-in-hand")
            hand[k] -= 1
            ks.append(k)
        self.hands[seat] = hand
        for k in ks:
            self.discard.append(k)
            self._log(("discard", seat, k))
        if owed == len(ks):
            self.pending.pop(0)
        else:
            self.pending[0] = (seat, owed - len(ks))
        if not self.pending and self.taken >= g.actions and self.outcome is None:
            self._next_turn()

    # -- mechanics --------------------------------------------------------------------
    def _move(self, seat: int, frm: int, to: int) -> None:
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

    def _check_win(self, seat: int) -> bool:
        if self.home[seat] < self.game.pirates:
            return False
        rank = sorted(range(self.game.players),
                      key=lambda s: (s != seat, -self.home[s], -sum(self.pirates[s]), s))
        self.outcome = Outcome(seat, tuple(rank))
        self.pending = []
        self._log(("win", seat))
        return True

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.game.players
        self.taken = 0
        self._log(("turn", self.turn))

    def _draw(self, seat: int, n: int) -> list[int]:
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
                k = self.stock.pop()
            hand[k] += 1
            drawn.append(k)
        return drawn

    def _reshuffle(self) -> None:
        if self.discard:
            self.stock = self.discard
            self.discard = []
            self._shuffle(self.stock)
            self._log(("reshuffle", len(self.stock)))

    def _refill_row(self) -> None:
        if len(self.stock) < self.game.row_size and self.discard:
            # The stock alone cannot fill the row: the discard pile is shuffled in under it
            # (the stock's own cards stay on top, dealt first).
            rest = self.stock
            self._reshuffle()
            self.stock += rest
        n = min(self.game.row_size, len(self.stock))
        if n:
            self.row = [self.stock.pop() for _ in range(n)]
            self._log(("row", tuple(self.row)))

    def _shuffle(self, items: list[int]) -> None:
        self._chance.shuffle(items)
        self.chance.append(tuple(items))

    def _log(self, event: Event) -> None:
        if self.events is not None:
            self.events.append(event)

    def _place(self, pos: int) -> str:
        if pos == 0:
            return self.game.start_name
        return self.game.goal_name if pos == self.board.boat else f"space {pos}"

    # -- set-up positions (puzzles, tests, rule examples) ----------------------------
    def setup(
        self,
        pirates: list[list[int]],
        hands: list[list[str]] | None = None,
        turn: int = 0,
    ) -> None:
        """Place every pirate (and optionally every hand) by hand; cards are conserved."""
        g, boat = self.game, self.board.boat
        if len(pirates) != g.players or any(len(p) != g.pirates for p in pirates):
            raise ValueError(f"give {g.pirates} positions for each of {g.players} seats")
        occ = [0] * (boat + 1)
        for mine in pirates:
            for p in mine:
                if not 0 <= p <= boat:
                    raise ValueError(f"position {p} is off the board (0..{boat})")
                occ[p] += 1
        if any(c > 3 for c in occ[1:boat]):
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
        self.pirates = [sorted(p) for p in pirates]
        self.occ = occ
        self.home = [p.count(boat) for p in self.pirates]
        self.turn, self.taken, self.pending, self.outcome = turn, 0, [], None


def legal_actions(state: State) -> list[Action]:
    """What the acting seat may do now (the same as ``state.legal_actions()``)."""
    return state.legal_actions()
