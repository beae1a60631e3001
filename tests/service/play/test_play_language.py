"""What the play and outgoing rooms send a reader who set German or French: the note on a missed
deadline, the reports held for SET MAIL MYTURN, press from a reader of another language, the
notice to the address a seat was taken from, an error of the rules passed on, the rating plot's
words.  Each in the reader's language, no English sentence left, every line within 78 columns."""

from __future__ import annotations

import random

import pytest

from games.text import Text
from gm.core.i18n import translate
from gm.core.model import ServiceError
from gm.present.pictures import ratingplot
from gm.service.play import lifecycle
from support import PLAYERS, PLAYERS3, body, last_outbox_id, order_mail, outbox

H = 3600.0
ADDRESS = dict(PLAYERS3)
WIDTH = 78

# (language, what the reader reads, the English it must not read)
MISSED = {"de": "ohne dass deine Befehle da waren", "fr": "sans vos ordres"}
HELD = {"de": "Während deine Mails warteten (SET MAIL MYTURN):",
        "fr": "Pendant que vos messages attendaient (SET MAIL MYTURN) :"}
PRESS = {"de": ("Presse in Partie nb1, Zug 1", "Von: ada"), "fr": ("Presse de la partie nb1, tour 1", "De : ada")}
GIVEN_AWAY = {"de": "Dein Platz ada in Spiel nb1 ist an jemand anderen gegangen",
              "fr": "Votre place ada dans la partie nb1 a été cédée à un autre joueur"}


def fb_available() -> bool:
    try:
        import games.fuzzy_borders  # noqa: F401
    except ImportError:
        return False
    return True


def to(mails, name):
    return [m for m in mails if m["To"] == ADDRESS[name]]


def narrow(text: str) -> bool:
    return all(len(line) <= WIDTH for line in text.splitlines())


def set_language(engine, game_id: str, name: str, language: str) -> None:
    with engine.store.write():
        engine.store.seats.set_player_language(game_id, name, language)


@pytest.mark.skipif(not fb_available(), reason="games/fuzzy_borders is not importable")
@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_missed_deadline_note_is_in_the_readers_language_and_fits(engine, clock, language):
    engine.create_game("fuzzy-borders", "fb1", PLAYERS3, seed=2, options={"deadline": "72h"})
    set_language(engine, "fb1", "bob", language)
    engine.tick()
    view = engine.load("fb1")
    claim = view.rules.random_order(view.state, "ada", random.Random(1))
    assert engine.gm_order("fb1", "ada", claim).outcome == "sealed"
    since = last_outbox_id(engine)
    clock.advance(73 * H)
    engine.tick()
    mails = outbox(engine, since)
    (bob,) = [m for m in to(mails, "bob") if m["Content-Language"] == language]
    (cy,) = to(mails, "cy")
    text = body(bob)
    assert MISSED[language] in " ".join(text.split())
    assert "your orders were not in" not in " ".join(text.split())
    assert "your orders were not in" in " ".join(body(cy).split())  # cy reads English, as before
    assert narrow(text)


def pace_game(engine, language: str):
    """A three-player Neighbors game whose third mover reads ``language`` and MYTURN; passwords."""
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=5)
    view = engine.load("nb1")
    (first,) = view.rules.to_move(view.state)
    order = [name for name, _ in PLAYERS3]
    idle = order[(order.index(first) + 2) % 3]
    set_language(engine, "nb1", idle, language)
    engine.ingest(order_mail(ADDRESS[idle], "SET MAIL MYTURN", game_id="nb1", password=secrets[idle]))
    return secrets, idle


def play_one(engine, secrets):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    since = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS[mover], view.rules.legal_orders(view.state, mover)[0], game_id="nb1",
                             password=secrets[mover]))
    return outbox(engine, since)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_held_reports_open_the_next_mail_in_the_readers_language(engine, language):
    secrets, idle = pace_game(engine, language)
    assert to(play_one(engine, secrets), idle) == []  # held
    (mail,) = to(play_one(engine, secrets), idle)
    text = body(mail)
    assert mail["Content-Language"] == language
    assert HELD[language] in text
    assert "While your mail waited" not in text and narrow(text)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_press_reaches_each_reader_in_their_language(engine, language):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS3, seed=7, options={"press": "white"})
    set_language(engine, "nb1", "bob", language)
    since = last_outbox_id(engine)
    engine.ingest(order_mail(ADDRESS["ada"], "PRESS TO ALL\nHello all.\nENDPRESS", game_id="nb1",
                             password=secrets["ada"]))
    mails = outbox(engine, since)
    (bob,) = to(mails, "bob")
    (cy,) = to(mails, "cy")
    assert bob["Content-Language"] == language and "Hello all." in body(bob)
    assert all(words in body(bob) for words in PRESS[language])
    assert "This message was passed on by gm" not in body(bob)
    assert "This message was passed on by gm" in body(cy)  # cy reads English
    assert narrow(body(bob))


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_address_a_seat_was_taken_from_is_told_in_the_seats_language(engine, language):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1)
    set_language(engine, "nb1", "ada", language)
    since = last_outbox_id(engine)
    lifecycle.replace(engine, "nb1", "ada", "carol@example.org")
    (old,) = [m for m in outbox(engine, since) if m["To"] == "ada@example.org"]
    text = body(old)
    assert old["Content-Language"] == language and GIVEN_AWAY[language] in text
    assert "has passed on to another player" not in text and narrow(text)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_refused_deadline_keeps_the_reason_for_translation(engine, language):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=1)
    with pytest.raises(ServiceError) as refused:
        lifecycle.set_deadline(engine, "nb1", "whenever")
    said = refused.value.args[0]
    assert isinstance(said, Text) and "is not a moment gm reads" in str(said)
    assert "is not a moment gm reads" not in translate(said, language)


@pytest.mark.parametrize("language, words", [("de", "Wertung von ada in Neighbors nach jeder von 2"),
                                             ("fr", "Classement de ada à Neighbors après chacune des 2")])
def test_the_rating_plots_words_in_the_archives_language(language, words):
    alt = ratingplot.alt_text("ada", "Neighbors", [1.5, 2.25])
    assert alt == "ada's Neighbors rating after each of 2 rated games: 1.5, 2.2"  # English as before
    assert translate(alt, language).startswith(words)
    assert "rated games" not in translate(alt, language)


ABSENCE = {"de": ("schreib ABSENCE <von> <bis>", "Abwesenheit eingetragen: "),
           "fr": ("écrivez ABSENCE <début> <fin>", "Absence enregistrée : du ")}


@pytest.mark.parametrize("language", ["de", "fr"])
def test_an_absence_is_answered_in_the_readers_language(engine, language):
    secrets = engine.create_game("neighbors", "nb1", PLAYERS, seed=1, options={"deadline": "72h"})
    set_language(engine, "nb1", "ada", language)
    refused, recorded = ABSENCE[language]
    for text, said in (("ABSENCE tomorrow", refused), ("ABSENCE +1d +2d", recorded)):
        since = last_outbox_id(engine)
        engine.ingest(order_mail(ADDRESS["ada"], text, game_id="nb1", password=secrets["ada"]))
        (reply,) = to(outbox(engine, since), "ada")
        assert said in " ".join(body(reply).split()) and narrow(body(reply))
        assert "write ABSENCE" not in body(reply) and "Absence recorded" not in body(reply)
