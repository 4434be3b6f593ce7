"""Host and table passwords: salted scrypt hashes, constant-time checks, throttled guessing.

A password is cleaned and checked by :func:`protocol.clean_secret` wherever it comes
from (the command line, a file, the environment, a ``hello``, ``create_table`` or
``join_table``), so what is set is exactly what can be offered. Only the hash is kept
(``scrypt$N$r$p$salt$hash``, base64), and journaled for table passwords.

Hashing costs about 40 ms, so the host runs it in a small thread pool
(:class:`PasswordChecker`); checks from an address that keeps failing are answered
later and later (:class:`GuessThrottle`), without blocking anything.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger, LogLevel

from protocol import clean_secret

log = Logger(namespace="cartagena.host.passwords")

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SALT_BYTES = 16
HASH_BYTES = 32
PREFIX = "scrypt"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int, size: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p,
                          maxmem=2 * 128 * r * n + (1 << 20), dklen=size)


def hash_password(password: str) -> str:
    """A salted scrypt hash of a password cleaned by :func:`clean_secret`."""
    cleaned = clean_secret(password)
    if cleaned is None:
        raise ValueError("an empty password cannot be set")
    salt = os.urandom(SALT_BYTES)
    digest = _scrypt(cleaned, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, HASH_BYTES)
    return f"{PREFIX}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def is_hash(stored: Any) -> bool:
    """Whether ``stored`` looks like a hash made by :func:`hash_password`."""
    return isinstance(stored, str) and stored.startswith(PREFIX + "$") and stored.count("$") == 5


def verify_password(offered: str | None, stored: str) -> bool:
    """Whether ``offered`` matches the hash ``stored`` (compared in constant time)."""
    if offered is None:
        return False
    try:
        cleaned = clean_secret(offered)
        _, n, r, p, salt, digest = stored.split("$")
        expected = base64.b64decode(digest, validate=True)
        got = _scrypt(cleaned or "", base64.b64decode(salt, validate=True),
                      int(n), int(r), int(p), len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def journaled_hash(meta: dict[str, Any]) -> str | None:
    """The password hash of a journaled table record (older journals held the password)."""
    stored = meta.get("password_hash")
    if is_hash(stored):
        return stored
    legacy = meta.get("password")
    return hash_password(legacy) if isinstance(legacy, str) and legacy else None


class GuessThrottle:
    """Wrong passwords from one address make its next checks wait longer and longer.

    The first ``free`` failures cost nothing. After that each check from the address
    waits ``base * 2**(failures - free)`` seconds (at most ``cap``), and checks from
    one address are spaced out in that way even when they arrive in parallel. A
    success clears the address; an address quiet for ``forget`` seconds is forgotten.
    """

    def __init__(self, clock: Callable[[], float], free: int = 3, base: float = 0.5,
                 cap: float = 30.0, forget: float = 600.0, max_addresses: int = 4096) -> None:
        self.clock = clock
        self.free, self.base, self.cap, self.forget = free, base, cap, forget
        self.max_addresses = max_addresses
        # address -> [failures, time the next check may run, last failure time]
        self._seen: OrderedDict[str, list[float]] = OrderedDict()

    def failures(self, address: str) -> int:
        entry = self._entry(address, create=False)
        return int(entry[0]) if entry else 0

    def _entry(self, address: str, create: bool) -> list[float] | None:
        now = self.clock()
        entry = self._seen.get(address)
        if entry is not None and now - entry[2] > self.forget:
            del self._seen[address]
            entry = None
        if entry is None and create:
            entry = self._seen[address] = [0, now, now]
            while len(self._seen) > self.max_addresses:
                self._seen.popitem(last=False)
        return entry

    def step(self, failures: float) -> float:
        """The wait before each check after ``failures`` wrong passwords."""
        over = int(failures) - self.free
        return 0.0 if over < 0 else min(self.cap, self.base * 2 ** min(over, 32))

    def delay(self, address: str) -> float:
        """Seconds this check must wait (reserving its slot for the address)."""
        entry = self._entry(address, create=False)
        if entry is None or entry[0] < self.free:
            return 0.0
        now = self.clock()
        start = max(now, entry[1]) + self.step(entry[0])
        entry[1] = start
        return start - now

    def failed(self, address: str) -> int:
        entry = self._entry(address, create=True)
        assert entry is not None
        entry[0] += 1
        entry[2] = self.clock()
        self._seen.move_to_end(address)
        return int(entry[0])

    def succeeded(self, address: str) -> None:
        self._seen.pop(address, None)


class PasswordChecker:
    """Hashes and checks passwords off the reactor thread, throttling guessers.

    ``reactor`` is the host's reactor; with one that has no threads (a test's
    ``task.Clock``) the hash runs inline.
    """

    def __init__(self, reactor: Any, throttle: GuessThrottle | None = None) -> None:
        self.reactor = reactor
        self.throttle = throttle or GuessThrottle(reactor.seconds)
        self._pool: Any = None

    def _in_thread(self, f: Callable[..., Any], *args: Any) -> defer.Deferred:
        if not hasattr(self.reactor, "callFromThread"):
            return defer.maybeDeferred(f, *args)
        if self._pool is None:
            from twisted.python.threadpool import ThreadPool

            self._pool = ThreadPool(minthreads=0, maxthreads=2, name="cartagena-passwords")
            self._pool.start()
        from twisted.internet.threads import deferToThreadPool

        return deferToThreadPool(self.reactor, self._pool, f, *args)

    def stop(self) -> None:
        """Stop the worker threads (the host is stopping)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()

    def hash(self, password: str) -> defer.Deferred:
        """Deferred firing with :func:`hash_password` of ``password``."""
        return self._in_thread(hash_password, password)

    def check(self, address: str, offered: str | None, stored: str, what: str) -> defer.Deferred:
        """Deferred firing with whether ``offered`` matches ``stored``.

        A failure is counted against ``address``; once it has failed a few times its
        checks wait (a delayed call, nothing blocks) and each failure is logged.
        """
        wait = self.throttle.delay(address)
        if wait > 0:
            d: defer.Deferred = defer.Deferred()
            self.reactor.callLater(wait, lambda: self._in_thread(
                verify_password, offered, stored).chainDeferred(d))
        else:
            d = self._in_thread(verify_password, offered, stored)

        def judged(ok: bool) -> bool:
            if ok:
                self.throttle.succeeded(address)
                return True
            failures = self.throttle.failed(address)
            if failures >= self.throttle.free:
                log.emit(LogLevel.warn, "{addr}: wrong {what} password ({n} in a row); its next answers "
                         "wait {delay:.1f} s", addr=address, what=what, n=failures,
                         delay=self.throttle.step(failures))
            else:
                log.info("{addr}: wrong {what} password", addr=address, what=what)
            return False

        return d.addCallback(judged)
