"""Which journals of a state directory hold an unfinished game (read only).

Asked before a host starts, so that the command line can say what it found and offer
to resume it. Nothing here writes: restoring (and moving aside what cannot be read)
is :mod:`cartagena_net.host.restore`'s work once the host starts.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartagena_net.engine import make_game
from cartagena_net.engine.reasons import damage_text
from cartagena_net.host import gamerec
from cartagena_net.host.journal import list_journals, read_journal, record_text
from cartagena_net.i18n import _, ngettext
from cartagena_net.i18n.words import BOT_LEVELS, bot_words

#: What kind of damage a journal has (``JournalDamage.cause``, a notice's ``cause``):
#: a line that does not read as a record (checksum, JSON); records that read but do not
#: fit together or the game; an empty file, or one holding only a line cut short; and a
#: fault of the host's own while reading it.
CAUSES = ("damaged", "inconsistent", "empty", "fault")  # worded: engine/reasons.JOURNAL_DAMAGE


@dataclass(frozen=True)
class JournalDamage:
    """What a damaged journal cost: the fact a host logs and tells everyone seated, as
    data (``to_data``: a kind and fields, docs/protocol.md), and in one English line.

    ``line``: the first journal line that could not be used (None: the file as a whole,
    e.g. empty); ``why``: what is wrong with it; ``kept``: the actions that come back;
    ``lost``: the actions lost from that line on (counted from the lines that still read
    as actions, a damaged one included); ``whole``: nothing of the game comes back (a new
    game starts); ``kept_as``: where the damaged file is kept (``.bad-<time>``), once it
    is moved or copied aside; ``cause``: what kind of damage, one of :data:`CAUSES`, for
    clients to say in their own words (``why`` is the reader's own English detail)."""

    table: int
    line: int | None
    why: str
    kept: int
    lost: int
    whole: bool
    kept_as: str | None = None
    cause: str = "damaged"

    def with_copy(self, kept_as: str) -> JournalDamage:
        return JournalDamage(self.table, self.line, self.why, self.kept, self.lost,
                             self.whole, kept_as, self.cause)

    def to_data(self) -> dict[str, Any]:
        return {"kind": "journal-lost" if self.whole else "journal-shortened",
                "table": self.table, "line": self.line, "cause": self.cause, "why": self.why,
                "kept": self.kept, "lost": self.lost, "kept_as": self.kept_as}

    def describe(self, table: bool = True, detail: bool = False) -> str:
        """``table 1: journal record 5: checksum mismatch (the record was damaged); the
        game comes back at action 3; 8 actions after it are lost; the damaged journal is
        kept as .../table-1.journal.bad-20261126T101500Z`` (``table=False``: without
        the table), in the process's language: the kind of damage in words, and with
        ``detail`` (the log) the reader's own English ``why`` after it."""
        where = (_("record {line}").format(line=self.line) if self.line is not None
                 else _("file"))
        if self.whole:
            what = (ngettext("the whole game is lost ({n} action)",
                             "the whole game is lost ({n} actions)", self.lost).format(
                n=self.lost) if self.lost else _("nothing of it can come back"))
        else:
            what = ngettext("the game comes back at action {kept}; {n} action after it is "
                            "lost", "the game comes back at action {kept}; {n} actions after "
                            "it are lost", self.lost).format(kept=self.kept, n=self.lost)
        kept = ("; " + _("the damaged journal is kept as {file}").format(file=self.kept_as)
                if self.kept_as else "")
        cause = damage_text({"cause": self.cause, "why": self.why}, _)
        if detail and cause != self.why:
            cause += f" ({self.why})"
        text = f"{where}: {cause}; {what}{kept}"
        return (_("table {table}: journal {what}").format(table=self.table, what=text)
                if table else text)


def lost_actions(path: str | os.PathLike[str], first_line: int) -> int:
    """How many of the journal's lines from ``first_line`` (from 1) on were actions:
    those that read as an ``act`` record, checked or not (a damaged line whose text is
    still an action counts; a line that is not even that is not counted)."""
    import json

    from cartagena_net.host.journal import parse_line

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return 0
    count = 0
    for line in data.split(b"\n")[max(0, first_line - 1):]:
        if not line.strip():
            continue
        try:
            rec: Any = parse_line(line)
        except ValueError:
            try:
                rec = json.loads(record_text(line))
            except ValueError:
                rec = None
        if isinstance(rec, dict) and rec.get("t") == "act" or rec is None and b'"act"' in line:
            count += 1
    return count


@dataclass
class UnfinishedGame:
    """A game a journal holds that has not ended: where it is and who plays it."""

    table: int
    name: str
    rules: str
    players: list[str]
    actions: int
    to_act: str | None
    path: Path
    damage: JournalDamage | None = None  # its journal is damaged: what is lost

    def describe(self) -> str:
        """One line for a person: ``table 1 "ann's table": jamaica, ann v Blackbeard...``,
        and what a damaged journal loses (in the process's language)."""
        if self.damage is not None and self.damage.whole:
            return self.damage.describe() + "; " + _(
                "it will be kept as {file} (or in an archive folder)").format(
                file=f"{self.path.name}.bad-<time>")
        played = ngettext("{n} action played", "{n} actions played", self.actions).format(
            n=self.actions)
        turn = (", " + _("{name} to play").format(name=self.to_act)) if self.to_act else ""
        line = _("table {table} {name}: {rules}, {players}; {played}").format(
            table=self.table, name=repr(self.name), rules=self.rules,
            players=", ".join(self.players), played=played) + turn
        if self.damage is not None:
            line += " [" + _("{damage}; a copy of it will be kept").format(
                damage=self.damage.describe()) + "]"
        return line


def unfinished_games(state_dir: str | os.PathLike[str]) -> list[UnfinishedGame]:
    """The unfinished games of the journals in ``state_dir``, by table id, each with
    what its journal's damage loses (``damage``), if any. A journal that yields no game
    at all but is not a plain empty table's (damaged from its first line, garbage,
    empty) is listed too, with ``damage.whole``: its game cannot come back, and the
    person is told so before it is moved aside."""
    found = []
    try:
        journals = list_journals(state_dir)
    except OSError:
        return []
    for table_id, path in journals:
        try:
            game = _read(table_id, path)
        except Exception as exc:  # noqa: BLE001 - damaged: said, and restore keeps it aside
            game = _lost(table_id, path, f"{type(exc).__name__}: {exc}", cause="fault")
        if game is not None:
            found.append(game)
    return found


def _lost(table_id: int, path: Path, why: str, line: int | None = 1,
          cause: str = "inconsistent") -> UnfinishedGame:
    damage = JournalDamage(table_id, line, why, 0, lost_actions(path, 1), True, cause=cause)
    return UnfinishedGame(table=table_id, name="", rules="", players=[], actions=0,
                          to_act=None, path=path, damage=damage)


def _seat_label(seat: Any) -> str:
    if not isinstance(seat, dict):
        return "?"
    name = str(seat.get("name") or "?")[:32]
    bot = seat.get("bot")
    level = seat.get("level") if seat.get("level") in BOT_LEVELS else None  # its own level
    return _("{name} ({kind})").format(name=name, kind=bot_words(bot, level)) if bot else name


def _read(table_id: int, path: Path) -> UnfinishedGame | None:
    read = read_journal(path)
    records = read.records
    if read.size == 0:
        return _lost(table_id, path, "the file is empty", None, cause="empty")
    if not records:
        if read.bad is not None:
            return _lost(table_id, path, f"the first record is unreadable: {read.bad[1]}",
                         cause="damaged")
        return None  # only a torn line: a table's first write cut by a crash
    if records[0].get("t") != "table":
        return _lost(table_id, path, "it does not start with a table record")
    meta = records[0]
    seats: list[Any] = []
    outcomes: list[list[int]] | None = None
    actions: list[tuple[list[list[int]], str]] = []
    lines: list[int] = []  # the journal line of each action
    for number, rec in enumerate(records[1:], start=2):
        kind = rec.get("t")
        if kind == "seats" and isinstance(rec.get("seats"), list):
            seats = rec["seats"]
        elif kind == "game":
            outcomes, actions, lines = list(rec.get("chance") or []), [], []
        elif kind == "act" and outcomes is not None:
            actions.append((list(rec.get("chance") or []), str(rec.get("action"))))
            lines.append(number)
    if outcomes is None:
        return None
    game = make_game(str(meta["rules"]), **dict(meta.get("options") or {}))
    state, applied, why = gamerec.replay_prefix(game, outcomes, actions)
    if state.is_over:
        return None
    damage = None
    if why is not None:  # an action the game refuses: it and all after it are lost
        first = lines[applied]
        damage = JournalDamage(table_id, first, why, applied, lost_actions(path, first), False,
                               cause="inconsistent")
    elif read.stop is not None:  # a bad line, or an action's record cut short
        line, why = read.stop
        damage = JournalDamage(table_id, line, why, applied, lost_actions(path, line), False)
    actor = state.actor
    to_act = (_seat_label(seats[actor]) if isinstance(actor, int) and 0 <= actor < len(seats)
              else None)
    return UnfinishedGame(table=table_id, name=str(meta.get("name") or "")[:64],
                          rules=str(meta["rules"]), players=[_seat_label(s) for s in seats],
                          actions=applied, to_act=to_act, path=path, damage=damage)
