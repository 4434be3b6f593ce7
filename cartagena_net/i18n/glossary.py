"""One word for each thing: the Swedish glossary as data.

Each :class:`Term` is one thing of the game or the program: how an English message names
it (``english``, a regular expression over the ``msgid``), the one Swedish word the
catalog uses for it (``word``), and the words it must not use for it (``forbidden``,
regular expressions over the ``msgstr``). ``tests/i18n/test_glossary.py`` holds the
catalog to it: an entry whose English names the thing must not use a forbidden word,
unless its English also names another thing whose own word that is (``plats`` is a seat:
an entry about a seat and a space may say both ``plats`` and ``ruta``). docs/rules.md's
table "One word for each thing" is :func:`markdown` of this list.

The rule book's words come first (docs/rules.md, "Swedish words"); where the book has
two (it says ``plats`` for a board space, and a seat needs a word), the choice is here.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    thing: str  # the thing, in English, for the reader of the docs
    english: str  # how a msgid names it (a regular expression, case-insensitive)
    word: str  # the Swedish word (as written in the glossary table)
    forbidden: tuple[str, ...]  # words not to use for it (regular expressions, case-sensitive)
    why: str = ""  # the reason of the choice, for the docs
    uses: str = ""  # how a msgstr using the chosen word looks (a regular expression)

    def names(self, msgid: str) -> bool:
        return re.search(self.english, msgid, re.IGNORECASE) is not None

    def own(self) -> str:
        return self.uses or re.escape(self.word.split(",")[0].split(" ")[0])


TERMS: tuple[Term, ...] = (
    Term("discard (a card)", r"\bdiscard", "slänga, slänghögen",
         (r"(?i)\bkast",), "the book's \"slänghögen\" (sv 78)", r"släng"),
    Term("face-up (the row of cards to take from)", r"face[- ]up(?! for everyone)",
         "uppåtvända (raden med uppåtvända kort)",
         (r"(?i)\buppvänd", r"(?i)\bsynlig", r"(?i)\böppen rad"),
         "the book's \"uppåtvända kort\" (sv 104, 112); open hands are \"synliga kort\"",
         r"uppåtvänd"),
    Term("hands face up (open hands)", r"hands are face up|open hands", "synliga kort",
         (r"(?i)\buppåtvänd", r"(?i)\buppvänd", r"(?i)\böppna händer"), "the book (sv 54)",
         r"(?i)synlig"),
    Term("review (the bot's, of a finished game)", r"\breview", "analys, analysera",
         (r"(?i)gransk",), "chosen", r"(?i)analy"),
    Term("a space of the board", r"\bspaces?\b", "ruta, rutor",
         (r"(?i)\bplats",), "chosen: the book says \"plats\" (sv 67) for a space, but "
         "\"plats\" is a seat at a table; a board's squares are \"rutor\"", r"(?i)\brut[ao]"),
    Term("a seat at a table", r"\bseats?\b", "plats, platser", (r"(?i)\bsäte",),
         "chosen", r"(?i)\bplats"),
    Term("draw (cards)", r"\bdraws?\b|\bdrew\b|\bdrawn\b|\bdrawing\b", "plocka upp",
         (r"(?i)\bdra\b", r"(?i)\bdrar\b", r"(?i)\bdrog\b", r"(?i)\bdragit\b",
          r"(?i)\bdragna\b", r"(?i)\bdraget kort"),
         "the book's \"plocka upp\" (sv 69)", r"(?i)plock|dela ut"),
    Term("advance (a pirate)", r"\badvanc", "flytta framåt",
         (r"(?i)\bgå framåt", r"(?i)\bgår framåt", r"(?i)\bgick framåt"),
         "the book (sv 67)", r"(?i)framåt"),
    Term("retreat (a pirate)", r"\bretreat|\bfall(?:s|ing)? back", "flytta bakåt",
         (r"(?i)\bgå bakåt", r"(?i)\bgår bakåt", r"(?i)\bgick bakåt"),
         "the book (sv 68)", r"(?i)bakåt"),
    Term("an option of the rules (and the New table form's)", r"\boptions?\b",
         "alternativ", (r"(?i)inställning",), "chosen", r"(?i)alternativ"),
    Term("an action (one move of a turn)", r"\bactions?\b", "drag",
         (r"(?i)\bhandling",), "the book (sv 65: \"ett, två eller tre drag\")", r"(?i)\bdrag"),
    Term("the Filibusters (2017 option)", r"\bFilibusters\b", "Fribytarna",
         (r"\bFilibusters\b",), "chosen: *fribytare* is Swedish for filibuster",
         r"(?i)fribytar"),
    Term("a bot (definite: boten, botens; plural: bottar)", r"\bbots?\b", "bot, bottar",
         (r"(?i)\bbotten", r"(?i)\bbottens", r"(?i)\bbottproc", r"(?i)\bbotar(na)?\b"),
         "chosen: SAOL's bot, boten, bottar", r"(?i)\bbot"),
    Term("a rating (the scoreboard's strength)", r"\brating\b", "styrketal",
         (r"(?i)\branking",), "chosen: \"ranking\" is a rank order", r"styrketal"),
    Term("the Captain (lower case but first in a sentence or a label)", r"\bCaptain",
         "kapten", (r"[a-zåäö,;(] Kapten",),
         "chosen: a capital K only where a sentence or a label begins", r"(?i)kapten"),
    Term("the Captain's free sail", r"free sail|sail[^.]*\bfree\b|\bfree\b[^.]*sail",
         "fri segling, segla fritt", (r"(?i)\bgratis",), "chosen", r"(?i)\bfri"),
    Term("a plain-text score (`replay --score`, `export`)", r"\bscore\b", "partiprotokoll",
         (), "chosen", r"protokoll"),
    Term("a record file (a kept game's)", r"\brecords?\b(?! file)",
         "partifil (a kept game: sparat parti)", (r"(?i)protokoll",),
         "chosen; a plain-text score is \"partiprotokoll\"", r"(?i)partifil|parti"),
    Term("a seat's turn (to play)", r"\bto play\b|'s turn\b", "på tur",
         (r"\bspelar\b",), "chosen", r"på tur|tur"),
    Term("the hook (power)", r"\bhooks?\b", "krok", (r"(?i)\bhaka",), "chosen", r"krok"),
    Term("Morgan's push", r"\bpush|\bMorgan\b", "knuffa, knuff",
         (r"tillhör",), "chosen", r"(?i)knuff|morgan"),
    Term("pirates in the goal", r"\bhome\b", "i {goal} (i båten, i viken, i slupen)",
         (r"(?i)\bhemma\b",), "chosen: the goal by its name", r"(?i)\bi\b"),
    Term("the board (of play)", r"\bboard\b", "spelplan, spelplanen", (r"(?i)\bbräd",),
         "chosen: the board's own name in the rules and on every screen", r"(?i)spelplan"),
    Term("a segment (of the board or the island path)", r"\bsegments?\b", "segment",
         (r"(?i)\bdel(ar)?\b", r"(?i)stigdel"), "chosen: the rules' and the options' word",
         r"segment"),
    Term("the stock (the hidden pile to draw from)", r"\bstock\b", "draghögen",
         (r"(?i)\bhög(en)?\b",), "the book's \"draghögen\" (sv 112)", r"(?i)draghög"),
    Term("a replay (of a kept game)", r"\breplay", "uppspelning, spela upp",
         (r"(?i)\brepris",), "chosen", r"(?i)uppspel|spela upp|spelas upp"),
    Term("the Whole Jailbreak (`story=whole`)", r"\bwhole jailbreak\b", "Hela rymningen",
         (r"(?i)fängelseflykt",), "chosen: the book's \"rymma\" (sv 2)", r"(?i)rymning"),
)


def offences(term: Term, msgid: str, msgstr: str,
             terms: Iterable[Term] = TERMS) -> list[str]:
    """The forbidden words of ``term`` in ``msgstr`` (the translation of ``msgid``), but
    a word another thing the message names has as its own."""
    if not term.names(msgid):
        return []
    others = [t for t in terms if t is not term and t.names(msgid)]
    found = []
    for pattern in term.forbidden:
        for m in re.finditer(pattern, msgstr):
            if any(re.search(o.own(), m.group(0)) for o in others):
                continue
            rest = re.match(r"\w*", msgstr[m.end():])
            found.append(m.group(0) + (rest.group(0) if rest else ""))  # the whole word
    return found


def markdown(terms: Iterable[Term] = TERMS) -> str:
    """The glossary as docs/rules.md's table."""
    rows = ["| thing | Swedish | never | why |",
            "|---|---|---|---|"]
    for t in terms:
        never = ", ".join(f"`{p.replace('(?i)', '').replace(chr(92) + 'b', '')}`"
                          for p in t.forbidden) or "-"
        rows.append(f"| {t.thing} | {t.word} | {never} | {t.why} |")
    return "\n".join(rows)
