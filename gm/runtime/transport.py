"""What a transport is: how the sender hands it mail and how it says what became of each.

Kept apart from gm.runtime.delivery (the outbox logic, which needs the store) so that the SMTP
client's own process (gm.runtime.sendprocess) loads no more than it sends with.
"""

from __future__ import annotations

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
            if isinstance(exc, TransportDown):
                return
            continue
        done(row, None)


class TransportDown(Exception):
    """The server cannot be reached at all: stop this flush and retry later, in order."""


class PermanentFailure(Exception):
    """The server refused this one message for good (a 5xx): mark it bounced, keep the rest."""


class TemporaryFailure(Exception):
    """The server refused this one message for now (a 4xx): retry it later, and count it against
    the address as a temporary failure (gm.service.delivery_state)."""
