"""Delivering the outbox: to a Maildir (the embedded default) or over SMTP.

A message is marked sent only after the transport accepted it, so a crash in
between sends it again with the same Message-ID (at least once; a reader can
tell the copies apart by that header) and nothing queued is ever lost.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from pathlib import Path
from typing import Protocol

from gm.store import Store

log = logging.getLogger(__name__)

BACKOFF = (5, 15, 60, 300, 900, 3600)  # seconds before retry n


class Transport(Protocol):
    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None: ...


def ensure_maildir(path: Path) -> Path:
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


class MaildirTransport:
    """Writes each outgoing message into a Maildir instead of sending it."""

    def __init__(self, path: Path):
        self.path = ensure_maildir(Path(path))

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        # The name depends only on the outbox row, so a resend replaces, never duplicates.
        name = f"gm-outbox-{outbox_id:08d}.{socket.gethostname()}"
        tmp = self.path / "tmp" / name
        with open(tmp, "wb") as handle:
            handle.write(b"X-GM-Envelope-To: " + recipient.encode() + b"\r\n" + raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path / "new" / name)


def flush(store: Store, transport: Transport, now: float | None = None, limit: int = 500) -> int:
    """Send what is due; returns how many were sent."""
    now = time.time() if now is None else now
    due = store.all(
        "SELECT id, recipient, raw, attempts FROM outbox WHERE status = 'queued' "
        "AND next_attempt <= ? ORDER BY id LIMIT ?", now, limit,
    )
    sent = 0
    for row in due:
        try:
            transport.send(row["recipient"], row["raw"], row["id"])
        except Exception as exc:  # any transport fault: keep the mail, retry later
            delay = BACKOFF[min(row["attempts"], len(BACKOFF) - 1)]
            log.warning("outbox #%s to %s not sent (%s); retry in %ss", row["id"], row["recipient"], exc, delay)
            with store.write():
                store.update("outbox", {"id": row["id"]}, attempts=row["attempts"] + 1,
                             next_attempt=now + delay, last_error=str(exc)[:500])
            continue
        with store.write():
            store.update("outbox", {"id": row["id"]}, status="sent", sent=time.time(),
                         attempts=row["attempts"] + 1, last_error=None)
        sent += 1
    return sent
