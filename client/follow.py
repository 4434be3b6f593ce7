"""How the client model follows the host: each host message updates it, and the
connection's ups and downs are said on the status line.

Mixed into :class:`client.model.ClientModel` (relies on its attributes, ``send``,
``set_status``, ``add_log`` and queries). Messages are plain wire dicts. The pirates of
this player keep their numbers as they move (:meth:`HostFollowing._track_pirates`).
"""
from __future__ import annotations

import time
from typing import Any

from cartagena_net.engine.numbers import reconcile
from cartagena_net.i18n import N_, _
from client.glyphs import seat_number
from client.plain import bye_reason, plain_error
from client.sentences import event_lines
from client.uistate import add_bot_message

LOG_KEEP = 5000  # the whole game's log (a game has a few hundred lines)
HISTORY_KEEP = 2000
FULL_VIEW_EVENTS = 20  # a fresh full view carries up to this many recent events
SENT = N_("sent: {action}")  # the status line after an action went to the host


class HostFollowing:
    """Reactions to host messages and to the connection; the model's part that follows."""

    def on_message(self, msg: dict[str, Any]) -> None:
        """Update from one wire dict sent by the host."""
        kind = msg.get("type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        self.host_id = str(msg.get("host_id") or "")
        self.reconnecting = False
        resumed = msg.get("resumed")
        if resumed:
            self.table = resumed.get("table")
            self.seat = resumed.get("seat")
            self.spectate = False
            self.screen = "game" if self.view else "lobby"
            self.set_status(_("reconnected: back in your seat"))
            self.fresh_log = True
            return
        self.screen = "lobby"
        self.join_sent = False
        if self.table is not None:
            # A new connection starts in the host's lobby, at no table, whether it came
            # after a dropped line, a host restarted with --resume (its tables keep their
            # numbers) or `r` after the host said goodbye. A watcher goes back to the
            # table it watched at once; a seat comes back only with its key (resumed).
            table, watching = self.table, self.spectate or self.seat is None
            self.table = self.seat = None
            self.legal = []
            self.view = None
            if watching:
                self.join(table, spectate=True)
                self.set_status(_("reconnected: watching table {table} again").format(
                    table=table))
                return
            self.set_status(_("reconnected, but the seat could not be restored"), error=True)
            return
        self.set_status(_("connected to {host}").format(
            host=msg.get("host_name") or self.host_label))

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        before = {n.get("kind") for n in (self.table_info or {}).get("notices") or ()}
        seats_before = {s.get("seat"): s for s in (self.table_info or {}).get("seats") or ()
                        if isinstance(s, dict)}
        self.tables = list(msg.get("tables") or [])
        self._comings_and_goings(seats_before)
        self.scores = list(msg.get("scores") or [])
        self.host_notices = [n for n in msg.get("notices") or () if isinstance(n, dict)]
        after = {n.get("kind") for n in (self.table_info or {}).get("notices") or ()}
        if "journal-failed" in before and "journal-failed" not in after:
            self.set_status(_("the host's disk has room again: the game goes on"))
        self.lobby_index = min(self.lobby_index, max(0, len(self.tables) - 1))
        auto = self.auto_table
        if (auto is None and self.spectate and self.table is None and self.joining is None
                and len(self.tables) == 1):  # a watcher's first look: the only table
            auto = self.tables[0].get("id")
        if (self.table is None and not self.join_sent
                and any(t.get("id") == auto for t in self.tables)):
            self.join(int(auto))  # type: ignore[arg-type]
            self.auto_table = None

    def _comings_and_goings(self, before: dict[Any, dict[str, Any]]) -> None:
        """During a game at our table, a player who left, a bot that plays for them and a
        player who came back, each said once on the log and the status line (the lobby's
        seats: ``connected`` and ``bot``, docs/protocol.md)."""
        info = self.table_info
        if not before or not info or info.get("status") != "playing" or self.view is None:
            return
        said = []
        for s in info.get("seats") or ():
            old = before.get(s.get("seat"))
            name = s.get("name")
            if not isinstance(old, dict) or not name or old.get("name") != name \
                    or s.get("seat") == self.seat:
                continue
            was_here, here = old.get("connected") is True, s.get("connected") is True
            stand_in = s.get("bot") is not None and not here
            if was_here and not here and not stand_in and old.get("bot") is None:
                said.append(_("{name} left the table: the seat waits for them").format(
                    name=name))
            elif stand_in and old.get("bot") is None:
                said.append(_("a bot plays for {name} until they come back").format(name=name))
            elif here and not was_here:
                said.append(_("{name} is back").format(name=name))
        if said:
            self.add_log(said)
            self.set_status(said[-1])

    def _on_joined(self, msg: dict[str, Any]) -> None:
        self.table = msg.get("table")
        self.seat = msg.get("seat")
        self.spectate = self.seat is None
        self.join_sent = False
        self.pending_create = None
        self.fresh_log = True
        if msg.get("token"):
            self.token = str(msg["token"])
        info = self.table_info
        playing = info is not None and info.get("status") == "playing"
        # A finished or waiting table shows its waiting room until a state arrives.
        self.screen = "game" if (self.view or playing) else "lobby"
        self.set_status(
            _("watching table {table}").format(table=self.table) if self.seat is None
            else _("seated at table {table}, seat {seat}").format(
                table=self.table, seat=seat_number(self.seat))
        )
        for _bot in range(self.auto_bots if self.seat is not None else 0):
            self.send(add_bot_message(self.table, self.auto_bot_kind))
        self.auto_bots = 0
        if self.auto_start and self.seat is not None:
            self.auto_start = False
            self.send({"type": "start", "table": self.table})

    def _on_state(self, msg: dict[str, Any]) -> None:
        if self.table is not None and msg.get("table") not in (None, self.table):
            return
        if (self.view is not None and not self.fresh_log
                and int(msg.get("seq") or 0) < self.seq):
            return  # an older position sent late (a finished game's last estimate)
        if (self.view is not None and msg.get("seq") == self.seq and not msg.get("events")
                and msg.get("view") == self.view
                and [str(a) for a in msg.get("legal") or []] == self.legal):
            self.chances.take(msg)  # a new live estimate of the same position: no more
            return
        old = self.view
        self.view = msg.get("view") or None
        self.legal = [str(a) for a in msg.get("legal") or []]
        # a finished game keeps the names it was played by (seat_name fills them in)
        over = bool(self.view) and self.view.get("outcome") is not None
        self.names_at_end = (self.names_at_end or {}) if over else None
        self.seq = int(msg.get("seq") or 0)
        events = [e for e in msg.get("events") or [] if isinstance(e, dict)]
        restart = bool(old and self.view and old.get("outcome") and not self.view.get("outcome"))
        if self.fresh_log or restart:  # a full view repeats the recent events
            self.fresh_log = False
            self.log = [x for x in self.log if x.startswith("<")]
            self.history = []
            self.pirates = []
            # A game seen from its first event: its summary and clock are whole.
            self.history_whole = bool(self.view) and self.seq_is_start(events)
            if self.history_whole or self.game_started is None or restart:
                self.game_started = time.monotonic()
            self.game_ended = None
            self.chances.reset()
        self.chances.take(msg)
        if self.hint is not None and self.hint.get("seq") != self.seq:
            self.hint = None
        if self.view and self.view.get("outcome") and self.game_ended is None:
            self.game_ended = time.monotonic()
        self.history.extend(events)
        del self.history[:-HISTORY_KEEP]
        self.add_log(event_lines(self.view, list(msg.get("events") or []),
                                 list(msg.get("lines") or [])))
        self._track_pirates(events)
        self.screen = "game"
        self.preview = None
        if (self.status_error and not self.reconnecting) or self.status.startswith(
                _(SENT).partition("{action}")[0]):
            self.set_status("")
        if not self.owes_discard():
            self.discard_pick.clear()
        if self.mode == "morgan" and "morgan" not in self.legal_kinds():
            self.mode = "move"
        if self.mode == "power":
            self.mode = "move"
        self.power_index = 0
        self._fix_selection()

    def _on_hint(self, msg: dict[str, Any]) -> None:
        """The bot's move for this seat: previewed (Enter plays it, Esc drops it)."""
        from client.learn import hint_line, hint_preview

        if msg.get("seq") != self.seq or msg.get("action") not in self.legal:
            return  # for a position that moved on
        self.hint = msg
        self.preview = hint_preview(self.view or {}, msg)
        self.set_status(hint_line(msg, self.view))

    def ask_hint(self) -> None:
        """Ask the host for a hint (a table whose owner allowed them, on this seat's turn)."""
        if self.seat is None or self.spectate:
            self.set_status(_("only a seated player may ask for a hint"), error=True)
        elif not (self.table_info or {}).get("hints"):
            self.set_status(_("this table does not allow hints (its owner chooses when "
                              "creating it)"), error=True)
        elif not self.legal:
            self.set_status(_("ask for a hint on your turn"), error=True)
        elif self.hint is not None:
            self._on_hint(self.hint)  # the same position: the same hint, shown again
        else:
            self.send({"type": "hint", "table": self.table})
            self.set_status(_("asking the bot for a hint…"))

    def _on_error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code") or "")
        text = plain_error(code, str(msg.get("message") or ""), msg.get("why"), msg.get("args"))
        self.preview = None
        if code == "unknown-type" and msg.get("ref") == "rename":
            self.set_status(_("this host is older: it uses your new name from your next "
                              "connection"))
            return
        if code == "resumed-elsewhere":
            self.stop(_("{error}: this client stopped so the two do not fight over it").format(
                error=text))
            return
        self.set_status(text, error=True)
        if msg.get("ref") in ("join_table", "create_table"):
            self.join_sent = False
        if code == "bad-password" and msg.get("ref") == "join_table" and self.joining:
            self.start_input("table-password", _("password for table {n}: ").format(
                n=self.joining[0]))

    def _on_chat(self, msg: dict[str, Any]) -> None:
        sender, text = str(msg.get("sender") or "host"), str(msg.get("text") or "")
        self.chat.append((sender, text))
        del self.chat[:-LOG_KEEP]
        self.add_log([f"<{sender}> {text}"])

    def _on_bye(self, msg: dict[str, Any]) -> None:
        self.stop(bye_reason(msg) or _("the host closed the connection"))

    def stop(self, why: str) -> None:
        """The client stops talking to this host (no more retries) and says why."""
        self.gone = why
        self.reconnecting = False
        self.overlay = None
        self.preview = None
        self.set_status(why, error=True)

    def on_disconnect(self, reason: str, will_retry: bool) -> None:
        """The connection dropped."""
        self.reconnecting = will_retry
        # Retrying a host this client reached before: most often a host restarting or a
        # line that dropped for a moment, said as such (why, if it lasts: when it gives up).
        self.set_status(_("the host does not answer yet: trying again") if will_retry
                        else _("disconnected: {reason}").format(reason=reason), error=True)

    # ------------------------------------------------------------------ outgoing helpers

    def join(self, table: int, spectate: bool | None = None,
             password: str | None = None) -> None:
        spec = self.spectate if spectate is None else spectate
        msg: dict[str, Any] = {"type": "join_table", "table": table, "seat": None,
                               "spectate": spec, "name": self.name}
        if self.color != "any" and not spec:
            msg["color"] = self.color
        if password:
            msg["password"] = password
        self.joining = (table, spec)  # asked again with a password if the table wants one
        self.join_sent = True
        self.send(msg)

    def seq_is_start(self, events: list[dict[str, Any]]) -> bool:
        """A full view whose events go back to the game's start: the host sends the last
        20 events, so fewer mean all of them (as does a board with nobody moved yet)."""
        untouched = all(p == 0 for seat in (self.view or {}).get("seats", [])
                        for p in seat.get("pirates", []))
        return len(events) < FULL_VIEW_EVENTS or untouched

    def _track_pirates(self, events: list[dict[str, Any]]) -> None:
        """Keep each of my pirates' number as they move (numbers never re-rank)."""
        me = self.my_seat_view()
        if me is None:
            self.pirates, self.sel = [], None
            return
        now = sorted(int(p) for p in me["pirates"])
        numbered = me.get("numbered")
        if isinstance(numbered, list) and sorted(numbered) == now:
            # The host's numbers (the same on every screen, after any restore, reconnect
            # or replay: docs/protocol.md): the selection follows my pirate that moved.
            before, self.pirates = list(self.pirates), [int(p) for p in numbered]
            moved = [i for i, p in enumerate(self.pirates)
                     if len(before) == len(now) and before[i] != p]
            mine = any(e.get("seat") == self.seat and "to" in e for e in events)
            if mine and len(moved) >= 1:
                self.sel = moved[0]
            self._lowest_at_selection()
            return
        order = list(self.pirates) if len(self.pirates) == len(now) else []
        moved = None
        for e in events:
            owner = e.get("owner", e.get("seat"))
            if owner != self.seat or "from" not in e or "to" not in e or not order:
                continue
            frm, to = int(e["from"]), int(e["to"])
            if frm not in order:
                continue
            i = self.sel if self.sel is not None and order[self.sel] == frm else order.index(frm)
            order[i] = to
            if e.get("seat") == self.seat:
                moved = i
        if sorted(order) != now:
            # Out of step (a fresh view, an undo): keep every number whose place still
            # matches, give the others the remaining places in order.
            order = reconcile(order, now) if order else now
        self.pirates = order
        if moved is not None:
            self.sel = moved  # the selection follows the pirate just moved

    def _lowest_at_selection(self) -> None:
        """Where several of my pirates share a place, the one that moves from it is the
        lowest-numbered (the host's rule): the selection is that one."""
        if self.sel is not None and 0 <= self.sel < len(self.pirates):
            self.sel = self.pirates.index(self.pirates[self.sel])

    def _fix_selection(self) -> None:
        mine = self.pirates
        if not mine:
            self.sel = None
            return
        if self.sel is not None and 0 <= self.sel < len(mine):
            return
        movable = {a.pos for a in self.legal_actions() if a.kind == "advance"}
        candidates = [i for i, p in enumerate(mine) if p in movable]
        self.sel = (candidates or [0])[0]
