"""The copy of a mail gm keeps (gm.mail.redact): every password, code and reply token masked, in
every part whatever its encoding, the subject and the address fields; linear time; never raises."""

from __future__ import annotations

import base64
import email
import email.policy
import quopri
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.mail.redact import MASK, blank, mask_text, plain_reading, redact
from support import LINEAR_4X, growth

SECRET = "kq7hz3xw2m"
TOKEN = "0123456789abcdef0123"
CODE = "abcdefghjk"


def every_reading(raw: bytes) -> str:
    """The kept copy read every way: as bytes, and each part decoded (base64 and QP)."""
    texts = [raw.decode("latin-1")]
    for part in email.message_from_bytes(raw, policy=email.policy.compat32).walk():
        payload = part.get_payload()
        if isinstance(payload, str):
            for decode in (base64.b64decode, quopri.decodestring):
                try:
                    texts.append(decode(payload.encode("latin-1", "replace")).decode("latin-1"))
                except Exception:
                    pass
    return "\n".join(texts)


def mail(text: str, cte: str = "7bit", charset: str = "utf-8", subtype: str = "plain", **headers) -> bytes:
    msg = EmailMessage()
    msg["From"] = "ada@example.org"
    msg["To"] = "gm@example.test"
    msg["Subject"] = "orders"
    for name, value in headers.items():
        del msg[name.replace("_", "-")]
        msg[name.replace("_", "-")] = value
    msg.set_content(text.encode(charset), maintype="text", subtype=subtype, cte=cte,
                    params={"charset": charset})
    return bytes(msg)


@pytest.mark.parametrize("cte", ["7bit", "8bit", "quoted-printable", "base64"])
@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-1", "utf-16"])
def test_every_transfer_encoding_and_charset(cte, charset):
    if cte == "7bit" and charset == "utf-16":
        pytest.skip("utf-16 is not 7bit")
    raw = mail(f"GAME nb1 PASSWORD {SECRET}\nb4xd4\n\nOn Monday gm wrote:\n> GAME nb1 PASSWORD {SECRET}\n",
               cte=cte, charset=charset)
    assert SECRET not in every_reading(raw) or cte in ("7bit", "8bit", "quoted-printable", "base64")
    kept = redact(raw)
    assert SECRET not in every_reading(kept)
    text = email.message_from_bytes(kept, policy=email.policy.default).get_content()
    assert "b4xd4" in text and f"> GAME nb1 PASSWORD {MASK}" in text


def test_html_subject_forward_attachment_and_addresses():
    msg = EmailMessage()
    msg["From"] = "Ada <ada@example.org>"
    msg["To"] = f"gm+nb1.ada.{TOKEN}@example.test"
    msg["Cc"] = f"Someone <gm+nb1.ada.{TOKEN}@example.test>, bob@example.org"
    msg["Delivered-To"] = f"gm+nb1.ada.{TOKEN}@example.test"
    msg["Subject"] = f"Re: GAME nb1 PASSWORD {SECRET} — ordres"  # RFC 2047, being non-ASCII
    msg.set_content(f"CONFIRM {CODE}\nb4xd4\n")
    msg.add_alternative(f"<p>GAME nb1 PASS&#87;ORD <b>{SECRET}</b></p>", subtype="html", cte="base64")
    inner = EmailMessage()
    inner["Subject"] = "Welcome"
    inner.set_content(f"Your new password for game nb1 (seat ada): {SECRET}\n", cte="base64")
    msg.add_attachment(inner)
    msg.add_attachment(f"PASSWORD {SECRET}".encode(), maintype="application", subtype="octet-stream",
                       filename="notes.bin")
    raw = bytes(msg)
    kept = redact(raw)
    for secret in (SECRET, TOKEN, CODE):
        assert secret not in every_reading(kept)
    read = email.message_from_bytes(kept, policy=email.policy.default)
    assert read["Subject"] == f"Re: GAME nb1 PASSWORD {MASK}"
    assert read["To"] == "gm+nb1.ada.redacted@example.test" and "bob@example.org" in read["Cc"]
    assert "b4xd4" in read.get_body(("plain",)).get_content()
    assert plain_reading(raw).sender == "ada@example.org" and SECRET in plain_reading(raw).subject


def test_what_is_masked_on_a_line():
    assert mask_text(f"GAME nb1 PASSWORD: {SECRET}") == f"GAME nb1 PASSWORD: {MASK}"
    assert mask_text(f"pass={SECRET} b4xd4") == f"pass={MASK}"  # the rest of the line goes too
    assert mask_text("PASSWORD RESET nb1") == "PASSWORD RESET nb1"  # a command, no secret
    assert mask_text(f"PASSWORD RESET nb1 PASSWORD {SECRET}") == f"PASSWORD RESET nb1 PASSWORD {MASK}"
    assert mask_text("the passage was passed") == "the passage was passed"
    assert mask_text(f"Re: CONFIRM {CODE}: confirm your address") == f"Re: CONFIRM {MASK}: confirm your address"
    assert mask_text(f"<gm+nb1.ada.{TOKEN}@x> wrote") == "<gm+nb1.ada.redacted@x> wrote"
    assert mask_text("bob+news.0123@example.org") == "bob+news.0123@example.org"  # too short for a token
    assert mask_text(f"PASSWORD {SECRET}", passwords=False) == f"PASSWORD {SECRET}"


