"""A bounce read into one value in one call (gm.mail.bounces.read with our address and Verp): what
failed, for good or for now, where it was delivered, the VERP tag decoded and checked, the quoted
Message-IDs and the server's words.  One value per fixture of tests/fixtures/bounces."""

from __future__ import annotations

import dataclasses

import pytest

from bounce_fixtures import NOT_BOUNCES, PERMANENT, TEMPORARY, bounce
from gm.mail import inbound
from gm.mail.bounces import Bounce, read
from gm.mail.verp import Verp, VerpMatch

VERP = Verp("gm@example.test", b"s" * 64)
ROW = {"id": 12, "recipient": "bob@example.org", "message_id": "<1.abc@example.test>"}
RETURN = VERP.envelope(12)  # gm+bounce-12-<tag>@example.test
BOB = "bob@example.org"
ORIGINAL = "<1.abc@example.test>"

WORDS = {
    "dsn-sendmail": "SMTP; 550 5.1.1 <bob@example.org>... User unknown",
    "postfix": "smtp; 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual "
               "mailbox table",
    "exim": "550 5.1.1 No such user here",
    "qmail": "Remote host said: 550 5.1.1 <bob@example.org>... User unknown",
    "exchange": "",  # Exchange's notice quotes no SMTP reply
    "yahoo": "Remote host said: 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown "
             "[RCPT_TO]",
    "aol": "",
    "gmail": "smtp; The email account that you tried to reach does not exist. Please try double-checking "
             "the recipient's email address for typos or unnecessary spaces. "
             "https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-5c1e2b9a3d1si123456a.12 - gsmtp",
    "office365": "smtp;550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup",
    "postfix-delayed": "smtp; 452 4.2.2 Mailbox full",
}


def ours() -> Verp:
    return VERP


def never() -> Verp:
    raise AssertionError("the VERP secret was asked for a bounce that names no VERP address")


@pytest.mark.parametrize("shape", PERMANENT + TEMPORARY)
def test_each_fixture_is_one_value_with_its_verp_tag_checked(shape):
    failing = ["bob@aol.com"] if shape == "aol" else [BOB]
    assert read(bounce(shape, ROW, VERP), VERP.address, ours) == Bounce(
        permanent=failing if shape in PERMANENT else [],
        temporary=failing if shape in TEMPORARY else [],
        recipients=[RETURN],
        quoted_ids=[] if shape == "aol" else [ORIGINAL],  # AOL's notice quotes nothing
        words=WORDS[shape],
        verp_address=RETURN,
        verp_match=VerpMatch(12, True),
    )


@pytest.mark.parametrize("shape,summary", [
    ("postfix", WORDS["postfix"]),
    ("exchange", "failed: bob@example.org"),
    ("aol", "failed: bob@aol.com"),
    ("postfix-delayed", WORDS["postfix-delayed"]),
])
def test_the_summary_is_the_servers_words_else_what_failed(shape, summary):
    assert read(bounce(shape, ROW, VERP), VERP.address, ours).summary == summary


def test_a_delay_without_words_says_delayed():
    assert Bounce(temporary=["a@example.org", "b@example.org"]).summary == "delayed: a@example.org, b@example.org"
    assert not Bounce(temporary=["a@example.org"]).is_permanent


@pytest.mark.parametrize("shape", NOT_BOUNCES)
def test_a_mail_to_a_verp_address_that_fails_nothing_is_no_bounce(shape):
    assert read(bounce(shape, ROW, VERP), VERP.address, never) is None


def test_a_bounce_to_our_plain_address_names_no_verp_row_and_never_reads_the_secret():
    found = read(bounce("postfix", ROW, VERP, to=VERP.address), VERP.address, never)
    assert (found.recipients, found.verp_address, found.verp_match) == ([VERP.address], None, None)
    assert found.quoted_ids == [ORIGINAL] and found.permanent == [BOB]


def test_a_forged_tag_is_decoded_but_does_not_check():
    tag = VERP.tag(12)
    forged = RETURN.replace(tag, "0" * len(tag))
    found = read(bounce("dsn-sendmail", ROW, VERP, to=forged), VERP.address, ours)
    assert (found.verp_address, found.verp_match) == (forged, VerpMatch(12, False))
    other_secret = Verp(VERP.address, b"t" * 64)
    found = read(bounce("dsn-sendmail", ROW, other_secret), VERP.address, ours)
    assert found.verp_match == VerpMatch(12, False)


def test_another_rows_id_under_this_tag_does_not_check():
    moved = RETURN.replace("-12-", "-13-")
    found = read(bounce("exim", ROW, VERP, to=moved), VERP.address, ours)
    assert found.verp_match == VerpMatch(13, False)


def test_the_value_is_frozen():
    found = read(bounce("postfix", ROW, VERP), VERP.address, ours)
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.verp_match = None


def test_an_inbound_mail_knows_the_verp_address_it_was_delivered_to():
    """What gm.service.outgoing.bounces.to_bounce_address asks: read with the header, no second look."""
    assert inbound.parse(bounce("not-a-bounce-out-of-office", ROW, VERP), VERP.address).bounce_address == RETURN
    assert inbound.parse(bounce("postfix", ROW, VERP, to=VERP.address), VERP.address).bounce_address == ""
    plain = b"From: ada@example.org\r\nTo: gm+nb1@example.test\r\nSubject: hi\r\n\r\nhello\r\n"
    assert inbound.parse(plain, VERP.address).bounce_address == ""
