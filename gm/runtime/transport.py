"""What a transport is: how the sender hands it mail and how it says what became of each.

Kept apart from gm.runtime.delivery (the outbox logic, which needs the store) so that the SMTP
client's own process (gm.runtime.sendprocess) loads no more than it sends with.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Protocol


class Transport(Protocol):
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None: ...


# A transport may also offer send_many(rows, done): send a batch of outbox rows
# in whatever order and parallelism suits it, calling done(row, None) as each
# is accepted and done(row, exc) as each fails, and stopping after a
# TransportDown.  flush() records each failure at once and the successes a
# few at a time (MARK_EVERY), and whatever is left when the batch ends.
Done = Callable[[Any, "Exception | None"], None]


def send_each(transport: Transport, rows: list, done: Done) -> None:
    """send_many for a transport that sends one message at a time."""
    for row in rows:
        try:
            transport.send(row["recipient"], row["raw"], row["id"])
        except Exception as exc:  # sorted by flush
            done(row, exc)
            if isinstance(exc, (TransportDown, SenderRefused)):
                return
            continue
        done(row, None)


class TransportDown(Exception):
    """The server cannot be reached at all: stop this flush and retry later, in order."""


class PermanentFailure(Exception):
    """The server refused this one message for good (a 5xx): mark it bounced, keep the rest."""


class TemporaryFailure(Exception):
    """The server refused this one message for now (a 4xx): retry it later, and count it against
    the address as a temporary failure (gm.service.outgoing.delivery_state)."""


class SenderRefused(Exception):
    """The server refused gm's envelope sender (a 5xx at MAIL FROM): gm's set-up, not the
    recipient's fault.  The queue is held (gm.runtime.delivery); nobody is marked."""


class PolicyRefused(Exception):
    """The server refused this message by policy (enhanced status 5.7.x at RCPT or DATA: DMARC,
    spam filters): a refusal of gm's mail by the recipient's domain, not of the mailbox.  That
    domain's mail is held and the GM told; nobody is marked."""


ENHANCED = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
CODE = re.compile(r"^\s*([245]\d\d)\b")


def enhanced_status(words: str) -> str:
    """The enhanced status code (RFC 3463, e.g. '5.7.26') in a server's words, or ''."""
    found = ENHANCED.search(words)
    return ".".join(found.groups()) if found else ""


def signature(words: str) -> str:
    """What makes two refusals "the same": the reply code and the enhanced status."""
    code = CODE.match(words)
    return f"{code.group(1) if code else '?'} {enhanced_status(words)}".strip()


def is_policy(words: str) -> bool:
    """A refusal for policy (security or policy status, 5.7.x), not of the mailbox."""
    return enhanced_status(words).startswith("5.7.")
