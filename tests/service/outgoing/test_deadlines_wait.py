"""Deadlines that wait for gm, on both back ends: the heartbeat gap, an SMTP outage, and
no forfeit while the turn's report has not reached the player.  The daemons themselves, against
the real servers, are in tests/mail/test_outages.py (these, service-level, in
tests/service/outgoing/test_deadlines_wait.py)."""

from __future__ import annotations

import pytest

from gm.service.outgoing import outages

ON_BOTH_BACKENDS = True

H = 3600.0
PLAYERS = [("ada", "ada@example.org"), ("bob", "bob@example.org")]
ME = outages.DaemonIdentity("test:1:ab", "test", 1, 0.0)


@pytest.fixture
def game(engine, clock):
    engine.create_game("neighbors", "nb1", PLAYERS, seed=3,
                       options={"deadline": "1h", "grace": "10m", "late": "forfeit", "reminder": "0"})
    return engine.store.timers.deadline_row("nb1")["due"]


def history(engine, action: str) -> list:
    return [r for r in engine.store.history.history_of("nb1") if r["action"] == action]


def moved_notices(engine) -> list:
    return engine.store.all("SELECT recipient FROM outbox WHERE kind = 'notice' "
                            "AND lower(subject) LIKE lower(:subject)", subject="%Deadline moved%")


def send_everything(engine) -> None:
    with engine.store.write():
        for row in engine.store.all("SELECT id FROM outbox WHERE status = 'queued'"):
            engine.store.outbox.mark_sent(row["id"], engine.clock(), 1)


def test_a_deadline_inside_a_heartbeat_gap_moves_by_it(engine, clock, game):
    send_everything(engine)
    assert outages.heartbeat(engine, ME, None) is None  # the first beat: nothing to compare with
    clock.advance(3 * H)  # no daemon ran past the deadline and its grace
    gap = outages.heartbeat(engine, ME, None)
    assert gap == 3 * H
    engine.tick()
    assert engine.store.timers.deadline_row("nb1")["due"] == game + 3 * H
    assert history(engine, "late") == [] and history(engine, "forfeit") == []
    assert sorted(r["recipient"] for r in moved_notices(engine)) == ["ada@example.org", "bob@example.org"]
    engine.tick()  # once: applied
    assert len(moved_notices(engine)) == 2 and engine.store.timers.deadline_row("nb1")["due"] == game + 3 * H


def test_once_finds_no_gap_and_a_short_one_is_none(engine, clock, game):
    outages.heartbeat(engine, ME, None)
    clock.advance(30)
    assert outages.heartbeat(engine, ME, None) is None  # a tick or so: still running
    clock.advance(3 * H)
    assert outages.heartbeat(engine, ME, None, look_for_gap=False) is None  # cron's --once
    assert engine.store.daemons.outage_rows() == []


def test_deadlines_wait_while_gm_cannot_send_then_move(engine, clock, game):
    start = clock.now
    send_everything(engine)
    clock.advance(5 * 60)
    outages.heartbeat(engine, ME, clock.now)  # the sender thread: SMTP down since now
    engine.tick()
    assert outages.unavailable_since(engine) == start + 5 * 60
    clock.advance(2 * H)  # past the deadline and the grace: nothing expires
    outages.heartbeat(engine, ME, start + 5 * 60)
    engine.tick()
    assert history(engine, "late") == [] and history(engine, "forfeit") == []
    outages.heartbeat(engine, ME, None)  # sending again
    engine.tick()
    length = clock.now - (start + 5 * 60)
    assert engine.store.timers.deadline_row("nb1")["due"] == game + length
    assert len(moved_notices(engine)) == 2
    (row,) = engine.store.daemons.outage_rows()
    assert row["kind"] == "sending" and row["applied"] == 1


def test_nobody_forfeits_a_turn_whose_report_did_not_reach_them(engine, clock, game):
    unsent = engine.store.metrics.unsent_report_recipients("nb1", 1)
    assert unsent  # the first report is still queued: nothing sends in this test
    clock.advance(2 * H)
    engine.tick()
    assert history(engine, "forfeit") == []
    send_everything(engine)  # the reports went out now
    engine.tick()
    assert history(engine, "forfeit") != []


def test_a_deadline_waits_while_the_server_refuses_gms_sender_then_moves(engine, clock, game):
    """The queue held by a refusal of gm's own return address ("Refusals read right")
    is an outage like a server that is down: no deadline expires inside it, and when the GM
    ends the hold (gm players --clear sender) the deadline moves by its length."""
    from gm.service.outgoing import holding

    start = clock.now
    send_everything(engine)
    clock.advance(5 * 60)
    with engine.store.write():
        engine.store.outbox.add_hold("sender", clock.now, "the server refuses gm's envelope sender (MAIL FROM)",
                                     "554 5.7.1 Sender address rejected", "554 5.7.1", clock.now + 300)
    engine.tick()
    assert outages.unavailable_since(engine) == start + 5 * 60
    clock.advance(2 * H)  # past the deadline and its grace
    engine.tick()
    assert history(engine, "late") == [] and history(engine, "forfeit") == []
    with engine.store.write():
        assert holding.end_hold(engine, "sender", "relay login fixed")
    engine.tick()
    assert outages.unavailable_since(engine) is None
    length = clock.now - (start + 5 * 60)
    assert engine.store.timers.deadline_row("nb1")["due"] == game + length
    assert sorted(r["recipient"] for r in moved_notices(engine)) == ["ada@example.org", "bob@example.org"]
    (row,) = engine.store.daemons.outage_rows()
    assert row["kind"] == "sending" and row["applied"] == 1


def test_a_deadline_waits_for_a_report_gm_tried_and_could_not_hand_on_then_counts_from_it(engine, clock, game):
    """No outage known (one failed try, fewer than make the server down): the report to ada waits
    in the outbox after a failed try; her deadline waits for it, and once it goes out her hour
    counts from then (gm.service.outgoing.reached).  A report handed on at its first try, however
    late (cron's cadence), moves nothing."""
    with engine.store.write():
        for row in engine.store.all("SELECT id, recipient FROM outbox WHERE status = 'queued'"):
            if row["recipient"] == "ada@example.org":
                engine.store.outbox.note_attempt(row["id"], 1, "cannot reach the server")
            else:
                engine.store.outbox.mark_sent(row["id"], clock.now + 1800, 1)  # bob's: at its first try
    clock.advance(2 * H)  # past the deadline and its grace
    engine.tick()
    assert history(engine, "late") == [] and history(engine, "forfeit") == []
    assert engine.store.timers.deadline_row("nb1")["due"] == game
    delivered = clock.now
    with engine.store.write():  # ada's report goes out at last, at its second try
        for row in engine.store.all("SELECT id FROM outbox WHERE status = 'queued'"):
            engine.store.outbox.mark_sent(row["id"], delivered, 2)
    engine.tick()
    assert engine.store.timers.deadline_row("nb1")["due"] == delivered + H
    assert history(engine, "late") == [] and history(engine, "forfeit") == []
    assert sorted(r["recipient"] for r in moved_notices(engine)) == ["ada@example.org", "bob@example.org"]
    clock.advance(H + 11 * 60)  # her hour and its grace are over: now she may be forfeited
    engine.tick()
    assert [r["detail"].split(":")[0] for r in history(engine, "forfeit")] == ["ada forfeited"]
