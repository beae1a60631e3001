"""compose with calendar parts: the structure mail clients show as an event to add, within the
same size caps, and a DKIM signature over it that verifies."""

from __future__ import annotations

import email
import email.policy

import dkim
from icalendar import Calendar

from gm.mail import dkim as gm_dkim
from gm.mail.outbound import (MAX_HTML_MESSAGE_BYTES, MAX_OUTGOING_BYTES, HtmlPart, calendar_method, compose,
                              marked)
from gm.present import calendar as ics

NOW = 1_800_000_000.0
DEADLINE = ics.Deadline("nb1", "ada", 3, NOW + 86400 * 3, 0, "UTC", "Mon 18 Jan 08:00 UTC")
PUBLISHED = ics.calendar([DEADLINE], ics.PUBLISH, "example.org", "gm@example.org", NOW)
CANCELLED = ics.calendar([DEADLINE], ics.CANCEL, "example.org", "gm@example.org", NOW)


def read(body: str = "your move\n", html: HtmlPart | None = None, calendars=(PUBLISHED,), reserve: int = 0):
    _, raw = compose(sender="gm@example.org", sender_name="gm", to="ada@example.org", subject="[nb1 T3] report",
                     body=body, html=html, calendars=calendars, reserve=reserve)
    return raw, email.message_from_bytes(raw, policy=email.policy.default)


def test_mixed_of_the_body_with_the_event_as_an_alternative_and_an_attachment():
    raw, msg = read(html=HtmlPart("<html><body><p>board</p></body></html>"), calendars=(PUBLISHED, CANCELLED))
    assert msg.get_content_type() == "multipart/mixed"
    alternative, *attached = msg.iter_parts()
    assert alternative.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in alternative.iter_parts()] == [
        "text/plain", "multipart/related", "text/calendar"]
    inline = list(alternative.iter_parts())[-1]
    assert inline.get_param("method") == "PUBLISH" and inline.get_payload(decode=True) == PUBLISHED
    assert [(p.get_filename(), p.get_content_disposition()) for p in attached] == [
        ("deadline.ics", "attachment"), ("cancelled.ics", "attachment")]
    assert [str(Calendar.from_ical(p.get_payload(decode=True))["METHOD"]) for p in attached] == ["PUBLISH", "CANCEL"]
    assert msg.get_body(("plain",)).get_content() == marked("your move\n")
    assert calendar_method(CANCELLED) == "CANCEL" and calendar_method(b"BEGIN:VCALENDAR\r\n") == "PUBLISH"


def test_the_caps_hold_with_calendar_parts():
    long_body = "".join(f"line {n}: Zoë b4xd4 = 8 points\n" for n in range(100_000))
    raw, msg = read(body=long_body)
    assert len(raw) <= MAX_OUTGOING_BYTES and "this message was cut short" in msg.get_body(("plain",)).get_content()
    assert [p.get_content_type() for p in msg.walk()][-1] == "application/ics"
    big_page = HtmlPart("<html><body>" + "x" * MAX_HTML_MESSAGE_BYTES + "</body></html>")
    raw, msg = read(html=big_page)
    assert "text/html" not in [p.get_content_type() for p in msg.walk()]  # the text alone, with the event
    assert "text/calendar" in [p.get_content_type() for p in msg.walk()]


def test_a_signed_message_with_calendar_parts_verifies():
    key = gm_dkim.generate_key(2048)
    record = f"v=DKIM1; k=rsa; p={gm_dkim.public_key_b64(key)}".encode()
    signer = gm_dkim.Signer("gm2025", "example.org", key)
    raw, _ = read(reserve=gm_dkim.SIGNATURE_RESERVE)
    signed = signer.sign(raw)
    assert len(signed) <= MAX_OUTGOING_BYTES
    assert dkim.verify(signed, dnsfunc=lambda name, timeout=5: record)
    assert not dkim.verify(signed.replace(b"Content-Type: application/ics", b"Content-Type: application/icz"),
                           dnsfunc=lambda name, timeout=5: record)
