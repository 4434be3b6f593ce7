"""When a game was played, for a person: the record's UTC time (``2026-11-28T08:40:54Z``)
in the local time zone, written as the language writes a date (``28 Nov 2026, 09:40``;
in Swedish ``28 nov 2026 kl. 09:40``). The records keep UTC (data); only what is shown
is local."""
from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any

from cartagena_net.i18n import NP_, pgettext

MONTHS = (NP_("month", "Jan"), NP_("month", "Feb"), NP_("month", "Mar"), NP_("month", "Apr"),
          NP_("month", "May"), NP_("month", "Jun"), NP_("month", "Jul"), NP_("month", "Aug"),
          NP_("month", "Sep"), NP_("month", "Oct"), NP_("month", "Nov"), NP_("month", "Dec"))


def parse(stamp: Any) -> datetime | None:
    """A record's time (ISO 8601, ``Z`` or an offset; none: UTC), or None."""
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        t = datetime.fromisoformat(stamp.strip())
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def when(stamp: Any, tz: tzinfo | None = None) -> str:
    """``stamp`` in the local time zone (``tz`` for a test), the language's way; a
    stamp that is not a time as it is."""
    t = parse(stamp)
    if t is None:
        return str(stamp or "")
    t = t.astimezone(tz)
    return pgettext("date and time", "{day} {month} {year}, {time}").format(
        day=t.day, month=pgettext("month", MONTHS[t.month - 1]), year=t.year,
        time=f"{t:%H:%M}")
