"""The terminal client's Swedish where a word depends on the language: the quit
question's yes key, counts with their plural forms, the goal named in a hint."""
from __future__ import annotations

import pytest

from cartagena_net.i18n import language, set_language
from client.render import render_screen, to_text
from tests.client.sample_views import jamaica_view, legal_for
from tests.client.test_model import seated


@pytest.fixture
def swedish():
    before = language()
    set_language("sv")
    yield
    set_language(before)


def _asking():
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_key("q")
    assert m.overlay == "quit" and not m.exit_requested
    return m


@pytest.mark.parametrize("key", ["j", "J", "y", "Y"])
def test_the_swedish_quit_question_takes_j_and_y_for_yes(swedish, key):
    m = _asking()
    assert "j avsluta · n stanna" in to_text(render_screen(m, 80, 24))
    m.on_key(key)
    assert m.exit_requested


@pytest.mark.parametrize("key", ["n", "N", "x", "escape"])
def test_the_swedish_quit_question_stays_on_any_other_key(swedish, key):
    m = _asking()
    m.on_key(key)
    assert m.overlay is None and not m.exit_requested


def test_the_english_quit_question_says_y_and_j_stays():
    m = _asking()
    assert "y quit · n stay" in to_text(render_screen(m, 80, 24))
    m.on_key("j")
    assert m.overlay is None and not m.exit_requested
    m.on_key("q")
    m.on_key("y")
    assert m.exit_requested


def test_a_colours_letter_is_its_own_names(swedish):
    from client.glyphs import color_letters

    assert color_letters(["red", "blue", "yellow", "green"]) == {
        "red": "R", "blue": "B", "yellow": "G", "green": "Ö"}
    set_language("en")
    assert color_letters(["red", "blue", "yellow", "green"]) == {
        "red": "R", "blue": "B", "yellow": "Y", "green": "G"}


def test_the_help_says_the_card_keys_are_the_english_names(swedish):
    v = jamaica_view(0)
    m = seated(v, legal_for(v))
    m.on_key("?")
    text = " ".join(to_text(render_screen(m, 120, 40)).split())
    assert "engelska namn" in text
