"""Refusals read right, against the real aiosmtpd through the daemon's sender: a 5xx at
MAIL FROM (or the same refusal at two domains) is gm's set-up, not the players': the queue is held,
nobody is marked, the GM is told once, and the mail goes when the server takes it again or the GM
says so; a 5.7.26 (DMARC) by one domain holds that domain only; one address's 5xx stays its own,
listed at once; a later delivery clears soft-failing; `gm players --clear` ends a bouncing state."""

from __future__ import annotations

import logging

from typer.testing import CliRunner

from gm.cli import app
from gm.core.config import ServerConfig
from gm.runtime.delivery import Sender
from gm.runtime.smtp import SmtpTransport
from gm.runtime.transport import PolicyRefused, SenderRefused
from gm.service.outgoing import delivery_state
from gm.service.outgoing.holding import sending_blocked_since

REFEREE = "referee@example.test"
ADA, BOB, CY = "ada@example.org", "bob@example.org", "cy@example.net"
PLAYERS3 = [("ada", ADA), ("bob", BOB), ("cy", CY)]
SENDER_REJECTED = "554 5.7.1 <{sender}>: Sender address rejected: not logged in"
DMARC = ("550 5.7.26 This mail is unauthenticated, which poses a security risk to the sender and "
         "Gmail users, and has been blocked (DMARC policy)")
runner = CliRunner()


def gm(harness, *args) -> str:
    result = runner.invoke(app, ["--config", str(harness.config_path), *args])
    assert result.exit_code == 0, result.output
    return result.output


def statuses(harness) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for row in harness.engine.store.all("SELECT recipient, status FROM outbox ORDER BY id"):
        out.setdefault(row["recipient"], []).append(row["status"])
    return out


def states(harness) -> dict[str, str]:
    return {r["address"]: r["state"] for r in harness.engine.store.all("SELECT * FROM addresses")}


def gm_mails(harness) -> list[str]:
    return [r["subject"] for r in harness.engine.store.all(
        "SELECT subject FROM outbox WHERE recipient = :recipient ORDER BY id", recipient=REFEREE)]


def try_again_now(harness) -> None:
    """The holds' next probe and every retry due now (instead of waiting out the back-off)."""
    with harness.engine.store.write():
        harness.engine.store.db.execute("UPDATE holds SET next_probe = 0")
        harness.engine.store.db.execute("UPDATE outbox SET next_attempt = 0 WHERE status = 'queued'")


def test_a_sender_refusal_holds_the_queue_marks_nobody_and_tells_the_gm_once(harness, smtp, caplog):
    smtp.sender_refusal = SENDER_REJECTED
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game(players=PLAYERS3)
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            harness.once()
            try_again_now(harness)
    assert smtp.count() == 0
    assert states(harness) == {}  # nobody bouncing, nobody soft-failing, not even gm_address
    assert harness.engine.store.all("SELECT * FROM delivery_events") == []
    assert {s for rows in statuses(harness).values() for s in rows} == {"queued"}  # none bounced, none held
    (hold,) = harness.engine.store.outbox.holds()
    assert hold["scope"] == "sender" and "554 5.7.1" in hold["words"] and hold["probes"] >= 2
    assert sending_blocked_since(harness.engine) == hold["since"]
    assert gm_mails(harness) == ["[gm] All mail held"]
    held_lines = [r.getMessage() for r in caplog.records if "is held:" in r.getMessage()]
    assert len(held_lines) == 1 and "every recipient" in held_lines[0]
    shown = gm(harness, "players")
    assert shown.startswith("HELD: all of gm's mail is held: the server refuses gm's envelope sender")
    assert "Sender address rejected" in shown and "gm players --clear sender -m WHY" in shown
    assert [line.split()[-1] for line in shown.splitlines() if "nb1" in line] == ["ok", "ok", "ok"]
    assert gm(harness, "outbox").startswith("HELD: all of gm's mail")
    # The relay now takes gm's sender: the next try goes through, the hold ends, all is sent.
    smtp.sender_refusal = None
    try_again_now(harness)
    harness.once()
    assert harness.engine.store.outbox.holds() == [] and sending_blocked_since(harness.engine) is None
    assert {s for rows in statuses(harness).values() for s in rows} == {"sent"}
    assert [len(smtp.to(a)) for a in (ADA, BOB, CY, REFEREE)] == [1, 1, 1, 1]
    assert states(harness) == {}


def test_the_gm_ends_a_sender_hold_by_hand(harness, smtp):
    smtp.sender_refusal = SENDER_REJECTED
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game()
    harness.once()
    assert sending_blocked_since(harness.engine) is not None
    smtp.sender_refusal = None
    # The back-off would wait; the GM fixed the relay's login and says so.
    assert "no longer held" in gm(harness, "players", "--clear", "sender", "-m", "relay login fixed")
    harness.once()
    assert sending_blocked_since(harness.engine) is None
    assert len(smtp.to(ADA)) == len(smtp.to(BOB)) == 1 and states(harness) == {}


def test_the_same_refusal_at_two_domains_is_the_servers(harness, smtp):
    for address in (BOB, CY):  # a relay refusing to relay: not these two mailboxes' fault
        smtp.refuse_with[address] = "554 5.7.1 <{rcpt}>: Relay access denied"
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game(players=PLAYERS3)
    harness.once()
    assert states(harness) == {} and harness.engine.store.all("SELECT * FROM delivery_events") == []
    assert [h["scope"] for h in harness.engine.store.outbox.holds()] == ["sender"]
    assert statuses(harness)[BOB] == statuses(harness)[CY] == ["queued"]


