"""The cores the bots count on are the ones this process may use: its CPU affinity and
its control group's CPU quota, not the machine's count (``portable.cores``)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cartagena_net.cli.bot_args import default_workers
from cartagena_net.portable.cores import affinity_cores, quota_cores, usable_cores


def _group(root, rel, **files):
    d = root.joinpath(*[p for p in rel.split("/") if p])
    d.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (d / name.replace("_", ".", 1)).write_text(text)


def test_a_cgroup_v2_quota_is_read_rounded_up(tmp_path):
    _group(tmp_path, "", cpu_max="max 100000\n")
    assert quota_cores(str(tmp_path), "0::/\n") is None  # no quota at the root
    _group(tmp_path, "/box", cpu_max="150000 100000\n")
    assert quota_cores(str(tmp_path), "0::/box\n") == 2  # 1.5 cores keep 2 busy
    _group(tmp_path, "/box/inner", cpu_max="max 100000\n")
    # A child with no quota of its own is still held by its parent's.
    assert quota_cores(str(tmp_path), "0::/box/inner\n") == 2
    _group(tmp_path, "/small", cpu_max="50000 100000\n")
    assert quota_cores(str(tmp_path), "0::/small\n") == 1  # never less than one


def test_a_cgroup_v1_quota_is_read_and_minus_one_means_none(tmp_path):
    _group(tmp_path, "/cpu,cpuacct/job", cpu_cfs_quota_us="300000\n",
           cpu_cfs_period_us="100000\n")
    text = "4:memory:/job\n3:cpu,cpuacct:/job\n"
    assert quota_cores(str(tmp_path), text) == 3
    _group(tmp_path, "/cpu/free", cpu_cfs_quota_us="-1\n", cpu_cfs_period_us="100000\n")
    assert quota_cores(str(tmp_path), "2:cpu:/free\n") is None


@pytest.mark.parametrize("text", ["", "garbage", "٣٠٠٠٠٠ 100000", "1e5 100000",
                                  "100000 0", "100000", "max max"])
def test_a_quota_that_is_not_ascii_digits_counts_as_none(tmp_path, text):
    _group(tmp_path, "/g", cpu_max=text)
    assert quota_cores(str(tmp_path), "0::/g\n") is None


def test_no_cgroup_files_mean_no_quota(tmp_path):
    assert quota_cores(str(tmp_path / "absent"), "0::/x\n1:cpu:/y\n") is None
    assert quota_cores(str(tmp_path), "") is None


def test_the_usable_cores_are_within_the_machine_s():
    assert 1 <= usable_cores() <= affinity_cores() <= (os.cpu_count() or 1)
    assert default_workers() == default_workers(usable_cores())


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"),
                    reason="only Linux lets a process set its CPU affinity from Python")
def test_a_process_pinned_to_one_core_runs_one_worker():
    """A real process, pinned to one core before it asks: it counts one core, and the
    ``--workers`` default is 1 (not a worker for each of the machine's cores)."""
    code = ("import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))});"
            "from cartagena_net.cli.bot_args import default_workers;"
            "from cartagena_net.portable.cores import usable_cores;"
            "print(usable_cores(), default_workers())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True).stdout.split()
    assert out == ["1", "1"]
