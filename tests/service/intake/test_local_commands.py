"""Command words in German and French, through the daemon: each does what its English word does."""

from __future__ import annotations

from gm.mail.quotes import MARKERS
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


def drawing(text: str) -> list[str]:
    """The board's drawing in a report: from its first line of files to its second."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip() == "a b c d e f g")
    last = next(i for i, line in enumerate(lines) if i > first and line.strip() == "a b c d e f g")
    return lines[first:last + 1]


def test_brett_and_plateau_send_the_board_as_board_does(engine, nb_game):
    (board,) = replies(engine, "BOARD", game_id="nb1", password=nb_game["ada"])
    (brett,) = replies(engine, "Brett", game_id="nb1", password=nb_game["ada"])
    (plateau,) = replies(engine, "PLATEAU", game_id="nb1", password=nb_game["ada"])
    drawn = [drawing(text) for text in (board, brett, plateau)]
    assert drawn[0] == drawn[1] == drawn[2] and len(drawn[0]) == 8  # the files, six ranks, the files
    # each answered in the language of its word, the marker line first
    assert [text.splitlines()[0] for text in (board, brett, plateau)] == [MARKERS["en"], MARKERS["de"], MARKERS["fr"]]
    assert "Neighbors game nb1, turn 1" in board and "Neighbors game nb1, turn 1" not in brett + plateau


def test_aufgeben_resigns_and_a_sentence_starting_so_does_not(engine, nb_game):
    replies(engine, "Aufgeben bitte nicht", game_id="nb1", password=nb_game["ada"])
    assert engine.load("nb1").status == "active"
    replies(engine, "AUFGEBEN", game_id="nb1", password=nb_game["ada"])
    view = engine.load("nb1")
    assert view.status != "active" or "ada" in view.rules.removed(view.state)
