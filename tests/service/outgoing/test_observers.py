"""OBSERVE / UNOBSERVE: observers get every public report (the observer's view) and public press,
never a sealed order or a private line, cannot order, and leave by UNOBSERVE or List-Unsubscribe."""

from __future__ import annotations

import pytest

from gm.core.model import ServiceError
from gm.mail.outbound import marked
from gm.present.reports import OBSERVER
from gm.service.outgoing import observers
from support import PLAYERS, body, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True  # every test that uses the config: on SQLite and on PostgreSQL (gm.store.selfservice)

EVE = "eve@example.net"


def mails_to(engine, address, start):
    return [m for m in outbox(engine, start) if m["To"] == address]


def ask(engine, sender, text, **kwargs):
    start = last_outbox_id(engine)
    engine.ingest(order_mail(sender, text, **kwargs))
    (reply,) = [m for m in mails_to(engine, sender, start) if m["In-Reply-To"]]
    return " ".join(body(reply).split())


def confirmed(engine, sender, text, **kwargs):
    """OBSERVE (or JOIN, UNOBSERVE) by mail, which waits for the address to confirm: the one
    mail back is the code, nothing has changed yet; the sender replies to it.  The answer."""
    start = last_outbox_id(engine)
    before = [dict(r) for r in engine.store.all("SELECT * FROM observers ORDER BY game_id, email")]
    engine.ingest(order_mail(sender, text, **kwargs))
    (code_mail,) = mails_to(engine, sender, start)
    assert code_mail["Subject"].startswith("CONFIRM ")
    assert [dict(r) for r in engine.store.all("SELECT * FROM observers ORDER BY game_id, email")] == before
    return ask(engine, sender, "", to=code_mail["Reply-To"], subject="Re: " + code_mail["Subject"])


@pytest.fixture
def fb1(engine):
    return engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2)


def test_an_observer_gets_the_public_reports_and_never_a_sealed_claim(engine, fb1):
    assert "You now follow game fb1" in confirmed(engine, EVE, "OBSERVE fb1")
    start = last_outbox_id(engine)
    assert engine.ingest(order_mail("ada@example.org", "K11", game_id="fb1",
                                    password=fb1["ada"])).outcome == "sealed"
    assert all("K11" not in body(m) for m in mails_to(engine, EVE, start))
    engine.ingest(order_mail("bob@example.org", "J10", game_id="fb1", password=fb1["bob"]))
    assert engine.load("fb1").turn == 2
    seen = mails_to(engine, EVE, start)
    reports = [m for m in seen if "report" in m["Subject"]]
    assert len(reports) == 1 and reports[0]["Subject"] == "[gm fb1] Fuzzy Borders report"
    assert "Fuzzy Borders game fb1, turn 2" in body(reports[0])
    unsubscribe = engine.outbox.tokens.unsubscribe_address("fb1", EVE)  # the observer's own (test_unsubscribe)
    assert reports[0]["List-Unsubscribe"] == f"<mailto:{unsubscribe}?subject=unsubscribe>"
    # The observer's copy is the archive's view: the OBSERVER viewer's report, with the claims
    # made public when the turn closed.
    view = engine.load("fb1")
    text = body(reports[0])
    assert "ada claims K11." in text and "bob claims J10." in text
    assert text.splitlines()[:3] == marked(engine.report_body(view, view.state, OBSERVER, [])).splitlines()[:3]
    # A sealed claim of the new turn never reaches the observer.
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "L12", game_id="fb1", password=fb1["ada"]))
    assert all("L12" not in body(m) for m in mails_to(engine, EVE, start))


def test_an_observer_gets_press_to_all_but_not_press_to_one_player(engine, nb_game):
    confirmed(engine, EVE, "OBSERVE nb1")
    start = last_outbox_id(engine)
    engine.ingest(order_mail("ada@example.org", "PRESS TO ALL\nhello everyone\nENDPRESS", game_id="nb1",
                             password=nb_game["ada"]))
    engine.ingest(order_mail("ada@example.org", "PRESS TO bob\njust for bob\nENDPRESS", game_id="nb1",
                             password=nb_game["ada"]))
    texts = [body(m) for m in mails_to(engine, EVE, start)]
    assert any("hello everyone" in t for t in texts)
    assert not any("just for bob" in t for t in texts)


