"""Reading a bounce's bytes (gm.mail.bounces): what failed, where it was delivered, what it quotes,
in bounded time whatever arrives."""

from __future__ import annotations


import pytest

from bounce_fixtures import NOT_BOUNCES, PERMANENT, TEMPORARY, bounce
from support import LINEAR_4X, growth
from gm.mail import bounces
from gm.mail.verp import Verp

VERP = Verp("gm@example.test", b"s" * 64)
ROW = {"id": 12, "recipient": "bob@example.org", "message_id": "<1.abc@example.test>"}


@pytest.mark.parametrize("shape", PERMANENT + TEMPORARY)
def test_each_shape_names_the_failing_address_its_verp_address_and_the_original(shape):
    found = bounces.read(bounce(shape, ROW, VERP))
    assert found is not None
    failing = found.permanent if shape in PERMANENT else found.temporary
    assert failing == (["bob@aol.com"] if shape == "aol" else ["bob@example.org"])
    assert found.is_permanent == (shape in PERMANENT)
    assert VERP.envelope(12) in found.recipients
    assert found.quoted_ids == ([] if shape == "aol" else ["<1.abc@example.test>"])


@pytest.mark.parametrize("shape,words", [
    ("postfix", "smtp; 550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual "
                "mailbox table"),
    ("dsn-sendmail", "SMTP; 550 5.1.1 <bob@example.org>... User unknown"),
    ("exim", "550 5.1.1 No such user here"),
    ("qmail", "Remote host said: 550 5.1.1 <bob@example.org>... User unknown"),
    ("postfix-delayed", "smtp; 452 4.2.2 Mailbox full"),
])
def test_the_servers_words_are_kept(shape, words):
    assert bounces.read(bounce(shape, ROW, VERP)).words == words


@pytest.mark.parametrize("shape", NOT_BOUNCES)
def test_an_auto_reply_or_a_delivery_report_is_no_bounce(shape):
    assert bounces.read(bounce(shape, ROW, VERP)) is None


def test_a_mail_that_is_no_bounce_is_none():
    raw = (b"From: ada@example.org\r\nTo: gm@example.test\r\nSubject: Out of office\r\n"
           b"Auto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n")
    assert bounces.read(raw) is None


def test_hostile_lines_are_read_in_bounded_time():
    """flufl.bounce's detectors search some lines from every position: a megabyte line of '<'
    would be quadratic; gm gives them at most MAX_SCAN_BYTES, lines cut to MAX_LINE."""
    head = (b"From: MAILER-DAEMON@mx.example.net\r\nTo: gm@example.test\r\nSubject: failure notice\r\n"
            b"Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\n"
            b"Content-Type: text/plain\r\nContent-Description: notification\r\n\r\n"
            b"The Postfix program\r\n")
    def read(body: bytes) -> None:
        bounces.read(head + body + b"\r\n--b--\r\n")

    # A quarter of each body, about a quarter of the CPU or less (support.growth; it was a 2 s
    # wall-clock bound): quadratic detectors would take 16 times as long.
    for unit, count in ((b"<", 1_000_000), (b"<" * 900 + b"\r\n", 1000), (b"<", 500_000)):
        lead = b"Hi. This is the qmail\r\n\r\n" if count == 500_000 else b""
        assert growth(read, lead + unit * (count // 4), lead + unit * count) < LINEAR_4X


@pytest.mark.parametrize("raw", [b"\xff\xfe\x00not mail at all", b"Subject: x\r\n\r\nhello", b"",
                                 b"From:\r\nContent-Type: multipart/report; boundary=\r\n\r\n--\r\n"])
def test_garbage_is_no_bounce_and_no_fault(raw):
    assert bounces.read(raw) is None
