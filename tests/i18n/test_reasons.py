"""Every reason the code gives (a host's refusal, the engine's, a bye, a hint) is a key of
the one table (cartagena_net/engine/reasons.py) whose template its fields fill exactly,
and each reads in Swedish with the game's words in Swedish."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cartagena_net.engine import make_game
from cartagena_net.engine.errors import IllegalActionError
from cartagena_net.engine.reasons import REASONS, fields, hint_text, reason_text
from cartagena_net.i18n import translation

ROOT = Path(__file__).resolve().parents[2]
HOST = ROOT / "cartagena_net" / "host"
ENGINE = ROOT / "cartagena_net" / "engine"


def calls(folder: Path, names: set[str]):
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                    f, ast.Attribute) else None
                if name in names:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def test_every_host_refusal_names_a_reason_and_fills_its_template():
    """HostError(code, why, fatal, **fields) and conn.refuse(code, why, ..., **fields):
    ``why`` a key of the table (a literal, or a name the test knows), the keywords its
    template's fields exactly."""
    seen = 0
    for where, node in calls(HOST, {"HostError", "refuse"}):
        if len(node.args) < 2:
            continue  # a definition's own call, or HostError.of (the engine's reasons)
        why = literal(node.args[1])
        given = {k.arg for k in node.keywords if k.arg} - {"fatal", "ref"}
        for k in node.keywords:  # **error_fields(exc): an OS error's words and its errno
            if k.arg is None and ast.unparse(k.value).startswith("error_fields("):
                given.add("error")
        if why is None:
            # a computed key: a password check's answer or the stop's; checked below
            assert ast.unparse(node.args[1]) in ("refused", "exc.why", "HOST_ENDED"), where
            continue
        assert why in REASONS, f"{where}: {why!r} is no reason"
        assert given == fields(why), f"{where}: {why} takes {fields(why)}, given {given}"
        seen += 1
    assert seen >= 55


def test_every_engine_refusal_names_a_reason_and_fills_its_template():
    seen = 0
    for where, node in calls(ENGINE, {"IllegalActionError", "InvalidActionError"}):
        if not node.args or isinstance(node.args[0], ast.Starred):
            continue  # IllegalActionError(*refused): the refusals, checked below
        why = literal(node.args[0])
        assert why is not None or _computed(node.args[0]), where
        given: set[str] = set()
        if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
            given = {literal(k) for k in node.args[1].keys}
        for key in ([why] if why else _computed(node.args[0])):
            assert key in REASONS, f"{where}: {key!r} is no reason"
            # a computed key (one of several) may be given a field some of them skip
            fits = given == fields(key) if why else fields(key) <= given
            assert fits, f"{where}: {key} takes {fields(key)}, given {given}"
        seen += 1
    assert seen >= 40


def test_every_option_error_of_the_engine_names_a_reason_and_fills_its_template():
    """OptionError(why, {fields}): the rules and options a game cannot be made with
    (presets.py, options.py) each name a key of the table, with its template's fields
    exactly; and no plain ValueError is left where the engine checks rules or options."""
    seen = 0
    for where, node in calls(ENGINE, {"OptionError"}):
        if not node.args:
            continue
        first = node.args[0]
        keys = ([literal(first.body), literal(first.orelse)] if isinstance(first, ast.IfExp)
                else [literal(first)])
        assert all(keys), f"{where}: the reason's key is not a literal"
        given: set[str] = set()
        if len(node.args) > 1:
            assert isinstance(node.args[1], ast.Dict), where
            given = {literal(k) for k in node.args[1].keys}
        for key in keys:
            assert key in REASONS, f"{where}: {key!r} is no reason"
            assert given == fields(key), f"{where}: {key} takes {fields(key)}, given {given}"
            seen += 1
    assert seen >= 26
    for name in ("presets.py", "options.py"):
        left = [f"{where}" for where, _node in calls(ENGINE, {"ValueError"})
                if where.startswith(f"cartagena_net/engine/{name}")]
        assert left == [], left


