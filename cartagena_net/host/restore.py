"""Rebuild every table from its journal after a crash (``cartagena host --resume``).

Journals are data: a journal is never deleted or overwritten unless it holds no game.
- A torn final line (a write cut short by the system's crash or a power cut) is cut
  off; when it is an action's record, that action is lost as a damaged record's is
  (below): the players may have seen it, since appends are fsynced every
  ``--journal-sync`` seconds.
- A damaged point of the live chances' curve is passed over (it is shown, never
  played): the records after it still count.
- A bad record further on (damaged, unreadable, or an action the game refuses):
  the table is restored up to the record before it, the original file is kept as
  ``table-N.journal.bad-<UTC time>``, and the log names the file and the record.
- A journal that yields no table at all (empty, garbage, a bad first record) is
  moved to ``table-N.journal.bad-<UTC time>`` with a log line saying why.
- Either way the loss is a fact (:class:`~cartagena_net.host.unfinished.JournalDamage`:
  how many actions came back, how many were lost or that the whole game was, and where
  the damaged file is kept), logged with its data and kept for the host to tell the
  players (``table.journal_damage``, ``host.journal_damage``).
- A table nobody sits at (no human seat, no game on) is not restored; its journal
  is removed, as it would have been had the host not stopped.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from twisted.logger import Logger

from cartagena_net.host import gamerec
from cartagena_net.host.errors import HostError
from cartagena_net.host.journal import (
    list_journals,
    move_aside,
    read_journal,
    write_journal,
)
from cartagena_net.host.passwords import journaled_password
from cartagena_net.host.table import Table
from cartagena_net.host.tablebots import load_bot
from cartagena_net.host.unfinished import JournalDamage, lost_actions

log = Logger(namespace="cartagena.host.restore")


class JournalError(Exception):
    """A journal no table can be rebuilt from: ``record`` (from 1, or None), why, and
    the kind of damage (``unfinished.CAUSES``)."""

    def __init__(self, record: int | None, why: str, cause: str = "inconsistent") -> None:
        super().__init__(why)
        self.record = record
        self.why = why
        self.cause = cause


def restore_tables(host: Any, state_dir: Path) -> list[Table]:
    """Tables rebuilt from the journals in ``state_dir`` (see the module's rules).

    What damaged journals cost is kept as :class:`JournalDamage` facts: a table that
    came back shorter holds its own (``table.journal_damage``); those of journals no
    table came back from are ``host.journal_damage`` (a list), for the host to tell
    whoever plays there."""
    tables = []
    lost: list[JournalDamage] = []
    for table_id, path in list_journals(state_dir):
        try:
            table = restore_table(host, table_id, path)
        except JournalError as exc:
            lost.append(_give_up(table_id, path, exc.record, exc.why, exc.cause))
            continue
        except Exception as exc:  # noqa: BLE001 - one bad journal must not stop the others
            if not isinstance(exc, OSError):  # (not readable, a folder: said, no trace)
                log.failure("cannot restore table {id} from {file}", id=table_id,
                            file=str(path))
            lost.append(_give_up(table_id, path, None, f"{type(exc).__name__}: {exc}",
                                 "fault"))
            continue
        if table is not None:
            tables.append(table)
    host.journal_damage = lost
    return tables


def _give_up(table_id: int, path: Path, record: int | None, why: str,
             cause: str) -> JournalDamage:
    damage = JournalDamage(table_id, record, why, 0, lost_actions(path, 1), True, cause=cause)
    try:
        damage = damage.with_copy(str(move_aside(path)))
    except OSError as exc:
        damage = damage.with_copy(f"{path} (it could not be moved: {exc})")
    log.error("cannot restore table {id}: journal {file}, {what}", id=table_id,
              file=str(path), what=damage.describe(table=False, detail=True), damage=damage.to_data())
    return damage


class _Replay:
    """What the records of a journal say, checked field by field."""

    def __init__(self) -> None:
        self.seats: dict[str, Any] | None = None
        self.started = False
        self.started_at: float | None = None  # when the game started (Unix time)
        self.seq = 0
        self.game_seq = 0  # the game record's seq: the game's first state
        self.outcomes: list[list[int]] = []
        self.actions: list[tuple[list[list[int]], str]] = []
        self.action_records: list[int] = []  # record number of each action
        self.seats_acting: list[int | None] = []  # the seat each action record names
        self.hinted: list[int] = []  # the actions taken after a hint (their indices)
        self.curve: list[dict[str, Any]] = []  # the live chances' points of this game

    def take(self, number: int, rec: dict[str, Any]) -> None:
        kind = rec["t"]
        if kind == "seats":
            seats = rec.get("seats")
            if not isinstance(seats, list) or not all(
                isinstance(s, dict) and all(_opt_str(s.get(k)) for k in ("name", "token", "bot"))
                for s in seats
            ) or not (rec.get("owner") is None or isinstance(rec.get("owner"), int)):
                raise ValueError("a seats record with bad fields")
            from cartagena_net.bots.kinds import BOT_KINDS

            if any(s.get("bot") is not None and s["bot"] not in BOT_KINDS for s in seats):
                raise ValueError("a seats record with an unknown bot kind")
            from cartagena_net.bots.kinds import LEVELS

            if any(s.get("level") is not None and (s.get("bot") != "ismcts"
                                                   or s["level"] not in LEVELS)
                   for s in seats):
                raise ValueError("a seats record with a bad bot level")
            self.seats = rec
        elif kind == "game":
            self.started = True
            started = rec.get("started")
            self.started_at = started if isinstance(started, (int, float)) else None
            self.outcomes = _outcomes(rec.get("chance"))
            self.actions, self.action_records, self.seats_acting = [], [], []
            self.hinted, self.curve = [], []
            self.seq = self.game_seq = _seq(rec)
        elif kind == "chances":  # a point of the live chances' curve: shown, never played,
            # so one that does not read as a point of this game is passed over
            chances, turn, seq = rec.get("chances"), rec.get("turn"), rec.get("seq")
            if self.started and isinstance(chances, list) and all(
                    isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= c <= 1
                    for c in chances) and all(isinstance(n, int) and not isinstance(n, bool)
                                              for n in (turn, seq)):
                self.curve.append({"seq": seq, "turn": turn, "chances": chances})
        elif kind == "seq":  # seq moved on past records lost to damage
            self.seq = max(self.seq, _seq(rec))
        elif kind == "act":
            if not isinstance(rec.get("action"), str):
                raise ValueError("an act record without an action")
            if not self.started:
                raise ValueError("an act record before the game record")
            seq, seat = _seq(rec), rec.get("seat")
            if seq != self.seq + 1:  # each action moves seq on by one: records are missing
                raise ValueError(f"an act record with seq {seq} after seq {self.seq} "
                                 "(records before it are missing)")
            if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
                raise ValueError("an act record with a bad seat")
            if rec.get("hinted") is True:  # taken after a hint: the record says so
                self.hinted.append(len(self.actions))
            self.actions.append((_outcomes(rec.get("chance")), rec["action"]))
            self.seats_acting.append(seat)
            self.action_records.append(number)
            self.seq = seq
        else:
            raise ValueError(f"an unknown record type {kind[:20]!r}")


def _opt_str(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _seq(rec: dict[str, Any]) -> int:
    seq = rec.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise ValueError("a record with a bad seq")
    return seq


def _outcomes(value: Any) -> list[list[int]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(o, list) and all(isinstance(i, int) for i in o) for o in value
    ):
        raise ValueError("a record with bad chance outcomes")
    return value


def _table_from_meta(host: Any, table_id: int, meta: dict[str, Any]) -> Table:
    try:
        name, rules, options = meta["name"], meta["rules"], meta.get("options") or {}
        if not isinstance(name, str) or not isinstance(rules, str) or not isinstance(options, dict):
            raise TypeError("name, rules or options of the wrong type")
        creator = meta.get("creator")
        return Table(
            host, table_id, name, rules, options,
            password=journaled_password(meta), spectators=bool(meta.get("spectators", True)),
            open_journal=False, creator=creator if isinstance(creator, str) else None,
            hints=meta.get("hints") is True, player_chances=meta.get("player_chances") is True,
        )
    except HostError as exc:
        raise JournalError(1, f"its table record is unusable: {exc.message}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(1, f"its table record is unusable: {exc}") from None


def restore_table(host: Any, table_id: int, path: Path) -> Table | None:
    """One table from its journal: meta, seats with tokens, game replayed exactly.

    Returns None for a table nobody sits at (its journal is removed); raises
    :class:`JournalError` when no table can be rebuilt.
    """
    read = read_journal(path)
    if read.size == 0:
        raise JournalError(None, "the file is empty", "empty")
    if not read.records:
        if read.bad is not None:
            raise JournalError(1, f"the first record is unreadable: {read.bad[1]}", "damaged")
        raise JournalError(1, "it holds only an incomplete line", "empty")
    records = read.records
    meta = records[0]
    if meta.get("t") != "table":
        raise JournalError(1, "it does not start with a table record")
    table = _table_from_meta(host, table_id, meta)
    # (record number, why, cause) of the first bad record, if any
    # (a bad line, or an action's record cut short at the end: the players may have seen
    # that action, appends being fsynced every --journal-sync seconds)
    stop = None if read.stop is None else (*read.stop, "damaged")
    while True:
        rep = _Replay()
        for number, rec in enumerate(records[1:], start=2):
            try:
                rep.take(number, rec)
            except ValueError as exc:
                stop, records = (number, str(exc), "inconsistent"), records[: number - 1]
                break
        else:
            break
    state = None
    if rep.started:
        try:
            state, applied, why = gamerec.replay_prefix(table.game, rep.outcomes, rep.actions,
                                                          rep.seats_acting)
        except ValueError as exc:
            number = next(n for n, r in enumerate(records, start=1) if r["t"] == "game")
            raise JournalError(number, f"the game cannot be dealt again: {exc}") from None
        if why is not None:
            number = rep.action_records[applied]
            stop, records = (number, why, "inconsistent"), records[: number - 1]
            rep = _Replay()
            for n, rec in enumerate(records[1:], start=2):
                rep.take(n, rec)
    if rep.seats is not None:
        table.owner = rep.seats.get("owner")
        for seat, srec in zip(table.seats, rep.seats.get("seats") or []):
            seat.name = srec.get("name")
            seat.token = srec.get("token")
            seat.bot_kind = srec.get("bot")
            seat.bot_level = srec.get("level") if seat.bot_kind is not None else None
            if seat.bot_kind is not None:
                seat.bot = load_bot(seat.bot_kind, table.rng, host.config, seat.bot_level)
    if state is None:
        table.match.restore(rep.seq)
    else:
        table.match.restore(rep.seq, state, actions=len(rep.actions),
                            chances=gamerec.chance_count(state), started_at=rep.started_at,
                            game_seq=rep.game_seq)
        table.coach.hinted_moves = [k for k in rep.hinted if k < len(rep.actions)]
        table.coach.restore_curve([p for p in rep.curve if p["seq"] <= table.match.seq])
    table.journal_damage = None
    for number, why in read.passed:
        log.warn("table {id}: journal {file}, record {n}: a point of the live chances' "  # noqa: G010
                 "curve is damaged ({why}); passed over, as it is never played",
                 id=table_id, file=str(path), n=number, why=why)
    if stop is not None:
        # Every record lost may have moved seq on by one: go past anything a player
        # saw, so that no action aimed at a lost state can be taken for this one.
        table.match.skip(read.lines + read.torn - len(records) + 1)
        damage = JournalDamage(table_id, stop[0], stop[1], len(rep.actions) if state else 0,
                               lost_actions(path, stop[0]), False, cause=stop[2])
        kept = move_aside(path, keep_copy=True)
        write_journal(path, [*records, {"t": "seq", "seq": table.seq}])
        table.journal_damage = damage = damage.with_copy(str(kept))
        log.error("table {id}: journal {file}, {what} (the table is restored up to record "
                  "{m})", id=table_id, file=str(path), what=damage.describe(table=False, detail=True),
                  m=len(records), damage=damage.to_data())
    elif read.torn:
        with open(path, "r+b") as f:
            f.truncate(read.good)
        log.info("table {id}: journal {file} ended in an incomplete line (a write cut by "
                 "a crash, never acknowledged); it was cut off", id=table_id, file=str(path))
    if table.vacant() and not any(s.human for s in table.seats):
        path.unlink()
        log.info("table {id} holds nobody and no game: not restored, {file} removed",
                 id=table_id, file=str(path))
        return None
    table.journal = host.open_journal(table_id, fresh=False)
    return table
