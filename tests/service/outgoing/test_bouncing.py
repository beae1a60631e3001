"""A game where one player's address bounces (gm.service.outgoing.delivery_state, holding, timers):
the GM and the other players are told once, the mail is held but for a daily probe, the deadline
waits (bouncing=wait) or not (proceed), and the player's next mail clears it all."""

from __future__ import annotations

import email
import email.policy
import re

import pytest

from bounce_fixtures import bounce, outbox_row
from gm.service.outgoing import delivery_state
from gm.store.packing import unpack_mail
from support import PLAYERS, order_mail

REFEREE = "referee@example.org"
DAY = 86400.0
ADDRESS = dict(PLAYERS)


@pytest.fixture
def game(engine):
    engine.config.gm_address = REFEREE
    return engine.create_game("neighbors", "nb1", PLAYERS, seed=7)


def bounce_row(engine, row, shape="postfix", nth: int = 0):
    """Bounce ``row``; ``nth`` > 0: another notice of the same shape (its own Message-ID)."""
    raw = bounce(shape, row, engine.verp)
    if nth:
        raw = raw.replace(b".4ZtHm61Dqbz9sWX@", f".{nth}x@".encode(), 1)
    return engine.ingest(raw)


def mails_to(engine, address, kind=None):
    sql, params = "SELECT * FROM outbox WHERE recipient = :recipient", {"recipient": address}
    if kind:
        sql, params = sql + " AND kind = :kind", {**params, "kind": kind}
    return engine.store.all(sql + " ORDER BY id", **params)


def text_of(row) -> str:
    """An outbox row's body, decoded."""
    return email.message_from_bytes(unpack_mail(row["raw"]), policy=email.policy.default).get_content()


def state(engine, address):
    row = engine.store.delivery.address_state(address)
    return row["state"] if row is not None else None


def mover(engine, game_id="nb1"):
    view = engine.load(game_id)
    (name,) = view.rules.to_move(view.state)
    return name, view.rules.legal_orders(view.state, name)


def test_the_gm_and_the_other_players_are_told_once(engine, game):
    outcome = bounce_row(engine, outbox_row(engine.store, ADDRESS["bob"], "welcome"))
    assert outcome.outcome == "robot" and "permanent" in outcome.detail
    assert state(engine, ADDRESS["bob"]) == "bouncing"
    (gm_mail,) = mails_to(engine, REFEREE)
    assert gm_mail["subject"] == "[gm] Mail to bob@example.org bounces"
    assert "bob in nb1" in text_of(gm_mail) and "550 5.1.1" in text_of(gm_mail)
    (told,) = [r for r in mails_to(engine, ADDRESS["ada"]) if "not receiving mail" in r["subject"]]
    assert "bob is not receiving the reports" in text_of(told)
    assert not [r for r in mails_to(engine, ADDRESS["bob"]) if "not receiving mail" in r["subject"]]
    # A second bounce, and a third of another shape: history grows, nobody is told again.
    bounce_row(engine, outbox_row(engine.store, ADDRESS["bob"], "welcome"), "exim")
    bounce_row(engine, outbox_row(engine.store, ADDRESS["bob"], "welcome"), "qmail")
    assert len(engine.store.delivery.delivery_events(ADDRESS["bob"])) == 3
    assert len(mails_to(engine, REFEREE)) == 1
    assert len([r for r in mails_to(engine, ADDRESS["ada"]) if "not receiving mail" in r["subject"]]) == 1
    assert [p["address"] for p in delivery_state.bouncing(engine)] == [ADDRESS["bob"]]


