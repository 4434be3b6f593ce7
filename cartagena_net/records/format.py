"""The game record: a documented, versioned JSON format (docs/records.md).

A record of a game that ended by its rules is *full*: the game's spec, the chance
outcomes (board layout, deck orders) and every action with the seat that took it, so
that :func:`replay` rebuilds the game exactly. Once a game is over nothing is secret
any more, so a full record hides nothing that matters.

A record of a game that has not ended (the host stopped while it was played; it may
be resumed) is a *spectator's* record: what a spectator saw, through the engine's
:func:`~cartagena_net.engine.view` and nothing else: the spectator's view at the start
and at the end, and for each action the seat that took it and its events as a
spectator sees them. No action text (a magic action such as ``keep CARD`` names a
hidden card), no chance outcome, no hand. When the game ends, the full record replaces
it.

Pure: no Twisted, no I/O but what the caller does with the bytes.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from cartagena_net.engine import SPECTATOR, ReplayChance, make_game, view
from cartagena_net.engine.errors import OptionError
from cartagena_net.engine.reasons import REASONS
from cartagena_net.i18n import N_, _
from cartagena_net.i18n.words import bot_words, end_word, rules_words

FORMAT = "cartagena-net record"
VERSION = 1
MAX_BYTES = 16 << 20  # a record larger than this is refused before it is parsed
MAX_MOVES = 100_000
ENDS = ("won", "stopped", "abandoned")
KINDS = ("full", "spectator")
RECORD_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
FEWER_OUTCOMES = N_("the record holds fewer chance outcomes than the game needs")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says why, for a person.

    Made of a message (English, marked for the catalogs) and its fields, and worded
    when it is shown: ``str()`` in the process's language, :meth:`text` in any (the web
    port words it in each browser's). A field may be another RecordError."""

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields

    def text(self, gettext: Any = None) -> str:
        """The message in the language of ``gettext`` (default: the process's)."""
        tr = gettext or _
        fields = {k: v.text(gettext) if isinstance(v, RecordError) else v
                  for k, v in self.fields.items()}
        return tr(self.message).format(**fields) if fields else tr(self.message)

    def __str__(self) -> str:
        return self.text()

    def __reduce__(self) -> Any:  # pickled whole (a worker's error), fields included
        return (_record_error, (self.message, self.fields))


def _record_error(message: str, fields: dict[str, Any]) -> RecordError:
    return RecordError(message, **fields)


@contextlib.contextmanager
def in_file(path: Any) -> Iterator[None]:
    """Name the file in a RecordError raised inside (a record found not to replay is
    found so after its file was read: ``damaged record: move 51 ...`` said which)."""
    try:
        yield
    except RecordError as exc:
        if str(path) in str(exc):
            raise
        raise RecordError(N_("{file}: {error}"), file=path, error=exc) from None


class _NoMoreChance:
    """The fallback of a replayed record: the record holds every outcome it needs."""

    def shuffle(self, items: list[int]) -> None:
        raise RecordError(FEWER_OUTCOMES)

    def pick(self, n: int) -> int:
        raise RecordError(FEWER_OUTCOMES)

    def fork(self) -> _NoMoreChance:
        return self


class _Counted:
    """A chance source that counts the outcomes it has given (one per shuffle)."""

    def __init__(self, outcomes: Sequence[Sequence[int]]) -> None:
        self.inner = ReplayChance(outcomes, _NoMoreChance())
        self.used = 0

    def shuffle(self, items: list[int]) -> None:
        self.inner.shuffle(items)
        self.used += 1

    def pick(self, n: int) -> int:
        return self.inner.pick(n)

    def fork(self) -> _Counted:
        twin = _Counted(())
        twin.inner, twin.used = self.inner.fork(), self.used
        return twin


# -- building -------------------------------------------------------------------------


