"""The daemon on an IMAP mailbox: read orders, judge them, move them away, exactly once.

Engine.ingest records a message's key in the transaction of everything it caused; only then
is it moved (gm.runtime.imapfolder), so a crash reads it again or finds it stored and moves it.
IDLE (or a poll every ``poll_seconds``) is only a wake-up; every wait still ticks and nudges
the sender thread.  A dropped session is reconnected and a store that cannot be used waited
for, each with its backoff (gm.runtime.weather).  Daemons sharing a mailbox each judge their
slice (gm.runtime.slices); one another daemon is judging now is "busy", looked at again soon,
and a message both committed is moved by the one that committed it (ours_to_move).  Each tick
writes the heartbeat first (gm.service.outgoing.outages).  SIGTERM sets ``stop``: the message
in hand is finished and moved.  ``once`` processes what is there, sends and returns (cron).
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Callable

from imapclient.exceptions import IMAPClientError

from gm.core.config import Config
from gm.runtime.delivery import BACKOFF, DOWN_AFTER, SenderThread, Transport, settler
from gm.runtime.imapfolder import Mailbox, close_session, connect, crash_point, ours_to_move
from gm.runtime.queuedwatch import QueuedWatch
from gm.runtime.livearchive import from_config as live_archive
from gm.runtime.metrics import from_config as metrics_from_config
from gm.runtime.profiling import profiled
from gm.runtime.slices import Slices
from gm.runtime.weather import STORE_BACKOFF, Weather
from gm.service.intake import arrival
from gm.service.outgoing import outages
from gm.service.outgoing.status import InboxBacklog
from gm.service.engine import Engine
from gm.store import StoreError

log = logging.getLogger(__name__)

RECONNECT = (1, 2, 5, 15, 30, 60)  # seconds before reconnect n, when the config gives none
WAKE = 1.0  # seconds between housekeeping passes while waiting for mail
IDLE_RENEW = 300.0  # leave IDLE, search, re-enter: well within RFC 2177's 29 minutes,
# and a safety net should a wake-up ever be lost
BATCH = 100  # messages fetched per FETCH command
SLICED_AT_ONCE = 25  # messages read for their slice (daemons sharing a mailbox) before judging
AHEAD = 8  # messages read (their password checks begun) ahead of the one being judged
# Bodies fetched to find their slice and kept for judging, at most (gm.runtime.slices): a backlog
# of large mail is fetched again when judged rather than held whole in memory.
KEEP_BYTES = 16 * 1024 * 1024
DUPLICATE_WAIT = 5.0  # seconds a message another daemon committed may stay before this one moves it

# Faults that mean "this connection is no good": reconnect with backoff.  (A StoreError is
# the database's weather, not the mailbox's: waited for apart.)
CONNECTION_FAULTS = (IMAPClientError, OSError, socket.timeout, ssl.SSLError, EOFError)


class ImapFault(RuntimeError):
    """The mailbox cannot be used (for `--once`, where there is no later)."""


def process_mailbox(engine: Engine, box: Mailbox, config: Config,
                    committed: Callable[[], object] | None = None,
                    stop: threading.Event | None = None,
                    duplicate_wait: float = 0.0, slices: Slices | None = None,
                    since: float | None = None) -> list[tuple[int, str]]:
    """Ingest every message in the folder, then move each; returns (uid, outcome).

    ``committed`` is called after each message's transaction (the daemon nudges
    its sender there, so replies leave while the rest of the batch is judged).
    With ``stop`` set, the message in hand is finished and moved, and the rest wait.
    ``duplicate_wait``: how long a message another daemon committed is left to it (the
    daemon: DUPLICATE_WAIT; `--once`, with no later pass, moves it at once).
    ``slices``: where other daemons share the mailbox, only this daemon's slice is fetched and
    judged, and what it leaves to them is noted there (gm.runtime.slices).
    Each is judged as of its INTERNALDATE (RULINGS G4), kept after ``since``, when gm last read
    this folder (gm.service.intake.arrival).
    """
    judging = _Judging(engine, box, config, committed, stop, duplicate_wait, since)
    results: list[tuple[int, str]] = []
    tried: set[int] = set()
    while stop is None or not stop.is_set():  # search again after each pass: more may have come
        pending = box.pending()
        still = set(pending)
        box.forget_gone(still)
        fresh = [u for u in pending if u not in tried]
        if not fresh:
            return results
        if slices is not None:
            slices.forget(still)
            slices.look(engine.store.daemons.daemon_rows())
        sharing = slices is not None and not slices.alone
        if sharing:
            # A slice of the mail at a time, its own judged before the next is read: a backlog
            # of many is not all fetched and read before the first of it is judged.
            fresh = fresh[:SLICED_AT_ONCE]
        tried.update(fresh)
        fetched: dict[int, bytes] = {}  # bodies read to find their slice, kept for judging
        if sharing:
            fresh, fetched = judging.my_slice(fresh, slices)
        for start in range(0, len(fresh), BATCH):
            results += judging.chunk(fresh[start:start + BATCH], fetched)
    return results


@dataclass
class _Judging:
    """What one process_mailbox call judges with: the engine, the session, and its options."""

    engine: Engine
    box: Mailbox
    config: Config
    committed: Callable[[], object] | None
    stop: threading.Event | None
    duplicate_wait: float
    since: float | None

    def my_slice(self, fresh: list[int], slices: Slices) -> tuple[list[int], dict[int, bytes]]:
        """This daemon's share of ``fresh``, and the bodies read to find it (up to KEEP_BYTES)."""
        box = self.box
        fetched: dict[int, bytes] = {}
        unknown = [u for u in fresh if u not in box.slice_keys]
        kept = 0
        for start in range(0, len(unknown), BATCH):
            for uid, raw in box.fetch(unknown[start:start + BATCH], self.config.max_message_bytes).items():
                box.slice_keys[uid] = self.engine.slice_key(raw)
                if kept + len(raw) <= KEEP_BYTES:
                    fetched[uid] = raw
                    kept += len(raw)
        alive = self.engine.store.locks.alive_daemons(slices.others())  # their mail waits longer
        mine = slices.mine(fresh, box.slice_keys, box.arrived, alive)
        return mine, {u: fetched[u] for u in mine if u in fetched}

    def chunk(self, chunk: list[int], fetched: dict[int, bytes]) -> list[tuple[int, str]]:
        """Judge one FETCH's worth of messages, each in its transaction; what committed is moved
        even if a later message failed to store."""
        engine, box = self.engine, self.box
        messages = {u: fetched.pop(u) for u in chunk if u in fetched}
        if len(messages) < len(chunk):
            messages.update(box.fetch([u for u in chunk if u not in messages], self.config.max_message_bytes))
        prepared: dict[int, object] = {}
        handled: list[int] = []
        results: list[tuple[int, str]] = []
        try:
            for i, uid in enumerate(chunk):
                if self.stop is not None and self.stop.is_set():
                    break  # the rest are read again by the next daemon
                raw = messages.get(uid)
                if raw is None:  # expunged by someone else meanwhile
                    continue
                prepare_ahead(engine, box, messages, chunk[i:i + AHEAD], prepared)
                # commits, or raises StoreError
                outcome = engine.ingest(raw, box.key(uid), inbound=prepared.pop(uid, None),
                                        arrived=arrival.judged_at(engine, box.arrived.get(uid), self.since))
                log.info("mail in: IMAP uid %s: %s %s", uid, outcome.outcome, outcome.detail[:80])
                crash_point("after-commit")
                if ours_to_move(box, uid, outcome.outcome, time.time(), self.duplicate_wait):
                    handled.append(uid)
                results.append((uid, outcome.outcome))
                if self.committed is not None:
                    self.committed()
        finally:
            if handled:
                box.done(handled)
        return results


