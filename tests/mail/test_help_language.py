"""HELP in German and French: the command words of the language beside the English ones, the
prose from the catalogue, lines within 78 columns; English as before."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gm.mail.orders import LOCAL_WORDS
from gm.service.people import mailcommands
from gm.service.people.mailcommands import general_help, help_in, help_lines, usage_in


class Outbox:
    """The outbox of a case whose sender wrote in ``language``: keeps the replies."""

    def __init__(self, language: str | None = None) -> None:
        if language:
            self.language = language
        self.sent: list[tuple[str, str]] = []

    def reply(self, inbound, view, subject, body, kind):
        self.sent.append((subject, body))


def answered(tmp_path, language):
    ctx = SimpleNamespace(outbox=Outbox(language), config=SimpleNamespace(address="gm@example.org", data_dir=tmp_path))
    general_help(ctx, inbound=None)
    return ctx.outbox.sent[0]


def test_hilfe_is_answered_in_german_with_the_german_command_words(tmp_path):
    subject, body = answered(tmp_path, "de")
    assert subject == "Help" and mailcommands.said(subject, "de") == "Hilfe"
    assert "So spielst du mit gm per Mail" in body and "Befehle, jeder in einer eigenen Zeile:" in body
    for word in ("HELP|HILFE", "BOARD|BRETT", "RESIGN|AUFGEBEN", "DRAW|REMIS", "LIST|LISTE", "SUMMARY|MEINE SPIELE",
                 "JOIN|MITSPIELEN"):
        assert word in body, word
    assert "AIDE" not in body and "How to play" not in body
    assert max(len(line) for line in body.splitlines()) <= 78


def test_aide_is_answered_in_french(tmp_path):
    subject, body = answered(tmp_path, "fr")
    assert "Comment jouer par mail avec gm" in body
    for word in ("HELP|AIDE", "BOARD|PLATEAU", "RESIGN|ABANDON|ABANDONNER", "DRAW|NULLE", "LIST|LISTE"):
        assert word in body, word
    assert "HILFE" not in body and max(len(line) for line in body.splitlines()) <= 78


def test_english_help_is_unchanged_by_the_languages(tmp_path):
    subject, body = answered(tmp_path, None)
    assert body.startswith("How to play by mail with gm\n===========================\n")
    assert "HILFE" not in body and "|AIDE" not in body
    assert help_lines() == help_lines(language="en")
    assert help_lines()[0].startswith("HELP      ") and "|" not in help_lines()[0]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_local_word_of_a_language_is_listed_in_its_help(language):
    shown = "\n".join(help_lines(language=language))
    for word, (_english, lang) in LOCAL_WORDS.items():
        if lang in (language, "") and not mailcommands.transliterated(word):
            assert "|" + word in shown, word


def test_a_long_usage_stands_on_its_own_line():
    assert usage_in("JOIN TOURNAMENT <id> <name>", "de") == "JOIN|MITSPIELEN TOURNAMENT <id> <name>"
    lines = help_lines(language="de")
    at = lines.index("JOIN|MITSPIELEN TOURNAMENT <id> <name>")
    assert lines[at + 1].startswith(" " * 30 + "(kein Passwort")


def test_the_game_parts_of_help_are_translated():
    game = SimpleNamespace(options={"clock": "3d"}, kind="neighbors", help_text=lambda: "NOTATION\n")
    body = help_in("fr", game=game, kinds=[], commands=[], press=mailcommands.press_mode("grey"))
    assert "Pendules (RULINGS G10)" in body and "docs/rules/neighbors.md dans le dépôt de gm" in body
    said = " ".join(body.split())  # wrapped to 78 columns
    assert "Presse dans cette partie : activée ; votre nom n'est pas affiché (presse grise)." in said
    assert "this address" not in help_in("de", game=None, kinds=["neighbors"], commands=[], press=None)


def test_the_reply_language_is_the_outboxs_once_it_knows_one():
    from gm.service.context import reply_language

    assert reply_language(SimpleNamespace(outbox=Outbox())) == "en"
    assert reply_language(SimpleNamespace(outbox=Outbox("fr"))) == "fr"
