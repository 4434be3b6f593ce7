"""Numbers on the command line: ASCII digits only.

Python's ``int`` and ``float`` read far more than a person types as a number: other
scripts' digits (``int("٣")`` is 3), underscores (``"1_000"``), and for ``float``
exponents, ``nan`` and ``inf``. :class:`Parser` (the ``cartagena`` command's argparse
parser, its subcommands' too) reads every ``type=int`` and ``type=float`` argument with
:func:`ascii_int` and :func:`ascii_float` instead, so a mistyped number is refused with
argparse's own message (``invalid int value: '٣'``, in the user's language) and
nothing runs.
"""
from __future__ import annotations

import argparse
import re

from cartagena_net.i18n import N_, _

_INT = re.compile(r"[+-]?[0-9]{1,18}")
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,15}(?:\.[0-9]{0,15})?|\.[0-9]{1,15})")


def ascii_int(text: str) -> int:
    """A whole number written in ASCII digits (a sign allowed); ValueError else."""
    if not isinstance(text, str) or not _INT.fullmatch(text.strip()):
        raise ValueError(text)
    return int(text)


def ascii_float(text: str) -> float:
    """A decimal number written in ASCII digits (``2``, ``0.5``, ``.5``, a sign
    allowed; no exponent, ``nan`` or ``inf``); ValueError else."""
    if not isinstance(text, str) or not _FLOAT.fullmatch(text.strip()):
        raise ValueError(text)
    return float(text)


# The argument names --help shows for an option given no metavar (argparse's default is
# its dest in capitals, English): the same word for the same thing in every command.
METAVARS = {
    "bind": N_("ADDRESS"), "bot": N_("KIND"), "bots": "N", "bot_delay": N_("SECONDS"),
    "games": "N", "max_actions": "N", "max_per_address": "N", "name": N_("NAME"),
    "players": "N", "playouts": "N", "port": "PORT", "seed": "N", "table": "N",
    "table_name": N_("NAME"), "timeout": N_("SECONDS"), "udp_port": "PORT", "workers": "N",
}


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with an option's argument named in the reader's language."""

    def _get_default_metavar_for_optional(self, action: argparse.Action) -> str:
        if action.dest in METAVARS:
            return _(METAVARS[action.dest])
        return _(action.dest.upper())


class Parser(argparse.ArgumentParser):
    """An argparse parser whose ``type=int`` and ``type=float`` read ASCII digits only
    (its subparsers are of this class too), with :class:`HelpFormatter`."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.register("type", int, ascii_int)
        self.register("type", float, ascii_float)
