"""The catalogs and the code agree: every message the code shows is in every catalog and
translated, no catalog keeps a message the code dropped, and the translations keep their
placeholders; the in-memory .mo reads as msgfmt's would; a missing or empty translation
reads in English."""
from __future__ import annotations

import gettext
import re

import pytest

from cartagena_net import i18n
from cartagena_net.i18n.extract import ExtractError, extract, messages_in
from cartagena_net.i18n.po import PoError, compile_mo, read_po

CATALOGS = [c for c in i18n.LANGUAGES if c != i18n.DEFAULT]


def entries(code: str):
    path = i18n.catalog_path(code)
    return {e.key: e for e in read_po(path.read_text(encoding="utf-8"), str(path))
            if e.msgid or e.context}


def test_every_language_but_english_has_its_catalog():
    assert CATALOGS == ["sv"]
    for code in CATALOGS:
        assert i18n.catalog_path(code).is_file(), code


@pytest.mark.parametrize("code", CATALOGS)
def test_every_message_the_code_shows_is_in_the_catalog_and_translated(code):
    found = extract()
    assert len(found) > 200  # the extraction really reads the code
    have = entries(code)
    missing = [f"{m.where[0]}: {m.msgid!r}" for k, m in found.items() if k not in have]
    assert missing == [], "not in the catalog (python -m cartagena_net.i18n.extract)"
    untranslated = [f"{m.where[0]}: {m.msgid!r}" for k, m in found.items()
                    if not have[k].translated]
    assert untranslated == []
    plural = [k for k, m in found.items() if (m.msgid_plural is None) != (
        have[k].msgid_plural is None)]
    assert plural == []


@pytest.mark.parametrize("code", CATALOGS)
def test_no_catalog_keeps_a_message_the_code_no_longer_uses(code):
    found = extract()
    stale = [e.msgid for k, e in entries(code).items() if k not in found]
    assert stale == [], "python -m cartagena_net.i18n.extract drops them"


PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sdr]|%[sdr]")


@pytest.mark.parametrize("code", CATALOGS)
def test_translations_keep_every_placeholder_and_no_stray_percent(code):
    bad = []
    for e in entries(code).values():
        want = sorted(PLACEHOLDER.findall(e.msgid))
        for form in e.msgstr:
            if sorted(PLACEHOLDER.findall(form)) != want and not (
                    e.msgid_plural and form.count("{") == e.msgid.count("{")):
                bad.append((e.msgid, form))
            if "%" in form and "%" not in e.msgid.replace("%%", ""):
                bad.append((e.msgid, form))  # argparse formats help with %
    assert bad == []


def test_the_extractor_finds_every_kind_of_call_and_refuses_an_f_string():
    source = '''
x = _("one")
y = ngettext("{n} card", "{n} cards", n)
z = pgettext("card", "key")
w = N_("marked")
v = NP_("place", "cove")
u = t.gettext("on a translation")
s = _(computed)  # translates a message marked elsewhere
'''
    found = [(m.context, m.msgid, m.msgid_plural) for m in messages_in(source, "x.py")]
    assert found == [(None, "one", None), (None, "{n} card", "{n} cards"),
                     ("card", "key", None), (None, "marked", None), ("place", "cove", None),
                     (None, "on a translation", None)]
    with pytest.raises(ExtractError, match="f-string"):
        messages_in('_(f"{x} cards")', "bad.py")
    with pytest.raises(ExtractError, match="empty"):
        messages_in('_("")', "bad.py")


def test_the_engine_words_the_command_line_shows_are_messages():
    from cartagena_net.engine import OPTIONS, PRESETS

    found = {m.msgid for m in extract().values()}
    assert {o.help for o in OPTIONS.values()} <= found
    assert {p.title for p in PRESETS.values()} <= found


SAMPLE = r'''
# a comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

#: here.py:1
msgid "ship"
msgstr "statek"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} karta"
msgstr[1] "{n} karty"
msgstr[2] "{n} kart"

msgctxt "card"
msgid "key"
msgstr "klucz"

msgid "long"
msgstr "one "
"two"

#, fuzzy
msgid "guess"
msgstr "zgadywanie"

msgid "empty"
msgstr ""

msgid "tab\tquote\" é"
msgstr "ok\n"
'''


def test_a_catalog_reads_with_plural_rules_context_and_fallbacks():
    t = gettext.GNUTranslations(__import__("io").BytesIO(compile_mo(read_po(SAMPLE))))
    assert t.gettext("ship") == "statek"
    assert [t.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2, 5, 22, 25)] == [
        "1 karta", "2 karty", "5 kart", "22 karty", "25 kart"]
    assert t.pgettext("card", "key") == "klucz" and t.gettext("key") == "key"
    assert t.gettext("long") == "one two"
    assert t.gettext("guess") == "guess"  # a fuzzy entry is no translation
    assert t.gettext("empty") == "empty"  # an empty one neither: English, never a blank
    assert t.gettext("tab\tquote\" é") == "ok\n"
    assert t.gettext("not in it") == "not in it"
    assert t.ngettext("{n} ship", "{n} ships", 1) == "{n} ship"  # English's own rule
    assert t.ngettext("{n} ship", "{n} ships", 3) == "{n} ships"


@pytest.mark.parametrize("text, error", [
    ('msgid "a"\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', "twice"),
    ('msgid "a\nmsgstr "b"\n', "quoted"),
    ('"floating"\n', "continues nothing"),
    ('msgid "a"\nmsgfoo "b"\n', "unknown keyword"),
    ('msgstr "b"\n', "without msgid"),
])
def test_a_damaged_catalog_is_refused_with_its_line(text, error):
    with pytest.raises(PoError, match=error):
        read_po(text, "x.po")


