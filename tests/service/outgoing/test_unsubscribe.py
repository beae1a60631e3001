"""A mute that works: an observer's List-Unsubscribe is its own signed address, where any mail
ends that one subscription and nothing else; a forged or altered one changes nothing; UNOBSERVE
from the address itself waits for a code (a From is a claim); players' mail has no unsubscribe."""

from __future__ import annotations

import pytest

from gm.core import tokens
from gm.service.outgoing import observers
from support import ask, body, confirmed, last_outbox_id, order_mail, outbox

ON_BOTH_BACKENDS = True

EVE, ZED = "eve@example.net", "zed@example.net"


@pytest.fixture
def followed(engine, nb_game):
    """nb1 and nb2, eve following both and zed following nb1; a move in nb1, so both get its report."""
    nb2 = engine.create_game("neighbors", "nb2", [("ada", "ada@example.org"), ("bob", "bob@example.org")], seed=6)
    for who, game in ((EVE, "nb1"), (EVE, "nb2"), (ZED, "nb1")):
        assert f"You now follow game {game}" in confirmed(engine, who, f"OBSERVE {game}")
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    engine.ingest(order_mail(f"{mover}@example.org", view.rules.legal_orders(view.state, mover)[0],
                             game_id="nb1", password=nb_game[mover]))
    return nb_game, nb2


def unsubscribe_address(engine, address):
    """The mailto address of the List-Unsubscribe of ``address``'s last mail about nb1."""
    mail = [m for m in outbox(engine) if m["To"] == address and m["X-GM-Game"] == "nb1"][-1]
    value = mail["List-Unsubscribe"]
    assert value.startswith("<mailto:gm+unobserve-") and value.endswith("?subject=unsubscribe>")
    return value[len("<mailto:"):].split("?")[0]


def state(engine):
    return ([dict(r) for r in engine.store.all("SELECT game_id, email, approved FROM observers "
                                                "ORDER BY game_id, email")],
            [dict(r) for r in engine.store.all("SELECT game_id, name, email, active FROM players "
                                                "ORDER BY game_id, name")])


def test_a_mail_to_the_address_ends_that_subscription_and_nothing_else(engine, followed):
    eve_nb1, zed_nb1 = unsubscribe_address(engine, EVE), unsubscribe_address(engine, ZED)
    assert eve_nb1 != zed_nb1 and eve_nb1 not in observers.unsubscribe_header(engine, "nb2", EVE)[1]
    observers_before, players_before = state(engine)
    # Any body, no password: orders and commands in it are not read.
    text = "GAME nb2 PASSWORD nothing\nUNOBSERVE nb2\nRESIGN\n"
    assert "You no longer follow game nb1" in ask(engine, EVE, text, to=eve_nb1, subject="unsubscribe")
    assert observers.following(engine, "nb1") == [ZED]
    assert EVE in observers.following(engine, "nb2")
    observers_after, players_after = state(engine)
    assert players_after == players_before
    assert [o for o in observers_before if not (o["game_id"] == "nb1" and o["email"] == EVE)] == observers_after
    # A second mail there: nobody it belongs to follows the game now; nothing changes.
    assert "nothing was changed" in " ".join(ask(engine, EVE, "", to=eve_nb1).split())
    assert state(engine) == (observers_after, players_after)


def test_mailed_from_elsewhere_the_observer_is_told_and_the_sender_gets_nothing(engine, followed):
    start = last_outbox_id(engine)
    engine.ingest(order_mail("someone@example.com", "", to=unsubscribe_address(engine, ZED)))
    assert observers.following(engine, "nb1") == [EVE]
    (told,) = outbox(engine, start)
    assert told["To"] == ZED and "You no longer follow game nb1" in body(told)


def forged(engine, address):
    """Addresses of the unsubscribe form that are not ``address``'s own for nb1."""
    local, domain = address.split("@")
    token = local.rsplit("-", 1)[1]
    flipped = token[:-1] + ("0" if token[-1] != "0" else "1")
    tagged = engine.outbox.tokens
    return [
        f"{local.rsplit('-', 1)[0]}-{flipped}@{domain}",  # altered
        f"gm+unobserve-nb2-{token}@{domain}",  # eve's nb1 token, for another game
        # zed's address signed with another key
        f"gm+unobserve-nb1-{tokens.make(b'not the key', 'nb1', 'unobserve:' + ZED, 0, tagged.salt('nb1'))}@{domain}",
        # a seat's reply token where an observer's goes
        f"gm+unobserve-nb1-{tokens.make(tagged.secret(), 'nb1', 'ada', 1, tagged.salt('nb1'))}@{domain}",
    ]


def test_a_forged_or_altered_address_changes_nothing(engine, followed):
    before = state(engine)
    for address in forged(engine, unsubscribe_address(engine, EVE)):
        for sender in (EVE, ZED):
            assert "nothing was changed" in " ".join(ask(engine, sender, "", to=address).split())
            assert state(engine) == before


def test_a_robot_mailing_the_address_is_not_answered(engine, followed):
    start, before = last_outbox_id(engine), state(engine)
    engine.ingest(order_mail(EVE, "I am away", to=unsubscribe_address(engine, EVE),
                             Auto_Submitted="auto-replied"))
    assert outbox(engine, start) == [] and state(engine) == before


def test_unobserve_by_from_waits_for_the_code(engine, followed):
    before = state(engine)
    code_mail = ask(engine, EVE, "UNOBSERVE nb1")
    assert "CONFIRM " in code_mail and "stop following game nb1" in code_mail
    assert state(engine) == before
    assert "does not follow game nb1" in ask(engine, "mallory@example.com", "UNOBSERVE nb1")
    code = code_mail.split("CONFIRM ")[1].split()[0]
    assert "You no longer follow game nb1" in ask(engine, EVE, "", subject=f"Re: CONFIRM {code}")
    assert observers.following(engine, "nb1") == [ZED] and EVE in observers.following(engine, "nb2")


def test_players_mail_carries_no_unsubscribe(engine, followed):
    mails = [m for m in outbox(engine) if m["To"].endswith("@example.org")]
    assert mails and all(m["List-Unsubscribe"] is None for m in mails)
    assert all(m["List-Id"] is not None for m in mails if m["X-GM-Game"])


def test_without_reply_tokens_the_unsubscribe_asks_unobserve(engine, followed, monkeypatch):
    monkeypatch.setattr(engine.outbox.tokens.config, "reply_tokens", False)
    header = observers.unsubscribe_header(engine, "nb1", EVE)
    assert header == ("List-Unsubscribe", "<mailto:gm@localhost?subject=UNOBSERVE%20nb1>")
