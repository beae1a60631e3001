"""Command words in German and French, through the daemon: each does what its English word does."""

from __future__ import annotations

from support import body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True


def replies(engine, text, sender="ada@example.org", **credentials):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **credentials))
    return [body(mail) for mail in outbox(engine, start)]


def test_a_strangers_hilfe_and_aide_are_answered_with_help(engine):
    (english,) = replies(engine, "HELP", sender="new@example.net")
    (german,) = replies(engine, "HILFE", sender="other@example.net")
    (french,) = replies(engine, "aide", sender="third@example.net")
    for text in (english, german, french):
        assert "HELP" in text and "ABSENCE <from> <to>" in text


def test_brett_and_plateau_send_the_board_as_board_does(engine, nb_game):
    (board,) = replies(engine, "BOARD", game_id="nb1", password=nb_game["ada"])
    (brett,) = replies(engine, "Brett", game_id="nb1", password=nb_game["ada"])
    (plateau,) = replies(engine, "PLATEAU", game_id="nb1", password=nb_game["ada"])
    assert brett.splitlines()[:12] == board.splitlines()[:12] == plateau.splitlines()[:12]


def test_aufgeben_resigns_and_a_sentence_starting_so_does_not(engine, nb_game):
    replies(engine, "Aufgeben bitte nicht", game_id="nb1", password=nb_game["ada"])
    assert engine.load("nb1").status == "active"
    replies(engine, "AUFGEBEN", game_id="nb1", password=nb_game["ada"])
    view = engine.load("nb1")
    assert view.status != "active" or "ada" in view.rules.removed(view.state)