@pytest.mark.parametrize("preset, options, why, args", [
    ("jamaica", {"players": 9}, "preset-players", {"preset": "jamaica", "lo": 2, "hi": 5}),
    ("nope", {}, "unknown-rules", None),
    ("jamaica", {"foo": 1}, "unknown-option", None),
    ("jamaica", {"segments": "x"}, "option-number-not", {"option": "segments",
                                                          "value": "'x'"}),
    ("jamaica", {"segments": True}, "option-number", {"option": "segments"}),
    ("jamaica", {"hands_public": "maybe"}, "option-yes-no-not", None),
    ("jamaica", {"hands_public": 3}, "option-yes-no", {"option": "hands_public"}),
    ("jamaica", {"side": 3}, "option-text", {"option": "side"}),
    ("jamaica", {"colors": 3}, "option-colors", {}),
    ("jamaica", {"segments": 13}, "option-range", {"option": "segments", "lo": 1, "hi": 12}),
    ("jamaica", {"morgan": "often"}, "option-choices", None),
    ("jamaica", {"filibusters": "yes"}, "filibusters-no-dark", {}),
    ("jamaica", {"magic": "yes"}, "magic-symbols", {}),
    ("studiogiochi-2017", {"magic": "yes", "row_size": "6"}, "magic-row", {}),
    ("jamaica", {"colors": "red,red"}, "colors-too-few", {"n": 4}),
    ("jamaica", {"players": 2, "colors": "red,blue5"}, "colors-words", {"most": 16}),
    # (deal-too-many, a guard: no preset's cards run short within the options' bounds)
    ("jamaica", {"story": "island"}, "story-needs-2017", {"story": "island"}),
    ("studiogiochi-2017", {"story": "whole", "side": "jungle"}, "whole-no-side", {}),
    ("studiogiochi-2017", {"story": "whole", "segments": 2}, "whole-segments", {"least": 3}),
    ("studiogiochi-2017", {"island_segments": 4}, "option-whole-only",
     {"option": "island_segments"}),
    ("studiogiochi-2017", {"morgan": "island"}, "morgan-island-whole", {}),
    ("studiogiochi-2017", {"story": "island", "side": "jungle"}, "island-side", {}),
    ("studiogiochi-2017", {"story": "whole", "board": "GRL"}, "board-two-paths", {}),
    ("jamaica", {"board": "SDK/BPH"}, "board-sloop", {}),
    ("jamaica", {"board": "SXDZ"}, "board-letters", {"letters": "X Z", "use": "SDKBPH"}),
])
def test_each_option_error_carries_its_reason_and_reads_in_swedish(preset, options, why,
                                                                   args):
    from cartagena_net.engine.errors import OptionError

    with pytest.raises(OptionError) as caught:
        make_game(preset, **options)
    err = caught.value
    assert isinstance(err, ValueError)  # every ``except ValueError`` still catches it
    assert err.why == why and set(err.fields) == fields(why), (err.why, err.fields)
    if args is not None:
        assert err.fields == args
    assert str(err) == reason_text(why, err.fields) and "{" not in str(err)
    swedish = reason_text(why, err.fields, translation("sv"))
    assert swedish and swedish != str(err)
    for value in err.fields.values():  # the notation stays as it was typed
        assert str(value) in swedish


def _computed(node: ast.expr) -> list[str]:
    if isinstance(node, ast.JoinedStr):  # f"owes-{what}": every decision a game owes
        return [f"owes-{k}" for k in ("discard", "take", "give", "keep", "stack")]
    if isinstance(node, ast.IfExp):  # "draw-not-stuck" if ... else "draw-not-allowed"
        return [literal(node.body), literal(node.orelse)]
    return []


def test_every_refusal_tuple_of_the_engine_fills_its_template():
    """The refusals the variants return (why, fields[, rule]) and the absent kinds'."""
    from cartagena_net.engine import jailbreak, morgan
    from cartagena_net.engine.rules import ABSENT

    found = list(ABSENT.values())
    for shore in (jailbreak.CARTAGENA, jailbreak.TORTUGA):
        for frm, to, how in ((5, 9, "retreat"), (5, 9, "advance"), (3, 5, "advance"),
                             (3, 5, "retreat")):
            got = jailbreak.refusal(5, shore, 3, frm, to, how, "red")
            if got:
                found.append(got)
    found += [r for r in (morgan.island_refusal(True, "retreat"),
                          morgan.island_refusal(False, "morgan")) if r]
    assert {r[0] for r in found} >= {"sloop-full", "sloop-away", "no-retreat-from-sloop",
                                     "sloop-at-cartagena", "no-retreat-on-island",
                                     "morgan-not-on-island", "no-sloop", "magic-off"}
    for r in found:
        err = IllegalActionError(*r)
        assert err.why in REASONS and set(err.fields) == fields(err.why), r
        assert str(err) != err.why and "{" not in str(err)


@pytest.mark.parametrize("why", sorted(REASONS))
def test_every_reason_reads_in_swedish_with_its_fields(why):
    sample = {"card": "skull", "power": "gun", "color": "red", "colors": "red blue",
              "symbols": "skull key", "place": 7, "cards": 2, "spaces": 1, "actions": 1,
              "seats": 4, "tables": 1}
    args = {f: sample.get(f, 3) for f in fields(why)}
    english = reason_text(why, args)
    swedish = reason_text(why, args, translation("sv"))
    assert english and swedish and "{" not in swedish, why
    assert swedish != english or not any(c.isalpha() for c in REASONS[why]), why


