"""What a transport is: how the sender hands it mail and how it says what became of each.

Kept apart from gm.runtime.delivery (the outbox logic, which needs the store) so that the SMTP
client's own process (gm.runtime.sendprocess) loads no more than it sends with.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Protocol, runtime_checkable

# ``done(row, None)`` as each outbox row is accepted, ``done(row, exc)`` as each fails.
Done = Callable[[Any, "Exception | None"], None]
# ``more(n)``: up to n more rows to send, claimed as a streaming transport's connections empty.
More = Callable[[int], list[Any]]


class Transport(Protocol):
    """What every transport does: hand one message on, or raise one of the failures below."""

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None: ...


@runtime_checkable
class BatchTransport(Transport, Protocol):
    """A transport the sender drives a batch at a time (gm's own: SMTP and its child process).

    ``send_many`` sends outbox rows in whatever order and parallelism suits it, calls ``done``
    for each, and stops after a TransportDown or SenderRefused; one that ``streams`` asks
    ``more`` for rows as its connections empty.  ``connections`` (None: one) sizes the batch.
    """

    @property
    def describe(self) -> str: ...  # named in `gm -v run`'s log

    @property
    def streams(self) -> bool: ...

    @property
    def connections(self) -> int | None: ...

    def send_many(self, rows: list[Any], done: Done, more: More | None = None) -> None: ...

    def start(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class Named(Protocol):
    """A transport that says where it sends (the Maildir's)."""

    @property
    def describe(self) -> str: ...


@runtime_checkable
class Closing(Protocol):
    """A transport with something to close when the sender stops."""

    def close(self) -> None: ...


class OneAtATime:
    """A BatchTransport over a transport that only sends: one message at a time, in queue order."""

    streams = False
    connections: int | None = None

    def __init__(self, transport: Transport):
        self.transport = transport
        self.describe = transport.describe if isinstance(transport, Named) else type(transport).__name__

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        self.transport.send(recipient, raw, outbox_id)

    def send_many(self, rows: list[Any], done: Done, more: More | None = None) -> None:
        send_each(self.transport, rows, done)

    def start(self) -> None:
        pass

    def close(self) -> None:
        if isinstance(self.transport, Closing):
            self.transport.close()


def batched(transport: Transport) -> BatchTransport:
    """``transport`` as the sender drives it: itself if it sends batches, else one at a time."""
    return transport if isinstance(transport, BatchTransport) else OneAtATime(transport)


def send_each(transport: Transport, rows: list[Any], done: Done) -> None:
    """send_many for a transport that sends one message at a time."""
    for row in rows:
        try:
            transport.send(row["recipient"], row["raw"], row["id"])
        except Exception as exc:  # sorted by the sender's batch
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
