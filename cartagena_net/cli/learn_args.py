"""The command line's options for learning at the table: hints and live chances
(``cartagena host`` and ``cartagena play``)."""
from __future__ import annotations

import argparse

from cartagena_net.i18n import _


def add_learning_arguments(parser: argparse.ArgumentParser) -> None:
    """``--hints``, ``--player-chances`` (the table this command opens) and
    ``--no-live-chances``."""
    parser.add_argument("--hints", action="store_true",
                        help=_("the table lets its seated players ask for a hint: the bot's "
                               "move from their own view, with a reason (shown, not played)"))
    parser.add_argument("--player-chances", action="store_true",
                        help=_("the table shows each seat's chance of winning on the "
                               "players' own screens too (spectators and the TV always "
                               "see it)"))
    parser.add_argument("--no-live-chances", action="store_true",
                        help=_("estimate no chances of winning during games (they are "
                               "worked out for spectators and the TV page after every "
                               "turn, from what a spectator sees, on idle bot workers)"))