def test_a_dmarc_refusal_by_one_domain_holds_that_domain_and_not_the_others(harness, smtp):
    smtp.refuse_with["@example.net"] = DMARC
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game(players=PLAYERS3)
    harness.once()
    try_again_now(harness)
    harness.once()
    assert states(harness) == {}  # cy is not bouncing: her domain refuses gm, not her mailbox
    assert statuses(harness)[CY] == ["queued"] and statuses(harness)[ADA] == ["sent"]
    assert [h["scope"] for h in harness.engine.store.outbox.holds()] == ["domain:example.net"]
    assert sending_blocked_since(harness.engine) is None  # gm can send: only one domain waits
    # The GM is told once, by mail (the server takes it), and in gm players.
    assert gm_mails(harness) == ["[gm] Mail to example.net held"]
    assert len(smtp.wait_for(REFEREE, 1)) == 1 and "5.7.26" in smtp.to(REFEREE)[0].get_content()
    assert "HELD: gm's mail to example.net is held" in gm(harness, "players")
    # The GM fixed DMARC (SPF, DKIM) and releases it by hand.
    del smtp.refuse_with["@example.net"]
    assert "no longer held" in gm(harness, "players", "--clear", "@example.net", "-m", "DMARC record added")
    harness.once()
    assert statuses(harness)[CY] == ["sent"] and len(smtp.to(CY)) == 1


def sender_for(harness, smtp):
    """The daemon's sender, as gm run makes it, on the real SMTP server."""
    transport = SmtpTransport(ServerConfig(port=smtp.port, timeout=5), envelope_from=harness.config.address)
    return Sender(harness.engine.store, transport, gm_address=REFEREE,
                  settle=lambda store: delivery_state.settle_now(harness.engine))


def test_one_address_refused_is_its_own_failure_listed_at_once(harness, smtp):
    smtp.refuse.add(BOB)
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game()
    sender = sender_for(harness, smtp)
    try:
        sender.pump()  # no tick: the refusal is settled by the sender itself
    finally:
        sender.close()
    assert states(harness) == {BOB: "bouncing"} and harness.engine.store.outbox.holds() == []
    assert "bob@example.org" in gm(harness, "players", "--bouncing")
    assert statuses(harness)[ADA][0] == "sent"  # her welcome; then a notice that bob gets nothing


def test_a_later_delivery_clears_soft_failing(harness, smtp):
    smtp.defer.add(BOB)
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game()
    sender = sender_for(harness, smtp)
    try:
        sender.pump()
        harness.engine.tick()
        assert states(harness) == {BOB: "soft-failing"}
        smtp.defer.clear()
        try_again_now(harness)
        sender.pump()
    finally:
        sender.close()
    assert states(harness) == {BOB: "ok"} and len(smtp.to(BOB)) == 1


def test_gm_players_clear_ends_a_bouncing_state_and_releases_the_held_mail(harness, smtp):
    smtp.refuse.add(BOB)
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game()
    harness.once()
    harness.engine.tick()
    assert states(harness)[BOB] == "bouncing"
    with harness.engine.store.write():
        harness.engine.outbox.queue(BOB, "probe", "x\n", kind="notice")
        held = harness.engine.outbox.queue(BOB, "held", "x\n", kind="notice")
    assert harness.engine.store.delivery.outbox_row(held)["status"] == "held"
    smtp.refuse.clear()
    shown = gm(harness, "players", "--clear", BOB, "-m", "bob fixed his mailbox", "--by", "gm:alice")
    assert "bob@example.org: ok (cleared by gm:alice: bob fixed his mailbox)" in shown
    assert states(harness)[BOB] == "ok"
    assert harness.engine.store.delivery.outbox_row(held)["status"] == "queued"
    (line,) = [h for h in harness.engine.store.history.history_of("nb1") if h["action"] == "cleared"]
    assert (line["actor"], line["detail"]) == ("gm:alice", "bob <bob@example.org>: bob fixed his mailbox")
    harness.once()
    assert "held" in [m["Subject"] for m in smtp.to(BOB)]
    refused = runner.invoke(app, ["--config", str(harness.config_path), "players", "--clear", BOB])
    assert refused.exit_code != 0 and "-m WHY" in refused.output


def test_the_transport_tells_a_sender_refusal_and_a_policy_refusal_apart(smtp):
    transport = SmtpTransport(ServerConfig(port=smtp.port, timeout=5), envelope_from="gm+bounce-1@example.test")
    try:
        smtp.refuse_with["@example.net"] = DMARC
        try:
            transport.send(CY, b"Subject: x\n\nx\n", 1)
        except PolicyRefused as exc:
            assert "5.7.26" in str(exc)
        else:
            raise AssertionError("not refused")
        smtp.sender_refusal = SENDER_REJECTED
        try:
            transport.send(ADA, b"Subject: x\n\nx\n", 2)
        except SenderRefused as exc:
            assert "gm+bounce-1@example.test" in str(exc) and str(exc).startswith("554 5.7.1")
        else:
            raise AssertionError("not refused")
    finally:
        transport.close()
