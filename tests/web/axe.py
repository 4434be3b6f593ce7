"""axe-core (the accessibility engine browser test suites use) run in a page under test.

``axe.min.js`` comes from npm (``tests/install.sh`` puts it in ``tests/.axe``;
``CARTAGENA_AXE_JS`` may name another copy)."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = Path(os.environ.get("CARTAGENA_AXE_JS")
              or ROOT / "tests" / ".axe" / "node_modules" / "axe-core" / "axe.min.js")
SERIOUS = ("serious", "critical")


def axe_source() -> str:
    if not AXE_JS.is_file():
        raise AssertionError(f"axe-core is not installed at {AXE_JS}: run sh tests/install.sh "
                             "(it needs npm)")
    return AXE_JS.read_text(encoding="utf-8")


def violations(driver, impacts: tuple[str, ...] = SERIOUS) -> list[str]:
    """axe-core's findings on the page as it is now, of these impacts: one line each
    (the rule, its impact, and the elements)."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(axe_source())
    found = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map("
        "(v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map("
        "(n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(1, 2)"
        ".join(''))})))).catch((e) => done([{id: 'axe-error', impact: 'critical', help: "
        "String(e), nodes: []}]));")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {'; '.join(v['nodes'][:4])}"
            for v in found if v["impact"] in impacts]
