"""Nobody loses a game to the server, run from cron: `gm run --once` on the real Dovecot and SMTP.

- The SMTP server refuses connections from before a move until past its deadline, while cron runs
  `gm run --once` every ten minutes: the player who owes the next move, whose report waits in the
  outbox, is neither marked late nor forfeited; the runs see the outage as the daemon does, and
  the deadline moves by it (gm.service.outgoing.outages), counted from when the report went out.
- An order Dovecot took in before the deadline (its INTERNALDATE) and read by a cron run after the
  deadline is on time (RULINGS G4); an INTERNALDATE in the future is not the delivery.
"""

from __future__ import annotations

import datetime
import time

import pytest

from gm.runtime import daemon
from gm.service.engine import Engine
from gm.store import Store
from mailroom import text_of
from support import PLAYERS, order_mail

ADDRESS = dict(PLAYERS)
H = 3600.0
OPTIONS = {"deadline": "1h", "grace": "10m", "late": "forfeit", "reminder": "0"}


class Cron:
    """`gm run --once` in this process, as cron runs it, on a clock the test moves."""

    def __init__(self, harness):
        self.harness = harness
        self.offset = 0.0

    def clock(self) -> float:
        return time.time() + self.offset

    def run(self, at: float | None = None) -> None:
        if at is not None:
            self.offset = at
        engine = Engine(Store(self.harness.config.database), self.harness.config, clock=self.clock)
        try:
            daemon.run(engine, self.harness.config, once=True)
        finally:
            engine.store.close()


def actions(store, action: str) -> list:
    return [r for r in store.history.history_of("nb1") if r["action"] == action]


def append_at(dovecot, raw: bytes, at: float) -> None:
    """A mail Dovecot records as delivered at ``at`` (its INTERNALDATE)."""
    with dovecot.client() as client:
        client.append("INBOX", raw, msg_time=datetime.datetime.fromtimestamp(at, datetime.timezone.utc))


def test_cron_runs_across_an_smtp_outage_forfeit_nobody_whose_report_waits(harness, dovecot, smtp):
    store = harness.engine.store
    passwords = harness.new_game(**OPTIONS)
    cron = Cron(harness)
    cron.run()  # the welcomes go out
    smtp.stop()  # the server refuses connections from before the move
    mover, orders = harness.legal()
    dovecot.append(order_mail(ADDRESS[mover], orders[0], game_id="nb1", password=passwords[mover]))
    cron.run()  # the move is judged; its report cannot go out
    (waiting, _) = harness.legal()
    assert waiting != mover and ADDRESS[waiting] in store.metrics.unsent_report_recipients("nb1", 2)
    due = store.timers.deadline_row("nb1")["due"]
    for step in range(1, 14):  # cron every ten minutes, past the deadline and its grace
        cron.run(step * 600.0)
    assert actions(store, "late") == [] and actions(store, "forfeit") == []
    smtp.start()  # the same port: the outage is over
    cron.run(14 * 600.0)
    report = [m for m in smtp.to(ADDRESS[waiting]) if m["Subject"] == "[gm nb1] Neighbors report"
              and "Neighbors game nb1, turn 2" in text_of(m)]
    assert report, "the report went out"
    sent = store.one("SELECT sent FROM outbox WHERE recipient = :to AND turn = 2 AND kind = 'report'",
                     to=ADDRESS[waiting])["sent"]
    cron.run(14 * 600.0 + 1800)  # half an hour after the report reached the player: not late
    assert actions(store, "late") == [] and actions(store, "forfeit") == []
    (outage,) = store.daemons.outage_rows()
    assert outage["kind"] == "sending" and outage["applied"] == 1
    moved = store.timers.deadline_row("nb1")["due"]
    assert moved == pytest.approx(due + outage["finish"] - outage["start"])  # by the outage, as the daemon's
    assert moved >= sent + H - 60  # the turn's hour counts from the report's delivery
    for address in ADDRESS.values():
        assert len([m for m in smtp.to(address) if "Deadline moved" in m["Subject"]]) == 1
    cron.run(moved - time.time() + 11 * 60)  # past the moved deadline and its grace: now it may
    assert [r["detail"].split(":")[0] for r in actions(store, "forfeit")] == [f"{waiting} forfeited"]


def test_an_order_dovecot_took_in_before_the_deadline_and_read_after_it_is_on_time(harness, dovecot, smtp):
    store = harness.engine.store
    passwords = harness.new_game(**OPTIONS)
    cron = Cron(harness)
    cron.run()  # the welcomes go out
    due = store.timers.deadline_row("nb1")["due"]
    mover, orders = harness.legal()
    append_at(dovecot, order_mail(ADDRESS[mover], orders[0], game_id="nb1", password=passwords[mover]),
              due - 600)
    cron.run(2 * H)  # the next run comes after the deadline and its grace
    assert harness.states() == 2  # the move was made
    order = store.one("SELECT turn, at FROM orders WHERE game_id = 'nb1' AND action = 'order'")
    assert order["turn"] == 1 and order["at"] == int(due - 600)
    assert actions(store, "late") == [] and actions(store, "forfeit") == []


def test_an_internaldate_in_the_future_is_judged_as_now(harness, dovecot, smtp):
    store = harness.engine.store
    passwords = harness.new_game(**dict(OPTIONS, deadline="10m", grace="1m"))
    cron = Cron(harness)
    cron.run()
    mover, orders = harness.legal()
    # half an hour ahead of the server's clock (Dovecot keeps a date an hour ahead, not a day)
    append_at(dovecot, order_mail(ADDRESS[mover], orders[0], game_id="nb1", password=passwords[mover]),
              time.time() + 1800)
    cron.run(900)  # the next run comes after the deadline and its grace, before that date
    assert [r["detail"].split(":")[0] for r in actions(store, "forfeit")] == [f"{mover} forfeited"]
    assert harness.states() == 1
