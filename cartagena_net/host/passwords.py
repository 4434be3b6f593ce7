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


def journaled_password(meta: dict[str, Any]) -> StoredPassword | None:
    """The password of a journaled table record (older journals held the text itself)."""
    stored = meta.get("password_hash")
    if is_hash(stored):
        return StoredPassword(stored)
    legacy = meta.get("password")
    return StoredPassword.make(legacy) if isinstance(legacy, str) and legacy else None


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


_PROCESS_KEY = os.urandom(32)


def _quick_digest(cleaned: str) -> bytes:
    return hmac.new(_PROCESS_KEY, cleaned.encode("utf-8"), hashlib.sha256).digest()


class StoredPassword:
    """A password as a host keeps it: never the text itself.

    ``hash`` is the salted scrypt hash (what journals hold). Once this process has seen
    the password (it was set here, or offered right once since a restore), a digest
    keyed with a random per-process key also checks it in microseconds, so no check
    after the first costs the reactor anything.
    """

    __slots__ = ("_quick", "hash")

    def __init__(self, stored: str, quick: bytes | None = None) -> None:
        if not is_hash(stored):
            raise ValueError("not a password hash")
        self.hash = stored
        self._quick = quick

    @classmethod
    def make(cls, password: str) -> StoredPassword:
        """Hash a password that :func:`clean_secret` accepts (about 40 ms)."""
        stored = hash_password(password)
        return cls(stored, _quick_digest(clean_secret(password) or ""))

    def quick_check(self, offered: str | None) -> bool | None:
        """Whether ``offered`` matches, at once; None when only :meth:`slow_check` knows."""
        try:
            cleaned = clean_secret(offered) if isinstance(offered, str) else None
        except ValueError:
            return False
        if cleaned is None:
            return False
        if self._quick is None:
            return None
        return hmac.compare_digest(_quick_digest(cleaned), self._quick)

    def slow_check(self, offered: str | None) -> bool:
        """Whether ``offered`` matches the scrypt hash (about 40 ms; thread-safe)."""
        return verify_password(offered, self.hash)

    def learn(self, offered: str) -> None:
        """``offered`` passed :meth:`slow_check`: check it quickly from now on."""
        cleaned = clean_secret(offered)
        if cleaned is not None:
            self._quick = _quick_digest(cleaned)


class PasswordChecker:
    """Checks passwords without blocking the reactor, throttling guessers.

    A scrypt hash runs in a small thread pool; ``reactor`` is the host's reactor (with
    one that has no threads, a test's ``task.Clock``, it runs inline).
    """

    def __init__(self, reactor: Any, throttle: GuessThrottle | None = None) -> None:
        self.reactor = reactor
        self.throttle = throttle or GuessThrottle(reactor.seconds)
        self._pool: Any = None
        self._stopped = False
        self._waiting: set[Any] = set()
        # background checks of check_now under way: (stored, keyed digest of the offer)
        self._checking: set[tuple[StoredPassword, bytes]] = set()

    def _in_thread(self, f: Callable[..., Any], *args: Any) -> defer.Deferred:
        if self._stopped or not hasattr(self.reactor, "callFromThread"):
            return defer.maybeDeferred(f, *args)
        if self._pool is None:
            from twisted.python.threadpool import ThreadPool

            self._pool = ThreadPool(minthreads=0, maxthreads=1, name="cartagena-passwords")
            self._pool.start()
        from twisted.internet.threads import deferToThreadPool

        return deferToThreadPool(self.reactor, self._pool, f, *args)

    def stop(self) -> None:
        """Stop the worker threads and drop the delayed checks (the host is stopping)."""
        self._stopped = True
        for call in self._waiting:
            if call.active():
                call.cancel()
        self._waiting.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()

    def make(self, password: str) -> defer.Deferred:
        """Deferred firing with :meth:`StoredPassword.make` of ``password``."""
        return self._in_thread(StoredPassword.make, password)

    def _match(self, offered: str | None, stored: StoredPassword) -> defer.Deferred:
        quick = stored.quick_check(offered)
        if quick is not None:
            return defer.succeed(quick)

        def learned(ok: bool) -> bool:
            if ok and offered is not None:
                stored.learn(offered)
            return ok

        return self._in_thread(stored.slow_check, offered).addCallback(learned)

    def check(self, address: str, offered: str | None, stored: StoredPassword,
              what: str) -> defer.Deferred:
        """Deferred firing with whether ``offered`` matches ``stored``.

        A failure is counted against ``address``; once it has failed a few times its
        checks wait (a delayed call, nothing blocks) and each failure is logged.
        """
        wait = self.throttle.delay(address)
        if wait > 0:
            d: defer.Deferred = defer.Deferred()

            def due() -> None:
                self._waiting.discard(call)
                self._match(offered, stored).chainDeferred(d)

            call = self.reactor.callLater(wait, due)
            self._waiting.add(call)
        else:
            d = self._match(offered, stored)
        return d.addCallback(self._judged, address, what)

    def check_now(self, address: str, offered: str | None, stored: StoredPassword,
                  what: str) -> str | None:
        """A check that cannot wait (an HTTP request): None if ``offered`` matches, else
        why not (a reason's key, cartagena_net/engine/reasons.py). An address that must
        wait is refused unchecked; a password this
        process has not seen yet is checked in the background (ask again soon)."""
        if self.throttle.delay(address) > 0:
            return "password-wait"
        quick = stored.quick_check(offered)
        if quick is None:
            # One check per offer: a browser asking again while it runs must not queue
            # more, whose late successes would clear failures counted after them.
            key = (stored, _quick_digest(clean_secret(offered) or ""))
            if key not in self._checking:
                self._checking.add(key)

                def done(result: Any) -> Any:
                    self._checking.discard(key)
                    return result

                self.check(address, offered, stored, what).addBoth(done)
            return "password-checking"
        if not self._judged(quick, address, what):
            return "password-wrong"
        return None

    def _judged(self, ok: bool, address: str, what: str) -> bool:
        if ok:
            self.throttle.succeeded(address)
            return True
        failures = self.throttle.failed(address)
        if failures >= self.throttle.free:
            log.emit(LogLevel.warn, "{addr}: wrong {what} password ({n} in a row); its next "
                     "answers wait {delay:.1f} s", addr=address, what=what, n=failures,
                     delay=self.throttle.step(failures))
        else:
            log.info("{addr}: wrong {what} password", addr=address, what=what)
        return False
