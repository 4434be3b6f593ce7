"""The game screen: keys every game shares (chat, the log), the end of a game, a
watcher's keys, the owner's stand-ins, "not your turn", and below them the choices
(:mod:`client.modes.choices`) and the turn (:mod:`client.modes.move`)."""
from __future__ import annotations

from client.keymap import (
    HINT_KEY,
    SCROLL_KEYS,
    KeyPairs,
    lobby_keys,
    over_keys,
    replay_keys,
    waiting_keys,
    watching_keys,
)
from client.modes import KeyGroup, Modal, Model, dispatch
from client.modes.choices import Discard, MagicDecision, MorganChoice, PowerChoice
from client.modes.move import Move


class GameShared(KeyGroup):
    """Chat (``c``), scrolling the log, the whole log (Tab), and a hint (``!``, at a
    table that allows them), at any moment."""

    name = "game"

    def handle(self, m: Model, key: str) -> bool:
        if key == "c":
            m.start_input("chat", "say: ")
        elif key == HINT_KEY:
            m.ask_hint()
        elif key in SCROLL_KEYS:
            m.scroll_log(key)
        elif key == "tab":
            m.overlay = "log"
        else:
            return False
        return True


class GameOver(Modal):
    """The game has ended: play again with the same table (p, Enter), or leave (l)."""

    name = "game over"

    def when(self, m: Model) -> bool:
        return bool(m.game_over)

    def help(self, m: Model, now: bool) -> KeyPairs:
        return over_keys(m)

    def on_key(self, m: Model, key: str) -> None:
        if key in ("p", "enter") and m.seat is not None:
            empty = [x for x in (m.table_info or {}).get("seats") or []
                     if not x.get("name") and not x.get("bot")]
            if empty and m.may_manage():
                # Someone left: the table's room, where bots and seats are managed.
                m.screen = "lobby"
                m.set_status(f"{len(empty)} seat(s) left empty: add a bot (b), remove "
                             "the seat (x) or wait for a player, then s")
                return
            m.send({"type": "start", "table": m.table})
            m.set_status("asked for another game with the same table")
        elif key == "l":
            m.leave()


class Watching(Modal):
    """A watcher (or a seatless client): only ``l`` stops watching."""

    name = "watching"

    def when(self, m: Model) -> bool:
        return bool(m.spectate or m.seat is None)

    def help(self, m: Model, now: bool) -> KeyPairs:
        return watching_keys(m)

    def on_key(self, m: Model, key: str) -> None:
        if key == "l":
            m.leave()


class StandIn(KeyGroup):
    """The owner: a bot plays an absent player's seat (+), or stops doing so (-)."""

    name = "stand-in"

    def when(self, m: Model) -> bool:
        return bool(m.may_manage())

    def handle(self, m: Model, key: str) -> bool:
        if key == "+":
            seats = m.absent_seats()
            if not seats:
                m.set_status("every player is here: a bot stands in only for an absent one")
                return True
            m.send({"type": "add_bot", "table": m.table, "seat": seats[0], "kind": "greedy"})
            m.set_status(f"a bot plays for {m.seat_name(seats[0])} until they return")
        elif key == "-":
            seats = m.stand_in_seats()
            if not seats:
                m.set_status("no bot is standing in for anyone")
                return True
            m.send({"type": "remove_bot", "table": m.table, "seat": seats[0]})
            m.set_status(f"{m.seat_name(seats[0])}'s seat waits for them again")
        else:
            return False
        return True


class NotYourTurn(KeyGroup):
    """Nothing is legal for me now: a move key says whose turn it is; choosing a pirate
    (digits, arrows) still works."""

    name = "not your turn"

    def when(self, m: Model) -> bool:
        return not m.legal

    def handle(self, m: Model, key: str) -> bool:
        if key in ("left", "right", "up", "down") or key.isdigit():
            return False
        if len(key) == 1 or key in ("enter",):
            m.set_status(f"not your turn: waiting for {m.seat_name(m.view['actor'])}"
                         if m.view and m.view.get("actor") is not None else "not your turn")
        return True


# Precedence inside the game screen: the first active group that takes a key ends it.
GAME_GROUPS: tuple[KeyGroup, ...] = (
    GameShared(), GameOver(), Watching(), StandIn(), NotYourTurn(),
    Discard(), MagicDecision(), PowerChoice(), MorganChoice(), Move(),
)


def game_help(m: Model, now: bool = True) -> KeyPairs:
    """The game's keys, from the first active group that lists any (the key bar with
    ``now``; every key this person may use in this game without)."""
    replay = replay_keys(m)
    if replay is not None:  # a recorded game: its own keys
        return replay
    for group in GAME_GROUPS:
        if group.when(m):
            pairs = group.help(m, now)
            if pairs is not None:
                return pairs
    return []


class Game(Modal):
    """The game screen: its groups, in order of precedence."""

    name = "game screen"

    def when(self, m: Model) -> bool:
        return m.screen == "game"

    def help(self, m: Model, now: bool) -> KeyPairs:
        if m.view:
            return game_help(m, now)
        return waiting_keys(m) if m.table is not None else lobby_keys(m)

    def on_key(self, m: Model, key: str) -> None:
        dispatch(GAME_GROUPS, m, key)
