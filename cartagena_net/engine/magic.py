"""Black Magic Woman (2017): each card may release its power instead of moving a pirate,
and treasure chest tiles lie face down on the chest spaces (rules D37-D50).

Powers are one action kind, ``power CARD ...`` (see ``actions.py``); the Gun, the Rum
and the Lantern then make their player owe decisions (``state.pending``), answered step
by step: ``take CARD``, ``give SEAT CARD``, ``keep CARD`` and ``stack CARD``.

Public state in ``state.extra`` (plain immutable values):

- ``chests``: the tile on each chest space, in board order (``NO_TILE`` once opened):
  hidden from everyone; ``tiles_aside``: face-down tiles not on the board (hidden);
  ``tiles_open``: opened tiles, face up, out of play until the snake;
- ``power``: the power being resolved, or None: ``("gun", seat, card, target)``,
  ``("rum", seat, card, pool, given)``, ``("lantern", seat, card, pool, placed)``;
  pools hold the drawn cards (only their drawer sees them);
- ``known``: ``((seat, base, count), ...)``: a Lantern player knows the stock's cards
  at positions ``base .. base + count - 1`` (the top is the stock's end) until they are
  drawn or the stock is reshuffled.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action
from .errors import IllegalActionError
from .events import Chest, Give, Gun, Hook, Keep, Parrot, Power, Stack, Take, Tiles
from .rules import ABSENT, Variant, need_action

if TYPE_CHECKING:  # pragma: no cover
    from .board import Board
    from .state import State

EMPTY, SNAKE, NO_TILE = 0, 4, -1
TILES = (1, 1, 2, 2, 3, 3, EMPTY, SNAKE)  # six give 1-3 cards (two each), empty, snake
TILE_NAMES = {1: "1", 2: "2", 3: "3", EMPTY: "empty", SNAKE: "snake"}
POWERS = ("gun", "rum", "lantern", "parrot", "hook", "chest")
DECISIONS = ("take", "give", "keep", "stack")
LANTERN_DRAW = 4
RUM_KEEP = 2
KEYS = ("chests", "tiles_aside", "tiles_open", "power", "known")


def chest_spaces(board: Board, symbols: tuple[str, ...]) -> tuple[int, ...]:
    """The chest spaces of a board, in the order pirates travel."""
    chest = symbols.index("chest")
    return tuple(p for p in range(1, board.boat) if board.is_space(p)
                 and board.spaces[p - 1] == chest)


def snake_target(occ: list[int], board: Board, pos: int, rum: int) -> int:
    """Where the snake sends a pirate at ``pos`` (D41): the nearest vacant rum space
    behind it on its path; with none, the rearmost space of its path with room (fewer
    than 3 pirates) behind it; with none, it stays."""
    first = board.back[pos]
    for q in range(pos - 1, first - 1, -1):
        if board.spaces[q - 1] == rum and not occ[q]:
            return q
    for q in range(first, pos):
        if occ[q] < 3:
            return q
    return pos


class Magic(Variant):
    kinds = ("power", *DECISIONS)
    extra_keys = KEYS

    def __init__(self, game) -> None:
        super().__init__(game)
        self.nsym = len(game.symbols)
        self.sym = {name: game.symbols.index(name) for name in POWERS}
        self._chests: dict[tuple, tuple[int, ...]] = {}

    def chests_of(self, state: State) -> tuple[int, ...]:
        key = state.board.spaces
        if key not in self._chests:
            self._chests[key] = chest_spaces(state.board, self.game.symbols)
        return self._chests[key]

    # -- set-up ------------------------------------------------------------------
    def setup(self, state: State) -> None:
        x = state.extra
        spaces = self.chests_of(state)
        if "chests" in x:  # a set-up position gives the tiles
            chests = tuple(x["chests"])
            if len(chests) != len(spaces):
                raise ValueError(f"give a tile (or {NO_TILE}) for each of the "
                                 f"{len(spaces)} chest spaces")
            x["chests"] = chests
            x.setdefault("tiles_open", ())
            rest = list(TILES)
            for t in (*chests, *x["tiles_open"]):
                if t != NO_TILE:
                    rest.remove(t)
            x.setdefault("tiles_aside", tuple(rest))
        else:
            self.lay_tiles(state)
        x.setdefault("power", None)
        x.setdefault("known", ())

    def lay_tiles(self, state: State) -> None:
        """Shuffle all eight tiles (chance) and place one face down on each chest space
        in board order; tiles beyond the chest spaces stay aside face down (D38)."""
        tiles = list(TILES)
        state.shuffle(tiles)
        n = len(self.chests_of(state))
        placed = tiles[:n] + [NO_TILE] * (n - len(tiles[:n]))
        state.extra["chests"] = tuple(placed)
        state.extra["tiles_aside"] = tuple(sorted(tiles[n:]))
        state.extra["tiles_open"] = ()

    def from_view(self, state: State, view: dict) -> None:
        m = view["magic"]
        names = {v: k for k, v in TILE_NAMES.items()}
        opened = tuple(names[t] for t in m["tiles_open"])
        closed = list(TILES)
        for t in opened:
            closed.remove(t)
        spaces = self.chests_of(state)
        shut = {int(c["pos"]) for c in m["chests"] if c["closed"]}
        chests = []
        for p in spaces:  # unknown tiles: some order of the closed ones (a search re-deals)
            chests.append(closed.pop() if p in shut else NO_TILE)
        index = self.game.card_index
        # The viewer's Lantern cards on top of the stock (top first in the view), and
        # who knows how much of the top (entries that say the same as the game's).
        state.stock = [index[c] for c in reversed(m.get("known_stock") or ())]
        n = int(view["stock"])
        known = tuple((int(e["seat"]), n - int(e["count"]), int(e["count"]))
                      for e in m.get("stock_known") or ())
        state.extra.update(chests=tuple(chests), tiles_aside=tuple(closed),
                           tiles_open=opened, power=None, known=known)
        power = m.get("power")
        if power is not None:
            k = index[power["card"]]
            seat = int(power["seat"])
            pool = tuple(index[c] for c in power.get("pool") or ())  # the drawer's only
            if power["kind"] == "gun":
                state.extra["power"] = ("gun", seat, k, int(power["target"]))
            elif power["kind"] == "rum":
                state.extra["power"] = ("rum", seat, k, pool, tuple(power["given"]))
            else:
                placed = tuple(index[c] for c in power.get("placed") or ())
                state.extra["power"] = ("lantern", seat, k, pool, placed)

    def shown_hands(self, view: dict) -> dict[int, list[str]]:
        power = view["magic"].get("power")
        if power is not None and power.get("hand") is not None:
            return {int(power["target"]): list(power["hand"])}  # to the Gun's player
        return {}

    def held(self, state: State) -> list[int]:
        power = state.extra["power"]
        if power is None or power[0] == "gun":
            return []
        return [*power[3], *(power[4] if power[0] == "lantern" else ())]

    def hidden_held(self, state: State, view: dict) -> tuple[int, ...]:
        """Another seat's Rum or Lantern: its drawn cards left (``left``) and, for the
        Lantern, those already put back (``stacked``), all unseen."""
        power = view["magic"].get("power")
        if power is None or power["kind"] == "gun" or power.get("pool") is not None:
            return ()
        return int(power["left"]), int(power.get("stacked", 0))

    def deal_held(self, state: State, sizes: tuple[int, ...], cards: list[int]) -> None:
        kind, seat, k, _, rest = state.extra["power"]
        left = sizes[0]
        pool = tuple(cards[:left])
        if kind == "lantern":
            rest = tuple(cards[left:])
        state.extra["power"] = (kind, seat, k, pool, rest)

    def shuffle_hidden(self, state: State, rng) -> None:
        """The closed tiles, face down: a random order of them on the closed chest
        spaces and aside."""
        x = state.extra
        chests = x["chests"]
        tiles = [t for t in chests if t != NO_TILE] + list(x["tiles_aside"])
        if len(tiles) < 2:
            return
        rand = rng.random
        for i in range(len(tiles) - 1, 0, -1):
            j = int(rand() * (i + 1))
            tiles[i], tiles[j] = tiles[j], tiles[i]
        at = 0
        placed = []
        for t in chests:
            if t == NO_TILE:
                placed.append(NO_TILE)
            else:
                placed.append(tiles[at])
                at += 1
        x["chests"] = tuple(placed)
        x["tiles_aside"] = tuple(sorted(tiles[at:]))

    def reshuffled(self, state: State) -> None:
        if state.extra["known"]:
            state.extra["known"] = ()

    # -- what may be played ------------------------------------------------------------
    def offered(self, hand: list[int], sym: int, n: int = 1) -> list[tuple[int, ...]]:
        """The ways to play ``n`` cards of ``sym`` from ``hand`` (light and dark kinds):
        with Filibusters, light-only and with-dark differ; without, one way is enough."""
        light, dark = hand[sym], hand[sym + self.nsym] if self.game.dark_per_symbol else 0
        if light + dark < n:
            return []
        ways = []
        for d in range(n + 1):
            if d <= dark and n - d <= light:
                ways.append((sym,) * (n - d) + (sym + self.nsym,) * d)
        if not self.game.filibusters:
            return ways[:1]
        return [w for i, w in enumerate(ways) if i == 0 or (i == len(ways) - 1)]

    def legal(self, state: State, seat: int, out: list[Action]) -> None:
        g = self.game
        if state.taken >= g.actions:
            return
        hand = state.hands[seat]
        names = g.card_names
        sym = self.sym
        one = state.tables.one  # the same object for the same action (a search's key)
        for (k,) in self.offered(hand, sym["gun"]):
            for t in range(g.players):
                if t != seat and any(state.hands[t]):
                    out.append(one(Action("power", card=names[k], seat=t)))
        for power in ("rum", "lantern"):
            for (k,) in self.offered(hand, sym[power]):
                out.append(one(Action("power", card=names[k])))
        chests = self.chests_of(state)
        tiles = state.extra["chests"]
        mine = set(state.pirates[seat])
        for (k,) in self.offered(hand, sym["chest"]):
            for i, p in enumerate(chests):
                if tiles[i] != NO_TILE and p in mine:
                    out.append(one(Action("power", card=names[k], pos=p)))
        boat = state.board.boat
        starts = sorted(p for p in mine if p != boat)
        for pair in self.offered(hand, sym["parrot"], 2):
            for p in starts:
                for s in range(self.nsym):
                    if self.advance_ok(state, seat, p, s):
                        out.append(one(Action("power", pos=p, card=names[pair[0]],
                                              cards=(names[pair[1]], g.symbols[s]))))
        if state.taken + 2 > g.actions:
            return
        doubles = [p for p in starts if state.pirates[seat].count(p) >= 2]
        if not doubles:
            return
        for (h,) in self.offered(hand, sym["hook"]):
            rest = list(hand)
            rest[h] -= 1
            for s in range(self.nsym):
                for (k,) in self.offered(rest, s):
                    for p in doubles:
                        if self.hook_ok(state, seat, p, s):
                            out.append(one(Action("power", pos=p, card=names[h],
                                                  cards=(names[k],))))

    def advance_ok(self, state: State, seat: int, pos: int, s: int) -> bool:
        rules = self.game.rules
        if not rules.checks:
            return True
        to = state.advance_target(pos, s)
        return rules.refusal(state, seat, seat, pos, to, "advance") is None

    def hook_ok(self, state: State, seat: int, pos: int, s: int) -> bool:
        rules = self.game.rules
        if not rules.checks:
            return True
        to = state.advance_target(pos, s)
        if rules.refusal(state, seat, seat, pos, to, "advance") is not None:
            return False
        sloop = state.board.sloop
        return to != sloop or state.pirates[seat].count(sloop) + 2 <= 3

    # -- applying ------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> int:
        kind = action.kind
        if kind != "power":
            return getattr(self, "decide_" + kind)(state, seat, action)
        g = self.game
        need_action(state)
        k = self.card(state, seat, action.card)
        offered = self.light_first(state, seat, action)
        power = POWERS[k % self.nsym]
        if power in ("gun", "rum", "lantern", "chest"):
            state.hands[seat][k] -= 1
            state.discard.append(k)
        cost = getattr(self, "power_" + power)(state, seat, k, action, g)
        if offered is not None and action not in offered:  # (the state is put back)
            light = next(n for n in (action.card, *action.cards) if n.endswith("*"))
            raise IllegalActionError("power-light-first", {"card": light.removesuffix("*")})
        return cost

    def light_first(self, state: State, seat: int, action: Action) -> list[Action] | None:
        """Where ``action`` plays a dark card while a light one of its symbol is in hand,
        the powers :meth:`legal` offers now (else None): a power is played with the cards
        it offers (:meth:`offered`: light ones first; with the Filibusters, all dark too),
        never with another mix of light and dark cards (D51)."""
        index = self.game.card_index
        hand = state.hands[seat]
        nsym = self.nsym
        for name in (action.card, *action.cards):
            k = index.get(name)
            if k is not None and k >= nsym and hand[k - nsym]:
                offered: list[Action] = []
                self.legal(state, seat, offered)
                return offered
        return None

    def card(self, state: State, seat: int, name: str, hand: list[int] | None = None) -> int:
        k = self.game.card_index.get(name)
        if k is None:
            raise IllegalActionError("unknown-card", {"card": name})
        if not (state.hands[seat] if hand is None else hand)[k]:
            raise IllegalActionError("card-not-in-hand", {"card": name})
        return k

    def done(self, state: State, seat: int, ks: tuple[int, ...]) -> None:
        """The power is over: a dark card among ``ks`` now counts as used (D48)."""
        state.extra["power"] = None
        dark = [k for k in ks if k >= self.nsym]
        k = dark[0] if dark else ks[0]
        for hook in self.game.rules.card_hooks:
            hook(state, seat, k)

    def owe(self, state: State, seat: int, count: int, kind: str) -> None:
        state.pending.insert(0, (seat, count, kind))

    def power_gun(self, state: State, seat: int, k: int, action: Action, g) -> int:
        t = action.seat
        if not 0 <= t < g.players or t == seat:
            raise IllegalActionError("gun-no-target")
        if not any(state.hands[t]):
            raise IllegalActionError("gun-empty-hand", {"color": g.colors[t]})
        state.extra["power"] = ("gun", seat, k, t)
        self.owe(state, seat, 1, "take")
        state.log(Gun(seat, k, t))
        return 1

    def power_rum(self, state: State, seat: int, k: int, action: Action, g) -> int:
        pool = self.draw_pool(state, seat, g.players + 1)
        state.log(Power(seat, k, len(pool)))
        gives = min(len(pool) - RUM_KEEP, g.players - 1)
        if gives <= 0:
            self.keep_all(state, seat, pool)
            self.done(state, seat, (k,))
            return 1
        state.extra["power"] = ("rum", seat, k, pool, ())
        self.owe(state, seat, gives, "give")
        return 1

    def power_lantern(self, state: State, seat: int, k: int, action: Action, g) -> int:
        pool = self.draw_pool(state, seat, LANTERN_DRAW)
        self.clip_known(state)
        state.log(Power(seat, k, len(pool)))
        if not pool:
            self.done(state, seat, (k,))
            return 1
        state.extra["power"] = ("lantern", seat, k, pool, ())
        self.owe(state, seat, 1, "keep")
        return 1

    def power_chest(self, state: State, seat: int, k: int, action: Action, g) -> int:
        pos = action.pos
        state.own_pirate(seat, pos)
        spaces = self.chests_of(state)
        x = state.extra
        if pos not in spaces or x["chests"][spaces.index(pos)] == NO_TILE:
            raise IllegalActionError("no-chest-there", {"place": state.place_arg(pos)})
        i = spaces.index(pos)
        tile = x["chests"][i]
        x["chests"] = x["chests"][:i] + (NO_TILE,) + x["chests"][i + 1:]
        x["tiles_open"] = (*x["tiles_open"], tile)
        drawn: tuple[int, ...] = ()
        to = pos
        if tile == SNAKE:
            to = snake_target(state.occ, state.board, pos, self.sym["rum"])
            if to != pos:
                state.move_pirate(seat, pos, to)
        elif tile:
            drawn = tuple(state.draw_cards(seat, tile))
        state.log(Chest(seat, k, pos, tile, drawn, to))
        if tile == SNAKE:
            self.lay_tiles(state)
            state.log(Tiles(len(spaces)))
        self.done(state, seat, (k,))
        return 1

    def power_parrot(self, state: State, seat: int, k: int, action: Action, g) -> int:
        hand = list(state.hands[seat])
        hand[k] -= 1
        k2 = self.card(state, seat, action.cards[0], hand)
        if k % self.nsym != self.sym["parrot"] or k2 % self.nsym != self.sym["parrot"]:
            raise IllegalActionError("parrot-pair")
        s = g.symbols.index(action.cards[1]) if action.cards[1] in g.symbols else -1
        if s < 0:
            raise IllegalActionError("parrot-symbol", {"symbols": " ".join(g.symbols)},
                                     "unknown-card")
        pos = action.pos
        self.check_start(state, seat, pos)
        to = state.advance_target(pos, s)
        g.rules.check(state, seat, seat, pos, to, "advance")
        hand[k2] -= 1
        state.hands[seat] = hand
        state.discard += [k, k2]
        state.move_pirate(seat, pos, to)
        state.log(Parrot(seat, pos, to, k, k2, s))
        if not state.check_win(seat):
            self.done(state, seat, (k, k2))
        return 1

    def power_hook(self, state: State, seat: int, k: int, action: Action, g) -> int:
        if state.taken + 2 > g.actions:
            raise IllegalActionError("hook-two-actions", rule="no-actions-left")
        hand = list(state.hands[seat])
        hand[k] -= 1
        k2 = self.card(state, seat, action.cards[0], hand)
        pos = action.pos
        self.check_start(state, seat, pos)
        if state.pirates[seat].count(pos) < 2:
            raise IllegalActionError("hook-needs-two", {"place": state.place_arg(pos)})
        to = state.advance_target(pos, k2 % self.nsym)
        for _ in range(2):  # each must be allowed there (the sloop's room included)
            g.rules.check(state, seat, seat, pos, to, "advance")
            state.move_pirate(seat, pos, to)
        hand[k2] -= 1
        state.hands[seat] = hand
        state.discard += [k, k2]
        state.log(Hook(seat, pos, to, k, k2))
        if not state.check_win(seat):
            self.done(state, seat, (k, k2))
        return 2

    def check_start(self, state: State, seat: int, pos: int) -> None:
        if pos == state.board.boat:
            raise IllegalActionError("advance-from-boat", {"place": self.game.goal_name})
        state.own_pirate(seat, pos)

    # -- pools: cards drawn for a power, seen by their drawer only ----------------------
    def draw_pool(self, state: State, seat: int, n: int) -> tuple[int, ...]:
        drawn = state.draw_cards(seat, n)
        hand = state.hands[seat]
        for c in drawn:
            hand[c] -= 1
        return tuple(drawn)

    def keep_all(self, state: State, seat: int, pool: tuple[int, ...]) -> None:
        for c in pool:
            state.hands[seat][c] += 1
        if pool:
            state.log(Keep(seat, tuple(pool)))

    def take_from(self, pool: tuple[int, ...], name: str) -> tuple[int, tuple[int, ...]]:
        k = self.game.card_index.get(name)
        if k is None or k not in pool:
            raise IllegalActionError("card-not-drawn", {"card": name})
        rest = list(pool)
        rest.remove(k)
        return k, tuple(rest)

    def clip_known(self, state: State) -> None:
        """Forget known stock positions already drawn (before cards go back on top)."""
        n = len(state.stock)
        known = tuple((s, b, min(c, n - b)) for s, b, c in state.extra["known"] if n > b)
        state.extra["known"] = known

    # -- decisions -----------------------------------------------------------------
    def owed(self, state: State, seat: int, kind: str) -> tuple:
        if not state.pending or state.pending[0][2] != kind:
            raise IllegalActionError(*ABSENT[kind])
        return state.extra["power"]

    def decide_take(self, state: State, seat: int, action: Action) -> int:
        _, _, k, t = self.owed(state, seat, "take")
        c = self.card(state, t, action.card)
        state.hands[t][c] -= 1
        state.hands[seat][c] += 1
        drawn = tuple(state.draw_cards(t, 1))
        state.log(Take(seat, t, c, drawn))
        state.pending.pop(0)
        self.done(state, seat, (k,))
        return 0

    def decide_give(self, state: State, seat: int, action: Action) -> int:
        _, _, k, pool, given = self.owed(state, seat, "give")
        to = action.seat
        if not 0 <= to < self.game.players or to == seat or to in given:
            raise IllegalActionError("give-to-whom")
        c, pool = self.take_from(pool, action.card)
        state.hands[to][c] += 1
        state.log(Give(seat, to, c))
        left = state.pending[0][1] - 1
        if left:
            state.pending[0] = (seat, left, "give")
            state.extra["power"] = ("rum", seat, k, pool, (*given, to))
            return 0
        state.pending.pop(0)
        self.keep_all(state, seat, pool)
        self.done(state, seat, (k,))
        return 0

    def decide_keep(self, state: State, seat: int, action: Action) -> int:
        _, _, k, pool, _ = self.owed(state, seat, "keep")
        c, pool = self.take_from(pool, action.card)
        state.hands[seat][c] += 1
        state.log(Keep(seat, (c,)))
        return self.lantern_next(state, seat, k, pool, ())

    def decide_stack(self, state: State, seat: int, action: Action) -> int:
        _, _, k, pool, placed = self.owed(state, seat, "stack")
        c, pool = self.take_from(pool, action.card)
        return self.lantern_next(state, seat, k, pool, (*placed, c))

    def lantern_next(self, state: State, seat: int, k: int, pool: tuple[int, ...],
                     placed: tuple[int, ...]) -> int:
        """After a keep or a stack: the next card to put back is owed, or (one card left)
        it goes last by itself and the power is over."""
        state.pending.pop(0)
        if len(pool) > 1:
            self.owe(state, seat, len(pool) - 1, "stack")
            state.extra["power"] = ("lantern", seat, k, pool, placed)
            return 0
        self.put_back(state, seat, placed + pool)
        self.done(state, seat, (k,))
        return 0

    def put_back(self, state: State, seat: int, top_first: tuple[int, ...]) -> None:
        """Cards back on top of the stock, the first on top; their drawer knows them."""
        if not top_first:
            return
        base = len(state.stock)
        state.stock.extend(reversed(top_first))
        state.extra["known"] = (*state.extra["known"], (seat, base, len(top_first)))
        state.log(Stack(seat, tuple(top_first)))

    def decisions(self, state: State) -> list[Action]:
        seat, _, kind = state.pending[0]
        power = state.extra["power"]
        names = self.game.card_names
        one = state.tables.one  # the same object for the same action (a search's key)
        if kind == "take":
            hand = state.hands[power[3]]
            return [one(Action("take", card=names[c])) for c in range(len(hand)) if hand[c]]
        pool = sorted(set(power[3]))
        if kind == "give":
            return [one(Action("give", seat=t, card=names[c]))
                    for t in range(self.game.players) if t != seat and t not in power[4]
                    for c in pool]
        return [one(Action(kind, card=names[c])) for c in pool]


def known_top(state: State, seat: int) -> list[int]:
    """The cards ``seat`` knows at the top of the stock, top first (the Lantern's)."""
    stock = state.stock
    n = len(stock)
    known: dict[int, int] = {}
    for s, base, count in state.extra.get("known", ()):
        if s == seat:
            for i in range(base, min(base + count, n)):
                known[i] = stock[i]
    out = []
    for i in range(n - 1, -1, -1):  # from the top down, while unbroken
        if i not in known:
            break
        out.append(known[i])
    return out
