"""How many cores this process may use, on every platform.

``os.cpu_count()`` counts the machine's cores, not the ones this process is given. A
host started under ``taskset`` or ``start /affinity``, in a container limited to two
cores, or on a laptop whose cores an administrator pinned, would start a worker for
every core of the machine and share the few it has among them: each bot decision's
shares then search on top of each other, and a share that misses its deadline is left
out. :func:`usable_cores` is the smallest of what the platform says this process may
run on:

- the process's CPU affinity (``os.process_cpu_count`` from Python 3.13, else
  ``os.sched_getaffinity`` where it exists: Linux; macOS and Windows before 3.13 give
  the machine's count, as they have no affinity call in ``os``);
- on Linux, a CPU quota of the process's control group (cgroup v2's ``cpu.max``, v1's
  ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us``), rounded up: a container given 1.5
  cores may keep two busy for part of each period.

Read once, at start, from a few small files; never on the reactor's loop.
"""
from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterable

CGROUP_ROOT = "/sys/fs/cgroup"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii") as f:
            return f.read(256)
    except (OSError, UnicodeDecodeError):
        return None


def _count(text: str) -> int | None:
    """A whole number of ASCII digits, else None ("max", "-1", garbage)."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    return None


def _cores(quota_text: str, period_text: str) -> int | None:
    """The cores a quota of ``quota_text`` microseconds a ``period_text`` allows
    (rounded up, at least 1); None where either is not a count (v1's -1, v2's max)."""
    quota, period = _count(quota_text), _count(period_text)
    return max(1, math.ceil(quota / period)) if quota and period else None


def _own_cgroups(proc_cgroup: str | None) -> list[str]:
    """The cgroup paths named in ``/proc/self/cgroup`` for the CPU controller (v1's
    ``cpu``, v2's unified line ``0::``) and every group above them (a quota set on a
    parent holds its children too), up to the root (``""``)."""
    paths: list[str] = []
    for line in (proc_cgroup or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3 and (parts[1] == "" or "cpu" in parts[1].split(",")):
            rel = parts[2].strip().strip("/")
            while rel:
                if rel not in paths:
                    paths.append(rel)
                rel = rel.rpartition("/")[0]
    return paths + [""]


def quota_cores(root: str = CGROUP_ROOT, proc_cgroup: str | None = None) -> int | None:
    """The cores a control group's CPU quota allows this process (rounded up), None
    where no quota is set or none can be read. ``root``, ``proc_cgroup``: where the
    cgroup file system is mounted and the text of ``/proc/self/cgroup`` (tests)."""
    if proc_cgroup is None:
        proc_cgroup = _read("/proc/self/cgroup")
    found: list[int | None] = []
    for rel in _own_cgroups(proc_cgroup):
        for base in _candidates(root, rel):
            v2 = _read(os.path.join(base, "cpu.max"))
            if v2 is not None:
                fields = v2.split()
                found.append(_cores(*fields) if len(fields) == 2 else None)
                continue
            quota_text = _read(os.path.join(base, "cpu.cfs_quota_us"))
            period_text = _read(os.path.join(base, "cpu.cfs_period_us"))
            if quota_text is not None and period_text is not None:
                found.append(_cores(quota_text, period_text))
    counts = [n for n in found if n is not None]
    return min(counts) if counts else None


def _candidates(root: str, rel: str) -> Iterable[str]:
    """Where the group's files may be: v2 at ``root/rel``; v1 under the ``cpu``
    controller's own mount (``cpu``, or the usual joint ``cpu,cpuacct``)."""
    for mount in ("", "cpu", "cpu,cpuacct"):
        yield os.path.join(root, mount, rel)


def affinity_cores() -> int:
    """The cores this process may be scheduled on (the machine's where the platform
    cannot say)."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return counted() or 1
    getaffinity = getattr(os, "sched_getaffinity", None)
    if getaffinity is not None:
        try:
            return len(getaffinity(0)) or 1
        except OSError:
            pass
    return os.cpu_count() or 1


@functools.cache
def usable_cores() -> int:
    """The cores this process may use: its affinity, within its cgroup's CPU quota
    (read once: the command line's parsers ask for it several times as they are built)."""
    cores = affinity_cores()
    quota = quota_cores()
    return max(1, min(cores, quota) if quota is not None else cores)
