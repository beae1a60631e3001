"""RESIGN by mail: the seat leaves as the game's rules say (RULINGS G5), the others are told, and
the resigned player's later mail is refused clearly and changes nothing."""

from __future__ import annotations

from support import PLAYERS3, body, last_outbox_id, order_mail, outbox


def test_resign_removes_the_seat_tells_the_others_and_refuses_later_orders(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    start = last_outbox_id(engine)
    outcome = engine.ingest(order_mail("bob@example.org", "RESIGN", game_id="nb3", password=secrets["bob"]))
    assert outcome.outcome == "help"
    view = engine.load("nb3")
    assert not view.player("bob")["active"] and view.status == "active"
    assert "bob" in view.rules.removed(view.state)
    mails = outbox(engine, start)
    (reply,) = [m for m in mails if m["To"] == "bob@example.org"]
    assert "You have resigned from game nb3" in body(reply) and "goes on without you" in body(reply)
    told = [m for m in mails if "bob has resigned" in body(m)]
    assert sorted(m["To"] for m in told) == ["ada@example.org", "cy@example.org"]
    assert any("report" in m["Subject"] for m in mails if m["To"] == "ada@example.org")
    # Later orders and commands from the resigned seat: one clear refusal, nothing changed.
    seq, start = view.seq, last_outbox_id(engine)
    legal = view.rules.legal_orders(view.state, view.rules.to_move(view.state)[0])
    refused = engine.ingest(order_mail("bob@example.org", legal[0] + "\nBOARD", game_id="nb3",
                                       password=secrets["bob"]))
    assert refused.outcome == "rejected"
    (reply,) = outbox(engine, start)
    assert "You have left game nb3" in body(reply) and "refused" in reply["Subject"]
    assert engine.load("nb3").seq == seq


def test_resign_of_two_in_a_two_player_game_ends_it_and_the_other_wins(engine, nb_game):
    engine.ingest(order_mail("ada@example.org", "RESIGN", game_id="nb1", password=nb_game["ada"]))
    view = engine.load("nb1")
    assert view.status == "finished" and view.rules.winners(view.state) == ["bob"]
    start = last_outbox_id(engine)
    engine.ingest(order_mail("bob@example.org", "RESIGN", game_id="nb1", password=nb_game["bob"]))
    (reply,) = outbox(engine, start)
    assert "is over; there is nothing to resign from" in body(reply)
    assert engine.load("nb1").player("bob")["active"]


def test_resign_needs_the_password(engine, nb_game):
    engine.ingest(order_mail("ada@example.org", "RESIGN", game_id="nb1", password="wrongwrong"))
    assert engine.load("nb1").player("ada")["active"]
