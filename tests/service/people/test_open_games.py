"""Open games: the GM opens seats (gm new --open), players take them by mail (JOIN), leave before
the start (LEAVE, with their password), and the game starts when full (or on gm start)."""

from __future__ import annotations

import pytest

from gm.core.model import ServiceError
from gm.service.people import lobby
from gm.service.play import lifecycle
from support import ask, body, confirmed, last_outbox_id, order_mail, outbox, seats

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL (gm.store.selfservice)


def password_of(text: str) -> str:
    (line,) = [line for line in text.splitlines() if line.startswith("Your password: ")]
    return line.split(": ", 1)[1]


@pytest.fixture
def open_nb7(engine):
    lobby.open_game(engine, "neighbors", "nb7", 3, min_seats=2, seed=4)
    return "nb7"


def test_three_joins_fill_the_game_and_it_starts_with_a_welcome_each(engine, open_nb7):
    secrets = {}
    for name in ("ada", "bob"):
        text = confirmed(engine, f"{name}@example.org", f"JOIN nb7 {name}")
        secrets[name] = password_of(text)
        assert "still free" in text
    assert engine.store.game("nb7")["status"] == "open"
    start = last_outbox_id(engine)
    text = confirmed(engine, "cy@example.org", "JOIN nb7 cy")
    secrets["cy"] = password_of(text)
    assert "starts now" in text
    view = engine.load("nb7")
    assert view.status == "active" and view.rules.players(view.state) == ["ada", "bob", "cy"]
    welcomes = [m for m in outbox(engine, start) if "Welcome" in m["Subject"]]
    assert sorted(m["To"] for m in welcomes) == ["ada@example.org", "bob@example.org", "cy@example.org"]
    assert all("Your password is the one in gm's answer to your JOIN" in body(m) for m in welcomes)
    assert not engine.store.open_game("nb7")
    # The password of the JOIN reply is the seat's password.
    mover = view.rules.to_move(view.state)[0]
    order = view.rules.legal_orders(view.state, mover)[0]
    engine.ingest(order_mail(f"{mover}@example.org", order, game_id="nb7", password=secrets[mover]))
    assert engine.load("nb7").seq == view.seq + 1


def test_list_shows_the_open_game_its_free_seats_and_who_joined(engine, open_nb7):
    confirmed(engine, "ada@example.org", "JOIN nb7 ada")
    text = ask(engine, "stranger@example.net", "LIST")
    assert "nb7" in text and "open" in text and "ada" in text and "2 of 3 seats free" in text
    text = ask(engine, "stranger@example.net", "LIST nb7")
    assert "Joined:  ada" in text and "Seats:   3 (2 free)" in text and "start it with 2" in text
    assert "@" not in text.replace("gm@localhost", "")
    assert "open, 2 seat(s) still free" in ask(engine, "ada@example.org", "SUMMARY")


@pytest.mark.parametrize("line, says", [
    ("JOIN nb8 ada", "no game called 'nb8'"),
    ("JOIN nb7", "write JOIN <game id> <your name>"),
    ("JOIN nb7 a.da", "one word"),
    ("JOIN nb7 ALL", "means something else"),
    ("JOIN nb7 " + "x" * 21, "one word"),
    ("JOIN nb7 Ada", "already called Ada"),
])
def test_bad_joins_are_refused_and_change_nothing(engine, open_nb7, line, says):
    confirmed(engine, "ada@example.org", "JOIN nb7 Ada")
    before = seats(engine)
    text = ask(engine, "bob@example.org", line)
    assert says in text and "Nothing was changed" in text
    assert seats(engine) == before


def test_a_second_join_from_the_same_address_is_refused(engine, open_nb7):
    confirmed(engine, "ada@example.org", "JOIN nb7 ada")
    text = ask(engine, "ADA@example.org", "JOIN nb7 ada2")
    assert "already joined game nb7 (as ada)" in text
    assert seats(engine) == [("ada", "ada@example.org")]


def test_join_of_a_started_game_is_refused(engine, nb_game):
    text = ask(engine, "cy@example.org", "JOIN nb1 cy")
    assert "already started" in text
    assert len(engine.store.players("nb1")) == 2


def test_join_of_a_full_game_is_refused(engine, open_nb7, monkeypatch):
    """A full game starts at once; were its start to wait, a further JOIN is still refused."""
    monkeypatch.setattr(lobby, "start", lambda *args, **kwargs: None)
    for name in ("ada", "bob", "cy"):
        confirmed(engine, f"{name}@example.org", f"JOIN nb7 {name}")
    text = ask(engine, "dan@example.org", "JOIN nb7 dan")
    assert "is full (3 of 3 seats taken)" in text
    assert len(seats(engine)) == 3