def prepare_ahead(engine: Engine, box: Mailbox, messages: dict[int, bytes], window: list[int],
                  prepared: dict[int, object]) -> None:
    """Read the next few messages ahead of judging them, so that their password checks run on
    other cores meanwhile; not those already stored (another daemon sharing the mailbox judged
    them: each would only be found a duplicate), whose reading would be work thrown away."""
    todo = [uid for uid in window if uid not in prepared and uid in messages]
    if not todo:
        return
    stored = engine.store.inbox.stored_source_keys([box.key(uid) for uid in todo])
    for uid in todo:
        prepared[uid] = None if box.key(uid) in stored else engine.prepare(messages[uid])


class Daemon:
    """The IMAP daemon loop; see the module doc."""

    def __init__(self, engine: Engine, config: Config, transport: Transport,
                 stop: threading.Event | None = None, wake: float = WAKE):
        if config.imap is None:
            raise ValueError("no imap section in the config")
        self.engine = engine
        self.config = config
        self.server = config.imap
        self.stop = stop or threading.Event()
        self.wake = wake
        smtp_backoff = (config.smtp.backoff if config.smtp and config.smtp.backoff else None) or BACKOFF
        self.me = outages.DaemonIdentity.new(engine.clock())  # whose heartbeat row, whose claims
        self.sender = SenderThread(engine.store.path, transport, backoff=smtp_backoff,
                                   clock=engine.clock, wake=wake, gm_address=config.gm_address,
                                   settle=settler(config, engine.clock),
                                   claimant=self.me.daemon_id)
        self.last_look: float | None = None  # when the folder was last read (by this gm, else the last that ran)
        self.reconnect = tuple(self.server.backoff or RECONNECT)
        self.next_tick = 0.0
        self.connections = 0  # successful logins, for tests and logs
        self.mailbox: Mailbox | None = None  # the current session
        self.faults = 0  # connection faults survived
        self.archive = live_archive(engine, config)  # the archive site kept current, if configured
        self.metrics = metrics_from_config(engine.store, config, engine.clock())  # Prometheus metrics, if metrics_port
        self.backlog = InboxBacklog(self.me.daemon_id)  # the inbox a poll left, in that row
        self.slices = Slices(self.me.daemon_id, config.tick_seconds)  # its share of a mailbox shared
        self.once = False
        # Only a daemon's first heartbeat, or its first after the store was unreachable, looks for a
        # gap: its own long pass over a backlog is work, not an outage.
        self.look_for_gap = True
        self.store_weather = Weather("the store", STORE_BACKOFF)
        self.imap_weather = Weather(f"IMAP server {self.server.host}", self.reconnect)

    # --- housekeeping: heartbeat, timers, outbox ---------------------------------------
    def housekeeping(self, deadlines: bool = True) -> None:
        """The tick when it is due (the heartbeat first), and a nudge to the sender.

        Without ``deadlines``, before the first mail is read: the heartbeat and the outages only
        (a deadline that fell while gm was away or could not send moves first), the deadline steps
        waiting for the mail that came before them to be judged as of its arrival (RULINGS G4).
        A store error here is the store's weather: said once, the tick tried again after the
        store's back-off; it never leaves this method."""
        now = time.time()
        if now >= self.next_tick:
            try:
                if self.last_look is None:
                    self.last_look = self.engine.store.daemons.last_heartbeat()
                outages.heartbeat(self.engine, self.me, self.sender.down_since,
                                  look_for_gap=self.look_for_gap and not self.once)
                self.look_for_gap = False
                if not deadlines:
                    outages.settle(self.engine)  # what the tick does first (gm.service.play.timers)
                    return
                closed = self.engine.tick()
                if closed:
                    log.info("done by the clock: %s", "; ".join(closed))
                self.engine.trim_sent_mail()
            except StoreError as exc:
                self.look_for_gap = True
                self.next_tick = time.time() + self.store_weather.fault(exc)
            else:
                self.store_weather.ok()
                self.next_tick = now + self.config.tick_seconds
        if self.metrics is not None and not self.store_weather.is_down:
            try:  # what the sender thread sent meanwhile shows on the next look
                self.metrics.update(self.engine.store)
            except StoreError as exc:
                log.debug("metrics not updated: %s", exc)
        self.sender.nudge()
        if self.archive is not None and not self.store_weather.is_down:
            self.archive.maybe_refresh()

    def _sleep(self, seconds: float) -> None:
        """Wait, still sending the outbox; returns early when stopped."""
        deadline = time.time() + seconds
        while not self.stop.is_set():
            left = deadline - time.time()
            if left <= 0:
                return
            self.stop.wait(min(self.wake, left))
            self.housekeeping()

    # --- the loop -------------------------------------------------------------------
    def run(self, once: bool = False) -> None:
        self.once = once
        self.sender.down_after = 1 if once else DOWN_AFTER  # a cron run tries once: no later try to wait for
        self.sender.start()
        # mail another daemon (or a GM command) queued wakes this sender too (PostgreSQL)
        watch = QueuedWatch(self.engine.store.path, self.sender.nudge).start() if not once else None
        try:
            if once:  # a cron run's only chance to find the server down before the deadlines
                self.sender.drain()
            # The heartbeat and the outages before any mail: a deadline that fell while no daemon
            # ran, or gm could not send, moves before a message of its game is judged.
            self.housekeeping(deadlines=False)
            while not self.stop.is_set():
                if self.store_weather.is_down and not once:
                    self._sleep(max(self.next_tick - time.time(), self.wake))  # its tick retries the store
                    continue
                if self._connection(once):
                    return
        finally:
            if watch is not None:
                watch.stop()
            self.sender.stop()
            if self.metrics is not None:
                self.metrics.close()
            self.engine.close()

    def _connection(self, once: bool) -> bool:
        """One IMAP session, to its end or its fault; True when the daemon is done."""
        client = None
        try:
            client = connect(self.server)
            box = Mailbox(client, self.config.imap_folder, self.config.imap_processed)
            self.connections += 1
            self.mailbox = box
            self.imap_weather.ok()
            log.info("connected to %s as %s, folder %s (UIDVALIDITY %s, IDLE %s)",
                     self.server.host, self.server.user, box.folder, box.uidvalidity,
                     "yes" if box.can_idle else "no")
            self._session(box, once)
            if once:
                self.sender.drain()  # send what can be sent before returning
                self._note_sending()
            if once or self.stop.is_set():
                try:
                    client.logout()
                except CONNECTION_FAULTS:
                    pass
                client = None
                return True
            return False
        except StoreError as exc:  # the store, not the mailbox: wait for it (the session is closed)
            if once:
                raise ImapFault(f"the store: {exc}") from exc
            self.look_for_gap = True
            self.next_tick = time.time() + self.store_weather.fault(exc)
            return False
        except CONNECTION_FAULTS as exc:
            self.faults += 1
            delay = self.imap_weather.fault(exc)
            log.debug("IMAP connection fault (%s: %s); reconnecting in %ss", type(exc).__name__, exc, delay)
            if once:
                self.housekeeping()
                self.sender.drain()
                raise ImapFault(f"IMAP {self.server.host}: {exc}") from exc
            self._sleep(delay)
            return False
        finally:
            close_session(client)

    def _session(self, box: Mailbox, once: bool) -> None:
        while not self.stop.is_set():
            began, looked = time.monotonic(), time.time()
            handled = process_mailbox(self.engine, box, self.config, committed=self.sender.nudge, stop=self.stop,
                                      duplicate_wait=0.0 if once else DUPLICATE_WAIT,
                                      slices=None if once else self.slices, since=self.last_look)
            self.last_look = looked
            if self.metrics is not None and handled:
                self.metrics.judged(time.monotonic() - began)
            # What the poll left in the folder: mail come meanwhile, or left to another daemon.
            self.backlog.record(self.engine, len(handled), len(box.pending()))
            self.housekeeping()
            if once:
                return
            if box.others:  # left to the daemon that committed them: look again soon
                self._sleep(min(1.0, DUPLICATE_WAIT))
                continue
            due = self.slices.next_look()  # mail left to another daemon: taken here when due
            if box.can_idle and self.config.imap_idle:
                # Dovecot (and others) report nothing at the start of IDLE about mail
                # that came during the pass above: ask once more, then idle.
                if not box.changed():
                    self._idle(box, IDLE_RENEW if due is None else due)
            elif due is not None:
                self._sleep(min(due, self.config.poll_seconds))
            else:
                self._sleep(self.config.poll_seconds)
                box.client.noop()  # notices a dead connection; the search comes next

    def _note_sending(self) -> None:
        """`--once`: what this run found of the SMTP server, kept for the deadlines (a heartbeat
        saying since when it cannot send, and the outage opened or closed by it)."""
        outages.heartbeat(self.engine, self.me, self.sender.down_since, look_for_gap=False)
        outages.settle(self.engine)

    def _idle(self, box: Mailbox, renew: float = IDLE_RENEW) -> None:
        """Wait in IDLE until the server reports a change, or ``renew`` seconds; only a wake-up."""
        client = box.client
        client.idle()
        started = time.time()
        while not self.stop.is_set():
            asked = time.time()
            responses = client.idle_check(timeout=self.wake)
            if any(not (isinstance(r, tuple) and r and r[0] == b"OK") for r in responses):
                if any(isinstance(r, tuple) and r and r[0] == b"BYE" for r in responses):
                    raise ConnectionError(f"server said BYE: {responses}")
                break  # something changed: search again
            if not responses and time.time() - asked < self.wake / 2:
                # The socket was readable yet held no line: imapclient swallows EOF here.
                break
            self.housekeeping()
            if time.time() - started >= renew:
                break
        client.idle_done()  # raises AbortError if the connection died meanwhile


def run_imap(engine: Engine, config: Config, transport: Transport, once: bool = False,
             stop: threading.Event | None = None) -> Daemon:
    daemon = Daemon(engine, config, transport, stop=stop)
    with profiled("judge"):
        daemon.run(once=once)
    return daemon
