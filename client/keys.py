"""Key handling of the client model: what each key does on each screen.

Mixed into :class:`client.model.ClientModel`; keys are names like ``"a"``, ``"A"``,
``"enter"``, ``"left"``, ``"c-c"``. Actions are only ever sent when the host listed
them as legal.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from client.keymap import SAIL_KEY, UNDO_KEY
from client.landing import advance_to, morgan_to, place_name, retreat_to
from client.powers import DECISIONS, POWER_KEY, describe
from client.uistate import COLORS, CreateForm, InputLine, Preview


class KeyHandling:
    """Reactions to keys; relies on the attributes of :class:`ClientModel`."""

    def on_key(self, key: str) -> None:
        """React to one key (``"a"``, ``"A"``, ``"enter"``, ``"left"``, ``"c-c"``, ...)."""
        if self.overlay == "help":
            self.overlay = None
            return
        if self.overlay == "quit":
            if key in ("y", "Y", "c-c", "enter"):
                self.exit_requested = True
            else:
                self.overlay = None
            return
        if self.input is not None:
            self._key_input(key)
            return
        if self.form is not None:
            self._key_form(key)
            return
        if key == "?":
            self.overlay = "help"
            return
        if self.overlay == "log":
            self._key_log(key)
            return
        if key in ("q", "c-c"):
            if self.gone is None and (self.hosting or (
                    self.screen == "game" and self.game_running and self.seat is not None)):
                self.overlay = "quit"
            else:
                self.exit_requested = True
            return
        if self.gone is not None:
            self._key_gone(key)
            return
        handler = getattr(self, f"_key_{self.screen}", None)
        if handler is not None:
            handler(key)

    # -- text input

    def _key_input(self, key: str) -> None:
        line = self.input
        assert line is not None
        if key in ("escape", "c-c"):
            self.input = None
        elif key == "backspace":
            line.text = line.text[:-1]
        elif key == "enter":
            self.input = None
            self._submit(line.purpose, line.text.strip())
        elif len(key) == 1 and key.isprintable() and len(line.text) < 400:
            line.text += key
        elif key == "space":
            line.text += " "

    def _submit(self, purpose: str, text: str) -> None:
        if purpose == "chat" and text:
            msg: dict[str, Any] = {"type": "chat", "text": text[:500]}
            if self.table is not None:
                msg["table"] = self.table
            self.send(msg)
        elif purpose == "name" and text:
            self.name = text[:32]
            self.set_status(f"name: {self.name} (used when you next sit down)")
        elif purpose == "address" and text:
            self.send({"type": "_connect", "address": text})
        elif purpose == "password" and text:
            self.send({"type": "_password", "text": text})
        elif purpose == "table-password" and text and self.joining:
            self.join(self.joining[0], self.joining[1], password=text)

    def start_input(self, purpose: str, prompt: str, text: str = "") -> None:
        self.input = InputLine(purpose, prompt, text)

    # -- host browser

    def _key_browser(self, key: str) -> None:
        if key in ("up", "k"):
            self.browser_index = max(0, self.browser_index - 1)
        elif key in ("down", "j"):
            self.browser_index = min(max(0, len(self.hosts) - 1), self.browser_index + 1)
        elif key == "enter" and self.hosts:
            h = self.hosts[min(self.browser_index, len(self.hosts) - 1)]
            self.send({"type": "_connect", "address": f"{h.address}:{h.port}"})
        elif key in ("a", ":"):
            self.start_input("address", "address (host[:port]): ")
        elif key == "n":
            self.start_input("name", "your name: ", self.name)

    def _key_connecting(self, key: str) -> None:
        if key in ("a", ":"):
            self.start_input("address", "address (host[:port]): ")

    def _key_gone(self, key: str) -> None:
        """The client stopped (host gone, wrong address, seat taken elsewhere)."""
        if key == "r":
            self.send({"type": "_reconnect"})
        elif key in ("a", ":"):
            self.start_input("address", "address (host[:port]): ")

    # -- lobby and waiting room

    def _key_lobby(self, key: str) -> None:
        if self.table is not None:
            self._key_waiting(key)
            return
        n = len(self.tables)
        if key in ("up", "k"):
            self.lobby_index = max(0, self.lobby_index - 1)
        elif key in ("down", "j"):
            self.lobby_index = min(max(0, n - 1), self.lobby_index + 1)
        elif key == "enter" and n:
            self.join(int(self.tables[self.lobby_index]["id"]))
        elif key == "r" and self.saved_seat_free():
            self.send({"type": "_resume"})
        elif key == "w" and n:
            self.join(int(self.tables[self.lobby_index]["id"]), spectate=True)
        elif key == "t" and not self.spectate:
            self.form = CreateForm(presets=self.presets or ["jamaica"])
        elif key == "n":
            self.start_input("name", "your name: ", self.name)
        elif key == "o":
            self.color = COLORS[(COLORS.index(self.color) + 1) % len(COLORS)]
            self.set_status(f"colour: {self.color}")
        elif key == "c":
            self.start_input("chat", "say: ")

    def _key_waiting(self, key: str) -> None:
        info = self.table_info or {}
        seats = info.get("seats") or []
        if key == "l":
            self.leave()
            return
        if key == "c":
            self.start_input("chat", "say: ")
            return
        if not self.may_manage():
            if key in ("s", "enter", "b", "B", "x", "d"):
                self.set_status("watchers cannot change the table" if self.seat is None else
                                "only the table's owner can do that; wait for the start")
            return
        if key in ("up", "k"):
            self.seat_index = max(0, self.seat_index - 1)
        elif key in ("down", "j"):
            self.seat_index = min(max(0, len(seats) - 1), self.seat_index + 1)
        elif key in ("b", "B"):
            kind = "greedy" if key == "b" else "random"
            self.send({"type": "add_bot", "table": self.table, "seat": None, "kind": kind})
        elif key == "x" and seats:
            seat = seats[min(self.seat_index, len(seats) - 1)]
            if seat.get("name") and not seat.get("bot"):
                self.set_status("a player sits there: only bots and empty seats can be removed",
                                error=True)
                return
            self.send({"type": "remove_bot", "table": self.table, "seat": seat.get("seat")})
            self.seat_index = max(0, min(self.seat_index, len(seats) - 2))
        elif key in ("s", "enter"):
            self.send({"type": "start", "table": self.table})

    def leave(self) -> None:
        if self.table is not None:
            self.send({"type": "leave", "table": self.table})
        self.table = None
        self.seat = None
        self.view = None
        self.legal = []
        self.log.clear()
        self.screen = "lobby"
        self.spectate = False

    # -- create-table form

    def _key_form(self, key: str) -> None:
        f = self.form
        assert f is not None
        field_name = f.FIELDS[f.row]
        if key in ("escape", "c-c"):
            self.form = None
        elif key in ("up", "s-tab"):
            f.row = (f.row - 1) % len(f.FIELDS)
        elif key in ("down", "tab"):
            f.row = (f.row + 1) % len(f.FIELDS)
        elif key in ("left", "right"):
            step = 1 if key == "right" else -1
            lo, hi = self.preset_players.get(f.presets[f.preset], (2, 6))
            if field_name == "rules":
                f.preset = (f.preset + step) % len(f.presets)
                lo, hi = self.preset_players.get(f.presets[f.preset], (2, 6))
            elif field_name == "players":
                f.players += step
            elif field_name == "bots":
                f.bots += step
            f.players = min(hi, max(lo, f.players))
            f.bots = min(f.players - 1, max(0, f.bots))
        elif key == "enter":
            self._submit_form(f)
        elif field_name in ("name", "options"):
            text = getattr(f, field_name)
            if key == "backspace":
                setattr(f, field_name, text[:-1])
            elif key == "space":
                setattr(f, field_name, text + " ")
            elif len(key) == 1 and key.isprintable() and len(text) < 64:
                setattr(f, field_name, text + key)

    def _submit_form(self, f: CreateForm) -> None:
        try:
            options = f.options_dict()
        except ValueError as exc:
            self.set_status(str(exc), error=True)
            return
        name = f.name.strip() or "table"
        self.send({"type": "create_table", "name": name[:64], "rules": f.presets[f.preset],
                   "options": options})
        self.pending_create = name[:64]
        self.auto_bots = f.bots
        self.form = None
        self.set_status(f"creating table {name!r}…")

    # -- game

    def _key_log(self, key: str) -> None:
        """The whole-game log on the full screen: scroll it, any other key closes it."""
        if key in ("up", "k", "pageup", "home", "down", "j", "pagedown", "end"):
            self.scroll_log(key)
        else:
            self.overlay = None
            self.log_scroll = 0

    def scroll_log(self, key: str) -> None:
        step = {"up": 1, "k": 1, "down": -1, "j": -1, "pageup": 10, "pagedown": -10}
        if key == "home":
            self.log_scroll = len(self.log)
        elif key == "end":
            self.log_scroll = 0
        else:
            self.log_scroll += step[key]
        self.log_scroll = max(0, min(self.log_scroll, max(0, len(self.log) - 1)))

    def _key_game(self, key: str) -> None:
        if key == "c":
            self.start_input("chat", "say: ")
            return
        if key in ("pageup", "pagedown", "home", "end"):
            self.scroll_log(key)
            return
        if key == "tab":
            self.overlay = "log"
            return
        if self.game_over:
            if key in ("p", "enter") and self.seat is not None:
                empty = [x for x in (self.table_info or {}).get("seats") or []
                         if not x.get("name") and not x.get("bot")]
                if empty and self.may_manage():
                    # Someone left: the table's room, where bots and seats are managed.
                    self.screen = "lobby"
                    self.set_status(f"{len(empty)} seat(s) left empty: add a bot (b), remove "
                                    "the seat (x) or wait for a player, then s")
                    return
                self.send({"type": "start", "table": self.table})
                self.set_status("asked for another game with the same table")
            elif key == "l":
                self.leave()
            return
        if self.spectate or self.seat is None:
            if key == "l":
                self.leave()
            return
        if key in ("+", "-") and self.may_manage():
            self._key_stand_in(key)
            return
        browsing = key in ("left", "right", "up", "down") or key.isdigit()
        if not self.legal and not browsing:
            if len(key) == 1 or key in ("enter",):
                self.set_status(f"not your turn: waiting for {self.seat_name(self.view['actor'])}"
                                if self.view and self.view.get("actor") is not None
                                else "not your turn")
            return
        if self.owes_discard():
            self._key_discard(key)
            return
        if self.owes_magic():
            self._key_power(key, [a for a in self.legal if a.split()[0] in DECISIONS])
            return
        if self.mode == "power":
            self._key_power(key, self.power_actions())
            return
        if self.mode == "morgan":
            self._key_morgan(key)
            return
        self._key_move(key)

    def _key_stand_in(self, key: str) -> None:
        """Owner: a bot plays an absent player's seat (+), or stops doing so (-)."""
        if key == "+":
            seats = self.absent_seats()
            if not seats:
                self.set_status("every player is here: a bot stands in only for an absent one")
                return
            self.send({"type": "add_bot", "table": self.table, "seat": seats[0],
                       "kind": "greedy"})
            self.set_status(f"a bot plays for {self.seat_name(seats[0])} until they return")
        else:
            seats = self.stand_in_seats()
            if not seats:
                self.set_status("no bot is standing in for anyone")
                return
            self.send({"type": "remove_bot", "table": self.table, "seat": seats[0]})
            self.set_status(f"{self.seat_name(seats[0])}'s seat waits for them again")

    def _select(self, pos: int) -> None:
        self.sel_pos = pos
        self.preview = None
        if self.status_error:
            self.set_status("")

    def _key_move(self, key: str) -> None:
        mine = self.my_positions()
        distinct = sorted(set(mine))
        keys = self.keys
        by_key = {v: k for k, v in keys.items()}
        if key.isdigit() and key != "0":
            i = int(key) - 1
            if i < len(mine):
                self._select(mine[i])
                self.sel = i  # this very pirate, even where several share a space
            return
        if key in ("left", "right", "up", "down") and distinct:
            step = 1 if key in ("right", "down") else -1
            cur = distinct.index(self.sel_pos) if self.sel_pos in distinct else 0
            self._select(distinct[(cur + step) % len(distinct)])
            return
        if key == "enter":
            if self.preview:
                self.send_action(self.preview.action)
            else:
                self.set_status("nothing to confirm: choose a pirate (1-9) and a card letter "
                                "first", error=True)
            return
        if key == "escape":
            self.preview = None
            return
        if key == "e":
            if "end" not in self.legal and self.view is not None:
                need = int(self.view.get("actions_min", 1)) - int(
                    self.view.get("actions_taken", 0))
                if need > 0:
                    self.set_status(f"you cannot end the turn yet: {need} more action"
                                    f"{'s are' if need > 1 else ' is'} required (play a card "
                                    "or retreat)", error=True)
                    return
            self.try_action("end", "end the turn")
            return
        if key == SAIL_KEY:
            self._preview_sail()
            return
        if key == UNDO_KEY:
            if "undo" in self.legal:
                self.send_action("undo")
            else:
                self.set_status("nothing to undo: only an advance or sail that revealed nothing, "
                                "before your next action", error=True)
            return
        if key == "w":
            self.try_action("draw", "draw a card (whole turn)")
            return
        if key == POWER_KEY:
            if self.power_actions():
                self.mode = "power"
                self.power_index = 0
                self._preview_power(self.power_actions())
            else:
                self.set_status("no card power is possible now", error=True)
            return
        if key == "m":
            if "morgan" in self.legal_kinds():
                self.mode = "morgan"
                self.morgan_index = 0
                self._preview_morgan()
            else:
                self.set_status("Morgan is not possible now", error=True)
            return
        if self.sel_pos is None:
            return
        pos = self.sel_pos
        assert self.view is not None
        view = self.view
        if key == "r":
            action = f"retreat {pos}"
            if action not in self.legal:
                self.set_status(f"the pirate at {place_name(view, pos)} cannot retreat",
                                error=True)
                return
            res = retreat_to(view, pos)
            land, draw = res if res else (None, 0)
            self.preview = Preview(action, (f"retreat {place_name(view, pos)} → "
                                            f"{place_name(view, land)}, draw {draw}"), land, pos)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain, dark = f"advance {pos} {sym}", f"advance {pos} {sym}*"
        order = [dark, plain] if key.isupper() else [plain, dark]
        action = next((a for a in order if a in self.legal), None)
        if action is None:
            hand = (self.my_seat_view() or {}).get("hand") or []
            held = [c for c in hand if c.rstrip("*") == sym]
            if not held:
                self.set_status(f"you hold no {sym}", error=True)
            elif key.isupper() and f"{sym}*" not in held:
                self.set_status(f"you hold no dark {sym}", error=True)
            elif pos == view.get("boat"):
                self.set_status(f"that pirate is already in the {place_name(view, pos)}: "
                                "choose another (1-9)", error=True)
            else:
                self.set_status(f"cannot play {sym} with the pirate at {place_name(view, pos)}",
                                error=True)
            return
        land = advance_to(view, pos, sym)
        card = action.split()[-1]
        self.preview = Preview(action, (f"play {card}: {place_name(view, pos)} → "
                                        f"{place_name(view, land)}"), land, pos)

    def _preview_sail(self) -> None:
        """``f``: where the sloop would go and what it costs, waiting for Enter."""
        view = self.view
        sloop = (view or {}).get("sloop")
        if view is None or not isinstance(sloop, dict):
            self.set_status("there is no sloop to sail in this story (story=whole has one)",
                            error=True)
            return
        here = str(sloop.get("shore") or "cartagena")
        there = "tortuga" if here == "cartagena" else "cartagena"
        if "sail" not in self.legal:
            self.preview = None
            self.set_status(self._why_no_sail(view, here), error=True)
            return
        taken, most = int(view.get("actions_taken", 0)), int(view.get("actions_max", 0))
        if view.get("free_sail") and view.get("captain") == self.seat and not taken:
            cost = "free, Captain's sail"
        elif most - taken <= 1:
            cost = "last action, turn ends"
        else:
            cost = f"1 action, {most - taken - 1} left"
        self.preview = Preview("sail", f"sail {here.title()} → {there.title()}: {cost}",
                               None, sloop.get("pos"))

    def _why_no_sail(self, view: dict, shore: str) -> str:
        pos = (view.get("sloop") or {}).get("pos")
        mine = self.my_positions()
        if shore == "cartagena" and pos not in mine:
            return "the sloop sails to Tortuga only with one of your pirates aboard"
        low = 0 if (view.get("options") or {}).get("jail_in_passage", True) else 1
        if shore == "tortuga" and not any(low <= p < pos for p in mine if isinstance(pos, int)):
            return ("the sloop sails back to Cartagena only while you have a pirate in the "
                    "underground passage")
        return "you cannot sail the sloop now"

    def try_action(self, action: str, what: str) -> None:
        if action in self.legal:
            self.send_action(action)
        else:
            self.set_status(f"cannot {what} now", error=True)

    def send_action(self, action: str) -> None:
        self.send({"type": "action", "table": self.table, "seq": self.seq, "action": action})
        self.preview = None
        self.set_status(f"sent: {action}")

    def power_actions(self) -> list[str]:
        """The powers offered (Black Magic Woman): those moving the chosen pirate first."""
        acts = [a for a in self.legal if a.startswith("power ")]

        def at_chosen(a: str) -> bool:
            w = a.split()
            return w[1].rstrip("*") in ("chest", "parrot", "hook") and \
                str(self.sel_pos) in w[2:4]  # the pirate's position is one of these
        return sorted(acts, key=lambda a: not at_chosen(a))

    def _preview_power(self, acts: list[str]) -> None:
        if not acts or self.view is None:
            self.mode = "move"
            self.preview = None
            return
        self.power_index %= len(acts)
        action = acts[self.power_index]
        text, land, frm = describe(self.view, action)
        more = f" ({self.power_index + 1}/{len(acts)} ←→)" if len(acts) > 1 else ""
        self.preview = Preview(action, text + more, land, frm)

    def _key_power(self, key: str, acts: list[str]) -> None:
        """Choose a power (``v``), or a power's decision, by ←→ or a card's letter."""
        if key in ("left", "right", "up", "down", POWER_KEY):
            self.power_index += -1 if key in ("left", "up") else 1
            self._preview_power(acts)
        elif key == "enter":
            if self.preview:
                self.send_action(self.preview.action)
                self.mode = "move"
            else:  # nothing chosen yet: show the first choice
                self._preview_power(acts)
        elif key == "escape":
            self.mode = "move"
            self.preview = None
        elif len(key) == 1 and key.lower() in {v: k for k, v in self.keys.items()}:
            sym = {v: k for k, v in self.keys.items()}[key.lower()]
            cards = [sym + "*", sym] if key.isupper() else [sym, sym + "*"]
            for card in cards:  # capital: dark first
                for i, a in enumerate(acts):
                    w = a.split()
                    if card in (w[1], w[-1]) and (w[0] != "power" or w[1] == card):
                        self.power_index = i
                        self._preview_power(acts)
                        return
            self.set_status(f"no {sym} choice now", error=True)
        elif key.isdigit() and acts and acts[0].startswith("give "):
            for i, a in enumerate(acts):
                if a.split()[1] == key:
                    self.power_index = i
                    self._preview_power(acts)
                    return

    def morgan_actions(self) -> list[str]:
        return [a for a in self.legal if a.startswith("morgan ")]

    def _preview_morgan(self) -> None:
        acts = self.morgan_actions()
        if not acts or self.view is None:
            self.mode = "move"
            self.preview = None
            return
        self.morgan_index %= len(acts)
        action = acts[self.morgan_index]
        _, seat, pos = action.split()
        land, draw = morgan_to(self.view, int(pos), int(seat))
        who = self.seat_color(int(seat)) or f"seat {seat}"
        self.preview = Preview(action, (f"Morgan: push {who} {place_name(self.view, int(pos))}"
                                        f" → {place_name(self.view, land)}, draw {draw}"),
                               land, int(pos))

    def _key_morgan(self, key: str) -> None:
        if key in ("left", "right", "up", "down", "m"):
            self.morgan_index += -1 if key in ("left", "up") else 1
            self._preview_morgan()
        elif key == "enter" and self.preview:
            self.send_action(self.preview.action)
            self.mode = "move"
        elif key == "escape":
            self.mode = "move"
            self.preview = None

    def _key_discard(self, key: str) -> None:
        by_key = {v: k for k, v in self.keys.items()}
        discards = [a for a in self.legal if a.startswith("discard ")]
        singles = all(len(a.split()) == 2 for a in discards)
        if key == "backspace":
            if self.discard_pick:
                self.discard_pick.pop()
            self.preview = None
            return
        if key == "escape":
            self.discard_pick.clear()
            self.preview = None
            return
        if key == "enter":
            if self.preview is not None:
                self.send_action(self.preview.action)
                return
            want = Counter(self.discard_pick)
            for a in discards:
                if Counter(a.split()[1:]) == want:
                    self.send_action(a)
                    self.discard_pick.clear()
                    return
            self.set_status("that discard is not allowed; pick the number owed", error=True)
            return
        sym = by_key.get(key.lower())
        if sym is None:
            return
        plain, dark = sym, sym + "*"
        order = [dark, plain] if key.isupper() else [plain, dark]
        if singles:
            action = next((f"discard {c}" for c in order if f"discard {c}" in discards), None)
            if action is None:
                self.set_status(f"you have no {sym} to discard", error=True)
                return
            self.preview = Preview(action, action)
            return
        me = self.my_seat_view() or {}
        hand = Counter(me.get("hand") or [])
        picked = Counter(self.discard_pick)
        card = next((c for c in order if picked[c] < hand[c]), None)
        if card is None:
            self.set_status(f"you have no more {sym} to discard", error=True)
            return
        self.discard_pick.append(card)