def test_leave_before_the_start_needs_the_password_and_frees_the_seat(engine, open_nb7):
    secret = password_of(confirmed(engine, "ada@example.org", "JOIN nb7 ada"))
    confirmed(engine, "bob@example.org", "JOIN nb7 bob")
    text = ask(engine, "ada@example.org", "LEAVE nb7\nPASSWORD wrongwrong")
    assert "nobody left" in text and len(seats(engine)) == 2
    text = ask(engine, "ada@example.org", f"LEAVE nb7\nPASSWORD {secret}")
    assert "You have left game nb7" in text
    assert seats(engine) == [("bob", "bob@example.org")]
    assert engine.store.players("nb7")[0]["seat"] == 0
    # The seat is free again: someone else (or ada) can take it.
    assert "still free" in confirmed(engine, "ada@example.org", "JOIN nb7 ada")


def test_orders_to_an_open_game_are_not_read(engine, open_nb7):
    secret = password_of(confirmed(engine, "ada@example.org", "JOIN nb7 ada"))
    text = ask(engine, "ada@example.org", "b4xd4", game_id="nb7", password=secret)
    assert "has not started" in text and "1 of 3 seats" in text


def test_leave_after_the_start_is_refused(engine, nb_game):
    text = ask(engine, "ada@example.org", "LEAVE", game_id="nb1", password=nb_game["ada"])
    assert "RESIGN" in text
    assert engine.load("nb1").player("ada")["active"]


def test_gm_start_needs_the_minimum_then_starts_with_who_joined(engine, open_nb7):
    confirmed(engine, "ada@example.org", "JOIN nb7 ada")
    with pytest.raises(ServiceError, match="needs 2 to start"):
        lifecycle.start_open_game(engine, "nb7")
    assert engine.store.game("nb7")["status"] == "open"
    confirmed(engine, "bob@example.org", "JOIN nb7 bob")
    start = last_outbox_id(engine)
    assert "started with ada, bob" in lifecycle.start_open_game(engine, "nb7")
    assert engine.load("nb7").rules.players(engine.load("nb7").state) == ["ada", "bob"]
    assert len([m for m in outbox(engine, start) if "Welcome" in m["Subject"]]) == 2
    with pytest.raises(ServiceError, match="not open"):
        lifecycle.start_open_game(engine, "nb7")


def test_open_refuses_seat_counts_the_rules_do_not_take(engine):
    with pytest.raises(ServiceError, match="2 to 6 players"):
        lobby.open_game(engine, "neighbors", "nb8", 7)
    with pytest.raises(ServiceError, match="2 to 2 players"):
        lobby.open_game(engine, "proximity", "px8", 3)
    assert engine.store.game("nb8") is None and engine.store.game("px8") is None


def test_create_by_mail_only_for_the_kinds_the_config_allows(engine):
    text = ask(engine, "ada@example.org", "CREATE neighbors nb9 3")
    assert "cannot open games by mail" in text and engine.store.game("nb9") is None
    engine.config.player_create_kinds = ["neighbors"]
    text = ask(engine, "ada@example.org", "CREATE proximity px9")
    assert "only these kinds here: neighbors" in text and engine.store.game("px9") is None
    text = confirmed(engine, "ada@example.org", "CREATE neighbors nb9 3")
    assert "game nb9 is open: 3 seats" in text
    assert engine.store.open_game("nb9")["created_by"] == "ada@example.org"
    assert "there is already a game nb9" in ask(engine, "bob@example.org", "CREATE neighbors nb9")
    confirmed(engine, "ada@example.org", "CREATE neighbors nb10")
    confirmed(engine, "ada@example.org", "CREATE neighbors nb11")
    assert "3 games waiting for players already" in ask(engine, "ada@example.org", "CREATE neighbors nb12")
    assert engine.store.game("nb12") is None


def test_an_open_game_can_be_deleted(engine, open_nb7):
    confirmed(engine, "ada@example.org", "JOIN nb7 ada")
    assert "game nb7 deleted" in lifecycle.delete_game(engine, "nb7")
    assert engine.store.game("nb7") is None and engine.store.open_game("nb7") is None
    assert engine.store.players("nb7") == []