def player(seat: int, color: str, name: str | None, bot: str | None = None,
           level: str | None = None, think: float | None = None) -> dict[str, Any]:
    """One entry of ``players``: a human, or a bot of a kind (and level, for a search)."""
    entry: dict[str, Any] = {"seat": seat, "color": color, "name": name or color}
    if bot is None:
        entry["kind"] = "human"
    else:
        entry.update(kind="bot", bot=bot)
        if bot == "ismcts":
            if think is not None:
                entry["think"] = think
            else:
                entry["level"] = level or "normal"
    return entry


def build(state: Any, *, record_id: str, players: list[dict[str, Any]], started: str,
          ended: str, end: str, table: str = "", host: str = "",
          hinted: Any = ()) -> dict[str, Any]:
    """The record of ``state``: full if the game is over, else a spectator's record.

    ``started``/``ended``: UTC times (:func:`utc_text`); ``end``: one of ``ENDS``.
    ``hinted``: the indices of the actions taken after a hint for their position: each
    such move says ``"hinted": true`` and the record lists its seats in ``hinted``.
    """
    out, moves = _record(state, record_id=record_id, players=players, started=started,
                         ended=ended, end=end, table=table, host=host, hinted=hinted)
    out["moves"] = list(moves)
    return out


def encode(state: Any, **head: Any) -> tuple[dict[str, Any], bytes]:
    """:func:`build` and :func:`dumps` at once, a move at a time (the arguments are
    :func:`build`'s, and ``kept``: what the host kept of the game's course as it was
    played, so that a finished game is not replayed, see :func:`_record`): the record
    without its moves (what the evening's scores read) and its file's bytes. A host
    writes a record as each game ends, among the other games' objects: a game's worth of
    moves as dicts would be made and freed at once there."""
    out, moves = _record(state, **head)
    text = _moves_text(moves)  # before the head: the moves fill in its "hinted"
    return out, _file(out, text)


def _record(state: Any, *, record_id: str, players: list[dict[str, Any]], started: str,
            ended: str, end: str, table: str = "", host: str = "", hinted: Any = (),
            kept: Any = None) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """The record of ``state`` without its moves, and its moves, made one at a time as
    they are iterated (after the last, the record's ``hinted`` is filled in).

    ``kept``: what a host kept of the game as it was played, ``(dealt, acted)``: the
    chance outcomes its deal drew, and for each action its seat and the chance outcomes
    drawn by then. A finished game's moves are then read from it, not replayed."""
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, not {end!r}")
    if not RECORD_ID.fullmatch(record_id):
        raise ValueError(f"a record id is 1 to 80 letters, digits, - or _: {record_id!r}")
    rec = state.record()  # spec, chance, actions: hidden information, filtered below
    final = view(state, SPECTATOR)  # what a spectator sees at the end (made once)
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "id": record_id,
        "kind": "full" if state.is_over else "spectator",
        "spec": rec["spec"],
        "table": table[:64],
        "host": host[:64],
        "players": players,
        "started": started,
        "ended": ended,
        "end": end,
        "outcome": json.loads(json.dumps(final["outcome"])),
    }
    if state.is_over and kept is not None and len(kept[1]) == len(rec["actions"]):
        dealt, acted = kept
        out["chance"] = rec["chance"][:dealt]
        return out, _hinted(_kept_moves(rec, dealt, acted), hinted, out)
    counted = _Counted(rec["chance"])
    replayed = state.game.new_state(chance=counted, events=not state.is_over)
    if state.is_over:
        out["chance"] = rec["chance"][:counted.used]
    else:  # a spectator's record: no chance, no action, only what a spectator saw
        out["start"] = view(replayed, SPECTATOR)
        out["final"] = final
    return out, _hinted(_moves(state, rec, counted, replayed), hinted, out)


