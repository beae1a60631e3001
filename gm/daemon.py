"""The daemon loop on the embedded Maildir inbox: read, process, deliver, tick."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from gm.delivery import ensure_maildir, flush
from gm.engine import Engine

log = logging.getLogger(__name__)


def maildir_key(name: str) -> str:
    return "maildir:" + name.split(":", 1)[0]


def process_maildir(engine: Engine, inbox: Path) -> list[tuple[str, str]]:
    """Ingest every new message, then mark it seen by moving it to cur/.

    The move comes after the commit: a crash in between leaves the file in
    new/, and the next pass finds its key already stored and only moves it.
    """
    ensure_maildir(inbox)
    done = []
    for path in sorted((inbox / "new").iterdir()):
        if path.name.startswith("."):
            continue
        raw = path.read_bytes()
        outcome = engine.ingest(raw, maildir_key(path.name))
        log.info("%s: %s %s", path.name, outcome.outcome, outcome.detail[:80])
        os.replace(path, inbox / "cur" / (path.name.split(":", 1)[0] + ":2,S"))
        done.append((path.name, outcome.outcome))
    return done


def make_transport(config):
    if config.smtp is not None:
        from gm.smtp import SmtpTransport  # the mail-daemon issue provides it

        return SmtpTransport(config.smtp)
    from gm.delivery import MaildirTransport

    return MaildirTransport(config.outbox)


def run(engine: Engine, config, once: bool = False) -> None:
    transport = make_transport(config)
    if config.imap is not None:
        from gm.imap import run_imap  # the mail-daemon issue provides it

        run_imap(engine, config, transport, once=once)
        return
    while True:
        process_maildir(engine, config.inbox)
        engine.tick()
        flush(engine.store, transport)
        if once:
            return
        time.sleep(min(config.poll_seconds, 2.0))
