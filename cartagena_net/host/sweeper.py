"""What a table leaves when it goes is freed at once, not minutes later.

A table and its parts hold each other through cycles (the table's parts reach back to
it), so when a table goes Python's reference counting cannot free it: it waits for
the garbage collector's oldest generation, which runs only once a quarter as many
objects as it already holds have come. Game after game a host so let tens of thousands
of small objects (a table's state, bots, seats, and the engine's ``Game`` with its
action tables, which it alone held) pile up, several tables' worth, and freed them all
at once; the memory pages they had filled were by then shared with objects that stay
(the evening's scores, new tables, connections), so the process grew by the size of
those peaks, game upon game (issue 62; ``tests/benchmarks/bench_long_evening.py``).
(A ``Game`` itself holds no cycle: its variants reach it by a weak proxy, so the one a
play again with other colours leaves goes at once, with no collection.)

:class:`Sweeper` collects once, at the reactor's next turn after a table goes
(``soon``; one collection for the tables that go in one turn), so that what the table
held is freed while it is the only garbage: the next table reuses the same memory (half
a second later, as before, the games that went on meanwhile had put their new objects
in fresh memory beside what was about to be freed). Then, where the C library is
glibc, ``malloc_trim(0)`` gives the C heap's free pages back (what Python frees in
blocks over 512 bytes lies there; glibc keeps free pages below the last one in use).

:func:`tune_allocator` (called once by a host's command, before its threads start) sets
two of glibc's allocator settings for a process that runs for days: blocks of 128 KiB
and more are mapped on their own and given back when freed (glibc otherwise raises that
threshold each time such a block is freed, up to 32 MiB, and then keeps later large
buffers in its heap, where one live block pins the pages around it), and the host's
few threads share two heaps rather than one each. The threshold stays above the 64 KiB
buffer Twisted reads each connection into: at 64 KiB that buffer was mapped, shrunk and
unmapped again whenever the heap's top was short, a page fault and three system calls
(about 15 us here) for a frame read. Measured on the long evening's
benchmark: glibc's free but kept memory 0.8 to 1.4 MB instead of 1.9 to 2.8 MB, its
heaps 10.4 MB instead of 11.4 to 12.6 MB.
"""
from __future__ import annotations

import functools
import gc
import time
from typing import Any

from twisted.logger import Logger

log = Logger(namespace="cartagena.host.sweeper")

AFTER = 0.0  # seconds after a table goes before what it held is collected: none


def _glibc(name: str, *argtypes: str) -> Any:
    """glibc's function ``name``, taking the ctypes types named and giving an int (None
    elsewhere: macOS, Windows, musl)."""
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        function = getattr(ctypes.CDLL("libc.so.6"), name)
    except (OSError, AttributeError):
        return None
    function.argtypes = [getattr(ctypes, t) for t in argtypes]
    function.restype = ctypes.c_int
    return function


@functools.cache
def _libc_trim() -> Any:
    """glibc's ``malloc_trim``, looked up once (None elsewhere)."""
    return _glibc("malloc_trim", "c_size_t")


M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters (malloc.h)
M_ARENA_MAX = -8
MMAP_FROM = 128 * 1024  # blocks of this size and more are mapped on their own
HEAPS = 2  # the heaps (arenas) a host's threads share


def tune_allocator() -> bool:
    """Set glibc's allocator for a long-running host (see the module's text); False
    where the C library is not glibc (nothing to do)."""
    mallopt = _glibc("mallopt", "c_int", "c_int")
    if mallopt is None:
        return False
    return all([mallopt(M_MMAP_THRESHOLD, MMAP_FROM), mallopt(M_ARENA_MAX, HEAPS)])


def _trim() -> None:
    """Give the C allocator's free pages back to the system (glibc only; harmless and
    absent elsewhere): what Python frees in blocks over 512 bytes (dicts' and lists'
    tables, strings, buffers) lies in glibc's heap, which otherwise keeps its free
    pages below the last one in use."""
    trim = _libc_trim()
    if trim is not None:
        trim(0)


class Sweeper:
    """One deferred garbage collection at a time, on the reactor."""

    def __init__(self, reactor: Any, after: float = AFTER) -> None:
        self.reactor = reactor
        self.after = after
        self._call: Any = None
        self.collections = 0  # collections made
        self.freed = 0  # unreachable objects they found
        self.seconds = 0.0  # the time they took, in all

    def soon(self) -> None:
        """A table went: collect what it left in ``after`` seconds (once, however many
        tables go meanwhile)."""
        if self._call is None or not self._call.active():
            self._call = self.reactor.callLater(self.after, self.now)

    def now(self) -> int:
        """Collect every generation now; how many unreachable objects were found."""
        self.stop()  # (a collection due later is this one)
        t0 = time.perf_counter()
        found = gc.collect()
        _trim()
        took = time.perf_counter() - t0
        self.collections += 1
        self.freed += found
        self.seconds += took
        log.debug("collected {n} objects in {ms:.1f} ms", n=found, ms=took * 1000)
        return found

    def stop(self) -> None:
        if self._call is not None and self._call.active():
            self._call.cancel()
        self._call = None
