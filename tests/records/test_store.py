"""The records folder read for the web's list: only the newest names are kept, and a
record is read into a buffer the size of its file (issue 62)."""
from __future__ import annotations

import tracemalloc

from cartagena_net.records import store


def test_newest_names_keeps_the_newest_of_one_host_and_counts_them_all(tmp_path):
    mine, other = "-1a2b3c4d-", "-ffffffff-"
    names = [f"20261124T2{n:05d}Z{mine}{n % 7}.json" for n in range(250)]
    for name in names + [f"20261124T299999Z{other}1.json", f".20261124T2{0:05d}Z{mine}x.json",
                         f"20261124T2{1:05d}Z{mine}1.json.tmp", "notes.txt"]:
        (tmp_path / name).write_bytes(b"{}")
    (tmp_path / "reviews").mkdir()
    newest, count = store.newest_names(tmp_path, mine, 100)
    assert count == 250
    assert newest == sorted(names)[-100:]
    assert store.newest_names(tmp_path, mine, 1000) == (sorted(names), 250)
    assert store.newest_names(tmp_path, "", 3)[1] == 251  # every record, any host's
    assert store.newest_names(tmp_path / "none", mine) == ([], 0)


def test_a_record_is_read_into_a_buffer_its_size(tmp_path):
    """``read(1 << 25)`` took 32 MB for a record of a few kilobytes."""
    path = tmp_path / "r.json"
    path.write_bytes(b"x" * 5000)
    with open(path, "rb") as f:
        tracemalloc.start()
        try:
            data = store._read_capped(f)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert data == b"x" * 5000
    assert peak < 64 * 1024
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(store.READ_CAP + 10)
    with open(big, "rb") as f:
        assert len(store._read_capped(f)) == store.READ_CAP
