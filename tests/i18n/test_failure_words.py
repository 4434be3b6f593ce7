"""What went wrong, in the reader's language: the host's failure notices as the terminal
words them (plurals right: "1 drag", no "1 actions"), the resume question's description
of an unfinished game, a damaged record's error (worded when shown, so the web port can
word it in each browser's language), and the live chances' percent."""
from __future__ import annotations

import pickle
from pathlib import Path
from types import SimpleNamespace

import pytest

from cartagena_net import i18n
from cartagena_net.engine.reasons import os_error_text
from cartagena_net.host.unfinished import JournalDamage, UnfinishedGame
from cartagena_net.records.format import RecordError, loads
from client.learn import ChanceCurve, chances_lines
from client.notices import notice_text
from client.panels import chance_part


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


SHORT = {"kind": "journal-shortened", "table": 1, "kept": 7, "lost": 1,
         "kept_as": "/s/table-1.journal.bad-1"}
LOST = {"kind": "journal-lost", "table": 2, "why": "checksum", "lost": 3}
FULL = {"kind": "journal-failed", "error": "No space left on device"}
NONE = {"kind": "no-journal", "folder": "/ro", "error": "Read-only file system"}


def test_the_notices_in_swedish_with_their_plurals():
    i18n.set_language("sv")
    short = notice_text(SHORT)
    assert short.startswith("det här partiet blev kortare")
    assert ("vid drag 7 och 1 drag efter det har gått förlorat; den skadade journalen sparas hos "
            "värden som /s/table-1.journal.bad-1") in short
    assert "de 5 dragen efter det har gått förlorade" in notice_text({**SHORT, "lost": 5})
    assert "partiets 3 drag har gått förlorade" in notice_text(LOST)
    assert notice_text({**LOST, "lost": 0}).endswith("(checksum), partiet har gått förlorat")
    assert notice_text(FULL).startswith("partiet har pausats: värdens disk är full")
    assert "(No space left on device)" in notice_text(FULL)  # the host's system words
    assert notice_text(NONE).startswith("det här partiet sparas inte: värden kan inte")
    assert notice_text({"kind": "unknown"}) is None
    for text in map(notice_text, (SHORT, LOST, FULL, NONE)):
        assert not {"the", "game", "host", "action", "actions", "lost"} & set(
            text.replace(",", " ").replace(";", " ").split()), text


def test_the_notices_in_english_keep_their_words_and_count_right():
    i18n.set_language("en")
    assert "the 1 action after it is lost;" in notice_text(SHORT)
    assert "the 4 actions after it are lost" in notice_text({**SHORT, "lost": 4})
    assert "its 3 actions are lost" in notice_text(LOST)
    assert "its 1 action is lost" in notice_text({**LOST, "lost": 1})
    assert notice_text(FULL).startswith("game paused: the host's disk is full or refuses "
                                        "writes (No space left on device)")


def _game(**kw):
    base = {"table": 1, "name": "ann's table", "rules": "jamaica",
            "players": ["ann", "Bo (greedy bot)"], "actions": 1, "to_act": "ann",
            "path": Path("/s/table-1.journal")}
    return UnfinishedGame(**{**base, **kw})


def test_a_disk_error_and_a_damaged_journal_are_worded_from_their_data():
    """The host sends a disk error's ``errno`` and a damaged journal's ``cause``; each
    client words them, and only an error with no name known here (or an older host's
    notice without them) shows the host's own English words."""
    full = {**FULL, "errno": "ENOSPC"}
    ro = {**NONE, "errno": "EROFS"}
    lost = {**LOST, "cause": "damaged", "why": "checksum mismatch (the record was damaged)"}
    i18n.set_language("sv")
    assert "(disken är full)" in notice_text(full)
    assert "(disken är skrivskyddad)" in notice_text(ro)
    assert "journalen var skadad (en post i den är skadad)" in notice_text(lost)
    assert "(tom)" not in notice_text({**lost, "cause": "empty"})
    assert "(den är tom)" in notice_text({**lost, "cause": "empty"})
    assert "(Bad things)" in notice_text({**FULL, "errno": "EWEIRD", "error": "Bad things"})
    for text in map(notice_text, (full, ro, lost)):
        assert not {"the", "is", "record", "damaged", "checksum", "space", "read-only"} & set(
            text.replace(",", " ").replace(";", " ").replace("(", " ").replace(")", " ")
            .split()), text
    i18n.set_language("en")
    assert "(the disk is full)" in notice_text(full)
    assert "its journal was damaged (a record in it is damaged)" in notice_text(lost)


