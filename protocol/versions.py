"""Protocol versions and version negotiation."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import RemoteProtocolError

#: Protocol versions this implementation speaks, oldest first.
PROTOCOL_VERSIONS: tuple[int, ...] = (1,)


def choose_version(
    offered: Iterable[int], supported: Iterable[int] = PROTOCOL_VERSIONS
) -> int:
    """Pick the highest version in both ``offered`` and ``supported``.

    Raises RemoteProtocolError ``no-common-version`` (fatal) if there is none.
    """
    offered = {v for v in offered if isinstance(v, int) and not isinstance(v, bool)}
    supported = set(supported)
    common = offered & supported
    if not common:
        raise RemoteProtocolError(
            "no-common-version",
            f"no common protocol version: offered {sorted(offered)}, "
            f"host speaks {sorted(supported)}",
            fatal=True,
            ref="hello",
        )
    return max(common)
