"""What went wrong on the host, in the client's words: the host sends notices as data
(a ``kind`` and its fields: ``lobby.notices`` and each table's ``notices``, docs/protocol.md
4.4); the client words them here, for its status area. Pure."""
from __future__ import annotations

from typing import Any


def _n(count: Any, word: str) -> str:
    n = count if isinstance(count, int) else 0
    return f"{n} {word}{'' if n == 1 else 's'}"


def notice_text(notice: dict[str, Any]) -> str | None:
    """One line for a notice; None for a kind this client does not know."""
    kind = notice.get("kind")
    kept_as = notice.get("kept_as")
    where = f"; the damaged journal is kept on the host as {kept_as}" if kept_as else ""
    if kind == "journal-failed":
        error = notice.get("error") or "it refuses writes"
        return (f"game paused: the host's disk is full or refuses writes ({error}); "
                "it goes on by itself once there is room")
    if kind == "journal-shortened":
        return (f"this game came back shorter after the host restarted: its journal was "
                f"damaged, so it resumes at action {notice.get('kept', 0)} and the "
                f"{_n(notice.get('lost'), 'action')} after it are lost{where}")
    if kind == "journal-lost":
        lost = notice.get("lost")
        what = (f"its {_n(lost, 'action')} are lost" if isinstance(lost, int) and lost
                else "it is lost")
        return (f"the game of table {notice.get('table')} could not come back after the "
                f"host restarted: its journal was damaged ({notice.get('why') or '?'}), "
                f"{what}{where}")
    if kind == "no-journal":
        return (f"this game is not saved: the host cannot write its state folder "
                f"{notice.get('folder') or ''} ({notice.get('error') or '?'}), so a crash "
                "would lose it")
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
    for text in notice_lines(getattr(model, "host_notices", ()), table):
        first = True
        for line in _wrap(text, max(10, width - 7)):
            out.append([(ERR + " reverse", " host " if first else "      "), (ERR, " " + line)])
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
