"""The terminal replay viewer: a kept game (a full record) shown with the game screen.

Every position of the game is rebuilt exactly from the record
(:func:`cartagena_net.records.steps`) and shown through the engine's view for the
chosen viewer: a spectator (public information only) or any one seat (its hand too).
Keys (the same in every replay):

    →  l  n      next action          ←  h  p      previous action
    ↓  ]         next turn            ↑  [         previous turn (its first action)
    Home  g      the deal             End  G       the end
    v            next viewpoint       s            spectator      1..9  seat 1..9
    t            next turning point   T            previous turning point (with a review)
    PgUp PgDn    scroll the log
    q  Esc  Ctrl-C                    quit

With the bot's review of the game (``cartagena review``, or made by the host after the
game), two lines above the status show each seat's chance of winning at this position,
the curve of the winner's chance with this position marked, and for the action just
played what the bot would have played instead and what it cost.

No network, no host: the screen is the client's own (:func:`client.render.render_screen`).
"""
from __future__ import annotations

from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.styles import Style

from cartagena_net.engine import SPECTATOR, view
from cartagena_net.i18n import N_, _, percent
from cartagena_net.records import steps
from cartagena_net.records.format import player_label
from client.glyphs import color_name
from client.model import ClientModel
from client.render import render_screen, to_formatted

KEYS = [("←/→", N_("action")), ("↑/↓", N_("turn")), ("Home/End", N_("deal/end")),
        ("v", N_("next view")), ("s", N_("spectator")), ("1-9", N_("seat")),
        ("t/T", N_("turning point")), ("q", N_("quit"))]