def test_mail_to_a_bouncing_address_is_held_but_for_one_probe_a_day(engine, game, clock):
    bob = ADDRESS["bob"]
    with engine.store.write():
        waiting = engine.outbox.queue(bob, "queued before the bounce", "x\n", kind="notice")
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    assert engine.store.delivery.outbox_row(waiting)["status"] == "held"
    statuses = []
    for hours in (0, 1, 22, 2, 1):  # at 0, 1, 23, 25 and 26 h: probes at 0 h and 25 h
        clock.advance(hours * 3600)
        with engine.store.write():
            statuses.append(engine.store.delivery.outbox_row(
                engine.outbox.queue(bob, "n", "x\n", kind="notice"))["status"])
    assert statuses == ["queued", "held", "held", "queued", "held"]
    assert engine.store.delivery.outbox_row(outbox_row(engine.store, ADDRESS["ada"])["id"])["status"] == "queued"


def test_temporary_failures_on_three_different_days_make_it_bouncing(engine, game, clock):
    bob = ADDRESS["bob"]
    row = outbox_row(engine.store, bob, "welcome")
    seen = []
    for nth, hours in enumerate((0, 2, 24, 24), 1):  # days 1, 1, 2, 3
        clock.advance(hours * 3600)
        bounce_row(engine, row, "postfix-delayed", nth)
        seen.append(state(engine, bob))
    assert seen == ["soft-failing", "soft-failing", "soft-failing", "bouncing"]
    assert [bool(e["permanent"]) for e in engine.store.delivery.delivery_events(bob)] == [False] * 4
    # A delay bounces no message: the welcome (never sent in this test) is held, not bounced.
    assert (row["status"], engine.store.delivery.outbox_row(row["id"])["status"]) == ("queued", "held")
    (gm_mail,) = mails_to(engine, REFEREE)
    assert "temporary failures on 3 days" in text_of(gm_mail)


def test_the_players_next_mail_clears_it_and_the_held_mail_goes(engine, game, clock):
    bob = ADDRESS["bob"]
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    with engine.store.write():
        engine.outbox.queue(bob, "probe", "x\n", kind="notice")
        held = engine.outbox.queue(bob, "held", "x\n", kind="notice")
    assert engine.store.delivery.outbox_row(held)["status"] == "held"
    # A mail from bob's address that is not bob's (no password) clears nothing.
    engine.ingest(order_mail(bob, "HELP", game_id="nb1", password="wrong"))
    assert state(engine, bob) == "bouncing"
    clock.advance(60)
    engine.ingest(order_mail(bob, "BOARD", game_id="nb1", password=game["bob"]))
    assert state(engine, bob) == "ok"
    assert engine.store.delivery.outbox_row(held)["status"] == "queued"
    assert [r["subject"] for r in mails_to(engine, REFEREE)] == [
        "[gm] Mail to bob@example.org bounces", "[gm] Mail to bob@example.org cleared"]
    assert "bob mailed gm from it" in text_of(mails_to(engine, REFEREE)[-1])


def test_clear_is_the_function_set_address_calls(engine, game):
    bob = ADDRESS["bob"]
    with engine.store.write():
        assert not delivery_state.clear(engine, bob, "the GM set a new address")  # ok: nothing to do
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    with engine.store.write():
        assert delivery_state.clear(engine, bob, "the GM set a new address")
    assert state(engine, bob) == "ok"


def deadline_game(engine, bouncing):
    engine.config.gm_address = REFEREE
    engine.create_game("neighbors", "dl1", PLAYERS, seed=7, options={
        "deadline": "24h", "reminder": "0", "grace": "0", "late": "forfeit", "bouncing": bouncing})
    name, _ = mover(engine, "dl1")
    bounce_row(engine, outbox_row(engine.store, ADDRESS[name], "welcome"))
    return name


