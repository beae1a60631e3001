"""The daemon loop on the embedded Maildir inbox: read, process, deliver, tick."""

from __future__ import annotations

import logging
import time
from functools import partial

from gm.mail import verp
from gm.runtime.delivery import BACKOFF, Sender
from gm.runtime.imap import ImapFault, run_imap
from gm.runtime.livearchive import from_config as live_archive
from gm.runtime.maildir import MaildirTransport, process_maildir
from gm.runtime.sendprocess import ProcessTransport
from gm.runtime.smtp import SmtpTransport
from gm.service import delivery_state
from gm.service.engine import Engine
from gm.store import StoreError

log = logging.getLogger(__name__)


def make_transport(config):
    if config.smtp is None:
        return MaildirTransport(config.outbox)
    envelope = verp.from_config(config).envelope
    if config.smtp_process:
        return ProcessTransport(partial(SmtpTransport, config.smtp, envelope_from=config.address,
                                        connections=config.smtp_connections), envelope)
    return SmtpTransport(config.smtp, envelope_from=config.address, connections=config.smtp_connections,
                         envelope=envelope)


def run(engine: Engine, config, once: bool = False, stop=None) -> None:
    """Read, judge, report, deliver; react within about a second of mail arriving.

    With an imap section the IMAP daemon (gm.runtime.imap) runs; otherwise the inbox
    Maildir is scanned every second.  Either way the outbox is flushed right
    after new mail is processed, and retried with backoff while the server is down.
    """
    transport = make_transport(config)
    if config.imap is not None:
        try:
            run_imap(engine, config, transport, once=once, stop=stop)
        except ImapFault as exc:
            raise SystemExit(f"gm: {exc}") from exc
        return
    backoff = (config.smtp.backoff if config.smtp is not None and config.smtp.backoff else None) or BACKOFF
    sender = Sender(engine.store, transport, backoff=backoff, clock=engine.clock, gm_address=config.gm_address,
                    settle=lambda store: delivery_state.settle_now(engine))
    archive = live_archive(engine, config)
    next_tick = 0.0
    try:
        while stop is None or not stop.is_set():
            try:
                if process_maildir(engine, config.inbox):
                    sender.pump()
            except StoreError as exc:  # the database, not a message: wait and read again
                if once:
                    raise
                log.error("the database cannot be written (%s); mail waits in the inbox", exc)
                time.sleep(5.0)
                continue
            if time.time() >= next_tick:
                engine.tick()
                engine.trim_sent_mail()
                next_tick = time.time() + 30
            sender.pump()
            if archive is not None:
                archive.maybe_refresh()
            if once:
                return
            time.sleep(1.0)
    finally:
        sender.close()
