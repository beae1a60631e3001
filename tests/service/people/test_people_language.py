"""The mail commands' own lines in the reader's language: HISTORY's and RECORD's heads, LIST's
and SUMMARY's status words, a paused game in LIST <id>, HELP in a game, ABSENCE told to each
other player in their own language (dates too), and the places of a tournament's tables.

Each player asks for German or French by mail (SET LANGUAGE ... ALL) first; then no English
word of the list below is left in what gm writes them, and no line is wider than 78 columns."""

from __future__ import annotations

import pytest

from games.text import in_lines
from gm.core.i18n import translate
from gm.service.people import mailcommands, playercommands, tournamentmail, tournamentrounds, tournaments
from gm.service.play import lifecycle
from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = False

# English words no German or French sentence of these replies has (not "in", "an", "so"...).
ENGLISH = frozenset("""
the your you and with for this that has have will which what when who game games turn turns
order orders player players deadline reply send sent password is are it its of from by not
nobody yet open running paused finished left seat seats still free observe history record
public over attached longer than above away recorded moves playing forfeit st nd rd th
sum ranks earlier
""".split())
NOTATION = frozenset("HISTORY ALL RECORD GAME PASSWORD LIST HELP JSON ABSENCE UTC".split())
GERMAN_OR_FRENCH = ["de", "fr"]


def english_left(text: str) -> set[str]:
    """The English words of the list in ``text`` (capital command words are notation)."""
    cleaned = "".join(ch if ch.isalpha() else " " for ch in text)
    return {w.lower() for w in cleaned.split() if w not in NOTATION and w.lower() in ENGLISH}


def narrow(text: str) -> bool:
    return all(len(line) <= 78 for line in text.splitlines())


def mails(engine, sender: str, text: str, **kwargs) -> list:
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    return outbox(engine, start)


def reply(engine, sender: str, text: str, **kwargs) -> str:
    (answer,) = [m for m in mails(engine, sender, text, **kwargs) if m["To"] == sender]
    return body(answer)


@pytest.fixture
def game(engine):
    """nb1: ada and bob, each having asked for their language by mail (ada German, bob French)."""
    secrets = engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "bob@example.org")],
                                 seed=1, options={"deadline": "24h"})
    for name, language in (("ada", "de"), ("bob", "fr")):
        mails(engine, f"{name}@example.org", f"SET LANGUAGE {language} ALL", game_id="nb1",
              password=secrets[name])
    return secrets


def as_seat(game, language: str) -> tuple[str, dict]:
    name = "ada" if language == "de" else "bob"
    return f"{name}@example.org", dict(game_id="nb1", password=game[name])


@pytest.mark.parametrize("language", GERMAN_OR_FRENCH)
def test_history_head_is_in_the_readers_language(engine, game, language):
    sender, seat = as_seat(game, language)
    text = reply(engine, sender, "HISTORY", **seat)
    lines = text.splitlines()
    head = [next(line for line in lines if "nb1" in line)] + [line for line in lines if line.startswith("=====")]
    assert head and not english_left("\n".join(head)), head
    assert ("Verlauf der Partie nb1" if language == "de" else "Historique de la partie nb1") in text
    assert ("===== Zug 1 =====" if language == "de" else "===== Tour 1 =====") in text


@pytest.mark.parametrize("language", GERMAN_OR_FRENCH)
def test_record_head_is_in_the_readers_language(engine, game, language):
    sender, seat = as_seat(game, language)
    text = reply(engine, sender, "RECORD", **seat)
    head = next(part for part in text.split("\n\n") if "nb1" in part)  # the lines above the record
    assert not english_left(head), head
    assert narrow(head)
    assert ("Protokoll der Partie nb1" if language == "de" else "relevé de la partie nb1") in " ".join(head.split())


