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


def test_the_translations_import_only_the_standard_library():
    """Every part (engine aside) may speak the reader's language: cartagena_net.i18n
    imports nothing but the standard library and itself (its extractor, a maintainer's
    tool, reads the engine's words too), so importing it pulls in no other part."""
    allowed = ("cartagena_net.i18n", "__future__")
    found = imports("cartagena_net/i18n")
    runtime = {f: ms for f, ms in found.items() if not f.endswith("extract.py")}
    assert [f"{f}: {m}" for f, ms in runtime.items() for m in ms
            if m.split(".")[0] in ("cartagena_net", "client", "protocol", "twisted",
                                   "msgpack", "prompt_toolkit")
            and not m.startswith(allowed)] == []
    code = ("import sys, cartagena_net.i18n; bad = [m for m in sys.modules if "
            "m.split('.')[0] in ('twisted', 'msgpack', 'prompt_toolkit', 'client', "
            "'protocol') or m.startswith(('cartagena_net.engine', 'cartagena_net.host'))]; "
            "print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_importing_engine_and_protocol_pulls_in_no_forbidden_module_at_run_time():
    code = ("import sys, cartagena_net.engine, protocol; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('twisted', 'prompt_toolkit')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_bots_and_the_search_are_pure_at_run_time():
    # Search workers import these alone: no reactor, no msgpack, no terminal.
    code = ("import sys, cartagena_net.bots.kinds, cartagena_net.bots.ismcts, "
            "cartagena_net.bots.evaluation, cartagena_net.bots.match; "
            "bad = [m for m in sys.modules if m.split('.')[0] in "
            "('twisted', 'msgpack', 'prompt_toolkit')]; print(bad); assert not bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


PRODUCT = ("cartagena_net", "protocol", "client")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Every product module and the product modules it imports, anywhere in its body
    (a function's deferred import counts as much as a top-level one; only imports for
    type checkers, which never run, are left out). ``from P import name`` depends on the
    module ``P.name`` where there is one, else on ``P`` itself (its namespace)."""
    paths = {module_name(p): p for folder in PRODUCT for p in (ROOT / folder).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test)
                       for stmt in node.body for n in ast.walk(stmt)}
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in paths else base)
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_anywhere_in_the_product():
    graph = import_graph()
    assert len(graph) > 80  # the graph really covers the product
    assert "cartagena_net.engine.state" in graph["cartagena_net.engine.game"]
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_nothing_below_the_command_line_imports_it():
    """Only the entry point imports the command line; the host, web view, discovery,
    bots, engine, protocol and client never reach up into a command module."""
    users = sorted(m for m, targets in import_graph().items()
                   if not (m == "cartagena_net.cli" or m.startswith("cartagena_net.cli."))
                   and any(t == "cartagena_net.cli" or t.startswith("cartagena_net.cli.")
                           for t in targets))
    assert users == ["cartagena_net.__main__"]


def test_each_part_is_one_folder():
    """The command line, the bots, the host, the web view, discovery and the engine each
    live in a package of their own; no loose module beside them but the entry points."""
    loose = sorted(p.name for p in (ROOT / "cartagena_net").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]
    for part in ("cli", "bots", "host", "web", "discovery", "engine", "portable", "i18n"):
        assert (ROOT / "cartagena_net" / part / "__init__.py").is_file(), part


def test_the_host_and_the_client_keep_their_rooms_small():
    """No class in the host or the client is over 400 lines and no module over 500: a
    table or a screen grows by a small module of its own, not by a longer class."""
    big = []
    for folder in ("cartagena_net/host", "client"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text()
            name = path.relative_to(ROOT)
            if text.count("\n") > 500:
                big.append(f"{name}: {text.count(chr(10))} lines")
            for node in ast.walk(ast.parse(text, str(path))):
                if isinstance(node, ast.ClassDef):
                    length = node.end_lineno - node.lineno + 1
                    if length > 400:
                        big.append(f"{name}: class {node.name} has {length} lines")
    assert big == []


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


VARIANTS = ("retreat", "morgan", "filibusters", "jailbreak", "magic")


def test_variant_modules_use_only_the_named_interface_of_a_state():
    """A variant reaches a State only through ``rules.VariantState``: its documented
    fields and operations, never an underscore member."""
    from cartagena_net.engine.rules import VariantState

    allowed = set(VariantState.FIELDS) | {
        n for n, v in vars(VariantState).items() if callable(v) and not n.startswith("_")}
    assert {"move_pirate", "draw_cards", "log", "hands", "extra"} <= allowed
    bad = []
    for name in VARIANTS:
        path = ROOT / "cartagena_net" / "engine" / f"{name}.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name):
                continue
            owner, attr = node.value.id, node.attr
            if owner == "state" and attr not in allowed:
                bad.append(f"{name}.py:{node.lineno} state.{attr}")
            elif owner != "self" and attr.startswith("_") and not attr.startswith("__"):
                bad.append(f"{name}.py:{node.lineno} {owner}.{attr}")
    assert bad == []


def test_a_benchmark_s_host_keeps_its_files_out_of_the_user_s_own():
    """A benchmark that starts ``cartagena host`` as a child process gives it per-user
    folders of its own (``tests.userdirs.private_env``): else its games (thousands, in a
    capacity run) land among the user's records and evening scores, and its journals in
    the user's state folder. The tests get theirs from tests/conftest.py."""
    starts_a_host = ('"host", "--headless"', '"cartagena_net", "host"')
    found = [p.name for p in sorted((ROOT / "tests" / "benchmarks").glob("*.py"))
             if any(s in p.read_text() for s in starts_a_host)]
    assert len(found) >= 5, found  # capacity, crash, discovery, the long evening, orphans
    assert [f for f in found
            if "private_env(" not in (ROOT / "tests" / "benchmarks" / f).read_text()] == []


def test_readme_stays_a_readme():
    """Install, play, the keys, the web page, the tests, links: the figures and their
    history live in docs/bots.md, the parts in docs/architecture.md."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 120
    for heading in ("## Install and play", "## Test", "## Documents"):
        assert heading in readme
    assert "sh tests/install.sh && python3 -m pytest -q -n auto" in readme


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


def test_the_ci_workflow_parses_and_runs_the_readmes_test_command():
    """.github/workflows/ci.yml (GitHub Actions cannot run here): valid YAML, the three
    platforms and two Pythons, and the README's test command, verbatim, on each."""
    import re

    import yaml

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Test", 1)[1]
    command = re.search(r"```sh\n(.+?)\n```", section, re.DOTALL).group(1).strip()
    assert command == "sh tests/install.sh && python3 -m pytest -q -n auto"
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text())
    job = flow["jobs"]["test"]
    assert set(job["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "macos-latest",
                                                    "windows-latest"}
    assert job["strategy"]["matrix"]["python"] == ["3.10", "3.13"]
    runs = [step.get("run", "") for step in job["steps"]]
    assert sum(command in run for run in runs) == 2  # Linux (as root) and the others
    assert "actions/setup-python@v5" in [step.get("uses") for step in job["steps"]]
    ci = (ROOT / ".ci" / "run").read_text()
    assert command in ci
