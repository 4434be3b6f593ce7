"""`cartagena records`, `export` and `replay` on the games a real host kept."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from cartagena_net.records import replay
from cartagena_net.records.store import listing, records_dir

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "cartagena_net"]


def cartagena(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                          check=False, stdin=subprocess.DEVNULL)


def test_a_hosts_finished_game_is_listed_exported_and_replayed(tmp_path):
    host = subprocess.Popen(
        [*CLI, "host", "--headless", "--port", "0", "--bind", "127.0.0.1", "--discovery",
         "off", "--web", "off", "--players", "2", "--bots", "2", "--bot-kind", "greedy",
         "--bot-delay", "0", "-o", "segments=1", "--name", "den"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not listing() and time.monotonic() < deadline:
            assert host.poll() is None
            time.sleep(0.1)
    finally:
        host.terminate()
        _, err = host.communicate(timeout=30)
    assert "Traceback" not in err
    (item,) = listing()
    rec = item.record
    assert item.path.parent == records_dir() and rec["kind"] == "full"

    listed = cartagena("records")
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    winner = rec["players"][rec["outcome"]["winner"]]["name"]
    assert rec["id"] in line and "jamaica, 2 players, 1 segment" in line  # in words
    assert f"winner: {winner} (greedy bot)" in line
    as_json = json.loads(cartagena("records", "--json").stdout)
    assert as_json[0]["id"] == rec["id"] and as_json[0]["moves"] == len(rec["moves"])

    stats = cartagena("records", "--stats")
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.splitlines()[0].split() == ["player", "games", "wins", "rating",
                                                    "places"]
    # Both seats greedy: one player in that game, one game, one win, its best place.
    (row,) = [x for x in stats.stdout.splitlines() if x.startswith("greedy bot ")]
    assert row.split()[2:4] == ["1", "1"], stats.stdout
    assert "a bot's row is every seat of that kind and level" in stats.stdout
    assert json.loads(cartagena("records", "--stats", "--json").stdout)[0] == {
        "player": "greedy", "bot": True, "games": 1, "wins": 1, "places": [1],
        "unfinished": 0, "rating": 0.0}  # one kind at both seats: no one to be rated against

    out = tmp_path / "out"
    out.mkdir()
    done = cartagena("export", rec["id"][:12], "--to", str(out))
    assert done.returncode == 0, done.stderr
    exported = out / f"{rec['id']}.json"
    assert json.loads(exported.read_text()) == rec
    score = (out / f"{rec['id']}.txt").read_text()
    assert "# rules: jamaica 2p segments=1" in score and "1. red: advance" in score
    turns = [x for x in score.splitlines() if not x.startswith("#")]
    assert len(turns) >= 2 and all(x.split(". ", 1)[0].isdigit() for x in turns)
    again = cartagena("export", rec["id"], "--to", str(out))
    assert again.returncode == 1 and "exists; not overwritten" in again.stderr

    shown = cartagena("replay", str(exported))
    assert shown.returncode == 0, shown.stderr
    assert f"{len(rec['moves'])} actions replayed exactly" in shown.stdout
    assert replay(rec).outcome.winner == rec["outcome"]["winner"]

    # the same in Swedish (--lang sv), the notation and the ids as they are
    (line,) = cartagena("records", "--lang", "sv").stdout.splitlines()
    assert "jamaica, 2 spelare, 1 segment" in line and f"vinnare: {winner} (girig bot)" in line
    stats = cartagena("records", "--stats", "--lang", "sv").stdout.splitlines()
    assert stats[0].split() == ["spelare", "partier", "vinster", "styrketal", "placeringar"]
    assert stats[1].split()[:4] == ["girig", "bot", "1", "1"] and "1:a 1" in stats[1]
    assert "2:a" not in stats[1]  # both seats greedy: one player, at its best place
    again = cartagena("export", rec["id"], "--to", str(out), "--lang", "sv")
    assert again.returncode == 1 and "finns redan; skrivs inte över" in again.stderr
    shown = cartagena("replay", str(exported), "--lang", "sv").stdout
    assert f"{len(rec['moves'])} drag uppspelade exakt från" in shown
    assert f"vinnare: {winner} (girig bot)" in shown and "började " in shown
    assert "Z" not in shown.splitlines()[1] and " kl. " in shown.splitlines()[1]  # local time

    rec["moves"][2]["action"] = "advance 42 skull"
    (tmp_path / "edited.json").write_text(json.dumps(rec))
    rec["version"] = 9
    (tmp_path / "newer.json").write_text(json.dumps(rec))
    (tmp_path / "cut.json").write_bytes(exported.read_bytes()[:500])
    for name, message in (("edited", "move 3"), ("newer", "newer cartagena-net"),
                          ("cut", "damaged JSON")):
        bad = cartagena("replay", str(tmp_path / f"{name}.json"))
        assert bad.returncode == 1 and message in bad.stderr, bad.stderr
        assert "Traceback" not in bad.stderr and bad.stdout == ""
    missing = cartagena("replay", "nosuchgame")
    assert missing.returncode == 1 and "no record 'nosuchgame'" in missing.stderr
