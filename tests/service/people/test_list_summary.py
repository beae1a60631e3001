"""LIST, LIST <id> and SUMMARY (MY GAMES): public facts about the games, by mail, with no
password; rate-limited like HELP, one reply per mail, never an address."""

from __future__ import annotations

import pytest

from gm.service.people import mailcommands
from gm.service.play import lifecycle
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL


@pytest.fixture
def three_games(engine, clock):
    """nb1 (ada, bob) with a deadline, nb2 (bob, cy) with a move made, nb3 (ada, cy)."""
    secrets = {"nb1": engine.create_game("neighbors", "nb1", PLAYERS, seed=1,
                                         options={"deadline": "24h"})}
    clock.advance(60)
    secrets["nb2"] = engine.create_game("neighbors", "nb2", [("bob", "bob@example.org"),
                                                             ("cy", "cy@example.org")], seed=2)
    view = engine.load("nb2")
    (mover,) = view.rules.to_move(view.state)
    engine.gm_order("nb2", mover, view.rules.legal_orders(view.state, mover)[0])
    clock.advance(60)
    secrets["nb3"] = engine.create_game("neighbors", "nb3", [("ada", "ada@example.org"),
                                                             ("cy", "cy@example.org")], seed=3)
    return secrets


def ask(engine, sender, text, **kwargs):
    """Send one mail; the one reply it gets (exactly one), as text."""
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    replies = outbox(engine, start)
    assert len(replies) == 1, [body(m) for m in replies]
    assert replies[0]["To"] == sender
    return body(replies[0])


def test_list_shows_every_game_newest_first_and_no_address(engine, three_games):
    text = ask(engine, "stranger@example.net", "LIST")
    lines = [line for line in text.splitlines() if line.startswith("nb")]
    assert [line.split()[0] for line in lines] == ["nb3", "nb2", "nb1"]
    assert "ada, bob" in lines[2] and "bob, cy" in lines[1] and "running" in lines[0]
    assert "turn 2" in lines[1] and "turn 1" in lines[2]
    assert "@" not in text.replace("stranger@example.net", "").replace("gm@localhost", "")
    assert "more" not in text


def test_list_works_in_the_subject_and_inside_a_game_mail(engine, three_games):
    assert "nb2" in ask(engine, "stranger@example.net", "", subject="list")
    text = ask(engine, "ada@example.org", "LIST", game_id="nb1", password=three_games["nb1"]["ada"])
    assert "nb3" in text and "nb2" in text


def test_list_says_how_many_more_past_the_limit(engine, three_games, monkeypatch):
    monkeypatch.setattr(mailcommands, "LIST_MAX", 2)
    text = ask(engine, "stranger@example.net", "LIST")
    assert "nb1" not in text and "and 1 older game not listed" in text


def test_list_of_an_unknown_game_says_so(engine, three_games):
    text = ask(engine, "stranger@example.net", "LIST nope")
    assert "no game called 'nope'" in text and "Send LIST" in text
    assert "nb1" not in text


def test_list_of_one_game_shows_scores_whose_move_and_no_address(engine, three_games, clock):
    view = engine.load("nb2")
    (mover,) = view.rules.to_move(view.state)
    text = ask(engine, "stranger@example.net", "list NB2")
    assert "game nb2, turn 2" in text and "Kind:    neighbors" in text and "running" in text
    scores = view.rules.scores(view.state)
    for name in ("bob", "cy"):
        (line,) = [x for x in text.splitlines() if x.strip().startswith(name + " ")]
        assert line.split()[1] == str(scores.get(name, 0))
    assert f"To move: {mover}" in text
    assert "@" not in text.replace("stranger@example.net", "").replace("gm@localhost", "")
    assert "PASSWORD" not in text.replace("PASSWORD <", "")


