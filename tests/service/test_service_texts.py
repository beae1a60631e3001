"""The service's own sentences (areas intake and play): each is in the German and French
catalogues as compiled, and a refusal said in German or French keeps no English word."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.base import NotYourTurnError
from games.text import Plural, reason, Text
from gm.core import i18n
from gm.service.outgoing import pace
from gm.service.play import takebacks, turns

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402

AREAS = ("intake", "play")
# English words no German or French sentence of gm's has (names and notation aside)
ENGLISH = {"the", "and", "your", "you", "is", "not", "was", "were", "game", "turn", "orders", "order",
           "move", "has", "have", "of", "to", "before", "they", "their", "stand", "closed", "over"}
SAME = {"{said} {sentence}", "TAKEBACK {word}: {why} (RULINGS G9)."}  # the same in German


def english_words(text: str) -> set[str]:
    words = {word.strip(".,;:()'\"").lower() for word in text.split()}
    return words & ENGLISH


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("area", AREAS)
def test_every_sentence_of_the_service_is_in_the_compiled_catalogue(area, language):
    catalogue = i18n.translations(language)
    untranslated = []
    for message in catalogs.area_messages(area):
        if isinstance(message, tuple):
            said = catalogue.ngettext(message[0], message[1], 2)
            english = message[1]
        else:
            said, english = catalogue.gettext(message), message
        if said == english and english not in SAME:
            untranslated.append(english)
    assert not untranslated, untranslated[:5]


@pytest.mark.parametrize("language,expected", [
    ("de", "Presse zugestellt"), ("fr", "Presse remise")])
def test_a_label_is_said_in_the_readers_language(language, expected):
    assert i18n.translate(Text("Press delivered"), language) == expected


def test_a_plural_picks_each_languages_form():
    winners = Plural("The game is over. Winner: {winners}.", "The game is over. Winners: {winners}.",
                     n=1, winners="ada")
    assert winners == "The game is over. Winner: ada."
    assert i18n.translate(winners, "de") == "Das Spiel ist vorbei. Gewinner: ada."
    assert i18n.translate(winners, "fr") == "La partie est terminée. Gagnant : ada."


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_refused_order_after_a_closed_turn_is_said_whole(language):
    why = NotYourTurnError(Text("the game is over"))
    refusal = turns.refusal(SimpleNamespace(turn=4), why, 3)
    assert refusal.startswith("turn 3 had closed before your orders were judged")  # English as it was
    said = i18n.translate(refusal, language)
    assert "3" in said and "4" in said
    assert not english_words(said), said


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_refused_setting_is_said_without_english(language):
    with pytest.raises(ValueError) as caught:
        pace.parse_setting("SOMETIMES")
    said = i18n.translate(caught.value.args[0], language)
    assert "SET MAIL DAILY [HH:MM]" in said
    assert not english_words(said), said


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_takeback_refusal_keeps_the_games_titles_and_no_english(language):
    view = SimpleNamespace(rules=SimpleNamespace(title="Neighbors"), id="nb7")
    text = Text("There are no takebacks in {game} (RULINGS G9): {which}", game=view.rules.title,
                which=takebacks.games_named())
    said = i18n.translate(text, language)
    assert "Neighbors" in said and said != text
    assert not english_words(said), said


def test_a_game_error_passes_through_as_the_game_made_it():
    made = Text("no piece at {cell}", cell="c3")
    assert reason(NotYourTurnError(made)) is made
    assert reason(NotYourTurnError("plain words")) == "plain words"