def _kept_moves(rec: dict[str, Any], dealt: int,
                acted: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """A finished game's moves from what the host kept as it was played (``_record``'s
    ``kept``): each action's text and seat, and the chance outcomes it drew."""
    chance = rec["chance"]
    before = dealt
    for text, (seat, after) in zip(rec["actions"], acted, strict=True):
        move: dict[str, Any] = {"seat": seat, "action": text}
        if after > before:
            move["chance"] = chance[before:after]
        before = after
        yield seat, move


def _moves(state: Any, rec: dict[str, Any], counted: _Counted,
           replayed: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """The moves of ``state``'s record, replayed on ``replayed``, each with its seat: for
    a full record the action's text and the chance it drew, else its events as a
    spectator saw them."""
    # The game's own actions (values; rec["actions"] is their text): each was applied
    # once already, so the replay skips the checks, unless one was an undo (that needs
    # the undo notes only the checked apply keeps).
    history = state.history
    step = (replayed.apply if any(a.kind == "undo" for a in history)
            else replayed.apply_unchecked)
    for action, text in zip(history, rec["actions"], strict=True):
        seat = replayed.actor
        before, since = counted.used, replayed.event_count
        step(action)
        if state.is_over:
            move: dict[str, Any] = {"seat": seat, "action": text}
            if counted.used > before:
                move["chance"] = rec["chance"][before:counted.used]
        else:
            move = {"seat": seat, "events": view(replayed, SPECTATOR, since)["events"]}
        yield seat, move


def _hinted(moves: Iterator[tuple[int, dict[str, Any]]], hinted: Any,
            out: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The moves, each one taken after a hint (its index in ``hinted``) marked so; after
    the last, the record's ``hinted`` lists their seats."""
    seats = set()
    for k, (seat, move) in enumerate(moves):
        if k in hinted:
            move["hinted"] = True
            if seat is not None:
                seats.add(seat)
        yield move
    if hinted:
        out["hinted"] = sorted(seats)


def utc_text(seconds: float) -> str:
    """A Unix time as ISO 8601 UTC to the second: ``2026-11-24T21:30:00Z``."""
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def _compact_encoder() -> Callable[[Any], str]:
    """:func:`compact_text`, made once: the standard library's C encoder itself where it
    has one (``JSONEncoder.encode`` makes a new one for every call, much of the cost of a
    small value), else ``JSONEncoder.encode``; the same text either way."""
    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain
    encoder = make(None, json.JSONEncoder().default, json.encoder.encode_basestring, None,
                   ":", ",", False, False, True)
    return lambda data: "".join(encoder(data, 0))


#: ``compact_text(data)``: plain data (never a cycle) as compact JSON text, no ASCII
#: escaping, keys in their order: ``json.dumps(data, separators=(",", ":"),
#: ensure_ascii=False)``. A record's file, a journal's line, the web's JSON.
compact_text = _compact_encoder()


def _write(out: io.BytesIO, data: Any, depth: int) -> None:
    """``data`` as compact UTF-8 JSON into ``out``, the items of its maps and lists
    encoded one at a time down to ``depth`` levels. A record's moves, or a view's
    fields, are each encoded and written before the next: Python's JSON encoder holds a
    small string for each piece of what it encodes until it is done (a record's worth of
    them at once, thousands, among the host's games), and ``out`` holds bytes."""
    if depth and isinstance(data, dict) and data and all(type(k) is str for k in data):
        sep = b"{"
        for key, value in data.items():
            out.write(sep)
            out.write(compact_text(key).encode("utf-8"))
            out.write(b":")
            _write(out, value, depth - 1)
            sep = b","
        out.write(b"}")
    elif depth and isinstance(data, (list, tuple)) and data:
        sep = b"["
        for item in data:
            out.write(sep)
            _write(out, item, depth - 1)
            sep = b","
        out.write(b"]")
    else:
        out.write(compact_text(data).encode("utf-8"))


def compact(data: Any) -> bytes:
    """``data`` as UTF-8 JSON with no spaces, a map's or list's items encoded one at a
    time: a review, a record queued for its review, the web's list and replays (what
    can be large; a small frame is encoded at once, ``web.guard.to_json``)."""
    out = io.BytesIO()
    _write(out, data, 2)
    return out.getvalue()


def dumps(record: dict[str, Any]) -> bytes:
    """The record as UTF-8 JSON: one key a line at the top (its value compact), the
    moves last, one a line."""
    return _file(record, _moves_text(record.get("moves") or ()))


def _moves_text(moves: Iterable[dict[str, Any]]) -> bytes:
    """A record's moves as its file holds them: one a line, each encoded and written
    before the next is made."""
    out = io.BytesIO()
    sep = b"\n  "
    for move in moves:
        out.write(sep)
        _write(out, move, 0)
        sep = b",\n  "
    if sep != b"\n  ":
        out.write(b"\n ")
    return out.getvalue()


def _file(record: dict[str, Any], moves: bytes) -> bytes:
    """A record's file: its keys but ``moves`` one a line, then ``moves`` (their text)."""
    out = io.BytesIO()
    sep = b"{\n "
    for key, value in record.items():
        if key != "moves":
            out.write(sep)
            out.write(compact_text(key).encode("utf-8"))
            out.write(b": ")
            _write(out, value, 1)
            sep = b",\n "
    out.write(sep)
    out.write(b'"moves": [')
    out.write(moves)
    out.write(b"]\n}\n")
    return out.getvalue()


# -- reading --------------------------------------------------------------------------


def _need(cond: bool, why: str, **fields: Any) -> None:
    if not cond:
        raise RecordError(why, **fields)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _outcomes(value: Any, where: str) -> list[list[int]]:
    _need(isinstance(value, list) and all(
        isinstance(o, list) and all(_is_int(i) for i in o) for o in value),
        N_("{where}: chance outcomes must be lists of whole numbers"), where=where)
    return value


def loads(data: bytes) -> dict[str, Any]:
    """A record from its bytes, its fields checked; RecordError says what is wrong."""
    if len(data) > MAX_BYTES:
        raise RecordError(N_("not a record: larger than {n} MB"), n=MAX_BYTES >> 20)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(N_("not a record: not UTF-8 text")) from None
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(N_("not a record: damaged JSON ({error} at line {line}; truncated "
                             "or edited?)"), error=exc.msg, line=exc.lineno) from None
    except RecursionError:
        raise RecordError(N_("not a record: JSON nested too deeply")) from None
    return check(rec)


def check(rec: Any) -> dict[str, Any]:
    """``rec`` if it is a well-formed record of a version this program reads."""
    _need(isinstance(rec, dict) and rec.get("format") == FORMAT,
          N_("not a record: it does not say format {format}"), format=repr(FORMAT))
    version = rec.get("version")
    _need(_is_int(version) and version >= 1, N_("damaged record: its version is not a number"))
    if version > VERSION:
        raise RecordError(N_("this record is format version {version}, written by a newer "
                             "cartagena-net; this one reads up to version {known}: update "
                             "cartagena-net to read it"), version=version, known=VERSION)
    _need(isinstance(rec.get("id"), str) and bool(RECORD_ID.fullmatch(rec["id"])),
          N_("damaged record: a bad id"))
    _need(rec.get("kind") in KINDS,
          N_("damaged record: its kind is neither full nor spectator"))
    _need(rec.get("end") in ENDS, N_("damaged record: its end is not one of {ends}"),
          ends=", ".join(ENDS))
    for key in ("started", "ended", "table", "host"):
        _need(isinstance(rec.get(key), str), N_("damaged record: {key} is not text"), key=key)
    spec = rec.get("spec")
    _need(isinstance(spec, dict) and isinstance(spec.get("preset"), str),
          N_("damaged record: no rules (spec)"))
    try:
        game = make_game(**spec)
    except OptionError as exc:  # the engine's reason, worded in each reader's language
        raise RecordError(N_("damaged record: its rules cannot be set up: {error}"),
                          error=RecordError(REASONS[exc.why], **exc.fields)) from None
    except Exception as exc:  # noqa: BLE001 - whatever the engine refuses: a bad record
        raise RecordError(N_("damaged record: its rules cannot be set up: {error}"),
                          error=exc) from None
    players = rec.get("players")
    _need(isinstance(players, list) and len(players) == game.players,
          N_("damaged record: it names {named} players for a {n}-player game"),
          named=len(players) if isinstance(players, list) else 0, n=game.players)
    for n, p in enumerate(players):
        _need(isinstance(p, dict) and p.get("seat") == n and isinstance(p.get("name"), str)
              and p.get("kind") in ("human", "bot")
              and (p["kind"] == "human" or isinstance(p.get("bot"), str)),
              N_("damaged record: player {n} is malformed"), n=n)
    out = rec.get("outcome")
    _need(out is None or (isinstance(out, dict) and _is_int(out.get("winner"))
                          and isinstance(out.get("ranking"), list)),
          N_("damaged record: a malformed outcome"))
    _need((rec["kind"] == "full") == (out is not None),
          N_("damaged record: a full record is of a game that ended, a spectator's of one "
             "that did not"))
    moves = rec.get("moves")
    _need(isinstance(moves, list) and len(moves) <= MAX_MOVES,
          N_("damaged record: no moves list"))
    if rec["kind"] == "full":
        _outcomes(rec.get("chance"), RecordError(N_("damaged record")))
        for n, m in enumerate(moves, 1):
            _need(isinstance(m, dict) and _is_int(m.get("seat"))
                  and isinstance(m.get("action"), str) and len(m["action"]) <= 200,
                  N_("damaged record: move {n} is malformed"), n=n)
            if "chance" in m:
                _outcomes(m["chance"], RecordError(N_("damaged record: move {n}"), n=n))
    else:
        for key in ("start", "final"):
            _need(isinstance(rec.get(key), dict), N_("damaged record: no {key} view"), key=key)
        for n, m in enumerate(moves, 1):
            _need(isinstance(m, dict) and (m.get("seat") is None or _is_int(m.get("seat")))
                  and isinstance(m.get("events"), list)
                  and all(isinstance(e, dict) for e in m["events"]),
                  N_("damaged record: move {n} is malformed"), n=n)
    return rec


def steps(rec: dict[str, Any]) -> list[Any]:
    """Every state of a full record's game, from the deal to the end (``len(moves)+1``),
    each replayed exactly; RecordError names the first move that does not fit."""
    return list(_walk(rec, keep=True))


def walk(rec: Any) -> Any:
    """The states of a full record's game, one after each action, from the deal: one
    state object, played forward in place (copy what you keep); RecordError at the first
    move that does not fit (the final outcome is checked only if the walk ends)."""
    return _walk(rec, keep=False)


def replay(rec: dict[str, Any]) -> Any:
    """The final state of a full record's game, replayed exactly (RecordError if not)."""
    state = None
    for state in _walk(rec, keep=False):
        pass
    return state


def _walk(rec: dict[str, Any], keep: bool) -> Any:
    if rec.get("kind") != "full":
        raise RecordError(N_("a spectator's record (of a game that had not ended) holds what "
                             "a spectator saw, not the cards: it cannot be replayed exactly"))
    game = make_game(**rec["spec"])
    outcomes = list(rec["chance"])
    for m in rec["moves"]:
        outcomes.extend(m.get("chance") or ())
    counted = _Counted(outcomes)
    try:
        state = game.new_state(chance=counted)
    except (RecordError, ValueError) as exc:
        raise RecordError(N_("damaged record: the game cannot be dealt again: {error}"),
                          error=exc) from None
    _need(counted.used == len(rec["chance"]),
          N_("damaged record: the deal used {used} chance outcomes, the record holds {held}"),
          used=counted.used, held=len(rec["chance"]))
    yield state.copy(events=True) if keep else state
    for n, m in enumerate(rec["moves"], 1):
        where = RecordError(N_("damaged record: move {n} ({action} by seat {seat})"), n=n,
                            action=repr(m["action"][:60]), seat=m["seat"])
        _need(state.actor == m["seat"], N_("{where}: seat {actor} was to act"), where=where,
              actor=state.actor)
        before = counted.used
        try:
            state.apply(m["action"])
        except Exception as exc:  # noqa: BLE001 - the engine refuses: a bad record
            raise RecordError(N_("{where}: the game refuses it: {error}"), where=where,
                              error=exc) from None
        added = len(m.get("chance") or ())
        _need(counted.used - before == added,
              N_("{where}: it drew {drawn} chance outcomes, the record holds {held}"),
              where=where, drawn=counted.used - before, held=added)
        yield state.copy(events=True) if keep else state
    got = json.loads(json.dumps(view(state, SPECTATOR)["outcome"]))  # tuples as lists
    _need(got == rec["outcome"],
          N_("damaged record: the replayed game ends {got}, the record says {says}"),
          got=got, says=rec["outcome"])


# -- reading for people -----------------------------------------------------------------


def player_label(p: dict[str, Any]) -> str:
    """``ann`` or ``Blackbeard (ismcts normal)``."""
    if p.get("kind") != "bot":
        return str(p.get("name"))
    how = p.get("level") or (f"{p['think']:g}s" if p.get("think") is not None else "")
    return f"{p.get('name')} ({p.get('bot')}{' ' + how if how else ''})"


def player_words(p: dict[str, Any]) -> str:
    """:func:`player_label` for a person to read, in the reader's language: ``ann``,
    ``Blackbeard (thinking bot, normal)``."""
    if p.get("kind") != "bot":
        return str(p.get("name"))
    return f"{p.get('name')} ({bot_words(p.get('bot'), p.get('level'), p.get('think'))})"


def rules_options(rec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The record's preset and the options that differ from the preset's (``players``
    first, always)."""
    spec = dict(rec["spec"])
    preset = spec.pop("preset")
    players = len(rec["players"])
    try:
        base = make_game(preset, players=players).spec()
    except Exception:  # noqa: BLE001 - a label only: show every option
        base = {}
    return preset, {"players": players,
                    **{k: v for k, v in spec.items() if base.get(k) != v and k != "players"}}


def rules_label(rec: dict[str, Any]) -> str:
    """``jamaica`` with its options that differ from the preset's: ``jamaica 3p
    segments=1`` (the notation: the score's header)."""
    preset, options = rules_options(rec)

    def shown(value: Any) -> str:
        return ",".join(map(str, value)) if isinstance(value, list) else str(value)

    players = options.pop("players")
    extra = [f"{k}={shown(v)}" for k, v in options.items()]
    return " ".join([preset, f"{players}p", *extra])


def rules_text(rec: dict[str, Any]) -> str:
    """:func:`rules_label` in words, in the reader's language: ``jamaica, 3 players,
    1 segment``."""
    return rules_words(*rules_options(rec))


def winner_words(rec: dict[str, Any]) -> str:
    """The winner as :func:`player_words` says a player ("" for a game with none)."""
    out = rec.get("outcome")
    return "" if out is None else player_words(rec["players"][out["winner"]])


def winner_label(rec: dict[str, Any]) -> str:
    out = rec.get("outcome")
    if out is None:
        return f"({rec['end']}, unfinished)"
    return player_label(rec["players"][out["winner"]])


def _head_words(rec: dict[str, Any]) -> list[str]:
    """The score's header in the reader's language (``replay --score``)."""
    from cartagena_net.i18n.when import when
    from cartagena_net.i18n.words import color_word

    players = rec["players"]
    head = [_("# cartagena-net game {id}").format(id=rec["id"]),
            _("# rules: {rules}").format(rules=rules_text(rec)),
            _("# table: {table} on {host}").format(table=rec["table"], host=rec["host"]),
            _("# started {started}, ended {ended} ({end})").format(
                started=when(rec["started"]), ended=when(rec["ended"]),
                end=end_word(rec["end"]))]
    head += [_("# seat {seat} {color}: {player}").format(
        seat=p["seat"], color=color_word(p["color"]), player=player_words(p)) for p in players]
    out = rec.get("outcome")
    if out is not None:
        head.append(_("# result: {ranking}").format(ranking=", ".join(
            f"{place}. {player_words(players[s])}" for place, s in
            enumerate(_ranking(out["ranking"]), 1))))
    else:
        head.append(_("# result: none (the game had not ended; a spectator's record)"))
    return head


def score(rec: dict[str, Any], words: bool = False,
          say: Any = None) -> str:
    """The game as text a person reads: a header, then one line a turn.

    Full records list the actions in the engine's notation (``advance 0 skull``), a
    decision another seat owed during the turn in brackets, each turn followed by a
    ``#`` line of what happened in sentences (as a spectator saw it); a spectator's
    record lists the events as a spectator saw them. The header and the sentences are
    English (a file's, ``export``), or with ``words`` in the reader's language
    (``replay --score``, on a screen: ``say(view, events)`` gives the events' lines in
    it, as the client renders them).
    """
    players = rec["players"]
    head = [f"# cartagena-net game {rec['id']}",
            f"# rules: {rules_label(rec)}",
            f"# table: {rec['table']} on {rec['host']}",
            f"# started {rec['started']}, ended {rec['ended']} ({rec['end']})"]
    head += [f"# seat {p['seat']} {p['color']}: {player_label(p)}" for p in players]
    out = rec.get("outcome")
    if out is not None:
        head.append("# result: " + ", ".join(
            f"{place}. {player_label(players[s])}" for place, s in
            enumerate(_ranking(out["ranking"]), 1)))
    else:
        head.append("# result: none (the game had not ended; a spectator's record)")
    if words:
        head = _head_words(rec)
    lines: list[str] = []
    if rec["kind"] == "full":
        lines = _full_lines(rec, say if words else None)
    else:
        lines = _spectator_lines(rec)
    return "\n".join(head + lines) + "\n"


def _ranking(ranking: list[Any]) -> list[int]:
    flat: list[int] = []
    for r in ranking:
        flat.extend(r if isinstance(r, (list, tuple)) else [r])
    return flat


def _full_lines(rec: dict[str, Any], say: Any = None) -> list[str]:
    """A full record's turns: each its actions in notation, then ``#`` and the turn's
    events as sentences (``say(view, events)``: in the reader's words; else English)."""
    players = rec["players"]
    lines: list[str] = []
    turn_seat: int | None = None
    parts: list[str] = []
    told: list[str] = []
    number = 0
    states = steps(rec)

    def done() -> None:
        lines.append(f"{number}. {players[turn_seat]['color']}: {'; '.join(parts)}")
        if told:
            lines.append("#   " + "; ".join(told))

    for k, (state, m) in enumerate(zip(states, rec["moves"], strict=False)):
        if state.turn != turn_seat or not parts:
            if parts:
                done()
            number += 1
            turn_seat, parts, told = state.turn, [], []
        parts.append(m["action"] if m["seat"] == turn_seat
                     else f"[{players[m['seat']]['color']}: {m['action']}]")
        after = view(states[k + 1], SPECTATOR, since=state.event_count)
        events = [e for e in after["events"] if e.get("type") != "turn"]
        said = (say(after, events) if say is not None
                else [str(e.get("text", "")) for e in events])
        told += [line for line in said if line]
    if parts:
        done()
    return lines


def _spectator_lines(rec: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    parts: list[str] = []
    for m in rec["moves"]:
        for e in m["events"]:
            if e.get("type") == "turn" and parts:
                lines.append("; ".join(parts))
                parts = []
            if e.get("type") != "turn":
                parts.append(str(e.get("text", e.get("type"))))
    if parts:
        lines.append("; ".join(parts))
    return [f"{n}. {line}" for n, line in enumerate(lines, 1)]


def scoreboard(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games, wins and places per player: a person by name, a bot by its kind and level
    (``ismcts normal``), over the records of games that ended; most wins first.

    Each row: ``player``, ``bot`` (is it one), ``games``, ``wins``, ``places`` (how many
    times 1st, 2nd, ... as a list), ``unfinished`` (games stopped before their end) and
    ``rating``: the player's skill from every finished game's whole ranking, oldest game
    first, by the Plackett-Luce model of ``openskill`` (``mu - 3 sigma``: it starts at 0
    and rises as a player beats others, the more for beating strong ones), rounded to 0.1.
    """
    from openskill.models import PlackettLuce

    rows: dict[tuple[bool, str], dict[str, Any]] = {}
    model = PlackettLuce()
    skill: dict[int, Any] = {}  # id(row) -> its rating
    for rec in sorted(records, key=lambda r: str(r.get("started", ""))):
        ranked = tally(rows, rec)
        if len(ranked) >= 2:
            teams = [[skill.setdefault(id(r), model.rating())] for r in ranked]
            for r, (new,) in zip(ranked, model.rate(teams), strict=True):
                skill[id(r)] = new
    for r in rows.values():
        rating = skill.get(id(r))
        r["rating"] = round(rating.ordinal(), 1) if rating is not None else 0.0
    return ranked_rows(rows)


def score_key(player: dict[str, Any]) -> tuple[bool, str]:
    """Whose row on a scoreboard a record's player counts in: (is it a bot, its name):
    a person by name, a bot by its kind and level (or thinking time)."""
    if player.get("kind") == "bot":
        how = player.get("level") or (f"{player['think']:g}s" if player.get("think") is not None
                                      else "")
        return True, f"{player.get('bot')} {how}".strip()
    return False, str(player.get("name"))


def tally(rows: dict[tuple[bool, str], dict[str, Any]], record: dict[str, Any],
          sign: int = 1) -> list[dict[str, Any]]:
    """Count one game's ``record`` into the scoreboard ``rows`` (``sign=-1``: take it out
    again, and drop the rows left with nothing). Returns the rows of its ranking, first
    place first, each once: what a rating compares.

    A row is one player in a game however many seats it holds: two bots of one kind and
    level at a table are one row, counted once in ``games`` (or ``unfinished``), with a
    win if either seat won and its best seat's place. So a finished game adds exactly one
    win and one first place to the whole scoreboard."""

    def row(p: dict[str, Any]) -> dict[str, Any]:
        bot, key = score_key(p)
        return rows.setdefault((bot, key), {"player": key, "bot": bot, "games": 0, "wins": 0,
                                            "places": [], "unfinished": 0})

    players = record["players"]
    out = record.get("outcome")
    touched: list[dict[str, Any]] = []
    if out is None:
        for p in players:
            r = row(p)
            if all(x is not r for x in touched):
                r["unfinished"] += sign
                touched.append(r)
    else:
        for seat in _ranking(out["ranking"]):
            if not (isinstance(seat, int) and 0 <= seat < len(players)):
                continue
            r = row(players[seat])
            if any(x is r for x in touched):
                continue  # a second seat of the same player: counted at its best place
            place = len(touched)
            r["games"] += sign
            r["wins"] += sign * (seat == out["winner"])
            r["places"] += [0] * (place + 1 - len(r["places"]))
            r["places"][place] += sign
            hinted = record.get("hinted") or ()
            if any(s in hinted for s, p in enumerate(players) if row(p) is r):
                r["hinted"] = r.get("hinted", 0) + sign  # games it played with hints
            touched.append(r)
    if sign < 0:
        for r in touched:
            while r["places"] and not r["places"][-1]:
                r["places"].pop()
            if not (r["games"] or r["unfinished"]):
                rows.pop((r["bot"], r["player"]), None)
    return touched if out is not None else []


def add_rows(total: dict[tuple[bool, str], dict[str, Any]],
             rows: dict[tuple[bool, str], dict[str, Any]]) -> None:
    """Add the scoreboard ``rows`` of some games (:func:`tally`'s) into ``total``, as if
    those games were tallied into it (the evening's scoreboard adds up its five-minute
    blocks so)."""
    for key, r in rows.items():
        t = total.get(key)
        if t is None:
            total[key] = {**r, "places": list(r["places"])}
            continue
        for field in ("games", "wins", "unfinished"):
            t[field] += r[field]
        if "hinted" in r:
            t["hinted"] = t.get("hinted", 0) + r["hinted"]
        places = t["places"]
        places += [0] * (len(r["places"]) - len(places))
        for i, n in enumerate(r["places"]):
            places[i] += n


def ranked_rows(rows: dict[tuple[bool, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """A scoreboard's rows in order: most wins first, then most games, people before
    bots, then by name."""
    return sorted(rows.values(), key=lambda r: (-r["wins"], -r["games"], r["bot"], r["player"]))
