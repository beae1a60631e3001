"""Maildirs: the embedded inbox gm reads and the outbox it writes when there is no mail server."""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path

from gm.core import filemodes
from gm.service.engine import Engine
from gm.service.intake import arrival

log = logging.getLogger(__name__)


def ensure_maildir(path: Path) -> Path:
    """The Maildir's folders, each made 0700 (2770 in a shared data folder: gm.core.filemodes)."""
    for sub in ("tmp", "new", "cur"):
        filemodes.make_dirs(Path(path) / sub)
    return path


class MaildirTransport:
    """Writes each outgoing message into a Maildir instead of sending it."""

    def __init__(self, path: Path):
        self.path = ensure_maildir(Path(path))
        self.describe = f"the outbox Maildir {self.path}"  # named in `gm -v run`'s log

    def send(self, recipient: str, raw: bytes, outbox_id: int) -> None:
        # The name depends only on the outbox row, so a resend replaces, never duplicates.
        name = f"gm-outbox-{outbox_id:08d}.{socket.gethostname()}"
        tmp = self.path / "tmp" / name
        with os.fdopen(filemodes.open_new(tmp), "wb") as handle:  # 0600 (0660 shared)
            handle.write(b"X-GM-Envelope-To: " + recipient.encode() + b"\r\n" + raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path / "new" / name)


def maildir_key(name: str) -> str:
    return "maildir:" + name.split(":", 1)[0]


def process_maildir(engine: Engine, inbox: Path, stop=None, since: float | None = None) -> list[tuple[str, str]]:
    """Ingest every new message, then mark it seen by moving it to cur/.

    The move comes after the commit: a crash in between leaves the file in
    new/, and the next pass finds its key already stored and only moves it.
    With ``stop`` (a threading.Event) set, the message in hand is finished, the rest wait.
    Each is judged as of its delivery (RULINGS G4): the file's time, which the delivering
    agent sets as it writes it (the rename into new/ keeps it), kept after ``since``, when gm
    last read this inbox (gm.service.intake.arrival).
    """
    ensure_maildir(inbox)
    done = []
    for path in sorted((inbox / "new").iterdir()):
        if stop is not None and stop.is_set():
            break
        if path.name.startswith("."):
            continue
        with open(path, "rb") as handle:  # as IMAP fetches it: enough to see one is too big
            raw = handle.read(engine.config.max_message_bytes + 1)
            delivered = os.fstat(handle.fileno()).st_mtime
        outcome = engine.ingest(raw, maildir_key(path.name),
                                arrived=arrival.judged_at(engine, delivered, since))
        log.info("mail in: Maildir %s: %s %s", path.name, outcome.outcome, outcome.detail[:80])
        if outcome.outcome == "busy":  # another daemon judges it now, and moves it
            continue
        os.replace(path, inbox / "cur" / (path.name.split(":", 1)[0] + ":2,S"))
        done.append((path.name, outcome.outcome))
    return done