def test_the_host_sends_a_disk_error_with_its_name():
    import errno

    from cartagena_net.portable.files import error_fields

    fields = error_fields(OSError(errno.ENOSPC, "No space left on device"))
    assert fields == {"error": "No space left on device", "errno": "ENOSPC"}
    assert error_fields(OSError("odd")) == {"error": "odd"}
    i18n.set_language("sv")
    assert os_error_text(fields, i18n.gettext) == "disken är full"
    i18n.set_language("en")
    assert os_error_text({"error": "Weird"}) == "Weird" and os_error_text({}) == "?"


def test_the_resume_question_describes_the_game_in_the_language():
    i18n.set_language("sv")
    assert _game().describe() == ("bord 1 \"ann's table\": jamaica, ann, Bo (greedy bot); "
                                  "1 drag spelat, ann på tur")
    damaged = _game(actions=3, damage=JournalDamage(1, 5, "checksum", 3, 2, False))
    assert damaged.describe().endswith("3 drag spelade, ann på tur [bord 1: journalens post "
                                       "5: en post i den är skadad; partiet kommer tillbaka vid drag 3; 2 "
                                       "drag efter det är förlorade; en kopia av den sparas]")
    whole = _game(damage=JournalDamage(1, None, "the file is empty", 0, 1, True,
                                       cause="empty"))
    assert whole.describe() == ("bord 1: journalens fil: den är tom; hela partiet är förlorat "
                                "(1 drag); den sparas som table-1.journal.bad-<time> "
                                "(eller i en arkivmapp)")
    i18n.set_language("en")
    assert _game(actions=2).describe().endswith("2 actions played, ann to play")
    assert "1 action after it is lost" in JournalDamage(1, 5, "x", 3, 1, False).describe()


def test_a_record_error_is_worded_when_it_is_shown():
    with pytest.raises(RecordError) as caught:
        loads(b"{not json")
    error = caught.value
    i18n.set_language("sv")
    assert str(error).startswith("inte en partifil: skadad JSON (")
    assert error.text(i18n.translation("en").gettext).startswith(
        "not a record: damaged JSON (")
    i18n.set_language("en")
    assert str(error).endswith("truncated or edited?)")
    copy = pickle.loads(pickle.dumps(error))  # a worker's error keeps its fields
    assert str(copy) == str(error)
    nested = RecordError("{file}: {error}", file="/r/g.json", error=error)
    assert nested.text(i18n.translation("sv").gettext).startswith(
        "/r/g.json: inte en partifil")


def test_the_chances_panel_writes_percent_as_the_language_does():
    curve = ChanceCurve()
    curve.take({"seq": 1, "chances": [0.45, 0.55]})
    i18n.set_language("sv")
    lines = chances_lines(curve, ["ann", "bob"], width=40)
    assert "45\u00a0%" in lines[0] and "55\u00a0%" in lines[1]
    assert i18n.percent(12.5, 1) == "12,5\u00a0%"
    model = SimpleNamespace(chances=curve, view={"seats": [{}, {}]}, ascii_only=True)
    assert "".join(text for _style, text in chance_part(model, 1, "red")).startswith(
        "  chans  55\u00a0% ")  # the players' panel
    i18n.set_language("en")
    lines = chances_lines(curve, ["ann", "bob"], width=40)
    assert " 45% " in lines[0] and len(lines[0]) <= 40
    assert "".join(text for _style, text in chance_part(model, 0, "red")).startswith(
        "  win  45% ")
