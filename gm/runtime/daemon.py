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
    loop = _MaildirLoop(engine, config, transport, once)
    try:
        while stop is None or not stop.is_set():
            try:
                loop.one_pass(stop)
            except StoreError as exc:  # the database, not a message: the mail waits in the inbox
                if once:
                    raise
                _wait(stop, loop.store_down(exc))
                continue
            if loop.archive is not None:
                loop.archive.maybe_refresh()
            if once:
                return
            _wait(stop, 1.0)
    finally:
        loop.close()


class _MaildirLoop:
    """The Maildir daemon's parts and what one pass leaves for the next: when the next tick
    is due, when the inbox was last read, whether the next heartbeat looks for a gap."""

    def __init__(self, engine: Engine, config, transport, once: bool) -> None:
        self.engine, self.config, self.once = engine, config, once
        backoff = (config.smtp.backoff if config.smtp is not None and config.smtp.backoff else None) or BACKOFF
        self.sender = Sender(engine.store, transport, backoff=backoff, clock=engine.clock,
                             gm_address=config.gm_address, settle=lambda store: delivery_state.settle_now(engine),
                             down_after=1 if once else DOWN_AFTER)
        self.archive = live_archive(engine, config)
        self.metrics = metrics_from_config(engine.store, config, engine.clock())
        self.me = outages.DaemonIdentity.new(engine.clock())
        self.backlog = InboxBacklog(self.me.daemon_id)
        engine.store.claimant = self.me.daemon_id  # noted on the outbox rows it claims (failover in gm status)
        self.store_weather = Weather("the store", STORE_BACKOFF)
        self.look_for_gap = not once  # the first heartbeat, and the first after the store is back (gm.runtime.imap)
        self.next_tick = 0.0
        self.last_look = None  # when the inbox was last read: by this process, else by the last gm that ran

    def one_pass(self, stop) -> None:
        """The heartbeat (when a tick is due), the inbox's mail, the tick, the outbox."""
        engine, sender, metrics = self.engine, self.sender, self.metrics
        ticking = time.time() >= self.next_tick
        if ticking:
            self._heartbeat()
        began, looked = time.monotonic(), time.time()
        # Mail before the deadline steps: each is judged as of its delivery (RULINGS G4).
        handled = process_maildir(engine, self.config.inbox, stop, since=self.last_look)
        self.last_look = looked
        self.backlog.record(engine, len(handled), unread_maildir(self.config.inbox))
        if ticking:
            engine.tick()
            engine.trim_sent_mail()
            self.next_tick = time.time() + self.config.tick_seconds
        if handled:
            if metrics is not None:
                metrics.judged(time.monotonic() - began)
            sender.pump()
        sender.pump()
        if self.once:  # what this run found of the server, for the next run's deadlines
            outages.heartbeat(engine, self.me, sender.down_since, look_for_gap=False)
            outages.settle(engine)
        if metrics is not None:
            metrics.update(engine.store)
        self.store_weather.ok()

    def _heartbeat(self) -> None:
        """The heartbeat and the outages before the mail: a deadline that fell while no daemon
        ran, or gm could not send, moves before a message of its game is judged."""
        if self.last_look is None:
            self.last_look = self.engine.store.daemons.last_heartbeat()
        if self.once:  # a cron run's only chance to find the server down before the deadlines
            self.sender.pump()
        outages.heartbeat(self.engine, self.me, self.sender.down_since, look_for_gap=self.look_for_gap)
        self.look_for_gap = False
        outages.settle(self.engine)

    def store_down(self, exc: StoreError) -> float:
        """The store failed: how long to wait; the next heartbeat looks for a gap."""
        delay = self.store_weather.fault(exc)
        self.look_for_gap = True
        self.next_tick = time.time() + delay
        return delay

    def close(self) -> None:
        self.sender.close()
        if self.metrics is not None:
            self.metrics.close()


def _wait(stop, seconds: float) -> None:
    if stop is None:
        time.sleep(seconds)
    else:
        stop.wait(seconds)
