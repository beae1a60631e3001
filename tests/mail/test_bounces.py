"""Bounces in the shapes the common MTAs send, delivered through the real Dovecot and read by the
daemon; and a refusal at send time by the real aiosmtpd.  Each is matched to its outbox row,
permanent ones mark the address bouncing, temporary ones count up, and none is answered."""

from __future__ import annotations

import pytest

from bounce_fixtures import NOT_BOUNCES, PERMANENT, QUOTE_THE_ORIGINAL, bounce, outbox_row
from support import GM_ADDRESS, PLAYERS

ADDRESS = dict(PLAYERS)
REFEREE = "referee@example.test"
BOB = ADDRESS["bob"]


def started(harness, **config):
    """A game whose welcomes have gone out over SMTP; the GM's address is REFEREE."""
    harness.reconfigure(gm_address=REFEREE, **config)
    harness.new_game()
    harness.once()
    row = outbox_row(harness.engine.store, BOB, "welcome")
    assert row["status"] == "sent"
    return row


def mails_sent(smtp) -> int:
    return smtp.count()


def events(harness, address=BOB):
    return harness.engine.store.all("SELECT * FROM delivery_events WHERE address = :address ORDER BY id",
                                    address=address)


def state(harness, address=BOB):
    row = harness.engine.store.delivery.address_state(address)
    return row["state"] if row is not None else None


def last_message(harness):
    return harness.engine.store.one("SELECT outcome, detail FROM messages ORDER BY id DESC LIMIT 1")


def deliver(harness, dovecot, shape, row, **where):
    """A bounce of ``shape`` about outbox ``row``, through Dovecot and one pass of the daemon."""
    dovecot.append(bounce(shape, row, harness.engine.verp, **where))
    harness.once()


@pytest.mark.parametrize("shape", PERMANENT)
def test_a_permanent_bounce_is_matched_to_its_row_and_marks_the_address_bouncing(harness, dovecot, smtp, shape):
    row = started(harness)
    before = mails_sent(smtp)
    deliver(harness, dovecot, shape, row)
    message = last_message(harness)
    assert message["outcome"] == "robot" and f"bounce of outbox #{row['id']} to {BOB} (permanent, by VERP)" \
        in message["detail"]
    (event,) = events(harness)
    assert (event["outbox_id"], event["permanent"], event["source"], event["settled"]) == (row["id"], 1, "bounce", 1)
    assert outbox_row(harness.engine.store, BOB, "welcome")["status"] == "bounced"
    assert state(harness) == "bouncing"
    # Not answered: what went out after it is the GM's notice and ada's, nothing to the bouncer.
    sent = smtp.messages[before:]
    assert sorted(rcpt[0] for rcpt, _ in sent) == [ADDRESS["ada"], REFEREE]
    assert all(m["Subject"].startswith(("[gm] Mail to bob@example.org bounces", "[gm nb1] Player not receiving"))
               for _, m in sent)


def test_a_temporary_bounce_counts_up_and_changes_no_status(harness, dovecot, smtp):
    row = started(harness)
    before = mails_sent(smtp)
    deliver(harness, dovecot, "postfix-delayed", row)
    assert "(temporary, by VERP)" in last_message(harness)["detail"]
    (event,) = events(harness)
    assert event["permanent"] == 0 and "452 4.2.2 Mailbox full" in event["words"]
    assert outbox_row(harness.engine.store, BOB, "welcome")["status"] == "sent"
    assert state(harness) == "soft-failing"
    assert mails_sent(smtp) == before  # nobody told, nothing answered


@pytest.mark.parametrize("shape", QUOTE_THE_ORIGINAL)
def test_without_plus_addressing_a_bounce_is_matched_by_the_quoted_message_id(harness, dovecot, smtp, shape):
    row = started(harness, verp=False)
    assert {mail_from for mail_from, _ in smtp.envelope_senders} == {GM_ADDRESS}
    deliver(harness, dovecot, shape, row, to=GM_ADDRESS)
    assert f"bounce of outbox #{row['id']} to {BOB}" in last_message(harness)["detail"]
    assert "by Message-ID" in last_message(harness)["detail"]
    assert len(events(harness)) == 1