@pytest.mark.parametrize("language", GERMAN_OR_FRENCH)
def test_list_and_summary_say_status_in_the_readers_language(engine, game, language):
    engine.create_game("neighbors", "nb2", [("ada", "ada@example.org"), ("bob", "bob@example.org")], seed=2)
    lifecycle.pause(engine, "nb2")
    sender, seat = as_seat(game, language)
    listed = reply(engine, sender, "LIST", **seat)
    rows = [line for line in listed.splitlines() if line.startswith("nb")]
    assert len(rows) == 2 and not english_left("\n".join(rows)), rows
    assert ("pausiert" if language == "de" else "en pause") in rows[0]
    paused = reply(engine, sender, "LIST nb2", **seat)
    assert "nb2" in paused and "game master" not in paused
    assert ("angehalten" in paused or "pausiert" in paused) if language == "de" else "pause" in paused
    mine = reply(engine, sender, "SUMMARY", **seat)
    lines = [line for line in mine.splitlines() if line.startswith("nb")]
    assert len(lines) == 2 and not english_left("\n".join(lines)), lines
    assert narrow(listed) and narrow(paused) and narrow(mine)


@pytest.mark.parametrize("language", GERMAN_OR_FRENCH)
def test_help_in_a_game_lists_the_commands_in_the_readers_language(engine, game, language):
    sender, seat = as_seat(game, language)
    text = reply(engine, sender, "HELP", **seat)
    for line in mailcommands.help_lines(language=language)[:6]:
        assert line.rstrip() in text
    assert mailcommands.help_lines()[0].rstrip() not in text


def test_absence_is_told_to_each_other_player_in_their_own_language(engine, game):
    sent = mails(engine, "ada@example.org", "ABSENCE +1h +3d", game_id="nb1",
                 password=game["ada"])
    got = {m["To"]: body(m) for m in sent}
    assert "Abwesenheit eingetragen" in got["ada@example.org"]
    told = got["bob@example.org"]
    assert "ada sera absent(e)" in told and "janv." in told  # the date as a French reader writes it
    for text in got.values():
        said = [line for line in text.splitlines() if "ada" in line or "Abwesenheit" in line]
        assert not english_left("\n".join(said)), said
        assert narrow(text)


@pytest.mark.parametrize("language, places, shared", [
    ("de", "ada 1., bob 2.=, cy 2.=", "ada 1., bob 2., cy 3., dee 4. (kampflos)"),
    ("fr", "ada 1er, bob 2e=, cy 2e=", "ada 1er, bob 2e, cy 3e, dee 4e (forfait)"),
])
def test_tournament_places_and_result_words_are_in_the_readers_language(language, places, shared):
    names = {"a": "ada", "b": "bob", "c": "cy", "d": "dee"}
    tied = tournaments.result_text(["a", "b", "c"], (("a",), ("b", "c")), names, False)
    assert str(tied) == "ada 1st, bob 2nd=, cy 2nd="  # English as before
    assert translate(tied, language) == places
    forfeit = tournaments.result_text(list("abcd"), (("a",), ("b",), ("c",), ("d",)), names, True)
    said = translate(forfeit, language)
    assert said.split(" (")[0] == shared.split(" (")[0] and not english_left(said)
    assert not english_left(translate(tournaments.result_text(["a", "b"], None, names, False), language))
    assert not english_left(translate(tournamentmail.tiebreak_words(["sum of ranks"]), language))


def test_ordinals_in_english_are_as_before():
    said = [tournaments.ordinal_place(n, False) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    assert said == ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
    assert translate(tournaments.ordinal_place(21, False), "fr") == "21e"
    assert translate(tournaments.ordinal_place(11, True), "de") == "11.="


def test_status_words_keep_their_code_values():
    assert playercommands.status_word("paused") == "paused"
    assert translate(playercommands.status_word("active"), "de") == "läuft"


@pytest.mark.parametrize("language", GERMAN_OR_FRENCH)
def test_standings_of_a_multi_player_tournament_are_in_the_readers_language(engine, language):
    tournaments.new(engine, "nbt", "neighbors", "swiss", 2, table_size=3)
    for name in ("ada", "bob", "cy"):
        tournaments.enter(engine, "nbt", name, f"{name}@example.org")
    tournamentrounds.start(engine, "nbt")
    lines = tournamentmail.standings_lines(engine, engine.store.tournaments.tournament("nbt"))
    english = "\n".join(str(line) for line in lines)
    assert "player" in english and "sum of ranks" in english and "playing" in english  # English as before
    said = translate(in_lines(lines), language)
    assert not english_left(said.replace("neighbors", "")), said
    assert narrow(said)
