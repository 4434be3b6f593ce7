"""Hypothesis strategies derived from the protocol's field declarations."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from protocol import fields as f
from protocol import messages

# Free-form data as msgpack carries it (str keys, no bytes).
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
plain_data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
    ),
    max_leaves=12,
)
plain_map = st.dictionaries(st.text(max_size=8), plain_data, max_size=5)


def for_kind(kind: f.Kind) -> st.SearchStrategy[Any]:
    """A strategy producing values a Kind accepts (before normalization)."""
    if isinstance(kind, f.Int):
        return st.integers(min_value=kind.lo, max_value=kind.hi)
    if isinstance(kind, f.Bool):
        return st.booleans()
    if isinstance(kind, f.Float):
        return st.floats(min_value=kind.lo, max_value=kind.hi) | st.integers(
            min_value=int(kind.lo), max_value=int(kind.hi))
    if isinstance(kind, f.Enum):
        return st.sampled_from(kind.values)
    if isinstance(kind, f.Str):
        return st.text(max_size=kind.cap + 5)
    if isinstance(kind, f.Secret):
        return st.text(st.characters(blacklist_categories=("Cc", "Cs")),
                       max_size=kind.cap).filter(_usable_secret)
    if isinstance(kind, f.Bin):
        return st.binary(min_size=kind.size, max_size=kind.size)
    if isinstance(kind, f.Opt):
        return st.none() | for_kind(kind.inner)
    if isinstance(kind, f.Seq):
        return st.lists(for_kind(kind.inner), min_size=kind.min,
                        max_size=min(kind.max, kind.min + 4))
    if isinstance(kind, f.Options):
        value = st.one_of(st.none(), st.booleans(), st.text(max_size=70),
                          st.integers(min_value=f.I32_MIN, max_value=f.I32_MAX))
        return st.dictionaries(st.text(max_size=40), value, max_size=6)
    if isinstance(kind, f.Args):
        value = st.one_of(st.booleans(), st.text(max_size=210),
                          st.integers(min_value=-(2**63), max_value=2**63 - 1))
        return st.dictionaries(st.text(max_size=40), value, max_size=f.Args.MAX)
    if isinstance(kind, f.Data):
        return plain_map
    if isinstance(kind, f.Nested):
        return record_fields(kind.record)
    raise AssertionError(f"no strategy for {kind!r}")


def _usable_secret(text: str) -> bool:
    try:
        f.clean_secret(text)
    except ValueError:
        return False
    return True


def record_fields(record: type[f.Record]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({name: for_kind(k) for name, k in record.FIELDS.items()})


def message_of(cls: type[messages.Message]) -> st.SearchStrategy[messages.Message]:
    return record_fields(cls).map(lambda kw: cls(**kw))


any_message = st.sampled_from(sorted(messages.MESSAGE_TYPES.values(), key=lambda c: c.TYPE)
                              ).flatmap(message_of)