def test_bouncing_wait_the_deadline_waits_for_the_bouncing_player(engine, clock):
    name = deadline_game(engine, "wait")
    clock.advance(25 * 3600)
    done = engine.tick()
    assert any("deadline moved a day" in d for d in done)
    view = engine.load("dl1")
    assert view.status == "active" and engine.store.results.result_of("dl1") is None
    assert engine.store.timers.deadline_row("dl1")["due"] == pytest.approx(clock() + DAY)
    clock.advance(DAY + 60)
    engine.tick()
    # bouncing=wait holds a player's deadline at most once per turn (she can bounce her
    # own mail at will), so a day later, still bouncing, the late policy applies.
    assert state(engine, ADDRESS[name]) == "bouncing"
    assert engine.load("dl1").status == "finished"
    assert name in engine.store.results.result_of("dl1")["reason"]


def test_bouncing_proceed_applies_the_late_policy_as_usual(engine, clock):
    name = deadline_game(engine, "proceed")
    clock.advance(25 * 3600)
    engine.tick()
    assert engine.load("dl1").status == "finished"
    assert f"{name} forfeited" in engine.store.results.result_of("dl1")["reason"]


def test_the_option_is_checked(engine):
    from games.base import OptionError

    with pytest.raises(OptionError):
        engine.create_game("neighbors", "x1", PLAYERS, options={"bouncing": "sometimes"})


def test_set_address_clears_the_old_address_and_keeps_its_mail_held(engine, game):
    bob = ADDRESS["bob"]
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    with engine.store.write():
        engine.outbox.queue(bob, "probe", "x\n", kind="notice")
        held = engine.outbox.queue(bob, "held", "x\n", kind="notice")
        assert delivery_state.clear(engine, bob, "the seat moved to bob@new.example", release=False)
    assert state(engine, bob) == "ok" and engine.store.delivery.outbox_row(held)["status"] == "held"
    assert "stay held" in text_of(mails_to(engine, REFEREE)[-1])


def test_mail_to_a_bounce_address_is_never_answered(engine, game):
    bob = ADDRESS["bob"]
    row = outbox_row(engine.store, bob, "welcome")
    before = len(engine.store.all("SELECT id FROM outbox"))
    # Looks like a person's mail (no robot header), but was delivered to a VERP address.
    outcome = engine.ingest(order_mail("stranger@example.net", "HELP", to=engine.verp.envelope(row["id"])))
    assert outcome.outcome == "robot" and "mail to a bounce address" in outcome.detail
    assert len(engine.store.all("SELECT id FROM outbox")) == before and state(engine, bob) is None


@pytest.mark.parametrize("bouncing,closes", [("wait", False), ("proceed", True)])
def test_a_simultaneous_turn_waits_for_a_bouncing_player_only_with_wait(engine, clock, bouncing, closes):
    engine.config.gm_address = REFEREE
    engine.create_game("fuzzy-borders", "fb1", PLAYERS, seed=2,
                       options={"deadline": "24h", "reminder": "0", "bouncing": bouncing})
    bounce_row(engine, outbox_row(engine.store, ADDRESS["bob"], "welcome"))
    turn = engine.load("fb1").turn
    clock.advance(25 * 3600)
    engine.tick()
    assert (engine.load("fb1").turn != turn) is closes
    if not closes:
        assert engine.store.timers.deadline_row("fb1")["due"] == pytest.approx(clock() + DAY)
        assert [h["detail"] for h in engine.store.history.history_of("fb1") if h["action"] == "moved"][-1].endswith(
            "mail to bob bounces (bouncing=wait)")


def test_a_refusal_recorded_before_a_clear_does_not_mark_the_address_again(engine, game, clock):
    bob = ADDRESS["bob"]
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    row = outbox_row(engine.store, bob, "welcome")
    with engine.store.write():  # the sender thread records a 5xx; the judge has not settled it yet
        engine.store.delivery.record_refusal(row["id"], bob, 1, "550 5.1.1 no such user", clock())
    clock.advance(60)
    engine.ingest(order_mail(bob, "BOARD", game_id="nb1", password=game["bob"]))
    assert state(engine, bob) == "ok"
    engine.tick()
    assert state(engine, bob) == "ok" and engine.store.delivery.unsettled_events() == []


