"""The engine's shape: no import cycle between its modules, each personalised version in
its own module, and no variant's name in the core turn."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from cartagena_net import engine

ENGINE = Path(engine.__file__).parent


def _imports(path: Path) -> set[str]:
    """Engine modules imported when ``path`` is imported (not under TYPE_CHECKING, not
    inside functions)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(a.name for a in node.names)
    return found


def test_engine_modules_import_each_other_without_a_cycle():
    graph = {p.stem: _imports(p) for p in ENGINE.glob("*.py")}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " → ".join((*path, name))
        if name in done:
            return
        for dep in graph.get(name, ()):
            visit(dep, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_each_personalised_version_is_its_own_module_and_the_core_names_none():
    for module in ("retreat", "morgan", "filibusters", "jailbreak", "magic"):
        assert (ENGINE / f"{module}.py").exists()
    tree = ast.parse((ENGINE / "state.py").read_text())
    for node in ast.walk(tree):  # docstrings may explain; code may not
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            body[0] = ast.Pass()
    code = ast.unparse(tree).lower()
    for word in ("morgan", "filibuster", "sloop", "captain", "shore", "story", "island",
                 "magic", "chest", "lantern", "gun", "rum", "parrot"):
        assert not re.search(rf"\b{word}", code), f"state.py's code mentions {word}"