def test_the_game_words_and_counts_of_a_reason_read_in_swedish():
    sv = translation("sv")
    from client.glyphs import color_name, place, symbol_name  # the terminal's words

    def said(why, **args):
        return reason_text(why, args, sv, color_name, symbol_name, place)

    from cartagena_net.i18n import language, set_language

    was = language()
    set_language("sv")  # the client's word functions read the process's language
    try:
        assert said("card-not-in-hand", card="skull") == "du har ingen dödskalle på handen"
        assert said("seat-taken", seat=2, color="blue") == "plats 2 (blå) är upptagen"
        assert said("seats-empty", colors="red green") .startswith(
            "platser som fortfarande är tomma: röd, grön;")
        assert said("no-pirate-there", color="red", place="sloop") == \
            "röd har ingen pirat på slupen"
        assert said("no-chest-there", place=6) == "ingen stängd kista på ruta 6"
    finally:
        set_language(was)
    assert "1 kort" in reason_text("discard-too-many", {"cards": 1, "given": 2}, sv)
    assert "2 kort" in reason_text("discard-too-many", {"cards": 2, "given": 3}, sv)
    assert "1 card," in reason_text("discard-too-many", {"cards": 1, "given": 2})
    assert "2 cards," in reason_text("discard-too-many", {"cards": 2, "given": 3})
    assert reason_text("seat-taken", {"seat": 2}) is None  # a field missing: the host's line
    assert reason_text("no-such-key", {}) is None
    assert reason_text("discard-too-many", {"cards": "two", "given": 3}) is None


def test_an_engine_refusal_from_a_real_game_reads_in_swedish():
    state = make_game("jamaica", players=2).new_state(seed=3)
    held = {c for c in ("skull", "dagger", "key", "bottle", "hat", "pistol")
            if state.hands[0][state.game.card_index[c]]}
    missing = next(c for c in ("skull", "dagger", "key", "bottle", "hat", "pistol")
                   if c not in held)
    with pytest.raises(IllegalActionError) as err:
        state.apply(f"advance 0 {missing}")
    assert err.value.why == "card-not-in-hand" and err.value.fields == {"card": missing}
    assert str(err.value) == f"you hold no {missing} card"
    sv = translation("sv")
    assert reason_text(err.value.why, err.value.fields, sv) .startswith("du har ingen ")


def test_a_hint_reads_from_its_data_in_swedish():
    sv = translation("sv")
    why = {"kind": "retreat", "spaces": 2, "cards": 1, "gain": 12, "next": "advance 0 key"}
    assert hint_text(why) == "this pirate steps back 2 spaces and draws 1 card"  # no points
    said = hint_text(why, sv)
    assert "2 rutor" in said and "1 kort" in said and "advance" not in said
    move = {"kind": "jump", "spaces": 12, "before": 31, "after": 36,
            "move": {"why": "hint-advance", "args": {"card": "hat", "pirate": 2,
                                                     "from": "start", "to": 12}}}
    assert hint_text(move) == ("play the hat: your pirate 2 at the start jumps to space 12, "
                               "the first free hat — your chance 31% → 36%")
    from client.glyphs import color_name, place, symbol_name

    said = hint_text(move, sv, symbol_name, color_name, place)
    assert said.startswith("spela ") and "din pirat 2" in said and "ruta 12" in said
    assert said.endswith("första lediga hat — din vinstchans 31 % → 36 %")
    give = {"kind": "choose", "before": 40, "after": 41,
            "move": {"why": "hint-give", "args": {"card": "parrot", "color": "blue"}},
            "also": {"why": "hint-card-helps", "args": {"color": "blue", "spaces": 2}}}
    assert hint_text(give) == ("give the parrot to blue — it moves blue's pirates 2 spaces "
                               "at most — your chance 40% → 41%")
    assert "ge " in hint_text(give, sv, symbol_name, color_name, place)
    assert hint_text({"kind": "jump", "spaces": 1, "pirates": 2, "power": "hook"}) == \
        "the hook power: these two pirates jump 1 space"
    assert hint_text({"kind": "mystery"}) == "the bot rates it best"


def test_an_os_error_in_a_reason_is_worded_by_its_name():
    """``journal-failed`` carries the disk's error as ``error`` and ``errno``: a reader
    words a known errno itself (the host's system says it in English), and shows the
    system's words for one it does not know."""
    import errno

    from cartagena_net.portable.files import error_fields

    args = error_fields(OSError(errno.ENOSPC, "No space left on device"))
    assert reason_text("journal-failed", args).startswith(
        "the host cannot save the game (the disk is full)")
    sv = translation("sv")
    assert "(disken är full)" in reason_text("journal-failed", args, sv)
    odd = {"error": "Strange failure", "errno": "EWHAT"}
    assert "(Strange failure)" in reason_text("journal-failed", odd, sv)
