"""What went wrong on the host, in the client's words: the host sends notices as data
(a ``kind`` and its fields: ``lobby.notices`` and each table's ``notices``, docs/protocol.md
4.4); the client words them here, for its status area. Pure."""
from __future__ import annotations

from typing import Any

from cartagena_net.engine.reasons import damage_text, os_error_text
from cartagena_net.i18n import _, ngettext, pgettext


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def notice_text(notice: dict[str, Any]) -> str | None:
    """One line for a notice, in the reader's language; None for a kind this client does
    not know. A disk's error is worded from its ``errno`` and a damaged journal from its
    ``cause``; only where a host does not send them (an older host) or the error has no
    name known here are the host's own words (``error``, ``why``) shown."""
    kind = notice.get("kind")
    kept_as = notice.get("kept_as")
    where = ("; " + _("the damaged journal is kept on the host as {file}").format(
        file=kept_as)) if kept_as else ""
    if kind == "journal-failed":
        error = os_error_text(notice, _, default=_("it refuses writes"))
        return _("game paused: the host's disk is full or refuses writes ({error}); it goes "
                 "on by itself once there is room").format(error=error)
    if kind == "journal-shortened":
        lost = _count(notice.get("lost"))
        return ngettext(
            "this game came back shorter after the host restarted: its journal was damaged, "
            "so it resumes at action {kept} and the {n} action after it is lost",
            "this game came back shorter after the host restarted: its journal was damaged, "
            "so it resumes at action {kept} and the {n} actions after it are lost",
            lost).format(kept=_count(notice.get("kept")), n=lost) + where
    if kind == "journal-lost":
        lost = _count(notice.get("lost"))
        what = (ngettext("its {n} action is lost", "its {n} actions are lost", lost).format(
            n=lost) if lost else _("it is lost"))
        return _("the game of table {table} could not come back after the host restarted: "
                 "its journal was damaged ({why}), {what}").format(
            table=notice.get("table"), why=damage_text(notice, _), what=what) + where
    if kind == "no-journal":
        return _("this game is not saved: the host cannot write its state folder {folder} "
                 "({error}), so a crash would lose it").format(
            folder=notice.get("folder") or "", error=os_error_text(notice, _))
    return None


def notice_lines(host_notices: Any, table_info: dict[str, Any] | None) -> list[str]:
    """The lines to show: the host's notices, then those of the table we are at."""
    out = []
    table = (table_info or {}).get("notices") or ()
    for n in (*(host_notices or ()), *table):
        text = notice_text(n) if isinstance(n, dict) else None
        if text:
            out.append(text)
    return out


def notice_block(model: Any, width: int) -> list[Any]:
    """The status area's notice lines for ``model`` (wrapped to ``width``), each marked
    as the host's: what the model's host and table say went wrong."""
    from client.text import ERR

    out: list[Any] = []
    table = model.table_info
    if getattr(model, "trouble", "") and table:  # the host's own client says it already
        table = {**table, "notices": [n for n in table.get("notices") or ()
                                      if n.get("kind") != "journal-failed"]}
    mark = " " + pgettext("notice", "host") + " "  # whose words these are
    for text in notice_lines(getattr(model, "host_notices", ()), table):
        first = True
        for line in _wrap(text, max(10, width - len(mark) - 1)):
            out.append([(ERR + " reverse", mark if first else " " * len(mark)), (ERR, " " + line)])
            first = False
    return out


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    cur = ""
    words = []
    for word in text.split():  # a word longer than a line (a file's path) is cut up
        words += [word[i:i + width] for i in range(0, len(word), width)] or [word]
    for word in words:
        if cur and len(cur) + 1 + len(word) > width:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        lines.append(cur)
    return lines or [""]
