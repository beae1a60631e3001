"""A player forges a bounce of her own mail: she quotes her welcome's Message-ID in a
DSN to gm's plain address (no VERP tag), or, since she can see her own VERP return address, makes
her mail bounce for real every day.  With VERP on the first counts for nothing; the second holds
her deadline (bouncing=wait) at most once per turn and for at most the game's absence_total in
all, so with late=forfeit she forfeits in the end.  Driven by mail through engine.ingest."""

from __future__ import annotations

import pytest

from bounce_fixtures import bounce, outbox_row
from support import GM_ADDRESS, PLAYERS, body, last_outbox_id, mark_all_sent, order_mail, outbox

ON_BOTH_BACKENDS = True  # SQLite and PostgreSQL (bounce_holds)

REFEREE = "referee@example.org"
DAY = 86400.0
ADDRESS = dict(PLAYERS)


def start(engine, **options) -> tuple[dict, str]:
    """A Neighbors game with a 24 h deadline and late=forfeit; (passwords, the player to move)."""
    engine.config.gm_address = REFEREE
    passwords = engine.create_game("neighbors", "dl1", PLAYERS, seed=7, options={
        "deadline": "24h", "reminder": "0", "grace": "0", "late": "forfeit", **options})
    view = engine.load("dl1")
    (name,) = view.rules.to_move(view.state)
    return passwords, name


def state(engine, address):
    row = engine.store.delivery.address_state(address)
    return row["state"] if row is not None else None


def sent(engine, since: int) -> list[tuple[str, str]]:
    """(to, subject) of every mail queued since outbox id ``since``."""
    return [(m["To"], m["Subject"]) for m in outbox(engine, since)]


def play(engine, passwords, name) -> None:
    """``name`` mails her first legal order, with her password, from her own address."""
    view = engine.load("dl1")
    move = view.rules.legal_orders(view.state, name)[0]
    outcome = engine.ingest(order_mail(ADDRESS[name], move, game_id="dl1", password=passwords[name],
                                       subject=f"[dl1 T{view.turn}] orders"))
    assert outcome.outcome == "applied", outcome.detail


def test_a_forged_bounce_of_her_own_welcome_counts_for_nothing_with_verp_on(engine, clock):
    _, name = start(engine)
    address = ADDRESS[name]
    welcome = outbox_row(engine.store, address, "welcome")
    before = last_outbox_id(engine)
    forged = bounce("dsn-sendmail", welcome, engine.verp, to=GM_ADDRESS)  # quotes the welcome's Message-ID
    assert welcome["message_id"].encode() in forged
    outcome = engine.ingest(forged)
    assert outcome.outcome == "robot" and "without a valid VERP address" in outcome.detail
    assert state(engine, address) is None and engine.store.delivery.delivery_events(address) == []
    assert engine.store.delivery.outbox_row(welcome["id"])["status"] == "queued"  # not marked bounced
    assert sent(engine, before) == []  # nobody is told, the bounce is not answered
    mark_all_sent(engine)  # the welcome did go out (else she is never forfeited)
    clock.advance(DAY + 3600)
    engine.tick()
    assert engine.load("dl1").status == "finished"
    assert engine.store.results.result_of("dl1")["reason"].startswith(f"{name} forfeited")
    assert sorted(sent(engine, before)) == sorted(
        [(address, "[gm dl1] Late")] + [(a, "[gm dl1] Game over") for a in ADDRESS.values()])


def test_where_verp_is_off_the_quoted_message_id_still_counts(engine):
    _, name = start(engine)
    engine.config.verp = False
    welcome = outbox_row(engine.store, ADDRESS[name], "welcome")
    outcome = engine.ingest(bounce("dsn-sendmail", welcome, engine.verp, to=GM_ADDRESS))
    assert "by Message-ID" in outcome.detail and state(engine, ADDRESS[name]) == "bouncing"


def bounce_her_newest_mail(engine, address) -> None:
    """A real bounce (a valid VERP address) of the newest mail gm queued to ``address``, each with
    a Message-ID of its own."""
    raw = bounce("dsn-sendmail", outbox_row(engine.store, address), engine.verp)
    raw = raw.replace(b"5ANE2BsX011002@mx", f"n{last_outbox_id(engine)}x{engine.clock()}@mx".encode(), 1)
    outcome = engine.ingest(raw)
    assert outcome.outcome == "robot" and "by VERP" in outcome.detail


def test_her_own_valid_bounce_every_day_holds_her_deadline_once_a_turn(engine, clock):
    _, name = start(engine)
    address = ADDRESS[name]
    before = last_outbox_id(engine)
    days = 0
    while engine.load("dl1").status == "active" and days < 10:
        bounce_her_newest_mail(engine, address)
        clock.advance(DAY + 3600)
        engine.tick()
        days += 1
    assert days == 2 and state(engine, address) == "bouncing"
    assert engine.store.results.result_of("dl1")["reason"].startswith(f"{name} forfeited")
    held = engine.store.timers.bounce_holds_of("dl1", name)
    assert [h["seconds"] for h in held] == [DAY]
    moved = [h for h in engine.store.history.history_of("dl1") if h["action"] == "moved"]
    assert len(moved) == 1 and moved[0]["detail"].endswith(f"mail to {name} bounces (bouncing=wait)")
    other = next(a for a in ADDRESS.values() if a != address)
    # Every mail sent: the GM and the other player told once; the late notice and the end.
    assert sent(engine, before) == [(REFEREE, f"[gm] Mail to {address} bounces"),
                                    (other, "[gm dl1] Player not receiving mail"),
                                    (address, "[gm dl1] Late"),
                                    (address, "[gm dl1] Game over"), (other, "[gm dl1] Game over")]


def test_the_time_held_is_capped_by_the_absence_total(engine, clock):
    passwords, name = start(engine, absence_total="36h")
    address = ADDRESS[name]
    other = next(n for n in ADDRESS if n != name)
    for expected in (DAY, 12 * 3600):  # a day, then what is left of the 36 hours
        bounce_her_newest_mail(engine, address)
        clock.advance(DAY + 3600)
        engine.tick()
        assert engine.load("dl1").status == "active"
        assert engine.store.timers.bounce_holds_of("dl1", name)[-1]["seconds"] == expected
        assert engine.store.timers.deadline_row("dl1")["due"] == pytest.approx(clock() + expected)
        play(engine, passwords, name)  # her own mail clears the address; then the other plays
        assert state(engine, address) == "ok"
        play(engine, passwords, other)
    bounce_her_newest_mail(engine, address)
    before = last_outbox_id(engine)
    clock.advance(DAY + 3600)
    engine.tick()
    assert engine.load("dl1").status == "finished"
    assert engine.store.results.result_of("dl1")["reason"].startswith(f"{name} forfeited")
    assert sum(h["seconds"] for h in engine.store.timers.bounce_holds_of("dl1", name)) == 36 * 3600
    turn = engine.load("dl1").turn
    assert sorted(sent(engine, before)) == sorted(
        [(address, "[gm dl1] Late")] + [(a, "[gm dl1] Game over") for a in ADDRESS.values()])
    assert all(f"Game dl1, turn {turn}:" in body(m) for m in outbox(engine, before))