def test_an_observer_cannot_order(engine, nb_game):
    confirmed(engine, EVE, "OBSERVE nb1")
    view = engine.load("nb1")
    outcome = engine.ingest(order_mail(EVE, "b4xd4", game_id="nb1", password="anything1"))
    assert outcome.outcome == "rejected" and engine.load("nb1").seq == view.seq


def test_unobserve_by_command_and_by_the_list_unsubscribe_subject(engine, nb_game, clock):
    confirmed(engine, EVE, "OBSERVE nb1")
    assert "You no longer follow game nb1" in confirmed(engine, EVE, "UNOBSERVE nb1")  # a From is a claim
    assert observers.following(engine, "nb1") == []
    clock.advance(2 * 86400)  # past the codes an address is mailed a day
    confirmed(engine, EVE, "OBSERVE nb1")
    assert "You no longer follow game nb1" in confirmed(engine, EVE, "", subject="UNOBSERVE nb1")
    assert "does not follow game nb1" in ask(engine, EVE, "UNOBSERVE nb1")


@pytest.mark.parametrize("line, says", [
    ("OBSERVE nb9", "no game called 'nb9'"),
    ("OBSERVE", "write OBSERVE <game id>"),
    ("OBSERVE nb1 nb2", "write OBSERVE <game id>"),
])
def test_bad_observe_forms_change_nothing(engine, nb_game, line, says):
    assert says in ask(engine, EVE, line)
    assert engine.store.all("SELECT * FROM observers") == []


def test_a_player_does_not_observe_their_own_game(engine, nb_game):
    assert "You play in game nb1" in ask(engine, "ada@example.org", "OBSERVE nb1")
    assert observers.following(engine, "nb1") == []


def test_observers_none_and_approved(engine):
    engine.create_game("neighbors", "nb2", PLAYERS, seed=1, options={"observers": "none"})
    assert "takes no observers" in ask(engine, EVE, "OBSERVE nb2")
    engine.create_game("neighbors", "nb3", PLAYERS, seed=1, options={"observers": "approved"})
    assert "request is recorded" in confirmed(engine, EVE, "OBSERVE nb3")
    assert observers.following(engine, "nb3") == []
    assert "waiting for approval: eve@example.net" in observers.manage(engine, "nb3")
    with pytest.raises(ServiceError, match="has not asked"):
        observers.manage(engine, "nb3", approve=["mallory@example.net"])
    start = last_outbox_id(engine)
    assert "observers of nb3: eve@example.net" in observers.manage(engine, "nb3", approve=[EVE])
    (told,) = mails_to(engine, EVE, start)
    assert "approved you as an observer" in body(told)
    assert observers.manage(engine, "nb3", remove=[EVE]).startswith("observers of nb3: none")


def test_observers_of_an_open_game_get_the_first_report_at_the_start(engine):
    from gm.service.people import lobby

    lobby.open_game(engine, "neighbors", "nb7", 2, seed=3)
    confirmed(engine, EVE, "OBSERVE nb7")
    start = last_outbox_id(engine)
    confirmed(engine, "ada@example.org", "JOIN nb7 ada")
    confirmed(engine, "bob@example.org", "JOIN nb7 bob")
    (first,) = mails_to(engine, EVE, start)
    assert first["Subject"] == "[gm nb7] Neighbors report" and "Neighbors game nb7, turn 1" in body(first)


def test_summary_lists_the_games_an_address_observes(engine, nb_game):
    confirmed(engine, EVE, "OBSERVE nb1")
    text = ask(engine, EVE, "SUMMARY")
    assert "nb1: Neighbors, running, you observe it, turn 1" in text and "YOU OWE" not in text
