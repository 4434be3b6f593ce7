"""Key handling of the client model: which group of keys is active, and the actions
the groups share.

Keys are names like ``"a"``, ``"A"``, ``"enter"``, ``"left"``, ``"c-c"``. Each mode's
keys are one group in :mod:`client.modes` (overlays, the new-table form, the screens
before a game, the game and its choices); :data:`KEY_GROUPS` lists them in order of
precedence and :meth:`KeyHandling.on_key` gives a key to the first active group that
takes it. The key bars and the ``?`` help come from the same groups
(:func:`screen_keys`), so they list the keys that work now. Actions are only ever sent
when the host listed them as legal.
"""
from __future__ import annotations

from cartagena_net.i18n import _
from client.follow import SENT
from client.keymap import KeyPairs, connecting_keys
from client.modes import KeyGroup, Model, dispatch, first_active
from client.modes.form import NewTableForm
from client.modes.game import Game
from client.modes.lobby import Browser, Connecting, Gone, Lobby, WaitingRoom
from client.modes.overlays import (
    HelpKey,
    HelpOverlay,
    LogOverlay,
    QuitKey,
    QuitQuestion,
    TextInput,
)
from client.uistate import InputLine

# The screens, below the overlays: the one active decides the keys and the key bar.
SCREEN_GROUPS: tuple[KeyGroup, ...] = (
    Gone(), Browser(), Connecting(), Lobby(), WaitingRoom(), Game(),
)
KEY_GROUPS: tuple[KeyGroup, ...] = (
    HelpOverlay(), QuitQuestion(), TextInput(), NewTableForm(), HelpKey(), LogOverlay(),
    QuitKey(), *SCREEN_GROUPS,
)


def screen_keys(model: Model, now: bool = True) -> KeyPairs:
    """The keys of the screen the model is on (``now``: the key bar; else the help)."""
    group = first_active(SCREEN_GROUPS, model)
    pairs = group.help(model, now) if group is not None else None
    return pairs if pairs is not None else connecting_keys(model)


class KeyHandling:
    """Reactions to keys; relies on the attributes of :class:`client.model.ClientModel`."""

    def on_key(self, key: str) -> None:
        """React to one key (``"a"``, ``"A"``, ``"enter"``, ``"left"``, ``"c-c"``, ...)."""
        dispatch(KEY_GROUPS, self, key)

    def start_input(self, purpose: str, prompt: str, text: str = "") -> None:
        self.input = InputLine(purpose, prompt, text)

    def leave(self) -> None:
        if self.table is not None:
            self.send({"type": "leave", "table": self.table})
        self.table = None
        self.seat = None
        self.view = None
        self.legal = []
        self.log.clear()
        self.screen = "lobby"
        self.spectate = self.watch_only

    def scroll_log(self, key: str) -> None:
        step = {"up": 1, "k": 1, "down": -1, "j": -1, "pageup": 10, "pagedown": -10}
        if key == "home":
            self.log_scroll = len(self.log)
        elif key == "end":
            self.log_scroll = 0
        else:
            self.log_scroll += step[key]
        self.log_scroll = max(0, min(self.log_scroll, max(0, len(self.log) - 1)))

    def try_action(self, action: str, refusal: str) -> None:
        """Send ``action`` if it is legal, else say ``refusal`` (in the reader's words)."""
        if action in self.legal:
            self.send_action(action)
        else:
            self.set_status(refusal, error=True)

    def send_action(self, action: str) -> None:
        self.send({"type": "action", "table": self.table, "seq": self.seq, "action": action})
        self.preview = None
        self.set_status(_(SENT).format(action=action))

    def power_actions(self) -> list[str]:
        """The powers offered (Black Magic Woman): those moving the chosen pirate first."""
        acts = [a for a in self.legal if a.startswith("power ")]

        def at_chosen(a: str) -> bool:
            w = a.split()
            return w[1].rstrip("*") in ("chest", "parrot", "hook") and \
                str(self.sel_pos) in w[2:4]  # the pirate's position is one of these
        return sorted(acts, key=lambda a: not at_chosen(a))

    def morgan_actions(self) -> list[str]:
        return [a for a in self.legal if a.startswith("morgan ")]
