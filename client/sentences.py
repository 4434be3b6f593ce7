"""The log's event lines in the reader's language, rendered from each event's data.

The host sends every event as data (its ``type`` and fields) with an English line in
``lines``; the client renders the data with the engine's own sentence code
(:func:`cartagena_net.engine.sentences.event_sentence`) in its language, and shows the
host's line only for an event it cannot render (a kind newer than this client).
"""
from __future__ import annotations

from typing import Any

from cartagena_net.engine.sentences import event_sentence
from cartagena_net.i18n import language, translation
from client.glyphs import color_name, symbol_name
from client.glyphs import place as place_name


def event_lines(view: dict[str, Any] | None, events: list[Any], lines: list[Any]) -> list[str]:
    """One line per event (``lines``, the host's, for any event not rendered here); the
    host's lines as they are when the events and lines do not pair up."""
    if not view or len(events) != len(lines):
        return [str(x) for x in lines]
    colors = {s.get("seat"): str(s.get("color", "")) for s in view.get("seats") or []
              if isinstance(s, dict)}
    boat = view.get("boat")
    sloop = (view.get("sloop") or {}).get("pos") if isinstance(view.get("sloop"), dict) else None

    def color(seat: int) -> str:
        return color_name(colors[seat]) if seat in colors else str(seat)

    def place(p: int) -> str:
        if sloop is not None and p == sloop:
            return place_name("sloop")
        if p == 0:
            return place_name(str(view.get("start_name") or "start"))
        if p == boat or p == -1:
            return place_name(str(view.get("goal_name") or "boat"))
        return str(p)

    tr = translation(language())
    out = []
    for e, line in zip(events, lines, strict=True):
        said = event_sentence(e, color, place, symbol_name, tr) if isinstance(e, dict) else None
        out.append(said if said is not None else str(line))
    return out