def test_a_blanked_mail_keeps_its_header():
    msg = EmailMessage()
    msg["To"], msg["Subject"] = "ada@example.org", f"CONFIRM {CODE}: confirm your new address"
    msg["Reply-To"] = f"gm+nb1.ada.{TOKEN}@example.test"
    msg["Message-ID"] = "<m1@example.test>"
    msg.set_content(f"Your password: {SECRET}\n")
    kept = blank(bytes(msg), "[gone]\n")
    read = email.message_from_bytes(kept, policy=email.policy.default)
    assert read["Message-ID"] == "<m1@example.test>" and read["To"] == "ada@example.org"
    assert read["Subject"] == f"CONFIRM {MASK}: confirm your new address"
    assert read.get_content().strip() == "[gone]" and all(s not in kept.decode() for s in (SECRET, TOKEN, CODE))


@pytest.mark.parametrize("raw", [
    b"", b"\x00\xff" * 100, b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n" * 3,
    b"Subject: =?utf-8?b?!!!?=\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%%\r\n",
    b"Content-Type: text/plain; charset=punycode\r\n\r\nPASSWORD " + SECRET.encode() + b"\r\n",
    b"Content-Type: text/plain; charset=base64\r\n\r\nPASSWORD " + SECRET.encode() + b"\r\n",
    b"Content-Type: multipart/mixed; boundary=b\r\n\r\n"
    + b"--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" * 200 + b"PASSWORD " + SECRET.encode(),
])
def test_hostile_mail_never_raises_and_keeps_no_secret(raw):
    kept = redact(raw)
    assert isinstance(kept, bytes) and SECRET not in every_reading(kept)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.sampled_from(["", "PASSWORD ", "CONFIRM ", "gm+g.n."]))
def test_any_bytes_never_raise(noise, word):
    raw = noise + b"\n" + word.encode() + SECRET.encode() + b"0123456789abcdef@x\r\n"
    kept = redact(raw)
    assert isinstance(kept, bytes)
    if word in ("PASSWORD ", "CONFIRM "):
        assert (word + SECRET) not in kept.decode("latin-1")


@pytest.mark.parametrize("line", ["PASSWORD " * 100_000, "@" * 600_000, ("a+b." + "0" * 40 + "@") * 10_000,
                                  "CONFIRM " * 100_000, ("x" * 999 + "\n") * 600])
def test_linear_time(line):
    # A quarter of the line, about a quarter of the CPU (support.growth).  It was wall-clock:
    # under 1 s, and under 4 times the half line's time plus 50 ms, which a busy machine can break.
    quarter, whole = (mail(line[: len(line) * n // 4], cte="quoted-printable") for n in (1, 4))
    assert growth(redact, quarter, whole) < LINEAR_4X


HEADER_NAMES = st.sampled_from(["To", "Subject", "Message-ID", "References", "X-A", "Content-Type",
                                "Very-Long-Header-Name-Of-A-Mailer-That-Likes-Them-Long"])
# mostly the characters where Header splits (spaces, ";", ","), printable ASCII around them
HEADER_TEXT = st.text(st.sampled_from(list(" ;,\t=?abcXYZ09@<>.-\"()é")), max_size=90)


@settings(max_examples=3000, deadline=None)
@given(HEADER_NAMES, HEADER_TEXT, st.integers(0, 90))
def test_the_kept_copy_writes_a_header_line_as_compat32_folds_it(name, text, pad):
    """KeptCopyPolicy writes short plain lines itself: byte for byte what compat32's Header gives,
    at the length limit and around it, with spaces inside and at the ends."""
    from gm.mail.redact import KEPT_COPY

    for value in (text, "x" * pad + text, (text + "y" * pad)[:78 - len(name) - 2 + pad % 3]):
        assert KEPT_COPY.fold_binary(name, value) == email.policy.compat32.fold_binary(name, value)


def test_a_kept_copy_is_the_bytes_compat32_writes(monkeypatch):
    """redact() with KeptCopyPolicy and with compat32 itself: the same bytes, for every mail of
    tests/fixtures/eml and an order reply with a long subject and odd spacing."""
    import pathlib

    from gm.mail import redact as redact_module

    long_subject = "Re: [nb1] " + "a rather long subject line " * 4
    mails = [
        b"From: ada@example.org\r\nTo: gm+nb1.ada." + TOKEN.encode() + b"@example.org\r\nSubject: "
        + long_subject.encode() + b"\r\nContent-Type: text/plain\r\n\r\nGAME nb1 PASSWORD " + SECRET.encode() + b"\r\n",
        b"From: ada@example.org\nSubject:  spaced   out \nX-Tab:\tx\nX-Edge: " + b"e" * 70 + b"\n\nb4\n",
        *(path.read_bytes() for path in sorted((pathlib.Path(__file__).parents[1] / "fixtures" / "eml").iterdir())),
    ]
    fast = [redact(raw) for raw in mails]
    monkeypatch.setattr(redact_module, "KEPT_COPY", email.policy.compat32)
    assert [redact(raw) for raw in mails] == fast
