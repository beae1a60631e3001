"""The daemon loop on the embedded Maildir inbox: read, process, deliver, tick."""

from __future__ import annotations

import logging
import time
from functools import partial

from gm.mail import verp
from gm.runtime.delivery import BACKOFF, DOWN_AFTER, Sender
from gm.runtime.imap import ImapFault, run_imap
from gm.runtime.livearchive import from_config as live_archive
from gm.runtime.maildir import MaildirTransport, process_maildir
from gm.runtime.metrics import from_config as metrics_from_config
from gm.runtime.sendprocess import ProcessTransport
from gm.runtime.smtp import SmtpTransport
from gm.runtime.weather import STORE_BACKOFF, Weather
from gm.service.outgoing import delivery_state, outages
from gm.service.outgoing.status import InboxBacklog, unread_maildir
from gm.service.engine import Engine
from gm.store import SchemaTooNew, MigrationError, Store, StoreError, is_url

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


def open_store(target, stop) -> Store | None:
    """The store; a database server that is down or restarting is waited for, for as long as it
    takes (said once when it is down and once when it is back).  None: stopped meanwhile.
    A SQLite file that cannot be opened, or a schema gm cannot use, is no weather: raised."""
    weather = Weather("the store", STORE_BACKOFF)
    while not stop.is_set():
        try:
            store = Store(target)
        except (SchemaTooNew, MigrationError):
            raise
        except StoreError as exc:
            if not is_url(target):
                raise
            stop.wait(weather.fault(exc))
            continue
        weather.ok()
        return store
    return None


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
                    settle=lambda store: delivery_state.settle_now(engine),
                    down_after=1 if once else DOWN_AFTER)
    archive = live_archive(engine, config)
    metrics = metrics_from_config(engine.store, config, engine.clock())
    me = outages.DaemonIdentity.new(engine.clock())
    backlog = InboxBacklog(me.daemon_id)
    engine.store.claimant = me.daemon_id  # noted on the outbox rows it claims (failover in gm status)
    store_weather = Weather("the store", STORE_BACKOFF)
    look_for_gap = not once  # the first heartbeat, and the first after the store was back (gm.runtime.imap)
    next_tick = 0.0
    last_look = None  # when the inbox was last read: by this process, else by the last gm that ran
    try:
        while stop is None or not stop.is_set():
            try:
                ticking = time.time() >= next_tick
                if ticking:
                    if last_look is None:
                        last_look = engine.store.daemons.last_heartbeat()
                    if once:  # a cron run's only chance to find the server down before the deadlines
                        sender.pump()
                    # The heartbeat and the outages before the mail: a deadline that fell while no
                    # daemon ran, or gm could not send, moves before a message of its game is judged.
                    outages.heartbeat(engine, me, sender.down_since, look_for_gap=look_for_gap)
                    look_for_gap = False
                    outages.settle(engine)
                began, looked = time.monotonic(), time.time()
                # Mail before the deadline steps: each is judged as of its delivery (RULINGS G4).
                handled = process_maildir(engine, config.inbox, stop, since=last_look)
                last_look = looked
                backlog.record(engine, len(handled), unread_maildir(config.inbox))
                if ticking:
                    engine.tick()
                    engine.trim_sent_mail()
                    next_tick = time.time() + config.tick_seconds
                if handled:
                    if metrics is not None:
                        metrics.judged(time.monotonic() - began)
                    sender.pump()
                sender.pump()
                if once:  # what this run found of the server, for the next run's deadlines
                    outages.heartbeat(engine, me, sender.down_since, look_for_gap=False)
                    outages.settle(engine)
                if metrics is not None:
                    metrics.update(engine.store)
                store_weather.ok()
            except StoreError as exc:  # the database, not a message: the mail waits in the inbox
                if once:
                    raise
                delay = store_weather.fault(exc)
                look_for_gap = True
                next_tick = time.time() + delay
                _wait(stop, delay)
                continue
            if archive is not None:
                archive.maybe_refresh()
            if once:
                return
            _wait(stop, 1.0)
    finally:
        sender.close()
        if metrics is not None:
            metrics.close()


def _wait(stop, seconds: float) -> None:
    if stop is None:
        time.sleep(seconds)
    else:
        stop.wait(seconds)
