"""Field kinds and the validated frozen-record base used by messages and discovery.

Each record declares ``FIELDS``: wire name -> Kind, in wire order. A Kind
cleans one value (checks type and range, strips control characters and caps
strings, turns sequences into tuples) or raises FieldError. Construction
cleans too, so a record always holds normalized values and round trips
through ``to_wire``/``from_wire`` exactly.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import LocalProtocolError, RemoteProtocolError

if TYPE_CHECKING:
    from typing import Self

U8 = 2**8 - 1
U16 = 2**16 - 1
U32 = 2**32 - 1
I32_MIN, I32_MAX = -(2**31), 2**31 - 1
#: Cap on strings nested inside free-form data (``state.view``, ``events``).
DATA_STR_CAP = 1000
#: Deepest nesting allowed inside free-form data.
DATA_DEPTH = 32

# C0 and C1 controls and DEL (Unicode category Cc), lone surrogates, and the
# bidirectional embedding/override/isolate controls (terminal spoofing).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean_text(text: str, cap: int) -> str:
    """Remove control characters, then keep at most ``cap`` characters."""
    if text.isascii() and text.isprintable():  # (most text: nothing to remove)
        return text[:cap]
    return _CONTROL.sub("", text)[:cap]


class FieldError(Exception):
    """A value did not pass its Kind; ``args[0]`` says where and why."""


#: Longest password (host or table), in characters.
MAX_SECRET = 128


def clean_secret(text: str, cap: int = MAX_SECRET) -> str | None:
    """A password as both ends compare it: NFC-normalized, checked, never altered otherwise.

    "" means no password (None). Raises ValueError, saying why, for text that is not a
    str, holds a control character (those :func:`clean_text` removes) or is longer
    than ``cap`` characters: such a password could never be typed the same way twice,
    so it is refused rather than cleaned or cut. A host checks its own password with
    this at start-up, and a received ``password`` field goes through it too.
    """
    if not isinstance(text, str):
        raise ValueError(f"a password is a string, not {type(text).__name__}")  # noqa: TRY004
    text = unicodedata.normalize("NFC", text)
    if not text:
        return None
    if _CONTROL.search(text):
        raise ValueError("a password may not hold control characters (tab, newline, ...)")
    if len(text) > cap:
        raise ValueError(f"a password has at most {cap} characters, not {len(text)}")
    return text


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Kind:
    """How one field is checked, normalized and put on the wire."""

    def clean(self, value: Any, where: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def wire(self, value: Any) -> Any:
        return value


class Int(Kind):
    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def clean(self, value: Any, where: str) -> int:
        if type(value) is not int and not _is_int(value):  # (a bool is no int here)
            raise FieldError(f"{where}: expected int, got {type(value).__name__}")
        if not self.lo <= value <= self.hi:
            raise FieldError(f"{where}: {value} not in {self.lo}..{self.hi}")
        return value


class Float(Kind):
    """A finite number in ``lo..hi`` (an int is taken too); always a float after."""

    def __init__(self, lo: float, hi: float) -> None:
        self.lo, self.hi = lo, hi

    def clean(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FieldError(f"{where}: expected a number, got {type(value).__name__}")
        if not self.lo <= value <= self.hi:  # NaN fails this too
            raise FieldError(f"{where}: {value} not in {self.lo}..{self.hi}")
        return float(value)


class Bool(Kind):
    def clean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise FieldError(f"{where}: expected bool, got {type(value).__name__}")
        return value


class Str(Kind):
    def __init__(self, cap: int) -> None:
        self.cap = cap

    def clean(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise FieldError(f"{where}: expected str, got {type(value).__name__}")
        return clean_text(value, self.cap)


class Secret(Kind):
    """A password: refused (never cleaned or cut) when unusable; "" is nil."""

    def __init__(self, cap: int = MAX_SECRET) -> None:
        self.cap = cap

    def clean(self, value: Any, where: str) -> str | None:
        try:
            return clean_secret(value, self.cap)
        except ValueError as exc:
            raise FieldError(f"{where}: {exc}") from None


class Enum(Kind):
    def __init__(self, *values: str) -> None:
        self.values = values

    def clean(self, value: Any, where: str) -> str:
        if value not in self.values or not isinstance(value, str):
            shown = value if isinstance(value, (str, int, type(None))) else type(value)
            raise FieldError(f"{where}: {shown!r} is not one of {list(self.values)}")
        return value


class Bin(Kind):
    def __init__(self, size: int) -> None:
        self.size = size

    def clean(self, value: Any, where: str) -> bytes:
        if not isinstance(value, (bytes, bytearray)) or len(value) != self.size:
            raise FieldError(f"{where}: expected {self.size} bytes")
        return bytes(value)


class Opt(Kind):
    """The inner kind, or nil (None)."""

    def __init__(self, inner: Kind) -> None:
        self.inner = inner

    def clean(self, value: Any, where: str) -> Any:
        return None if value is None else self.inner.clean(value, where)

    def wire(self, value: Any) -> Any:
        return None if value is None else self.inner.wire(value)


class Seq(Kind):
    """An array of at most ``max`` items of one kind; held as a tuple."""

    def __init__(self, inner: Kind, max: int, min: int = 0) -> None:
        self.inner, self.max, self.min = inner, max, min

    def clean(self, value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, (list, tuple)):
            raise FieldError(f"{where}: expected array, got {type(value).__name__}")
        if not self.min <= len(value) <= self.max:
            raise FieldError(
                f"{where}: {len(value)} items, allowed {self.min}..{self.max}"
            )
        clean = self.inner.clean
        try:
            return tuple(clean(v, where) for v in value)
        except FieldError:
            pass  # find the culprit again, now naming its index
        for i, v in enumerate(value):
            clean(v, f"{where}[{i}]")
        raise AssertionError("unreachable")  # pragma: no cover

    def wire(self, value: tuple[Any, ...]) -> list[Any]:
        return [self.inner.wire(v) for v in value]


class ScalarMap(Kind):
    """A map of at most ``MAX`` str<=32 keys to plain values: ints in ``INTS`` (with
    ``INT_WORDS`` naming the range in errors), str<=``TEXT``, bool, and nil if ``NIL``;
    anything else is refused."""

    MAX = 32
    INTS = (I32_MIN, I32_MAX)
    INT_WORDS = "32-bit"
    TEXT = 64
    NIL = True

    def clean(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise FieldError(f"{where}: expected map, got {type(value).__name__}")
        if len(value) > self.MAX:
            raise FieldError(f"{where}: more than {self.MAX} entries")
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise FieldError(f"{where}: key {key!r} is not a str")
            key = clean_text(key, 32)
            if isinstance(item, bool) or (item is None and self.NIL):
                out[key] = item
            elif _is_int(item):
                if not self.INTS[0] <= item <= self.INTS[1]:
                    raise FieldError(f"{where}.{key}: {item} outside {self.INT_WORDS} range")
                out[key] = item
            elif isinstance(item, str):
                out[key] = clean_text(item, self.TEXT)
            else:
                raise FieldError(f"{where}.{key}: expected int, str, bool"
                                 + (" or nil" if self.NIL else ""))
        return out

    def wire(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(value)


class Options(ScalarMap):
    """At most 32 game options: str<=32 -> int (i32) | str<=64 | bool | nil."""


class Args(ScalarMap):
    """A reason's fields (``error.args``, ``bye.args``): at most 8 entries, each a
    str<=32 key -> str<=200 | int (64-bit) | bool; anything else is refused."""

    MAX = 8
    INTS = (-(2**63), 2**63 - 1)
    INT_WORDS = "64-bit"
    TEXT = 200
    NIL = False


class _DataError(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        self.path = ""


def _clean_node(value: Any, depth: int) -> Any:
    kind = type(value)
    if value is None or kind is bool or kind is float:
        return value
    if kind is str:
        return clean_text(value, DATA_STR_CAP)
    if _is_int(value):
        if not -(2**63) <= value <= 2**64 - 1:
            raise _DataError("integer outside msgpack's range")
        return value
    if isinstance(value, (bool, float)):
        return value
    if isinstance(value, str):
        return clean_text(value, DATA_STR_CAP)
    if depth >= DATA_DEPTH:
        raise _DataError(f"nested deeper than {DATA_DEPTH}")
    if isinstance(value, (list, tuple)):
        out_list = []
        for i, item in enumerate(value):
            try:
                out_list.append(_clean_node(item, depth + 1))
            except _DataError as exc:
                exc.path = f"[{i}]{exc.path}"
                raise
        return out_list
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _DataError(f"map key {key!r} is not a str")
            key = clean_text(key, 64)
            try:
                out[key] = _clean_node(item, depth + 1)
            except _DataError as exc:
                exc.path = f".{key}{exc.path}"
                raise
        return out
    raise _DataError(f"{type(value).__name__} is not allowed here")


def clean_data(value: Any, where: str) -> Any:
    """Check free-form plain data; strings cleaned, tuples become lists."""
    try:
        return _clean_node(value, 0)
    except _DataError as exc:
        raise FieldError(f"{where}{exc.path}: {exc.why}") from None


class Data(Kind):
    """A free-form map with str keys (nil, bool, int, float, str, array, map)."""

    def clean(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise FieldError(f"{where}: expected map, got {type(value).__name__}")
        return clean_data(value, where)


class Nested(Kind):
    """A nested map checked against a record's fields, held as a plain dict.

    A record instance or any mapping is accepted; the result has exactly the
    record's keys (in wire order), normalized, unknown keys dropped.
    """

    def __init__(self, record: type[Record]) -> None:
        self.record = record

    def clean(self, value: Any, where: str) -> dict[str, Any]:
        if isinstance(value, self.record):
            return value.to_wire()
        if isinstance(value, Mapping):
            return self.record._build(value, where).to_wire()
        raise FieldError(f"{where}: expected map, got {type(value).__name__}")

    def wire(self, value: dict[str, Any]) -> dict[str, Any]:
        return dict(value)


class Record:
    """Base of the frozen dataclasses: validation and wire conversion.

    A field that is absent or nil on the wire takes its dataclass default;
    without a default it is required.
    """

    FIELDS: ClassVar[dict[str, Kind]] = {}
    _LABEL: ClassVar[str] = ""

    @classmethod
    def _label(cls) -> str:
        return getattr(cls, "TYPE", None) or cls._LABEL or cls.__name__

    @classmethod
    def _plan(cls) -> tuple[tuple[str, Any, Any, bool, str], ...]:
        """Each field's name, its kind's ``clean``, its default's maker (None: none),
        whether nil may stay nil and its path in a message (``Action.seq``), in wire
        order: made once for each record class (a host builds a record for every
        message it receives)."""
        cached = cls.__dict__.get("_plan_cache")
        if cached is None:
            makers: dict[str, Any] = {}
            for f in dataclasses.fields(cls):  # type: ignore[arg-type]
                if f.default is not dataclasses.MISSING:
                    makers[f.name] = lambda v=f.default: v
                elif f.default_factory is not dataclasses.MISSING:
                    makers[f.name] = f.default_factory
            label = cls._label()
            cached = tuple((name, kind.clean, makers.get(name), isinstance(kind, Opt),
                            f"{label}.{name}") for name, kind in cls.FIELDS.items())
            cls._plan_cache = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def _build(cls, source: Mapping[str, Any], where: str = "") -> Self:
        """Clean values from a mapping (None/absent -> default) into a record."""
        get = source.get
        values = {}
        for name, clean, default, optional, path in cls._plan():
            if where:  # a record inside another: its path from there
                path = f"{where}.{name}"
            value = get(name)
            if value is None:
                if default is not None:
                    value = default()
                elif not optional:
                    raise FieldError(f"{path}: required")
            values[name] = clean(value, path)
        obj = object.__new__(cls)
        obj.__dict__.update(values)  # (a frozen dataclass: its fields set as they are)
        return obj

    def __post_init__(self) -> None:
        label = self._label()
        for name, kind in self.FIELDS.items():
            try:
                value = kind.clean(getattr(self, name), f"{label}.{name}")
            except FieldError as exc:
                raise LocalProtocolError(
                    "bad-field", str(exc), fatal=False, ref=getattr(self, "TYPE", None)
                ) from None
            object.__setattr__(self, name, value)

    @classmethod
    def from_wire(cls, d: Mapping[str, Any]) -> Self:
        """Validate a decoded map; RemoteProtocolError ``bad-field`` if invalid."""
        ref = getattr(cls, "TYPE", None)
        if type(d) is not dict and not isinstance(d, Mapping):  # (a frame's map: a dict)
            raise RemoteProtocolError(
                "bad-field", f"{cls._label()}: expected a map", fatal=False, ref=ref
            )
        try:
            return cls._build(d)
        except FieldError as exc:
            raise RemoteProtocolError(
                "bad-field", str(exc), fatal=False, ref=ref
            ) from None

    def to_wire(self) -> dict[str, Any]:
        """Plain data for msgpack: dicts, lists, scalars."""
        return {name: kind.wire(getattr(self, name)) for name, kind in self.FIELDS.items()}


__all__ = [
    "MAX_SECRET", "Args", "Bin", "Bool", "Data", "Enum", "FieldError", "Float", "Int", "Kind", "Nested",
    "Opt", "Options", "Record", "Secret", "Seq", "Str", "clean_data", "clean_secret",
    "clean_text",
]
