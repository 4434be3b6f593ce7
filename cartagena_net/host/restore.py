"""Rebuild every table from its journal after a crash (``cartagena host --resume``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from twisted.logger import Logger

from cartagena_net.host import gamerec
from cartagena_net.host.journal import list_journals, read_journal
from cartagena_net.host.table import Table, load_bot

log = Logger(namespace="cartagena.host.restore")


def restore_tables(host: Any, state_dir: Path) -> list[Table]:
    """Tables rebuilt from the journals in ``state_dir`` (unreadable ones are skipped)."""
    tables = []
    for table_id, path in list_journals(state_dir):
        try:
            table = restore_table(host, table_id, path)
        except Exception:  # noqa: BLE001 - one bad journal must not stop the others
            log.failure("cannot restore table {id} from its journal", id=table_id)
            continue
        if table is not None:
            tables.append(table)
    return tables


def restore_table(host: Any, table_id: int, path: Path) -> Table | None:
    """One table from its journal: meta, seats with tokens, game replayed exactly."""
    records, good = read_journal(path)
    if len(records) == 0 or records[0].get("t") != "table":
        return None
    meta = records[0]
    # Cut a torn last record so new appends start on a fresh line.
    with open(path, "r+b") as f:
        f.truncate(good)
    table = Table(
        host, table_id, meta["name"], meta["rules"], meta.get("options") or {},
        password=meta.get("password"), spectators=bool(meta.get("spectators", True)),
        fresh=False,
    )
    seats_rec: dict[str, Any] | None = None
    outcomes: list[list[int]] = []
    actions: list[str] = []
    seq = 0
    started = False
    for rec in records[1:]:
        kind = rec.get("t")
        if kind == "seats":
            seats_rec = rec
        elif kind == "game":
            started = True
            outcomes = list(rec.get("chance") or [])
            actions = []
            seq = int(rec["seq"])
        elif kind == "act":
            outcomes.extend(rec.get("chance") or [])
            actions.append(str(rec["action"]))
            seq = int(rec["seq"])
    if seats_rec is not None:
        table.owner = seats_rec.get("owner")
        for seat, srec in zip(table.seats, seats_rec.get("seats") or []):
            seat.name = srec.get("name")
            seat.token = srec.get("token")
            seat.bot_kind = srec.get("bot")
            if seat.bot_kind is not None:
                seat.bot = load_bot(seat.bot_kind, table._rng, host.config)
    table.seq = seq
    if started:
        table.state = gamerec.restore(table.game, outcomes, actions)
        table.chance_seen = len(outcomes)
        table.sent_events = table.state.event_count
        table.status = "finished" if table.state.is_over else "playing"
    return table
