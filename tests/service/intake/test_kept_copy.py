"""The copy of a mail gm keeps (``messages``) is masked from what the order parser read: a password
the parser finds and authenticates with is never kept, however the mail hides it from a reader of
its raw lines (a format=flowed soft break after PASSWORD, a subject in a charset nobody knows, a
control or bidi character inside the word).  Each mail goes through engine.ingest, the daemon's
path for one mail, and must authenticate (its order is applied) for the test to mean anything."""

from __future__ import annotations

import email.utils
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.mail import redact


def _mail(sender: str, subject: str, body: bytes, content_type: str = "text/plain; charset=utf-8") -> bytes:
    head = (f"From: {sender}\r\nTo: gm@example.test\r\nSubject: {subject}\r\n"
            f"Date: {email.utils.formatdate()}\r\nMessage-ID: <{uuid.uuid4().hex}@example.org>\r\n"
            f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n")
    return head.encode("utf-8") + body  # an 8-bit subject as some clients send it


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
        "8-bit subject": (f"GAME nb1 PA\u200eSS:{secret}", f"{move}\r\n".encode(), "text/plain; charset=utf-8"),
    }


@pytest.mark.parametrize("layout", ["flowed", "unknown charset", "bidi mark", "NUL", "NUL in the subject",
                                    "8-bit subject"])
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


SECRET = "kq7hz3xw2m"
PIECES = ["GAME nb1", "PASSWORD", "PASS", "PA\u200eSS", "PA\x00SSWORD", "pass", ":", "=", " ", "  ", "\t",
          "b4xd4", "\u2028", "\x1c", "-- ", "> ", "RESET", "\n", "\n"]
HEADER_SAFE = str.maketrans({"\n": " ", "\u2028": " ", "\x1c": " "})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subject=st.lists(st.sampled_from(PIECES), max_size=5), body=st.lists(st.sampled_from(PIECES), max_size=16),
       in_subject=st.booleans(), at=st.integers(min_value=0, max_value=20), flowed=st.booleans())
def test_no_password_the_parser_reads_survives_in_the_kept_copy(subject, body, in_subject, at, flowed):
    """Any mail made of these pieces and SECRET once: when gm's reader and order parser take
    SECRET for its password, the kept copy (its raw bytes, the subject stored) never holds it."""
    from gm.mail import inbound, orders
    (subject if in_subject else body).insert(at, SECRET)
    content_type = "text/plain; charset=utf-8" + ("; format=flowed" if flowed else "")
    text = "".join(body).replace("\n", "\r\n") + "\r\n"
    raw = _mail("ada@example.org", "".join(subject).translate(HEADER_SAFE), text.encode(), content_type)
    read = inbound.parse(raw, "gm@example.test")
    if orders.read(read.subject, read.text).password != SECRET:
        return
    assert SECRET.encode() not in redact.redact(raw) and SECRET not in redact.mask_text(read.subject)
