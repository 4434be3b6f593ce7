"""One word for each thing: the Swedish catalog keeps to the glossary
(``cartagena_net/i18n/glossary.py``): no entry whose English names a thing uses a word
the glossary forbids for it; each thing's own word is in use; docs/rules.md's table is
the glossary's."""
from __future__ import annotations

from pathlib import Path

import pytest

from cartagena_net import i18n
from cartagena_net.i18n.glossary import TERMS, Term, markdown, offences
from cartagena_net.i18n.po import read_po

ROOT = Path(__file__).resolve().parents[2]


def _entries():
    path = i18n.catalog_path("sv")
    return [e for e in read_po(path.read_text(encoding="utf-8"), str(path)) if e.msgid]


def _english(e) -> str:
    return e.msgid + ("\n" + e.msgid_plural if e.msgid_plural else "")


@pytest.mark.parametrize("term", TERMS, ids=[t.thing for t in TERMS])
def test_no_entry_uses_a_word_the_glossary_forbids_for_its_thing(term):
    bad = [f"line {e.line}: {e.msgid!r} -> {s!r}: {found}" for e in _entries()
           for s in e.msgstr if (found := offences(term, _english(e), s))]
    assert bad == [], f"{term.thing}: the glossary's word is {term.word!r}"


@pytest.mark.parametrize("term", TERMS, ids=[t.thing for t in TERMS])
def test_each_things_own_word_is_in_use(term):
    import re

    naming = [e for e in _entries() if term.names(_english(e))]
    assert naming, f"no message names {term.thing}: its pattern is dead"
    assert any(re.search(term.own(), s) for e in naming for s in e.msgstr), term.thing


def test_the_check_finds_a_forbidden_word_and_spares_another_things_own():
    space = next(t for t in TERMS if t.thing.startswith("a space"))
    assert offences(space, "the next free space", "närmaste lediga plats") == ["plats"]
    assert offences(space, "the next free space", "närmaste lediga ruta") == []
    # a message about a seat and a space: "plats" is the seat's
    assert offences(space, "seat {seat} moves {n} spaces", "plats {seat} flyttar {n} rutor") == []
    assert offences(space, "the sloop", "närmaste lediga plats") == []  # names no space
    discard = Term("discard", r"\bdiscard", "slänga", (r"(?i)\bkast",))
    assert offences(discard, "Discard one", "Kasta ett", [discard]) == ["Kasta"]
    captain = next(t for t in TERMS if t.thing.startswith("the Captain ("))
    assert offences(captain, "the Captain sails", "den här Kapten seglar") == ["r Kapten"]
    assert offences(captain, "Captain: ", "Kapten: ") == []


def test_the_rule_books_glossary_table_is_the_glossarys():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert markdown() in text, "docs/rules.md: paste cartagena_net.i18n.glossary.markdown()"


def test_the_catalogs_header_names_its_translator_team_and_revision():
    import re

    path = i18n.catalog_path("sv")
    header = next(e for e in read_po(path.read_text(encoding="utf-8"), str(path))
                  if e.msgid == "" and e.context is None)
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if line)
    assert fields["Language"] == "sv"
    assert fields["Last-Translator"] and "FULL NAME" not in fields["Last-Translator"]
    assert fields["Language-Team"] and "LANGUAGE" not in fields["Language-Team"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d[+-]\d{4}", fields["PO-Revision-Date"])
