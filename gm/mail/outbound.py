"""Composing outgoing mail: plain text, threaded, and marked as a robot's (RFC 3834).

Every message gm sends has one shape: a single text/plain UTF-8 part in
quoted-printable, with a handful of headers.  For that one shape the headers
are written out directly (non-ASCII ones as RFC 2047 encoded words through
email.header) and the body is encoded by binascii; the email package's
generator gives the same message at eight times the cost, and every order
queues a report to each player.  tests/test_mailout.py reads our output back
with the email package to keep the two in agreement.
"""

from __future__ import annotations

import binascii
import email.utils
from email.header import Header

from gm.mail.inbound import OUR_HEADER

MAX_HEADER_LINE = 78  # RFC 5322 2.1.1: lines SHOULD be no longer than this


def _header(name: str, value: str) -> str:
    """One header field, folded at spaces; non-ASCII as RFC 2047 encoded words."""
    value = " ".join(value.split())  # no CR/LF can smuggle in another header
    if not value.isascii():
        return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep="\n")
    line, lines = f"{name}:", []
    for word in value.split(" "):
        if len(line) + 1 + len(word) > MAX_HEADER_LINE and line.strip() and line != f"{name}:":
            lines.append(line)
            line = ""
        line += " " + word
    lines.append(line)
    return "\n".join(lines)


def compose(
    *,
    sender: str,
    sender_name: str,
    to: str,
    subject: str,
    body: str,
    auto: str = "auto-generated",
    in_reply_to: str | None = None,
    references: list[str] | tuple[str, ...] = (),
    game_id: str | None = None,
    instance: str = "gm",
) -> tuple[str, bytes]:
    """Return (Message-ID, RFC 5322 bytes).  The Message-ID is fixed here, at queue time."""
    domain = sender.rsplit("@", 1)[-1] if "@" in sender else "localhost"
    message_id = email.utils.make_msgid(domain=domain)
    fields = [
        ("From", email.utils.formataddr((sender_name, sender), charset="utf-8")),
        ("To", to),
        ("Subject", subject),
        ("Date", email.utils.formatdate(localtime=False)),
        ("Message-ID", message_id),
    ]
    if in_reply_to:
        refs = [*references, in_reply_to] if in_reply_to not in references else list(references)
        fields += [("In-Reply-To", in_reply_to), ("References", " ".join(refs[-10:]))]
    # RFC 3834: we are a robot; well-behaved responders will not answer us.
    fields += [("Auto-Submitted", auto), (OUR_HEADER, instance)]
    if game_id:
        fields.append(("X-GM-Game", game_id))
    fields += [("MIME-Version", "1.0"), ("Content-Type", 'text/plain; charset="utf-8"'),
               ("Content-Transfer-Encoding", "quoted-printable")]
    head = "\n".join(_header(name, value) for name, value in fields)
    if not body.endswith("\n"):
        body += "\n"
    encoded = binascii.b2a_qp(body.encode("utf-8"), istext=True)
    return message_id, head.encode("ascii") + b"\n\n" + encoded
