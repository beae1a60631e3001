"""Composing outgoing mail: plain text, threaded, and marked as a robot's (RFC 3834)."""

from __future__ import annotations

import email.utils
from email.message import EmailMessage

from gm.mailin import OUR_HEADER


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
    msg = EmailMessage()
    msg["From"] = email.utils.formataddr((sender_name, sender))
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = email.utils.formatdate(localtime=False)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        refs = [*references, in_reply_to] if in_reply_to not in references else list(references)
        msg["References"] = " ".join(refs[-10:])
    # RFC 3834: we are a robot; well-behaved responders will not answer us.
    msg["Auto-Submitted"] = auto
    msg[OUR_HEADER] = instance
    if game_id:
        msg["X-GM-Game"] = game_id
    msg.set_content(body, charset="utf-8", cte="quoted-printable")
    return message_id, bytes(msg)
