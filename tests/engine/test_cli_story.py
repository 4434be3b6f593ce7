"""`cartagena rules` and `cartagena selfplay` with the stories of 2017."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cartagena_net", *args], check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_rules_shows_stories_options_and_the_sail_action():
    out = run_cli("rules", "studiogiochi-2017", "-o", "story=whole")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for words in ("story = whole", "island_segments = 3", "segments = 3",
                  "jail_in_passage", "morgan           off|instead|also|island",
                  "Stories", "sail ", "undo "):
        assert words in text, words
    bad = run_cli("rules", "studiogiochi-2017", "-o", "story=whole", "-o", "segments=2")
    assert bad.returncode != 0 and "3 or more segments" in bad.stderr
    data = json.loads(run_cli("rules", "--json").stdout)
    assert "whole" in data["stories"] and "sail" in data["actions"]


def test_selfplay_finishes_whole_jailbreak_games_and_greedy_beats_random():
    out = run_cli("selfplay", "--rules", "studiogiochi-2017", "-o", "story=whole",
                  "--games", "20", "--seed", "5", "--json")
    assert out.returncode == 0, out.stderr
    assert sum(json.loads(out.stdout)["wins"]) == 20
    out = run_cli("selfplay", "--rules", "studiogiochi-2017", "-o", "story=whole",
                  "--players", "2", "--bot", "greedy,random", "--games", "6", "--seed", "5",
                  "--json")
    assert out.returncode == 0, out.stderr
    wins = json.loads(out.stdout)["wins"]
    assert wins[0] >= 5, wins