@pytest.mark.parametrize("shape", NOT_BOUNCES)
def test_an_auto_reply_or_a_delivery_report_to_a_verp_address_changes_nothing(harness, dovecot, smtp, shape):
    row = started(harness)
    before = mails_sent(smtp)
    deliver(harness, dovecot, shape, row)
    assert last_message(harness)["outcome"] == "robot"
    assert events(harness) == [] and state(harness) is None and mails_sent(smtp) == before


def test_a_bounce_that_quotes_nothing_and_has_no_verp_address_changes_nothing(harness, dovecot, smtp):
    row = started(harness, verp=False)
    dovecot.append(bounce("aol", row, harness.engine.verp, to=GM_ADDRESS))
    harness.once()
    assert "names none of gm's messages" in last_message(harness)["detail"]
    assert events(harness) == [] and state(harness) is None


def test_a_forged_verp_address_changes_nothing(harness, dovecot, smtp):
    row = started(harness)
    before = mails_sent(smtp)
    good = harness.engine.verp.envelope(row["id"])
    forged = good[:-len("@example.test") - 1] + ("0" if good[-len("@example.test") - 1] != "0" else "1") \
        + "@example.test"
    assert harness.engine.verp.match(forged).outbox_id == row["id"]
    dovecot.append(bounce("dsn-sendmail", row, harness.engine.verp, to=forged))
    harness.once()
    message = last_message(harness)
    assert message["outcome"] == "robot" and "forged VERP address" in message["detail"]
    assert events(harness) == [] and state(harness) is None
    assert outbox_row(harness.engine.store, BOB, "welcome")["status"] == "sent"
    assert mails_sent(smtp) == before


def welcome_to_bob(harness, refused: set[str]):
    """A game started with bob's address in ``refused`` (the SMTP server's 550 or 452 set): the
    outbox row of bob's welcome, after one pass of the daemon."""
    refused.add(BOB)
    harness.reconfigure(gm_address=REFEREE)
    harness.new_game()
    harness.once()
    return outbox_row(harness.engine.store, BOB, "welcome")


def test_a_5xx_at_send_time_is_recorded_as_a_permanent_failure(harness, dovecot, smtp):
    row = welcome_to_bob(harness, smtp.refuse)
    assert row["status"] == "bounced" and "550" in row["last_error"]
    (event,) = events(harness)
    assert (event["outbox_id"], event["permanent"], event["source"]) == (row["id"], 1, "smtp")
    assert "550 5.1.1 no such user" in event["words"]
    harness.engine.tick()  # the judge settles what the sender thread recorded
    assert state(harness) == "bouncing"
    harness.once()
    assert [m["Subject"] for m in smtp.to(REFEREE)] == ["[gm] Mail to bob@example.org bounces"]
    assert smtp.to(BOB) == []


def test_a_4xx_at_send_time_is_a_temporary_failure_and_the_mail_is_retried(harness, dovecot, smtp):
    row = welcome_to_bob(harness, smtp.defer)
    assert row["status"] == "queued" and "452" in row["last_error"]
    first = events(harness)
    assert first and all((e["permanent"], e["source"]) == (0, "smtp") for e in first)
    harness.engine.tick()
    assert state(harness) == "soft-failing"
    smtp.defer.clear()
    harness.engine.store.db.execute("UPDATE outbox SET next_attempt = 0 WHERE id = :id", {"id": row["id"]})
    harness.once()
    assert outbox_row(harness.engine.store, BOB, "welcome")["status"] == "sent"
    assert len(smtp.to(BOB)) == 1 and smtp.to(REFEREE) == []
