"""gm.mail.outbound writes its messages by hand: read them back with the email package."""

from __future__ import annotations

import email
import email.policy

import pytest

from gm.mail import inbound as mailin
from gm.mail.outbound import MAX_HEADER_LINE, compose, marked
from gm.mail.quotes import MARKER
from gm.mail.robots import OUR_HEADER


def read_back(**overrides):
    args = dict(sender="gm@example.test", sender_name="The GM", to="ada@example.org",
                subject="[nb1 T3] Neighbors report", body="Turn 3\n\n  a b c\n")
    args.update(overrides)
    message_id, raw = compose(**args)
    return message_id, raw, email.message_from_bytes(raw, policy=email.policy.default)


def test_headers_and_body_read_back_exactly():
    body = "Zoë takes a rook: b4xd4 = 8 points\n.\nFrom here on\nend   \n" + "x" * 120 + "\n"
    message_id, raw, msg = read_back(body=body, in_reply_to="<o1@example.org>",
                                     references=("<o0@example.org>",), game_id="nb1")
    assert msg["Message-ID"] == message_id
    assert msg["From"].addresses[0].addr_spec == "gm@example.test"
    assert msg["From"].addresses[0].display_name == "The GM"
    assert msg["To"] == "ada@example.org"
    assert msg["Subject"] == "[nb1 T3] Neighbors report"
    assert msg["In-Reply-To"] == "<o1@example.org>"
    assert msg["References"].split() == ["<o0@example.org>", "<o1@example.org>"]
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg[OUR_HEADER] == "gm"
    assert msg["X-GM-Game"] == "nb1"
    assert msg.get_content_type() == "text/plain"
    # gm's marker line on top; trailing spaces, "=", a lone "." and long lines survive
    assert msg.get_content() == marked(body)
    assert not msg.defects
    assert all(len(line) <= 76 for line in raw.split(b"\n\n", 1)[1].split(b"\n"))  # RFC 2045 6.7


def test_non_ascii_subject_and_name_are_encoded_words():
    _, raw, msg = read_back(subject="[gm] Not done: Zügé's orders " + "and more " * 12,
                            sender_name="Maître du jeu")
    head = raw.split(b"\n\n", 1)[0]
    assert head.isascii()
    assert msg["Subject"] == "[gm] Not done: Zügé's orders " + " ".join(["and more"] * 12)
    assert msg["From"].addresses[0].display_name == "Maître du jeu"


def test_long_headers_fold_and_cannot_inject_lines():
    refs = tuple(f"<ref{n}@example.org>" for n in range(15))
    _, raw, msg = read_back(subject="x" * 20 + " word" * 30 + "\r\nBcc: eve@example.org",
                            in_reply_to="<last@example.org>", references=refs)
    head = raw.split(b"\n\n", 1)[0].decode()
    assert "Bcc" not in msg  # the CR/LF became a space inside the subject
    assert all(len(line) <= MAX_HEADER_LINE for line in head.split("\n"))
    assert msg["References"].split() == [*refs[-9:], "<last@example.org>"]  # the last ten


@pytest.mark.parametrize("auto", ["auto-replied", "auto-generated"])
def test_our_mail_is_a_robot_to_our_own_reader(auto):
    _, raw, _ = read_back(auto=auto, instance="gm@example.test")
    inbound = mailin.parse(raw, "gm@example.test")
    assert inbound.robot  # RFC 3834: never answered, by us or anyone


# --- caps: nothing an inbound mail carries can make a reply large ----------------------------
def test_references_keep_the_last_ten_well_formed_ids():
    from gm.mail.outbound import MAX_MESSAGE_ID, MAX_REFERENCES
    good = [f"<ref{n}@example.org>" for n in range(40)]
    bad = ["no-brackets@example.org", "<two words@example.org>", "<" + "x" * MAX_MESSAGE_ID + ">",
           "<é@example.org>", "<<nested>@x>", "", "<>"]
    mixed = [item for pair in zip(good, bad * 6) for item in pair]
    _, raw, msg = read_back(in_reply_to="<parent@example.org>", references=mixed)
    assert msg["In-Reply-To"] == "<parent@example.org>"
    assert msg["References"].split() == [*good[-(MAX_REFERENCES - 1):], "<parent@example.org>"]
    assert len(raw) < 2_000


def test_a_malformed_or_huge_in_reply_to_is_dropped():
    huge = "<" + "r" * 2_900_000 + "@example.org>"
    _, raw, msg = read_back(in_reply_to=huge, references=[huge, "<ok@example.org>"])
    assert "In-Reply-To" not in msg
    assert msg["References"] == "<ok@example.org>"
    assert len(raw) < 2_000
    _, _, msg = read_back(in_reply_to="<a b@example.org>\r\nBcc: eve@example.org")
    assert "In-Reply-To" not in msg and "Bcc" not in msg


def test_a_reply_to_a_mail_with_megabytes_of_references_is_small():
    refs = "".join(f" <ref{n}@example.org>\r\n" for n in range(120_000))  # about 2.9 MB
    raw_in = (f"From: ada@example.org\r\nTo: gm@example.test\r\nSubject: orders\r\n"
              f"Message-ID: <m1@example.org>\r\nReferences:{refs}\r\n").encode()
    assert len(raw_in) > 2_800_000
    inbound = mailin.parse(raw_in, "gm@example.test")
    _, raw, msg = read_back(in_reply_to=inbound.message_id, references=inbound.references)
    assert len(raw) < 2_000
    assert msg["References"].split()[-1] == "<m1@example.org>"
    assert msg["References"].split()[-2] == "<ref119999@example.org>"


def test_every_message_is_capped_and_a_cut_says_so():
    from gm.mail.outbound import MAX_OUTGOING_BYTES
    body = "".join(f"line {n}: Zoë b4xd4 = 8 points\n" for n in range(100_000))
    _, raw, msg = read_back(body=body)
    assert len(raw) <= MAX_OUTGOING_BYTES
    text = msg.get_content()
    assert "this message was cut short" in text
    assert text.startswith(MARKER + "\n\nline 0: Zoë b4xd4 = 8 points\nline 1:")
    assert len(text) > MAX_OUTGOING_BYTES // 4  # cut, not emptied
    _, raw, msg = read_back(body="short\n", subject="s" * 100_000, sender_name="n" * 100_000)
    assert len(raw) < 4_000
    assert msg.get_content() == marked("short\n")


def test_a_body_just_under_the_cap_is_not_cut():
    from gm.mail.outbound import MAX_OUTGOING_BYTES
    body = "a" * 70 + "\n"
    body = body * ((MAX_OUTGOING_BYTES - 2_000) // len(body))
    _, raw, msg = read_back(body=body)
    assert len(raw) <= MAX_OUTGOING_BYTES
    assert msg.get_content() == marked(body)