def test_list_of_one_game_shows_its_deadline_and_a_finished_game_its_end(engine, three_games):
    text = ask(engine, "stranger@example.net", "LIST nb1")
    assert "Deadline: " in text and "minutes from now" in text
    lifecycle.end(engine, "nb1", "test")
    text = ask(engine, "stranger@example.net", "LIST nb1")
    assert "Status:  finished" in text and "Deadline" not in text and "To move" not in text
    assert "nb1          Neighbors      finished" in ask(engine, "stranger@example.net", "LIST")


def test_summary_lists_the_senders_games_and_who_owes_orders(engine, three_games):
    nb1, nb3 = engine.load("nb1"), engine.load("nb3")
    text = ask(engine, "ada@example.org", "SUMMARY")
    assert "nb1:" in text and "nb3:" in text and "nb2" not in text
    blocks = {b.split(":")[0]: b for b in text.split("\n\n") if b.startswith("nb")}
    for view in (nb1, nb3):
        owes = "ada" in view.rules.to_move(view.state)
        assert ("YOU OWE ORDERS" in blocks[view.id]) == owes, blocks[view.id]
        assert f"To move: {view.rules.to_move(view.state)[0]}" in blocks[view.id]
    assert "Deadline: " in blocks["nb1"] and "Deadline" not in blocks["nb3"]
    assert text.index("nb3:") < text.index("nb1:")
    assert "bob@" not in text and "cy@" not in text
    # MY GAMES is the same, in the body or the subject, any case.
    assert ask(engine, "ada@example.org", "my  games") == text
    assert ask(engine, "ada@example.org", "", subject="My games") == text


def test_summary_leaves_out_a_seat_that_left(engine, three_games):
    lifecycle.eject(engine, "nb3", "ada")
    text = ask(engine, "ada@example.org", "SUMMARY")
    assert "nb1:" in text and "nb3" not in text


def test_summary_from_a_stranger(engine, three_games):
    text = ask(engine, "stranger@example.net", "SUMMARY")
    assert "You play no game here" in text and "nb1" not in text


def test_several_commands_without_a_game_get_one_reply(engine, three_games):
    text = ask(engine, "ada@example.org", "HELP\nLIST\nLIST nb1\nSUMMARY\n")
    assert "How to play by mail" in text and "Games on this server" in text
    assert "Players and scores:" in text and "Your games" in text


def test_a_command_repeated_without_a_game_is_answered_once(engine, three_games):
    text = ask(engine, "stranger@example.net", "LIST\n" * 50 + "list nb1\nLIST NB1\n" * 50)
    assert text.count("Games on this server") == 1 and text.count("Players and scores:") == 1


def test_other_lines_without_a_game_are_still_refused(engine, three_games):
    text = ask(engine, "stranger@example.net", "b4xd4")
    assert "does not say which game" in text


def test_a_flood_of_list_mails_is_rate_limited_like_help(engine, three_games, config):
    config.error_replies_per_hour = 3
    start = last_outbox_id(engine)
    for n in range(4):
        engine.ingest(order_mail("pest@example.net", "LIST", subject=f"list {n}"))
        engine.ingest(order_mail("pest@example.net", "SUMMARY", subject=f"summary {n}"))
        engine.ingest(order_mail("pest@example.net", "HELP"))
        engine.ingest(order_mail("pest@example.net", "LIST nope"))
    replies = outbox(engine, start)
    assert len(replies) == 3
    assert ["last answer" in body(m) for m in replies] == [False, False, True]
    assert all(m["To"] == "pest@example.net" for m in replies)
    assert engine.store.one("SELECT COUNT(*) AS n FROM messages")["n"] == 16


def test_list_in_a_game_mail_is_not_counted_as_a_strangers_reply(engine, three_games, config):
    config.error_replies_per_hour = 1
    start = last_outbox_id(engine)
    for _ in range(3):
        engine.ingest(order_mail("ada@example.org", "LIST", game_id="nb1",
                                 password=three_games["nb1"]["ada"]))
    assert len(outbox(engine, start)) == 3
