"""Reading gettext catalogs (``.po``) and turning them into ``.mo`` bytes in memory.

Only the parts of the format the project's catalogs use: comments and flags, ``msgctxt``,
``msgid``, ``msgid_plural``, ``msgstr`` and ``msgstr[N]``, strings continued over lines.
An entry marked ``fuzzy`` (a translator's guess) or left empty is not a translation: the
message reads in English.
"""
from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field


class PoError(ValueError):
    """A catalog that cannot be read; says the file and the line."""


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    context: str | None = None
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr) and "fuzzy" not in self.flags


def _string(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {text[:40]!r}")
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as exc:
        raise PoError(f"{where}: bad string {text[:40]!r}") from exc
    if not isinstance(value, str):
        raise PoError(f"{where}: bad string {text[:40]!r}")
    return value


def read_po(text: str, name: str = "<catalog>") -> list[Entry]:
    """The entries of a catalog, the header (``msgid ""``) first if it has one."""
    entries: list[Entry] = []
    flags: set[str] = set()
    cur: dict[str, object] = {}
    field_name: str | None = None
    start = 0

    def finish() -> None:
        nonlocal cur, flags, field_name
        if "msgid" in cur:
            plural = cur.get("msgid_plural")
            strs = cur.get("msgstr", {})
            assert isinstance(strs, dict)
            forms = [strs[k] for k in sorted(strs)]
            entries.append(Entry(str(cur["msgid"]), plural if plural is None else str(plural),
                                 forms, cur.get("msgctxt"), flags, start))  # type: ignore[arg-type]
        elif cur:
            raise PoError(f"{name}:{start}: an entry without msgid")
        cur, flags, field_name = {}, set(), None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            finish()
            continue
        if line.startswith("#,"):
            if "msgid" in cur:
                finish()
            flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            continue
        if line.startswith("#"):
            if "msgid" in cur and field_name is not None:
                finish()
            continue
        if line.startswith('"'):
            if field_name is None:
                raise PoError(f"{where}: a string continues nothing")
            value = _string(line, where)
            if field_name.startswith("msgstr["):
                strs = cur["msgstr"]
                assert isinstance(strs, dict)
                index = int(field_name[7:-1])
                strs[index] += value
            elif field_name == "msgstr":
                strs = cur["msgstr"]
                assert isinstance(strs, dict)
                strs[0] += value
            else:
                cur[field_name] = str(cur[field_name]) + value
            continue
        keyword, _sep, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in cur):
            finish()
        if not cur:
            start = number
        if keyword in ("msgctxt", "msgid", "msgid_plural"):
            if keyword in cur:
                raise PoError(f"{where}: {keyword} twice in one entry")
            cur[keyword] = _string(rest, where)
            field_name = keyword
        elif keyword == "msgstr" or (keyword.startswith("msgstr[") and keyword.endswith("]")):
            index = 0 if keyword == "msgstr" else keyword[7:-1]
            if not (isinstance(index, int) or (index.isascii() and index.isdigit())):
                raise PoError(f"{where}: bad {keyword}")
            strs = cur.setdefault("msgstr", {})
            assert isinstance(strs, dict)
            if int(index) in strs:
                raise PoError(f"{where}: {keyword} twice in one entry")
            strs[int(index)] = _string(rest, where)
            field_name = keyword
        else:
            raise PoError(f"{where}: unknown keyword {keyword[:20]!r}")
    finish()
    seen: set[tuple[str | None, str]] = set()
    for e in entries:
        if e.key in seen:
            raise PoError(f"{name}:{e.line}: {e.msgid[:40]!r} twice")
        seen.add(e.key)
    return entries


def compile_mo(entries: list[Entry]) -> bytes:
    """The ``.mo`` file of the catalog's translated entries (and its header), as
    :class:`gettext.GNUTranslations` reads it."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.msgid == "" and e.context is None:
            pairs[b""] = "".join(e.msgstr).encode("utf-8")  # the header
            continue
        if not e.translated:
            continue
        key = e.msgid if e.context is None else f"{e.context}\x04{e.msgid}"
        if e.msgid_plural is not None:
            key += "\0" + e.msgid_plural
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets: list[int] = []
    pos = 0
    for k in keys:
        offsets += [len(k), start + pos]
        pos += len(k) + 1
    pos = 0
    for k in keys:
        offsets += [len(pairs[k]), start + len(ids) + pos]
        pos += len(pairs[k]) + 1
    header = struct.pack("<Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys),
                         0, 0)
    return header + struct.pack(f"<{len(offsets)}i", *offsets) + ids + strs
