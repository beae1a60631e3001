"""compose with attached files (a game's record): each a part of the multipart/mixed, beside the
calendar parts, within the same size caps; a file that leaves too little room is left out and the
text says so; the copy kept a day after sending drops them."""

from __future__ import annotations

import email
import email.policy
import json

from gm.mail.outbound import MAX_OUTGOING_BYTES, Attachment, HtmlPart, compose, marked, words_only
from gm.present import calendar as ics

NOW = 1_800_000_000.0
RECORD = Attachment("nb1.json", "application/json", json.dumps({"moves": list(range(1000))}).encode())
TEXT = Attachment("nb1.txt", 'text/plain; charset="utf-8"', "1. b4xd4 Zoë\n".encode())


def read(body: str = "the record\n", files=(RECORD, TEXT), calendars=(), html=None):
    _, raw = compose(sender="gm@example.org", sender_name="gm", to="ada@example.org", subject="[gm nb1] Record",
                     body=body, attachments=tuple(files), calendars=calendars, html=html)
    return raw, email.message_from_bytes(raw, policy=email.policy.default)


def attached(msg) -> dict[str, tuple[str, bytes]]:
    return {p.get_filename(): (p.get_content_type(), p.get_payload(decode=True)) for p in msg.walk()
            if p.get_content_disposition() == "attachment"}


def test_files_follow_the_text_as_attachments():
    raw, msg = read()
    assert msg.get_content_type() == "multipart/mixed"
    assert msg.get_body(("plain",)).get_content() == marked("the record\n")
    assert attached(msg) == {"nb1.json": ("application/json", RECORD.data), "nb1.txt": ("text/plain", TEXT.data)}


def test_files_go_beside_a_calendar_and_a_page():
    deadline = ics.Deadline("nb1", "ada", 3, NOW + 86400, 0, "UTC", "Mon 18 Jan 08:00 UTC")
    event = ics.calendar([deadline], ics.PUBLISH, "example.org", "gm@example.org", NOW)
    _, msg = read(calendars=(event,), html=HtmlPart("<html><body><p>board</p></body></html>"))
    alternative = next(msg.iter_parts())
    assert [p.get_content_type() for p in alternative.iter_parts()] == [
        "text/plain", "multipart/related", "text/calendar"]
    assert list(attached(msg)) == ["deadline.ics", "nb1.json", "nb1.txt"]


def test_a_long_text_is_cut_and_the_file_kept_a_file_too_large_left_out_and_said():
    long_body = "".join(f"{n}. b4xd4 c3xc4\n" for n in range(60_000))
    raw, msg = read(body=long_body)
    assert len(raw) <= MAX_OUTGOING_BYTES
    assert "this message was cut short" in msg.get_body(("plain",)).get_content()
    assert attached(msg)["nb1.json"][1] == RECORD.data
    huge = Attachment("big.json", "application/json", b"[" + b"1," * MAX_OUTGOING_BYTES + b"1]")
    raw, msg = read(files=(huge, TEXT))
    assert len(raw) <= MAX_OUTGOING_BYTES and list(attached(msg)) == ["nb1.txt"]
    assert "big.json" in msg.get_body(("plain",)).get_content() and "is not attached" in raw.decode()


def test_the_copy_kept_a_day_after_drops_the_files_and_keeps_the_text():
    raw, _ = read()
    kept = email.message_from_bytes(words_only(raw), policy=email.policy.default)
    assert kept.get_body(("plain",)).get_content() == marked("the record\n")
    assert all(not payload for _, payload in attached(kept).values()) and len(attached(kept)) == 2


def test_files_survive_a_picture_drawn_by_the_sender():
    """A mail whose picture the sender draws (gm ingest) carries the same files once finished."""
    from gm.mail.outbound import finish, is_later

    png = (b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (7).to_bytes(4, "big") + (5).to_bytes(4, "big")
           + b"\x08\x02\x00\x00\x00" + b"\x00" * 8)
    page = '<html><body><img src="cid:board" width="{gm-picture-width}" height="{gm-picture-height}"></body></html>'
    raw, _ = read(html=HtmlPart(page, (("board", "spec of the board"),)))
    assert is_later(raw)
    drawn = []
    done = finish(raw, lambda spec: drawn.append(spec) or png, lambda mail, signer: mail)
    msg = email.message_from_bytes(done, policy=email.policy.default)
    assert drawn == ["spec of the board"]
    assert attached(msg) == {"nb1.json": ("application/json", RECORD.data), "nb1.txt": ("text/plain", TEXT.data)}
    assert 'width="7" height="5"' in msg.get_body(("html",)).get_content()