class ReplayViewer:
    """The positions of one recorded game, where the viewer is, and from whose seat."""

    def __init__(self, record: dict[str, Any], ascii_only: bool = False,
                 review: dict[str, Any] | None = None) -> None:
        self.record = record
        self.review = review
        self.states = steps(record)  # RecordError if the record does not replay
        self.players = record["players"]
        # The positions where a turn begins: the deal, and each change of the turn's seat.
        self.turn_starts = [0] + [n for n in range(1, len(self.states))
                                  if self.states[n].turn != self.states[n - 1].turn]
        self.pos = 0
        self.viewer: int | str = SPECTATOR
        self.duration = _seconds(record["ended"]) - _seconds(record["started"])
        self.model = ClientModel(name="replay", ascii_only=ascii_only, spectate=True)
        self.model.host_label = f"replay {record['id']}"
        self.model.table = 1
        self.model.replay_keys = KEYS if review else [k for k in KEYS if k[0] != "t/T"]
        self.show()

    @property
    def last(self) -> int:
        return len(self.states) - 1

    # -- moving -----------------------------------------------------------------

    def go(self, pos: int) -> None:
        self.pos = max(0, min(self.last, pos))
        self.show()

    def step(self, delta: int) -> None:
        self.go(self.pos + delta)

    def turn(self, delta: int) -> None:
        """To the start of the next turn, or of this one (then the one before)."""
        starts = self.turn_starts
        if delta > 0:
            later = [n for n in starts if n > self.pos]
            self.go(later[0] if later else self.last)
        else:
            earlier = [n for n in starts if n < self.pos]
            self.go(earlier[-1] if earlier else 0)

    def turning(self, delta: int) -> None:
        """To the next (previous) turning point of the review: the position just after
        one of the actions that cost the most."""
        if not self.review:
            return
        points = sorted(k + 1 for k in self.review.get("turning") or ())
        if delta > 0:
            later = [n for n in points if n > self.pos]
            if later:
                self.go(later[0])
        else:
            earlier = [n for n in points if n < self.pos]
            if earlier:
                self.go(earlier[-1])

    def see_as(self, viewer: int | str) -> None:
        if viewer == SPECTATOR or (isinstance(viewer, int) and 0 <= viewer < len(self.players)):
            self.viewer = viewer
            self.show()

    def next_viewer(self) -> None:
        order: list[int | str] = [SPECTATOR, *range(len(self.players))]
        self.see_as(order[(order.index(self.viewer) + 1) % len(order)])

    # -- showing ----------------------------------------------------------------

    def turn_number(self) -> int:
        return sum(1 for n in self.turn_starts if n <= self.pos)

    def show(self) -> None:
        """Put the position, seen by the viewer, into the model the screen draws."""
        state = self.states[self.pos]
        v = view(state, self.viewer, since=0)
        events = v.pop("events", None) or []
        m = self.model
        spectator = self.viewer == SPECTATOR
        m.spectate = spectator
        m.seat = None if spectator else int(self.viewer)
        m.name = _("spectator") if spectator else str(self.players[int(self.viewer)]["name"])
        m.tables = [{
            "id": 1, "name": self.record["table"], "rules": v.get("rules"), "owner": None,
            "status": "finished" if v.get("outcome") else "playing", "spectators": 0,
            "seats": [{"seat": p["seat"], "name": p["name"], "color": p["color"],
                       "bot": p.get("bot"), "connected": True} for p in self.players]}]
        m.fresh_log = True
        m.on_message({"type": "state", "table": 1, "seq": self.pos, "view": v, "legal": [],
                      "events": events,
                      "lines": [str(e.get("text", ""))[:500] for e in events]})
        m.overlay = None
        m.history_whole = True  # every event from the deal on
        m.game_started, m.game_ended = 0.0, (self.duration if v.get("outcome") else None)
        who = (_("a spectator") if spectator else
               f"{player_label(self.players[m.seat])} "
               f"({color_name(self.players[m.seat]['color'])})")
        m.set_status(_("replay: action {n}/{last} · turn {turn}/{turns} · seen as {who}").format(
            n=self.pos, last=self.last, turn=self.turn_number(), turns=len(self.turn_starts),
            who=who))
        m.extra_lines = self.review_lines(m) if self.review else None

    def review_lines(self, m: ClientModel) -> list[Any]:
        """The review at this position: the chances, the winner's curve, the last action."""
        from client.glyphs import color_style

        rev = self.review
        assert rev is not None
        chances = rev["positions"][self.pos]["chances"]
        line: list[tuple[str, str]] = [("bold", _("bot review:") + " ")]
        for seat, p in enumerate(chances):
            line += [(color_style(self.players[seat]["color"]),
                      f"{color_name(self.players[seat]['color'])} {percent(f'{p * 100:.0f}')}"),
                     ("", "  ")]
        outcome = self.record.get("outcome") or {}
        winner = outcome.get("winner")
        curve: list[tuple[str, str]] = []
        if isinstance(winner, int) and 0 <= winner < len(self.players):
            bars = " ▁▂▃▄▅▆▇█" if not m.ascii_only else " .:-=+*#%"
            width = 48
            n = len(rev["positions"])
            cols = [min(n - 1, i * n // width) for i in range(min(width, n))]
            here = min(range(len(cols)), key=lambda i: abs(cols[i] - self.pos))
            style = color_style(self.players[winner]["color"])
            curve = [("", _("{color} (won)").format(
                color=color_name(self.players[winner]["color"])) + " ")]
            for i, k in enumerate(cols):
                p = rev["positions"][k]["chances"][winner]
                ch = bars[min(8, int(p * 8.999))]
                curve.append((style + (" reverse" if i == here else ""), ch))
        comment: list[Any] = []
        if self.pos > 0:
            from client.powers import move_words

            before = view(self.states[self.pos - 1], SPECTATOR, since=0)
            mv = rev["moves"][self.pos - 1]
            who = color_name(self.players[mv["seat"]]["color"])
            turning = (self.pos - 1) in (rev.get("turning") or ())
            if mv.get("best") and mv["best"] != mv["played"]:
                loss = mv.get("loss")
                cost = (f" (-{percent(f'{loss * 100:.0f}')})" if isinstance(loss, (int, float))
                        else "")
                # each move as the screens name moves (the same for every seat; the
                # review's own words, the hints', speak to the seat: "your pirate")
                text = _("{who}: {played}; the bot: {best}").format(
                    who=who, played=move_words(before, str(mv["played"])),
                    best=move_words(before, str(mv["best"]))) + cost
            else:
                text = _("{who}: {played}; the bot agrees").format(
                    who=who, played=move_words(before, str(mv["played"])))
            # its own line: the screen wraps it at any width (never cut)
            comment = [[("bold fg:ansired" if turning else "", text
                         + (" · " + _("a turning point (t/T)") if turning else ""))]]
        return ([line, curve] if curve else [line]) + comment

    def screen_text(self, width: int, height: int) -> str:
        """The screen as plain text (tests)."""
        return "\n".join("".join(text for _, text in line)
                         for line in render_screen(self.model, width, height))


def run_viewer(record: dict[str, Any], ascii_only: bool = False, app_input: Any = None,
               app_output: Any = None, review: dict[str, Any] | None = None) -> int:
    """Open the viewer on a full record until the user quits; the exit code (0)."""
    viewer = ReplayViewer(record, ascii_only=ascii_only, review=review)
    kb = KeyBindings()

    def bind(keys: tuple[str, ...], action: Any) -> None:
        for key in keys:
            kb.add(key)(lambda event, a=action: a())

    bind(("right", "l", "n"), lambda: viewer.step(1))
    bind(("left", "h", "p"), lambda: viewer.step(-1))
    bind(("down", "]"), lambda: viewer.turn(1))
    bind(("up", "["), lambda: viewer.turn(-1))
    bind(("pageup",), lambda: viewer.model.scroll_log("pageup"))
    bind(("pagedown",), lambda: viewer.model.scroll_log("pagedown"))
    bind(("home", "g"), lambda: viewer.go(0))
    bind(("end", "G"), lambda: viewer.go(viewer.last))
    bind(("t",), lambda: viewer.turning(1))
    bind(("T",), lambda: viewer.turning(-1))
    bind(("v",), viewer.next_viewer)
    bind(("s",), lambda: viewer.see_as(SPECTATOR))
    for n in range(1, 10):
        bind((str(n),), lambda n=n: viewer.see_as(n - 1))

    app: Application = Application(
        layout=Layout(Window(FormattedTextControl(lambda: _text(app, viewer),
                                                  show_cursor=False))),
        key_bindings=kb, full_screen=True, style=Style([]), input=app_input,
        output=app_output, mouse_support=False)

    def leave(event: Any) -> None:
        event.app.exit(result=0)

    for key in ("q", "escape", "c-c"):
        kb.add(key)(leave)
    return int(app.run() or 0)


def _text(app: Application, viewer: ReplayViewer) -> Any:
    size = app.output.get_size()
    try:
        return to_formatted(render_screen(viewer.model, size.columns, size.rows))
    except Exception as exc:  # noqa: BLE001 - a drawing bug must not kill the viewer
        return [("bold fg:ansired", _("cannot draw this screen: {error} (q quits)").format(
            error=repr(exc)))]


def _seconds(text: str) -> float:
    """Seconds since the epoch of a record's UTC time (0 if it cannot be read)."""
    import calendar
    import time

    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return 0.0
