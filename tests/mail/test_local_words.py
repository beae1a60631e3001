"""Command words in German and French: each read as its English word, none taken for an English
command word, a game's notation or the first word of a line of prose."""

from __future__ import annotations

import pytest

from games import registry
from gm.mail import orders
from gm.mail.orders import LOCAL_WORDS, read, words_language

ENGLISH_WORDS = orders.COMMAND_WORDS | {"MY", "GAMES", "DATA", "FORGET", "ME", "IF", "THEN", "ALL", "GM"}
# How lines of prose often begin, in the three languages: never a command word.
PROSE_STARTS = {
    "HI", "HELLO", "DEAR", "THANKS", "THANK", "PLEASE", "SORRY", "OK", "YES", "NO", "I", "MY", "WE", "THE",
    "HALLO", "HI", "LIEBE", "LIEBER", "DANKE", "BITTE", "ICH", "WIR", "DER", "DIE", "DAS", "JA", "NEIN",
    "GRUSS", "GRÜSSE", "VIELE", "MOIN", "SERVUS", "TSCHÜSS", "MEIN", "MEINE", "ALSO", "SO", "GUT",
    "BONJOUR", "SALUT", "MERCI", "CHER", "CHÈRE", "JE", "NOUS", "LE", "LA", "LES", "OUI", "NON", "MON",
    "MES", "ALORS", "BIEN", "BONNE", "BONSOIR", "CORDIALEMENT", "AMITIÉS", "VOICI", "DÉSOLÉ",
}


@pytest.mark.parametrize("word", sorted(LOCAL_WORDS))
def test_each_local_word_is_read_as_its_command(word):
    english, language = LOCAL_WORDS[word]
    if english == "END":
        assert read("", f"{word.lower()}\nHELP").commands == [] == read("", "END\nHELP").commands
    else:
        alone = read("", word.lower()).commands
        assert alone == read("", english).commands and alone, word
    assert words_language(word.capitalize()) == (language or None)


@pytest.mark.parametrize("word", [w for w, (english, _) in LOCAL_WORDS.items()
                                  if english in orders.ARGUMENT_COMMANDS or english in orders.GAME_ARGUMENT_COMMANDS])
def test_a_local_word_carries_its_arguments_as_the_english_one(word):
    english = LOCAL_WORDS[word][0]
    assert read("", f"{word} nb7").commands == read("", f"{english} nb7").commands


def test_a_word_of_a_command_without_arguments_is_read_only_as_the_whole_line():
    mail = read("", "GAME nb1 PASSWORD x\nAufgeben bitte\nfin de la partie")
    assert mail.commands == [] and mail.order_lines == ["Aufgeben bitte", "fin de la partie"]
    assert mail.language is None


def test_the_language_is_that_of_the_first_local_word_read():
    assert words_language("GAME nb1 PASSWORD x\nBOARD\nBRETT\nAIDE") == "de"
    assert words_language("HELP\nBOARD") is None
    assert words_language("liste") is None  # alike in German and French
    assert words_language("PRESS TO ALL\nHILFE\nENDPRESS\nAIDE") == "fr"  # press is not read
    assert words_language("END\nHILFE") is None
    assert words_language("", "HILFE") == "de" and read("AIDE", "").commands == ["HELP"]


def test_local_words_end_the_mail_as_end_does():
    mail = read("", "GAME nb1 PASSWORD x\nBRETT\nENDE\nAUFGEBEN")
    assert mail.commands == ["BOARD"] and mail.language == "de"


def test_no_local_word_is_an_english_command_word_or_a_prose_start():
    words = {part for word in LOCAL_WORDS for part in [word, word.split()[0]]}
    assert not words & ENGLISH_WORDS
    assert not {w for w in LOCAL_WORDS if w.split()[0] == w} & PROSE_STARTS
    assert all(orders.starts_with_command(word) == orders.starts_with_command(english)
               for word, (english, _) in LOCAL_WORDS.items())


def test_no_two_tables_share_a_word():
    """Every pair of tables of words: the German, the French and the shared local words, the
    English command words (with their second words), and how lines of prose begin."""
    tables = {language or "both": {w for w, (_, lang) in LOCAL_WORDS.items() if lang == language}
              for language in ("de", "fr", "")}
    tables["english"] = set(ENGLISH_WORDS)
    tables["prose"] = PROSE_STARTS
    names = sorted(tables)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if {first, second} != {"english", "prose"}:  # "MY GAMES": an English command may start so
                assert not tables[first] & tables[second], (first, second)
    lowered = [word.lower() for word in LOCAL_WORDS]
    assert len(set(lowered)) == len(lowered)


@pytest.mark.parametrize("kind", registry.available())
def test_no_local_word_is_an_order_of_any_game(kind):
    rules = registry.get(kind)
    players = ["ada", "bob", "cyd", "dee"][:max(rules.min_players, 2)]
    state = rules.start(rules.setup(players, rules.check_options({}), 1), 0.0)
    for word in LOCAL_WORDS:
        for written in (word, word.lower()):
            with pytest.raises(Exception):
                rules.read_order(state, players[0], written)


def test_reading_a_long_line_of_local_words_stays_linear():
    line = "HILFE " * 200_000
    assert read("", line).commands == [] and len(read("", line).order_lines) == 1
