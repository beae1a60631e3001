"""A picture's words in its reader's language: the German or French picture of a position is
not the English one, the English one is as it was (the golden pixels hold it), and a spec to
draw later carries the language (an English spec names none, as before)."""

from __future__ import annotations

import json

import pytest

from gm.present import pictures
from test_report_accessible import KINDS, played


@pytest.mark.parametrize("kind", KINDS)
def test_a_picture_is_drawn_in_the_readers_language(kind):
    rules, state, _ = played(kind)
    english = pictures.picture(rules, state, "ada")
    german = pictures.picture(rules, state, "ada", "de")
    assert english and german and german != english
    assert pictures.picture(rules, state, "ada") == english  # the language was the one call's only
    drawn = pictures.pictures_for(rules, state, ["ada", "bob"], {"bob": "fr"})
    assert drawn["ada"] == english
    assert drawn["bob"] == pictures.picture(rules, state, "bob", "fr") != pictures.picture(rules, state, "bob")


@pytest.mark.parametrize("kind", KINDS)
def test_a_spec_names_a_language_other_than_english(kind):
    rules, state, _ = played(kind)
    specs = pictures.specs_for(rules, state, ["ada", "bob"], {"bob": "de"})
    assert "language" not in json.loads(specs["ada"])
    assert json.loads(specs["bob"])["language"] == "de"
    assert pictures.drawn_later(specs["bob"]) == pictures.picture(rules, state, "bob", "de")


def test_a_pictures_words_are_in_letters_its_font_draws():
    from gm.present.pictures.draw import lettered

    assert lettered("Tönung, weißer Punkt · Enchères, théâtre") == "Toenung, weisser Punkt · Encheres, theatre"
    assert lettered("plain words") == "plain words"
