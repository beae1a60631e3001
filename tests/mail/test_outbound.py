"""gm.mail.outbound writes its messages by hand: read them back with the email package."""

from __future__ import annotations

import email
import email.policy

import pytest

from gm.mail import inbound as mailin
from gm.mail.outbound import MAX_HEADER_LINE, compose


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
    assert msg[mailin.OUR_HEADER] == "gm"
    assert msg["X-GM-Game"] == "nb1"
    assert msg.get_content_type() == "text/plain"
    assert msg.get_content() == body  # trailing spaces, "=", a lone "." and long lines survive
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
