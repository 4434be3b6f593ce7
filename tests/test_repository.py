"""Project-wide guarantees: import boundaries, one place for hidden information, lint."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imports(folder: str) -> dict[str, set[str]]:
    """Top-level module names imported by each file under ``folder``."""
    found = {}
    for path in (ROOT / folder).rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        found[str(path.relative_to(ROOT))] = names
    return found


def offenders(folder: str, banned: tuple[str, ...]) -> list[str]:
    return [f"{f}: {m}" for f, ms in imports(folder).items() for m in ms
            if any(m == b or m.startswith(b + ".") for b in banned)]


def test_engine_imports_no_io_libraries():
    assert offenders("cartagena_net/engine", ("twisted", "msgpack", "prompt_toolkit")) == []


def test_protocol_imports_no_twisted_or_prompt_toolkit():
    assert offenders("protocol", ("twisted", "prompt_toolkit")) == []


def test_client_never_imports_the_host():
    assert offenders("client", ("cartagena_net.host",)) == []


def test_importing_engine_and_protocol_pulls_in_no_forbidden_module_at_run_time():
    code = ("import sys, cartagena_net.engine, protocol; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('twisted', 'prompt_toolkit')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_bots_and_the_search_are_pure_at_run_time():
    # Search workers import these alone: no reactor, no msgpack, no terminal.
    code = ("import sys, cartagena_net.bots, cartagena_net.ismcts, cartagena_net.evaluation; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('twisted', 'msgpack', 'prompt_toolkit')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_hidden_state_is_read_only_inside_the_engine():
    """Hands and the stock are reached only by the engine (whose view filters them)."""
    hidden = {"hands", "stock", "chance"}
    bad = []
    for folder in ("cartagena_net", "protocol", "client"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if rel.parts[:2] == ("cartagena_net", "engine"):
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Attribute) and node.attr in hidden:
                    bad.append(f"{rel}:{node.lineno} .{node.attr}")
    allowed = {"cartagena_net/host/gamerec.py"}  # journals the chance record (0600 file)
    assert [b for b in bad if b.split(":")[0] not in allowed] == []


def test_ruff_is_clean():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], check=False,
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cartagena_net", *args], check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_cli_selfplay_json_reports_games_turns_wins_and_speed():
    import json

    out = run_cli("selfplay", "--rules", "ravensburger", "--players", "3", "--games", "5",
                  "--seed", "7", "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["games"] == 5 and sum(result["wins"]) == 5 and len(result["wins"]) == 3
    assert result["mean_turns"] > 10 and result["games_per_s"] > 0
    again = json.loads(run_cli("selfplay", "--rules", "ravensburger", "--players", "3",
                               "--games", "5", "--seed", "7", "--json").stdout)
    assert again["wins"] == result["wins"]  # a seed reproduces the games


def test_cli_rules_lists_every_preset_and_refuses_bad_options():
    from cartagena_net.engine import PRESETS

    out = run_cli("rules")
    assert out.returncode == 0 and all(name in out.stdout for name in PRESETS)
    bad = run_cli("selfplay", "--rules", "jamaica", "--players", "9", "--games", "1")
    assert bad.returncode != 0 and "2 to 5 players" in bad.stderr
    bad = run_cli("selfplay", "-o", "wings=2", "--games", "1")
    assert bad.returncode != 0 and "unknown option" in bad.stderr
