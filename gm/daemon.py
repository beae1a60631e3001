"""The daemon loop on the embedded Maildir inbox: read, process, deliver, tick."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from gm.delivery import BACKOFF, Sender, ensure_maildir
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
        from gm.smtp import SmtpTransport

        return SmtpTransport(config.smtp, envelope_from=config.address,
                             connections=config.smtp_connections)
    from gm.delivery import MaildirTransport

    return MaildirTransport(config.outbox)


def run(engine: Engine, config, once: bool = False, stop=None) -> None:
    """Read, judge, report, deliver; react within about a second of mail arriving.

    With an imap section the IMAP daemon (gm.imap) runs; otherwise the inbox
    Maildir is scanned every second.  Either way the outbox is flushed right
    after new mail is processed, and retried with backoff while the server is down.
    """
    transport = make_transport(config)
    if config.imap is not None:
        from gm.imap import ImapFault, run_imap

        try:
            run_imap(engine, config, transport, once=once, stop=stop)
        except ImapFault as exc:
            raise SystemExit(f"gm: {exc}") from exc
        return
    backoff = (config.smtp.backoff if config.smtp is not None and config.smtp.backoff else None) or BACKOFF
    sender = Sender(engine.store, transport, backoff=backoff, clock=engine.clock)
    next_tick = 0.0
    try:
        while stop is None or not stop.is_set():
            if process_maildir(engine, config.inbox):
                sender.pump()
            if time.time() >= next_tick:
                engine.tick()
                next_tick = time.time() + 30
            sender.pump()
            if once:
                return
            time.sleep(1.0)
    finally:
        sender.close()
