"""The rules engine: pure Python, no I/O. See docs/architecture.md for the API."""
from .actions import Action, parse_action
from .chance import RandomChance, ReplayChance
from .errors import ActionError, IllegalActionError, InvalidActionError, OptionError
from .game import Game
from .presets import OPTIONS, PRESETS, coerce_option, make_game
from .state import Outcome, State, legal_actions
from .view import SPECTATOR, view

__all__ = [
    "OPTIONS",
    "PRESETS",
    "SPECTATOR",
    "Action",
    "ActionError",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "OptionError",
    "Outcome",
    "RandomChance",
    "ReplayChance",
    "State",
    "coerce_option",
    "legal_actions",
    "make_game",
    "parse_action",
    "view",
]
