"""RULINGS G5 through the service: a removed seat sends nothing, gets nothing,
and the game goes on as its rules say; a rollback to before the removal seats it again."""

from __future__ import annotations

from gm.service.play import lifecycle, positions
from support import last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL

PLAYERS3 = [("ada", "ada@example.org"), ("bob", "bob@example.org"), ("cy", "cy@example.org")]


def play_one(engine, game_id="nb3"):
    view = engine.load(game_id)
    (mover,) = view.rules.to_move(view.state)
    assert engine.gm_order(game_id, mover, view.rules.legal_orders(view.state, mover)[0]).outcome == "applied"
    return mover


def test_ejecting_one_of_three_neighbors_players_removes_the_seat_and_the_game_goes_on(engine):
    secrets = engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    play_one(engine)
    lifecycle.eject(engine, "nb3", "bob", why="vanished")
    assert engine.store.games.game("nb3")["status"] == "active"
    start = last_outbox_id(engine)
    movers = [play_one(engine) for _ in range(4)]
    assert "bob" not in movers and set(movers) == {"ada", "cy"}
    assert all(m["To"] != "bob@example.org" for m in outbox(engine, start))  # no more game mail
    refused = engine.ingest(order_mail("bob@example.org", "a1xa2", game_id="nb3", password=secrets["bob"]))
    assert refused.outcome == "rejected" and "left" in refused.detail
    assert all(m["To"] != "bob@example.org" or "refused" in m["Subject"] for m in outbox(engine, start))


def test_an_ejected_pivot_pawns_player_cannot_bid_and_their_sealed_bid_is_withdrawn(engine):
    secrets = engine.create_game("pivot-pawns", "pp3", PLAYERS3, seed=5)
    engine.ingest(order_mail("bob@example.org", "BID 3: red/blue green/red red/black", game_id="pp3",
                             password=secrets["bob"]))
    lifecycle.eject(engine, "pp3", "bob")
    view = engine.load("pp3")
    assert "bob" not in view.rules.to_move(view.state)
    again = engine.ingest(order_mail("bob@example.org", "BID 2: red/blue green/red", game_id="pp3",
                                     password=secrets["bob"]))
    assert again.outcome == "rejected"
    assert "bob" not in view.rules.winners(view.state)


def test_a_rollback_to_before_an_ejection_seats_the_player_again_with_their_mail(engine):
    engine.create_game("neighbors", "nb3", PLAYERS3, seed=4)
    play_one(engine)
    turn = engine.load("nb3").turn  # a turn that began before the ejection
    play_one(engine)
    lifecycle.eject(engine, "nb3", "bob")
    play_one(engine)
    assert not engine.store.seats.player("nb3", "bob")["active"]
    start = last_outbox_id(engine)
    positions.rollback(engine, "nb3", turn, why="ejected by mistake")
    assert engine.store.seats.player("nb3", "bob")["active"]
    assert "bob@example.org" in [m["To"] for m in outbox(engine, start)]  # the rollback's report
    view = engine.load("nb3")
    assert "bob" not in view.rules.removed(view.state)
    movers = [play_one(engine) for _ in range(3)]
    assert "bob" in movers