def test_an_address_in_capitals_is_the_same_address(engine, clock):
    engine.config.gm_address = REFEREE
    engine.create_game("neighbors", "nb1", [("ada", "ada@example.org"), ("bob", "Bob@Example.ORG")], seed=7)
    with engine.store.write():
        waiting = engine.outbox.queue("Bob@Example.ORG", "queued before", "x\n", kind="notice")
    # The seat keeps the address in gm's one form (gm.core.addresses), so its welcome
    # went to bob@example.org.
    assert engine.store.seats.player("nb1", "bob")["email"] == "bob@example.org"
    bounce_row(engine, outbox_row(engine.store, "bob@example.org", "welcome"))
    assert state(engine, "bob@example.org") == "bouncing"
    assert engine.store.delivery.outbox_row(waiting)["status"] == "held"
    assert "bob in nb1" in text_of(mails_to(engine, REFEREE)[0])
    with engine.store.write():
        delivery_state.clear(engine, "BOB@example.org", "test")
    assert engine.store.delivery.outbox_row(waiting)["status"] == "queued"


def confirm_new_address(engine, password, sender, new):
    """SET ADDRESS from ``sender`` (not the seat's bouncing address: a mail from there would clear
    it by itself), then CONFIRM from the new address."""
    start = max([r["id"] for r in engine.store.all("SELECT id FROM outbox")] or [0])
    engine.ingest(order_mail(sender, f"SET ADDRESS {new}", game_id="nb1", password=password))
    (code_row,) = [r for r in mails_to(engine, new) if r["id"] > start]
    code = re.search(r"CONFIRM (\w+)", code_row["subject"]).group(1)
    engine.ingest(order_mail(new, f"CONFIRM {code}"))


def test_set_address_moves_a_bouncing_seat_and_settles_the_old_address(engine, game):
    bob = ADDRESS["bob"]
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    assert state(engine, bob) == "bouncing"
    confirm_new_address(engine, game["bob"], "bob@phone.example", "bob@new.example")
    assert engine.load("nb1").player("bob")["email"] == "bob@new.example"
    assert state(engine, bob) == "ok"  # no seat is left there: the GM sees it settled
    assert state(engine, "bob@new.example") is None  # the new address has no history
    assert len([r for r in mails_to(engine, REFEREE) if "bob@example.org" in r["subject"]]) == 2
    # The warning that a move was asked (SET ADDRESS from another address tells the
    # registered one) goes as the day's probe; once the seat moved, the old address is settled and
    # its revert code goes out as usual; nothing held was released to it.
    assert [r["status"] for r in mails_to(engine, bob)] == ["bounced", "queued", "queued"]
    assert "reply to undo it" in mails_to(engine, bob)[-1]["subject"]


def test_set_address_leaves_the_old_address_bouncing_while_another_seat_uses_it(engine, game):
    bob = ADDRESS["bob"]
    engine.create_game("neighbors", "nb2", PLAYERS, seed=8)  # bob plays here from the same address
    bounce_row(engine, outbox_row(engine.store, bob, "welcome"))
    confirm_new_address(engine, game["bob"], "bob@phone.example", "bob@new.example")
    assert engine.load("nb1").player("bob")["email"] == "bob@new.example"
    assert state(engine, bob) == "bouncing"  # nb2's seat still gets nothing there


def test_mail_to_gm_address_is_never_held(engine, game):
    """Even were gm_address marked bouncing, the GM's own mail is never held."""
    with engine.store.write():
        engine.store.delivery.set_address_state(REFEREE, "bouncing", 0.0, "a test")
        engine.store.delivery.set_last_probe(REFEREE, engine.clock())  # no probe due either
        first = engine.outbox.queue(REFEREE, "one", "x\n", kind="notice")
        second = engine.outbox.queue(REFEREE, "two", "x\n", kind="notice")
    assert [engine.store.delivery.outbox_row(i)["status"] for i in (first, second)] == ["queued", "queued"]
