"""``--password-file``, ``$CARTAGENA_PASSWORD`` and ``--password``: shared by host, join,
spectate and bot.

A password given on the command line can be read by every user of the machine (in
``ps`` or ``/proc/PID/cmdline``), so a file or the environment is recommended. Whatever
the source, the password is checked by :func:`protocol.clean_secret`, the very check a
host applies to a password it receives: one that could never match is refused at once.
"""
from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from cartagena_net.i18n import _
from protocol import MAX_SECRET, clean_secret

ENV = "CARTAGENA_PASSWORD"


def add_password_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--password-file FILE`` and ``--password TEXT`` (one of them) to ``parser``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--password-file", metavar=_("FILE"), default=None,
        help=_("read {what} from the first line of FILE (recommended; or set ${env})").format(
            what=_(what), env=ENV))
    group.add_argument(
        "--password", metavar=_("TEXT"), default=None,
        help=_("{what}; other users can read it in the process list: prefer "
               "--password-file or ${env}").format(what=_(what), env=ENV))


def read_password(args: argparse.Namespace, environ: Mapping[str, str] | None = None
                  ) -> str | None:
    """The password chosen by ``args`` or the environment; None when there is none.

    Order: ``--password-file``, ``--password``, then ``$CARTAGENA_PASSWORD`` (an empty
    variable means none). Raises ValueError with a message for the user when the file
    cannot be read or the password is unusable (empty, over 128 characters, control
    characters such as a tab).
    """
    env = os.environ if environ is None else environ
    path = getattr(args, "password_file", None)
    if path is not None:
        source = f"--password-file {path}"
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(4 * MAX_SECRET + 8)
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"{source}: " + _("cannot read it ({error})").format(
                error=exc)) from None
        text = text.split("\n", 1)[0].removesuffix("\r")
        if not text:
            raise ValueError(f"{source}: " + _("the first line is empty"))
    elif getattr(args, "password", None) is not None:
        source, text = "--password", args.password
        if not text:
            raise ValueError("--password: " + _("an empty password cannot be set"))
    elif env.get(ENV):
        source, text = f"${ENV}", env[ENV]
    else:
        return None
    try:
        return clean_secret(text)
    except ValueError as exc:
        raise ValueError(f"{source}: " + _("unusable password: {error}").format(
            error=exc)) from None
