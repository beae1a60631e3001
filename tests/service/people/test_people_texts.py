"""The people area's sentences in German and French: a sample has its translation, a refusal
rendered in French keeps no English sentence, lines joined for an answer are translated line
by line, and an exception's Text survives the way from where it is raised to the reply."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from games.text import Plural, Text
from gm.core import i18n
from gm.core.model import ServiceError
from gm.service.people import draws, forget, lines, lobby, optin, publicnames, seats, tournamentmail
from games.text import in_lines
from games.text import reason as said

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import catalogs  # noqa: E402

SAMPLE = [
    "Not done",
    "Game {game} is over: there is no draw to propose or withdraw.",
    "You have resigned from game {game}. Too few players are left: the game is over.",
    "JOIN {args}: write JOIN <game id> <your name>, e.g. JOIN nb7 ada. Send LIST for the games open here.",
    "If you did not ask for this, ignore this mail: nothing changes.",
    "Your new password: {secret}",
    "Kept: {line}",
    "Rematch offered",
    "Tournament {tournament}: final standings",
    "gm has forgotten this address, as asked:",
    "Name not set",
]
# Words that mark an English sentence: none of them is a German or French word, notation or a command.
ENGLISH = {"the", "your", "write", "send", "for", "here", "game", "games", "open", "is", "and", "with",
           "this", "not", "you", "has", "only", "one", "or", "to", "of", "was"}
COMMANDS = {"JOIN", "LIST", "LEAVE", "GAME", "PASSWORD", "RESET", "SET", "NAME", "DRAW", "WITHDRAW",
            "FORGET", "ME", "CONFIRM", "RESIGN", "TOURNAMENT", "PRESS", "TO", "IF", "THEN"}


def english_words(text: str) -> set[str]:
    """The words of ``text`` that only English has (command words, in capitals, left out)."""
    words = re.findall(r"[A-Za-z']+", text)
    return {w.lower() for w in words if w not in COMMANDS and w.lower() in ENGLISH}


@pytest.mark.parametrize("language", ["de", "fr"])
@pytest.mark.parametrize("template", SAMPLE)
def test_a_sample_of_the_people_sentences_has_a_translation(template, language):
    assert template in {m if isinstance(m, str) else m[0] for m in catalogs.area_messages("people")}
    translated = i18n.translations(language).gettext(template)
    assert translated and translated != template


@pytest.mark.parametrize("language", ["de", "fr"])
def test_plurals_take_the_languages_forms(language):
    one = Plural("{n} IF line(s) not kept: {why}", "{n} IF line(s) not kept: {why}", n=1, why="x")
    many = Plural("{n} IF line(s) not kept: {why}", "{n} IF line(s) not kept: {why}", n=3, why="x")
    assert one == "1 IF line(s) not kept: x"
    assert "(s)" not in i18n.translate(one, language) and "(s)" not in i18n.translate(many, language)
    assert i18n.translate(one, language) != i18n.translate(many, language).replace("3", "1")


def test_a_refusal_in_french_has_no_english_sentence():
    with pytest.raises(ServiceError) as raised:
        lobby.join_request(None, "nb7", "ada@example.org")  # one word: refused before any lookup
    refusal = said(raised.value)
    assert isinstance(refusal, Text) and str(refusal).startswith("JOIN nb7: write JOIN")
    french = i18n.translate(refusal, "fr")
    assert french.startswith("JOIN nb7 : écrivez JOIN") and not english_words(french), french
    assert not english_words(i18n.translate(refusal, "de"))


@pytest.mark.parametrize("language", ["de", "fr"])
def test_refusals_made_of_texts_within_texts_have_no_english_left(language):
    name = lobby.check_name("no spaces")  # a player's name refused, inside JOIN's refusal
    joined = Text("JOIN {game} {name}: {problem}", game="nb7", name="x y", problem=Text("{why}.", why=name))
    assert str(joined).startswith("JOIN nb7 x y: a player's name is one word")
    for text in (joined, forget.refusal(["nb7", "px2"]), publicnames.name_problem("a@b"),
                 tournamentmail.request_in_words("JOIN TOURNAMENT spring ada")):
        assert not english_words(i18n.translate(text, language)), i18n.translate(text, language)


def test_lines_joined_for_an_answer_read_as_before_and_translate_line_by_line():
    told = [Text("Kept: {line}", line="IF ada a1 THEN b2"), "",
            Text("You have no conditional lines standing in this game.")]
    joined = in_lines(told)
    assert joined == "Kept: IF ada a1 THEN b2\n\nYou have no conditional lines standing in this game."
    german = i18n.translate(joined, "de").split("\n")
    assert german == ["Gespeichert: IF ada a1 THEN b2", "", "Du hast in dieser Partie keine bedingten Zeilen."]
    assert in_lines([]) == "" and in_lines(["plain"]) == "plain"


def test_said_keeps_the_text_an_exception_was_raised_with():
    text = Text("game {game} is over.", game="nb7")
    assert said(ValueError(text)) is text
    assert said(ValueError("a", "b")) == "('a', 'b')" and said(KeyError()) == ""


def test_the_english_of_the_marked_sentences_is_as_before():
    assert seats.NOT_CONFIRMED.startswith("CONFIRM {code}: this code is unknown")
    assert str(Text(lines.KEPT, line="x")) == "Kept: x"
    assert draws.DRAWN == "Drawn by agreement (RULINGS G6): no winner."  # stored: never translated
    assert str(Text(optin.REFUSED["JOIN"])) == "Not joined"


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_code_mail_in_each_language_keeps_within_78_columns(language):
    from gm.present.templates import environment

    lines_ = [Text("At {at} a mail from {sender} asked for a new password for your seat {seat} of game "
                   "{game}. Nothing has changed yet.", at="2026-11-29 20:00 UTC", sender="ada@example.org",
                   seat="ada", game="nb7"), "",
              Plural("It must come from this address. Then gm mails the new password here, and the old "
                     "password, every reply address and every change of address still waiting stop working. "
                     "The code works once, for {n} hour; until then no change of address completes.",
                     "It must come from this address. Then gm mails the new password here, and the old "
                     "password, every reply address and every change of address still waiting stop working. "
                     "The code works once, for {n} hours; until then no change of address completes.", n=24)]
    text = environment(language=language).get_template("mail/answer.txt.j2").render(lines=lines_, game_id="nb7")
    assert max(len(line) for line in text.splitlines()) <= 78
    first = i18n.translate(lines_[0], language)
    assert first.split()[0] in text and "Nothing has changed yet" not in text
