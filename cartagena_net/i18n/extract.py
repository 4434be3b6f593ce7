"""Finding the messages the code shows, and keeping the catalogs in step with them.

A message is a string literal in a call of ``_``, ``gettext``, ``N_``, ``ngettext``,
``pgettext`` or ``NP_`` (or a translation object's ``.gettext``, ``.ngettext``,
``.pgettext``) anywhere in the product's source, plus the engine's words the command
line shows (the options' help and the presets' titles), and the web pages' messages
(``t("...")`` in their scripts, ``data-t`` in their HTML: :mod:`cartagena_net.i18n.pages`).
A call with a computed argument
translates a message marked elsewhere; an f-string inside one is a mistake (its words
could never be in a catalog) and is reported.

``python -m cartagena_net.i18n.extract`` rewrites every catalog: new messages are added
untranslated, translations kept, messages the code no longer uses dropped (and listed).
``--new CODE`` starts the catalog of a new language; ``--pot FILE`` writes a template.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

from cartagena_net.i18n import LANGUAGES, catalog_path
from cartagena_net.i18n.po import Entry, read_po

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("cartagena_net", "client", "protocol")
SINGLE = {"_", "gettext", "N_"}
PLURAL = {"ngettext"}
CONTEXT = {"pgettext", "NP_"}


@dataclass
class Message:
    msgid: str
    msgid_plural: str | None = None
    context: str | None = None
    where: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)


class ExtractError(ValueError):
    """A marked message that cannot go into a catalog (an f-string, an empty string)."""


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and func.attr in ("gettext", "ngettext", "pgettext"):
        return func.attr
    return None


def _literal(node: ast.expr, where: str) -> str | None:
    if isinstance(node, ast.JoinedStr):
        raise ExtractError(f"{where}: an f-string is marked for translation; use "
                           "_(\"... {name} ...\").format(name=...)")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if not node.value:
            raise ExtractError(f"{where}: an empty message")
        return node.value
    return None


def messages_in(source: str, name: str) -> list[Message]:
    """The marked messages of one file, in their order."""
    found: list[Message] = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Call):
            continue
        fn = _name(node.func)
        where = f"{name}:{node.lineno}"
        args = node.args
        if fn in SINGLE and len(args) == 1:
            text = _literal(args[0], where)
            if text is not None:
                found.append(Message(text, where=[where]))
        elif fn in PLURAL and len(args) == 3:
            one, many = _literal(args[0], where), _literal(args[1], where)
            if one is not None and many is not None:
                found.append(Message(one, many, where=[where]))
        elif fn in CONTEXT and len(args) == 2:
            ctx, text = _literal(args[0], where), _literal(args[1], where)
            if ctx is not None and text is not None:
                found.append(Message(text, context=ctx, where=[where]))
    return sorted(found, key=lambda m: int(m.where[0].rsplit(":", 1)[1]))


def data_messages() -> list[Message]:
    """The engine's words the command line shows (the engine itself stays English)."""
    from cartagena_net.engine import OPTIONS, PRESETS

    out = [Message(o.help, where=[f"engine option {o.name}"]) for o in OPTIONS.values()]
    out += [Message(p.title, where=[f"engine preset {p.name}"]) for p in PRESETS.values()]
    return out


STATIC = Path("cartagena_net") / "web" / "static"


def page_messages(root: Path = ROOT) -> list[Message]:
    """The web pages' messages: ``t("...")``, ``nt(...)``, ``pt(...)`` in their scripts,
    ``data-t`` and ``data-ta`` in their HTML (:mod:`cartagena_net.i18n.pages`)."""
    from cartagena_net.i18n.pages import html_messages, js_messages

    out: list[Message] = []
    for path in sorted((root / STATIC).iterdir()):
        rel = str(path.relative_to(root))
        if path.suffix == ".js":
            out += [Message(i, p, c, [f"{rel}:{n}"])
                    for c, i, p, n in js_messages(path.read_text(encoding="utf-8"))]
        elif path.suffix == ".html":
            out += [Message(i, where=[f"{rel}:{n}"])
                    for i, n in html_messages(path.read_text(encoding="utf-8"))]
    return out


