"""No English sentence reaches a reader unmarked: in the command line, the records and
the terminal client, a literal text given to what shows it (``print``, the status line,
a record's error, argparse's type errors and ``parser.error``, ``SystemExit``, and in
the command line the ``ValueError``/``OSError`` its commands print) goes through the
catalog (``_``, ``ngettext``, ``pgettext``, ``N_``). Data around it is not a message:
the fields filled in (``repr``, ``str``, ``format``'s arguments), dict keys and
subscripts, and a command's own name (``cartagena host: ``).

``tests/i18n/test_catalogs.py`` checks that what is marked is in every catalog; this
finds what was never marked."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WRAP = {"_", "ngettext", "pgettext", "N_", "NP_", "gettext"}
SHOWN = {"print", "set_status", "RecordError", "ArgumentTypeError", "error", "SystemExit",
         "exit"}
SHOWN_BY_THE_COMMAND_LINE = SHOWN | {"ValueError", "OSError"}
DATA_CALLS = {"repr", "str", "format", "join", "get", "getattr"}
PREFIX = re.compile(r"\r?cartagena(-net)?( [a-z]+)?: ?")
# A literal that is not words for a reader: an option's name before a marked message.
NOT_WORDS = re.compile(r"--[a-z-]+: ?")


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _unmarked(call: ast.Call) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []

    def walk(node: ast.AST, marked: bool) -> None:
        if isinstance(node, (ast.Subscript, ast.Compare)):
            return  # r["id"], "error" in outcome: data
        if isinstance(node, ast.Dict):
            for value in node.values:
                walk(value, marked)
            return
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in WRAP:
                return
            if name in DATA_CALLS:  # the fields of a message: data
                if isinstance(node.func, ast.Attribute):
                    walk(node.func.value, marked)
                return
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and not marked:
            text = NOT_WORDS.sub("", PREFIX.sub("", node.value, count=1))
            if re.search(r"[A-Za-z]{2,}", text):
                out.append((node.lineno, node.value))
        for child in ast.iter_child_nodes(node):
            walk(child, marked)

    for arg in [*call.args, *(k.value for k in call.keywords
                              if k.arg not in ("file", "end", "sep", "flush", "error"))]:
        walk(arg, False)
    return out


def unmarked_in(source: str, shown: set[str] = SHOWN) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node.func) in shown:
            found += _unmarked(node)
    return sorted(found)


def test_the_scan_finds_an_unmarked_sentence_and_passes_a_marked_one():
    source = '''
print("cartagena host: " + _("listening on port {port}").format(port=port))
print(f"cartagena host: {exc}", file=sys.stderr)
model.set_status("the game goes on")
raise RecordError(f"no record {key!r} in {folder}")
raise RecordError(N_("no record {key}"), key=repr(key))
print(json.dumps({"presets": rows}))
print(f"{r['id']}  {date}")
raise ValueError("--password: " + _("an empty password cannot be set"))
'''
    assert unmarked_in(source) == [(4, "the game goes on"), (5, " in "), (5, "no record ")]


def test_no_unmarked_english_in_the_command_line_the_records_and_the_client():
    found = []
    for folder, shown in (("cartagena_net/cli", SHOWN_BY_THE_COMMAND_LINE),
                          ("cartagena_net/records", SHOWN), ("client", SHOWN)):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += [f"{path.relative_to(ROOT)}:{line}: {text!r}"
                      for line, text in unmarked_in(path.read_text(encoding="utf-8"), shown)]
    assert found == [], "mark them for the catalogs (_(...), docs/i18n.md)"