def test_swedish_plurals_and_english_plurals():
    sv = i18n.translation("sv")
    en = i18n.translation("en")
    assert [sv.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)] == [
        "0 kort", "1 kort", "2 kort"]
    assert [en.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)] == [
        "0 cards", "1 card", "2 cards"]
    one, many = "{n} iteration", "{n} iterations"
    assert [sv.ngettext(one, many, n).format(n=n) for n in (0, 1, 2)] == [
        "0 iterationer", "1 iteration", "2 iterationer"]
    assert [en.ngettext(one, many, n).format(n=n) for n in (0, 1, 2)] == [
        "0 iterations", "1 iteration", "2 iterations"]
    one, many = "{low}-{high} player", "{low}-{high} players"
    assert sv.ngettext(one, many, 5).format(low=2, high=5) == "2-5 spelare"
    assert en.ngettext(one, many, 5).format(low=2, high=5) == "2-5 players"


def test_the_rule_books_words_are_the_swedish_cards_and_places():
    sv = i18n.translation("sv")
    cards = {c: sv.pgettext("card", c) for c in
             ("skull", "dagger", "key", "bottle", "hat", "pistol")}
    assert cards == {"skull": "dödskalle", "dagger": "dolk", "key": "nyckel",
                     "bottle": "flaska", "hat": "trekantig hatt", "pistol": "pistol"}
    assert [sv.pgettext("place", p) for p in ("sloop", "passage", "jail")] == [
        "slupen", "gången", "fängelset"]
    assert "Jamaicavarianten" in sv.gettext(
        "1672 rules, Jamaica way: hidden hands, draw from the stock")
    assert "Tortugavarianten" in sv.gettext(
        "1672 rules, Tortuga way: open hands, draw from a face-up row of 12")


def test_the_current_language_translates_and_falls_back(monkeypatch):
    monkeypatch.setattr(i18n, "_current", "en")
    assert i18n.set_language("sv_SE.UTF-8") == "sv"
    assert i18n._("options") == "flaggor"
    assert i18n.decimal(1.5, 1) == "1,5" and i18n.percent(45) == "45\u00a0%"
    assert i18n.percent(12.5, 1) == "12,5\u00a0%" and i18n.percent(0.5, 0) == "0\u00a0%"
    assert i18n._("a message no catalog has") == "a message no catalog has"
    assert i18n._(None) is None and i18n._("") == ""
    assert i18n.set_language("de") == "en"  # no German: English
    assert i18n._("options") == "options"
    assert i18n.decimal(1.5, 1) == "1.5" and i18n.percent(45) == "45%"
    assert i18n.set_language(None) == "en"


def test_a_language_whose_catalog_is_missing_reads_in_english(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setitem(i18n.LANGUAGES, "xx", "Nowhere")
    i18n.translation.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="Nowhere catalog cannot be read"):
            assert i18n.translation("xx").gettext("options") == "options"
    finally:
        i18n.translation.cache_clear()


def test_a_damaged_catalog_means_english_with_a_warning(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    path = tmp_path / "sv" / "LC_MESSAGES" / "cartagena.po"
    path.parent.mkdir(parents=True)
    path.write_text('msgid "options"\nmsgstr "flaggor\n', encoding="utf-8")
    i18n.translation.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="Svenska catalog cannot be read"):
            assert i18n.translation("sv").gettext("options") == "options"
    finally:
        i18n.translation.cache_clear()


def test_every_help_text_of_the_command_line_is_marked_for_translation():
    """A command's ``HELP`` is ``N_("...")`` and every ``help=`` of an argument goes
    through a translation (``_("...")``, or a variable the function translates), so that
    no English help creeps into ``--help`` unmarked."""
    import ast
    from pathlib import Path

    bad = []
    folder = Path(i18n.__file__).resolve().parents[1] / "cli"
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.name}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.keyword) and node.arg == "help" and isinstance(
                    node.value, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                bad.append(where)
            if (isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "HELP" for t in node.targets)
                    and not (isinstance(node.value, ast.Call)
                             and getattr(node.value.func, "id", "") == "N_")):
                bad.append(where)
    assert bad == []


def test_the_pages_messages_are_extracted_and_share_the_event_templates():
    """The pages' tr()/nt()/pt() and data-t marks are read (the catalog tests above then
    hold them to the same rules), and the pages' event lines use exactly the engine's
    sentence templates (static/i18n.js ports cartagena_net/engine/sentences.py)."""
    from cartagena_net.i18n.extract import ROOT, STATIC, page_messages
    from cartagena_net.i18n.pages import html_messages, js_messages

    found = {(m.context, m.msgid) for m in page_messages()}
    assert (None, "Your name") in found and (None, "Confirm") in found  # HTML
    assert ("card", "skull") in found and (None, "{n} card") in found  # JS
    assert js_messages('x = tr("a {n}"); y = nt("{n} b", "{n} bs", n); z = pt("c", "d");'
                       ' v = o.tr("not this");') == [
        (None, "a {n}", None, 1), (None, "{n} b", "{n} bs", 1), ("c", "d", None, 1)]
    assert html_messages('<p data-t> two\n words </p><a title="t" data-ta>x</a>') == [
        ("two words", 1), ("t", 2)]
    engine = (ROOT / "cartagena_net" / "engine" / "sentences.py").read_text(encoding="utf-8")
    templates = {m.msgid for m in messages_in(engine, "sentences.py")}
    page = {i for _c, i, _p, _n in js_messages(
        (ROOT / STATIC / "i18n.js").read_text(encoding="utf-8"))}
    assert len(templates) > 30 and templates <= page, templates - page
