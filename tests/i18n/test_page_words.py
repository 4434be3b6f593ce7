"""No English sentence reaches a page's reader unmarked, as tests/i18n/test_unmarked_words.py
finds for Python: in the pages' scripts, a literal text given to what shows it (an
element's text or child, ``append``, ``title``, ``aria-label``, ``placeholder``, ``alt``)
goes through ``tr``, ``nt`` or ``pt``; in their HTML, every text is in an element marked
``data-t`` and every shown attribute in one marked ``data-ta``. Names that are the same
in every language (the game's, a command's) are not words to translate."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "cartagena_net" / "web" / "static"
LITERAL = r'("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.|\$\{)*?`)'
SHOWN = [
    r"\.(?:textContent|innerText|title|placeholder|alt)\s*=\s*",
    r"\.(?:append|prepend|replaceChildren|after|before)\(\s*",
    r'\bel\(\s*"[a-z0-9]+"\s*,\s*(?:\{[^{}]*\}|null|undefined)\s*,\s*',
    r'(?:\btitle|"aria-label"|\bplaceholder|\balt)\s*:\s*',
    r'setAttribute\(\s*"(?:title|aria-label|placeholder|alt)"\s*,\s*',
]
NAMES = re.compile(r"\bCartagena\b|\bcartagena join\b|/play\b")  # the game, a command, a path
ATTRS = ("title", "aria-label", "alt", "placeholder")


def _template(source: str, start: int) -> str:
    """The template literal opening at ``start`` (a backtick), its ``${...}`` balanced."""
    i, depth = start + 1, 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if depth == 0 and ch == "`":
            return source[start:i + 1]
        if source.startswith("${", i):
            depth += 1
            i += 2
            continue
        if depth and ch == "}":
            depth -= 1
        elif depth and ch in "\"'":  # a string inside ${...}: its braces are not code
            end = re.match(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', source[i:])
            if end:
                i += end.end()
                continue
        i += 1
    return source[start:]


def _words(literal: str) -> str:
    """The literal's own text: a template's fields (``${...}``) left out."""
    body = literal[1:-1]
    if literal.startswith("`"):
        out, depth, i = [], 0, 0
        while i < len(body):
            if body.startswith("${", i):
                depth += 1
                i += 2
                continue
            if depth and body[i] == "}":
                depth -= 1
            elif depth and body[i] in "\"'":
                end = re.match(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', body[i:])
                if end:
                    i += end.end()
                    continue
            elif not depth:
                out.append(body[i])
            i += 1
        body = "".join(out)
    return NAMES.sub("", body)


def unmarked_js(source: str) -> list[tuple[int, str]]:
    found = []
    for shown in SHOWN:
        for m in re.finditer(shown, source):
            at = m.end()
            if at < len(source) and source[at] == "`":
                literal = _template(source, at)
            else:
                lit = re.match(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', source[at:])
                if lit is None:
                    continue  # not a literal: a call of tr, a variable, ...
                literal = lit.group(0)
            if re.search(r"[^\W\d_]{2,}", _words(literal)):
                found.append((source.count("\n", 0, at) + 1, literal[:80]))
    return sorted(found)


class _Page(HTMLParser):
    """Texts and shown attributes outside elements marked data-t / data-ta."""

    VOID = frozenset({"meta", "link", "img", "input", "br", "hr", "source", "area", "col", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []  # (tag, marked for text)
        self.found: list[tuple[int, str]] = []
        self.skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        marked = "data-t" in names or bool(self.stack and self.stack[-1][1])
        if tag in ("script", "style"):
            self.skip += 1
        for attr in ATTRS:
            value = names.get(attr)
            if value and "data-ta" not in names and re.search(r"[^\W\d_]{2,}",
                                                               NAMES.sub("", value)):
                self.found.append((self.getpos()[0], f"{tag} {attr}={value!r}"))
        if tag not in self.VOID:
            self.stack.append((tag, marked))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        marked = bool(self.stack and self.stack[-1][1])
        text = NAMES.sub("", data)
        if not self.skip and not marked and re.search(r"[^\W\d_]{2,}", text):
            self.found.append((self.getpos()[0], data.strip()[:80]))


def unmarked_html(source: str) -> list[tuple[int, str]]:
    page = _Page()
    page.feed(source)
    return page.found


def test_the_scan_finds_unmarked_page_words_and_passes_marked_ones():
    script = '''
t.textContent = "Waiting for the game";
t.textContent = tr("Waiting for the game");
box.append(el("span", { class: "x" }, "rolls the dice"), " · ");
box.append(`${seatName(i)} · ${nt("{n} card", "{n} cards", n)}`);
b.title = `${host} · Cartagena`;
el("button", { "aria-label": "close" }, "×");
b.textContent = `${n} pirates home`;
'''
    assert [line for line, _ in unmarked_js(script)] == [2, 4, 7, 8]
    page = ('<p data-t>Marked text</p><p>Loose text</p><p><b>2</b></p>'
            '<button title="Close">x</button><button data-ta title="Close">x</button>'
            '<script>var a = "no words here";</script>')
    assert [text for _, text in unmarked_html(page)] == ["Loose text", "button title='Close'"]


def test_no_unmarked_english_in_the_pages():
    found = []
    for path in sorted(STATIC.glob("*.js")):
        found += [f"{path.name}:{line}: {text}"
                  for line, text in unmarked_js(path.read_text(encoding="utf-8"))]
    for path in sorted(STATIC.glob("*.html")):
        found += [f"{path.name}:{line}: {text}"
                  for line, text in unmarked_html(path.read_text(encoding="utf-8"))]
    assert found == [], "mark them for the catalogs (tr, nt, pt; data-t, data-ta: docs/i18n.md)"