def extract(root: Path = ROOT) -> dict[tuple[str | None, str], Message]:
    """Every message of the product, by (context, msgid), in source order."""
    found: dict[tuple[str | None, str], Message] = {}
    files = sorted(p for folder in PRODUCT for p in (root / folder).rglob("*.py"))
    every = [m for p in files
             for m in messages_in(p.read_text(encoding="utf-8"), str(p.relative_to(root)))]
    for m in every + data_messages() + page_messages(root):
        have = found.get(m.key)
        if have is None:
            found[m.key] = m
            continue
        if have.msgid_plural != m.msgid_plural:
            raise ExtractError(f"{m.where[0]}: {m.msgid!r} has another plural at "
                               f"{have.where[0]}")
        have.where += m.where
    return found


def _quote(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out.replace("\t", "\\t") + '"'


def write_po(header: Entry | None, entries: list[Entry], where: dict) -> str:
    """A catalog's text: the header, then the entries with their places as comments."""
    lines: list[str] = []
    if header is not None:
        lines += ['msgid ""', 'msgstr ""']
        lines += [_quote(part + "\n") for part in "".join(header.msgstr).split("\n") if part]
        lines.append("")
    for e in entries:
        for w in where.get(e.key, []):
            lines.append(f"#: {w}")
        if e.flags:
            lines.append("#, " + ", ".join(sorted(e.flags)))
        if e.context is not None:
            lines.append(f"msgctxt {_quote(e.context)}")
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.msgid_plural is not None:
            lines.append(f"msgid_plural {_quote(e.msgid_plural)}")
            forms = e.msgstr or ["", ""]
            lines += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(forms)]
        else:
            lines.append(f"msgstr {_quote(e.msgstr[0] if e.msgstr else '')}")
        lines.append("")
    return "\n".join(lines)


HEADER = ("Project-Id-Version: cartagena-net\nLanguage: {code}\nMIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
          "Plural-Forms: nplurals=2; plural=(n != 1);\n")


def update(code: str, found: dict, create: bool = False) -> list[str]:
    """Bring the catalog of ``code`` in step with the code; returns the dropped msgids."""
    path = catalog_path(code)
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = [Entry("", msgstr=[HEADER.format(code=code)])]
    else:
        entries = read_po(path.read_text(encoding="utf-8"), str(path))
    header = next((e for e in entries if e.msgid == "" and e.context is None), None)
    old = {e.key: e for e in entries if e is not header}
    out = []
    for key, m in found.items():
        e = old.get(key)
        if e is None or e.msgid_plural != m.msgid_plural:
            e = Entry(m.msgid, m.msgid_plural, [], m.context)
        out.append(e)
    where = {k: m.where[:3] for k, m in found.items()}
    path.write_text(write_po(header, out, where), encoding="utf-8")
    return [k[1] for k in old if k not in found]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cartagena_net.i18n.extract",
                                     description="keep the catalogs in step with the code")
    parser.add_argument("--new", metavar="CODE", help="start the catalog of a new language")
    parser.add_argument("--pot", metavar="FILE", help="write a template of every message")
    args = parser.parse_args(argv)
    found = extract()
    if args.pot:
        template = [Entry(m.msgid, m.msgid_plural, [], m.context) for m in found.values()]
        header = Entry("", msgstr=[HEADER.format(code="")])
        Path(args.pot).write_text(write_po(header, template, {k: m.where[:3] for k, m in
                                                              found.items()}), encoding="utf-8")
    if args.new:
        update(args.new, found, create=True)
        print(f"started {catalog_path(args.new)}; add {args.new!r} to LANGUAGES in "
              "cartagena_net/i18n/__init__.py")
    for code in LANGUAGES:
        if code != "en" and catalog_path(code).is_file() and code != args.new:
            for msgid in update(code, found):
                print(f"{code}: dropped {msgid!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
