"""The copy of a mail gm keeps (``messages``) is masked from what the order parser read: a password
the parser finds and authenticates with is never kept, however the mail hides it from a reader of
its raw lines (a format=flowed soft break after PASSWORD, a subject in a charset nobody knows, a
control or bidi character inside the word).  Each mail goes through engine.ingest, the daemon's
path for one mail, and must authenticate (its order is applied) for the test to mean anything."""

from __future__ import annotations

import email.utils
import uuid

import pytest

from gm.mail import redact


def _mail(sender: str, subject: str, body: bytes, content_type: str = "text/plain; charset=utf-8") -> bytes:
    head = (f"From: {sender}\r\nTo: gm@example.test\r\nSubject: {subject}\r\n"
            f"Date: {email.utils.formatdate()}\r\nMessage-ID: <{uuid.uuid4().hex}@example.org>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n")
    return head.encode("ascii") + body


def _layouts(secret: str, move: str) -> dict[str, tuple[str, bytes, str]]:
    """(subject, body, content type) of each way of hiding ``secret`` from a line-by-line reader."""
    return {
        "flowed": ("orders", f"GAME nb1 PASSWORD \r\n{secret}\r\n{move}\r\n".encode(),
                   "text/plain; charset=utf-8; format=flowed"),
        "unknown charset": (f"=?x-no-such-charset?Q?GAME_nb1_PASSWORD_{secret}?=", f"{move}\r\n".encode(),
                            "text/plain; charset=utf-8"),
        "bidi mark": ("orders", f"GAME nb1 PA\u200eSSWORD {secret}\r\n{move}\r\n".encode(),
                      "text/plain; charset=utf-8"),
        "NUL": ("orders", f"GAME nb1 PA\x00SSWORD {secret}\r\n{move}\r\n".encode(),
                "text/plain; charset=utf-8"),
        "NUL in the subject": (f"GAME nb1 PA\x01SS {secret}", f"{move}\r\n".encode(), "text/plain; charset=utf-8"),
    }


@pytest.mark.parametrize("layout", ["flowed", "unknown charset", "bidi mark", "NUL", "NUL in the subject"])
def test_a_password_the_parser_read_is_not_kept(engine, nb_game, layout):
    view = engine.load("nb1")
    (mover,) = view.rules.to_move(view.state)
    move = view.rules.legal_orders(view.state, mover)[0]
    secret = nb_game[mover]
    subject, body, content_type = _layouts(secret, move)[layout]
    outcome = engine.ingest(_mail(f"{mover}@example.org", subject, body, content_type))
    assert outcome.outcome == "applied", outcome.detail  # the parser read the password
    (row,) = engine.store.all("SELECT * FROM messages")
    kept = bytes(row["raw"])
    assert secret.encode() not in kept and secret not in (row["subject"] or "")
    assert b"[redacted]" in kept or redact.MASK in (row["subject"] or "")


@pytest.mark.parametrize("header", [
    "=?x-no-such-charset?Q?PASSWORD?=_kq7hz3xw2m",
    "=?x-no-such-charset?B?not base64?= PASSWORDkq7hz3xw2m",
    "=?utf-8?Q?PASSWORD_\xff?= kq7hz3xw2m",
])
def test_a_header_that_cannot_be_decoded_is_masked_after_its_password_word(header):
    assert "kq7hz3xw2m" not in redact.mask_header(header)


def test_what_the_order_parser_reads_as_a_password_the_masker_masks():
    """The one rule of where a password stands: every password orders.read finds in a line or
    subject is masked there (separators, repeated separators, tabs and bidi marks around it)."""
    from gm.mail import orders
    lines = ["PASSWORD: =abc1", "PASSWORD := abc2", "PASS\t=\tabc3", "password:abc4",
             "GAME nb1 PASS: abc5, b4xd4", "PASSWORD\u2028abc6"]
    for line in lines:
        mail = orders.read(line, line)
        assert mail.password is None or mail.password not in redact.mask_text(line), line
