"""Per-connection rate limiting and connection caps."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from cartagena_net.engine.reasons import english
from cartagena_net.portable.sockets import (
    OWN_FILES,
    connection_limits,
    raise_file_limit,
)


def connection_cap(wanted: int) -> int:
    """How many connections a host asked for ``wanted`` holds here: ``wanted``, or fewer
    where the platform's event loop cannot hold so many (Windows' ``select()``: 480), or
    where the process may not open so many files even once its limit is raised (macOS
    starts programs with 256). Connections past it are refused as past any cap
    (``server-full``)."""
    _, cap = connection_limits()
    limit = max(1, min(wanted, cap))
    files = raise_file_limit(limit + OWN_FILES)
    if files is not None:
        limit = max(1, min(limit, files - OWN_FILES))
    return limit


class TokenBucket:
    """Allow ``rate`` events per second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens; False (and nothing spent) when too few are left."""
        now = self._clock()
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        if self._tokens < cost:
            return False
        self._tokens -= cost
        return True


class ConnectionCaps:
    """Count open connections, in total and per remote address."""

    def __init__(self, max_total: int, max_per_address: int) -> None:
        self.max_total = max_total
        self.max_per_address = max_per_address
        self._by_address: Counter[str] = Counter()
        self.total = 0

    def refusal(self, address: str) -> tuple[str, dict[str, Any]] | None:
        """Why a connection from ``address`` would be refused now, as a reason (its key
        and fields: cartagena_net/engine/reasons.py), or None."""
        if self.total >= self.max_total:
            return "host-full", {"n": self.max_total}
        if self._by_address[address] >= self.max_per_address:
            return "address-full", {"address": address, "n": self.max_per_address}
        return None

    def admit(self, address: str) -> str | None:
        """Register a connection; return None, or why it is refused (in English)."""
        refused = self.refusal(address)
        if refused is not None:
            return english(*refused)
        self._by_address[address] += 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        """Forget a connection that :meth:`admit` accepted."""
        if self._by_address[address] > 0:
            self._by_address[address] -= 1
            self.total -= 1
            if not self._by_address[address]:
                del self._by_address[address]
