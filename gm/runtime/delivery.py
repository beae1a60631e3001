"""Delivering the outbox: to a Maildir (the embedded default) or over SMTP.

A message is marked sent only after the transport accepted it, so a crash in between sends it
again with the same Message-ID (at least once) and nothing queued is ever lost.  A flush claims
what it sends (store.outbox.claim_outbox), so daemons sharing one store never send a row at once.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from gm.runtime import refusals
from gm.runtime.lanes import PER_LANE
from gm.runtime.profiling import profiled
from gm.runtime.transport import (PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure,
                                  Transport, TransportDown, batched)
from gm.runtime.weather import STORE_BACKOFF, Weather
from gm.service.outgoing import delivery_state, later
from gm.service.people import forget
from gm.service.context import Context
from gm.service.records.retention import blanked_copy, sent_copy
from gm.store import Store, StoreError
from gm.store.locks import address_lock, hold_lock
from gm.store.mailrows import DueMail

if TYPE_CHECKING:
    from gm.core.config import Config

log = logging.getLogger(__name__)

Backoff = tuple[float, ...] | list[float]  # seconds before retry n, the last for every later one
BACKOFF: Backoff = (5, 15, 60, 300, 900, 3600)
MARK_EVERY = 16  # messages accepted by the server per "sent" transaction
FLUSH_LIMIT = 500  # rows claimed per flush, where the transport says nothing of its lanes
DOWN_AFTER = 3  # failed connections in a row before gm counts as unable to send (deadlines wait)
FLUSH_BATCH = 64  # rows Sender.pump claims at once, each held whole till marked: fewer, less peak memory


@dataclass
class Flushed:
    """What one flush did."""

    sent: int = 0  # messages the transport accepted
    claimed: int = 0  # rows claimed to send
    full: bool = False  # the last claim found as many rows as it asked for: more may be due
    refused: int = 0  # refusals recorded against an address
    held: int = 0  # holds begun
    released: int = 0  # holds ended


class SendBatch:
    """One flush: claim what is due, hand it to the transport, record what became of each row.

    A message is marked sent only once the transport accepted it, a few at a time (MARK_EVERY).
    A refusal for now is retried after ``backoff[attempts]``; one for good is marked bounced;
    either is recorded against the address (gm.service.outgoing.delivery_state settles it).
    A refusal that is not the recipient's (gm's sender, a domain's policy: gm.runtime.refusals)
    marks nobody and holds the mail it covers, but mail to ``gm_address``.  When the server
    cannot be reached the rows keep their place and TransportDown propagates.  ``limit`` rows
    are claimed first, and for a transport that ``streams`` more as its connections empty, up
    to ``most``; after a short claim only when ``news()`` (if given) says mail was queued.
    """

    def __init__(self, store: Store, transport: Transport, now: float | None = None, *,
                 limit: int = FLUSH_LIMIT, most: int = FLUSH_LIMIT,
                 backoff: Backoff = BACKOFF, gm_address: str | None = None,
                 news: Callable[[], bool] | None = None):
        self.store = store
        self.transport = batched(transport)
        self.now = time.time() if now is None else now
        self.started = time.monotonic()
        self.limit, self.most, self.backoff = limit, most, backoff
        self.gm_address = gm_address
        self.news = news
        self.flushed = Flushed()
        self.due: list[DueMail] = []  # every row claimed: given back at the end, but those marked sent meanwhile
        self.probes: dict[int, str] = {}  # outbox id -> the hold it probes (gm.runtime.refusals)
        self.accepted: list[tuple[DueMail, float]] = []  # (row, when) sent, not yet marked
        self.refused: list[tuple[DueMail, Exception]] = []  # sorted once the batch is over
        self.down: list[TransportDown] = []

    def run(self) -> Flushed:
        """Send what is due; TransportDown once the rows not sent are given back."""
        first = self.claim(self.limit)
        try:
            self.transport.send_many(first, self.done, self.more if self.transport.streams else None)
        finally:
            try:
                self.mark_sent()
                if self.refused:
                    self.record_refused()
            finally:
                self.store.outbox.release_outbox(self.due)
        if self.down:  # the rest keep their place; the caller waits before trying again
            raise self.down[0]
        return self.flushed

    def claim(self, n: int) -> list[DueMail]:
        """Up to n due rows, which no other daemon sends meanwhile; as of ``now`` and the time since."""
        at = self.now + (time.monotonic() - self.started)
        rows = self.store.outbox.claim_outbox(at, n)
        rows, waiting, seen = refusals.gate(self.store, rows, at, self.gm_address)
        self.store.outbox.release_outbox(waiting)  # held: not tried now
        rows = later.finish_due(self.store, rows)  # pictures drawn, the mail signed, if it waited for that
        self.due.extend(rows)
        self.probes.update(seen)
        self.flushed.claimed += len(rows)
        self.flushed.full = len(rows) + len(waiting) >= n  # as many as asked for: more may be due
        return rows

    def more(self, n: int) -> list[DueMail]:
        """A streaming transport's ask for up to n more rows."""
        n = min(n, self.most - len(self.due))
        if n <= 0 or self.down or (self.news is not None and not self.flushed.full and not self.news()):
            return []
        return self.claim(n)

    def done(self, row: DueMail, exc: Exception | None) -> None:
        """What became of one row, as the transport tells it."""
        if exc is None:
            log.info("mail out: outbox #%s to %s, accepted by %s", row.id, row.recipient,
                     self.transport.describe)
            self.accepted.append((row, time.time()))
            self.flushed.sent += 1
            if len(self.accepted) >= MARK_EVERY:
                self.mark_sent()
        elif isinstance(exc, TransportDown):
            # said once per outage by the Sender's Weather, not once per try
            log.debug("outbox #%s to %s not sent: server unreachable (%s)", row.id, row.recipient, exc)
            with self.store.write(scoped=True):  # a row this sender claimed
                self.store.outbox.note_attempt(row.id, row.attempts + 1, str(exc)[:500])
            self.down.append(exc)
        elif isinstance(exc, SenderRefused):
            if refusals.sender_refused(self.store, row, exc, self.now, self.backoff):
                self.flushed.held += 1
        elif isinstance(exc, (PermanentFailure, PolicyRefused)):
            self.refused.append((row, exc))  # whose fault it is shows once the batch is over
        else:
            self.retry_later(row, exc)

    def retry_later(self, row: DueMail, exc: Exception) -> None:
        """Any other transport fault: keep the mail, retry it after its backoff."""
        store = self.store
        delay = self.backoff[min(row.attempts, len(self.backoff) - 1)]
        log.warning("outbox #%s to %s not sent (%s); retry in %ss", row.id, row.recipient, exc, delay)
        with store.write(scoped=True):  # a row this sender claimed, and its recipient's delivery events
            store.locks.lock_addresses(row.recipient)
            store.outbox.note_attempt(row.id, row.attempts + 1, str(exc)[:500], next_attempt=self.now + delay)
            if isinstance(exc, TemporaryFailure):
                store.delivery.add_delivery_event(row.recipient, row.id, self.now, False, "smtp", str(exc))

    def mark_sent(self) -> None:
        """Mark the accepted rows sent, a few a transaction (the judge rarely waits for the lock).

        A mail that carried a secret is blanked in the same transaction; any other keeps its
        words, its reply token masked (gm.service.records.retention.sent_copy)."""
        accepted, store = self.accepted, self.store
        if not accepted:
            return
        copies = {row.id: sent_copy(row.raw, bool(row.secret)) for row, _ in accepted}
        # lost only in an OS crash, and then resent; scoped: the rows are this sender's claims, and
        # refusals.accepted locks the addresses and holds it changes (gm.store.locks)
        with store.write(durable=False, scoped=True):
            self.flushed.released += refusals.accepted(
                store, [row.recipient for row, _ in accepted],
                [self.probes[r.id] for r, _ in accepted if r.id in self.probes], self.now)
            for row, at in accepted:
                kept = copies[row.id]
                if kept is not None and kept[1] is None:
                    store.outbox.mark_sent_keeping(row.id, at, row.attempts + 1, kept[0], row)  # a masked header
                    continue
                store.outbox.mark_sent(row.id, at, row.attempts + 1)
                if kept is not None and kept[1] is not None:
                    store.outbox.blank_secret(row.id, kept[0], kept[1])
        forget.answers_sent(store, [row.recipient for row, _ in accepted if row.secret and forget.is_answer(row.raw)])
        accepted.clear()

    def record_refused(self) -> None:
        """The refusals for good, sorted once the batch is over: the recipient's, or a hold's."""
        store, refused, now = self.store, self.refused, self.now
        # scoped: the rows are this sender's claims; what a refusal may change is named up front (its
        # recipient's address, the holds it may begin or back off: gm's sender, its domain, a probe's)
        with store.write(scoped=True):
            store.locks.lock_shared(*{address_lock(row.recipient) for row, _ in refused},
                                    *{hold_lock(scope) for scope in refusals.scopes_of(refused, self.probes)})
            own, began = refusals.sort_refused(store, refused, now, self.backoff, self.probes)
            for row, exc in own:  # as a bounce that comes back later: delivery_state settles it
                log.error("outbox #%s to %s refused for good: %s", row.id, row.recipient, exc)
                store.delivery.record_refusal(row.id, row.recipient, row.attempts + 1, str(exc), now)
                if row.secret:  # never sent now: its secret need not be kept either
                    store.outbox.blank_secret(row.id, *blanked_copy(row.raw))
        forget.answers_sent(store, [row.recipient for row, _ in own if row.secret and forget.is_answer(row.raw)])
        self.flushed.refused += len(own)
        self.flushed.held += began


def flush(store: Store, transport: Transport, now: float | None = None, **options: Any) -> int:
    """Send what is due (SendBatch, with its keyword options); returns how many were sent."""
    return SendBatch(store, transport, now, **options).run().sent


class Sender:
    """The sender loop's state: flush the outbox, and back off while the server is down.

    ``pump()`` is cheap when there is nothing due (one indexed query), so the daemon calls it
    on every wake and right after new mail.  ``settle(store)``, if given, runs right after a
    refusal was recorded or a hold began, so the GM is told at once, not at the next tick
    (gm.service.outgoing.delivery_state.settle_now).

    A flush claims at most ``batch`` rows: PER_LANE per connection, else FLUSH_BATCH, so that
    daemons sharing a store each claim their share and every connection has mail in flight.
    """

    def __init__(self, store: Store, transport: Transport, backoff: Backoff = BACKOFF,
                 clock: Callable[[], float] = time.time, gm_address: str | None = None,
                 settle: Callable[[Store], object] | None = None, batch: int | None = None,
                 news: Callable[[], bool] | None = None, down_after: int = DOWN_AFTER):
        self.store = store
        self.down_after = down_after  # failed connections in a row before gm counts as unable to send
        self.news = news  # mail was queued since it was last asked (SendBatch)
        self.transport = batched(transport)
        lanes = self.transport.connections
        self.batch = batch or (PER_LANE * lanes if isinstance(lanes, int) else FLUSH_BATCH)
        self.gm_address = gm_address
        self.settle = settle
        self.backoff = tuple(backoff) or BACKOFF
        self.clock = clock
        self.weather = Weather("mail server (SMTP)", self.backoff, clock)
        self.resume_at = 0.0

    @property
    def failures(self) -> int:
        """Connection failures in a row."""
        return self.weather.failures

    @property
    def down_since(self) -> float | None:
        """Since when the server has been unreachable, try after try (down_after), or None."""
        return self.weather.down_since if self.weather.failures >= self.down_after else None

    def pump(self) -> int:
        now = self.clock()
        if now < self.resume_at:
            return 0
        sent = 0
        while True:  # until nothing due is left (a flush claims self.batch, and more as it streams)
            try:
                flushed = SendBatch(self.store, self.transport, now, limit=self.batch, backoff=self.backoff,
                                    gm_address=self.gm_address, news=self.news).run()
            except TransportDown as exc:
                self.resume_at = self.clock() + self.weather.fault(exc)
                return sent
            self.weather.ok()
            if (flushed.refused or flushed.held) and self.settle is not None:
                try:
                    self.settle(self.store)
                except Exception:  # the next tick settles it anyway
                    log.exception("settling a refusal failed")
            sent += flushed.sent
            # Another batch while this one was full and sent one at least (so this ends), or a
            # hold ended: its mail goes now.
            if (not flushed.full or flushed.sent == 0) and not flushed.released:
                return sent
            now = self.clock()

    def close(self) -> None:
        try:
            self.transport.close()
        except Exception:  # closing politely is best effort
            log.debug("closing the transport failed", exc_info=True)


def settler(config: Config, clock: Callable[[], float] = time.time) -> Callable[[Store], object]:
    """Sender's ``settle`` for a sender with a store of its own (the sender thread)."""
    return lambda store: delivery_state.settle_now(Context(store, config, clock))


class SenderThread:
    """The sender loop on a thread of its own, with its own database connection.

    The daemon judges on its thread and nudge()s this one after each commit, so reports go out
    while later orders are judged and sending overlaps judging.  Without a nudge it still wakes
    every ``wake`` seconds to retry after a backoff.
    """

    def __init__(self, database: Path, transport: Transport, backoff: Backoff = BACKOFF,
                 clock: Callable[[], float] = time.time, wake: float = 1.0, gm_address: str | None = None,
                 settle: Callable[[Store], object] | None = None,
                 claimant: str | None = None, down_after: int = DOWN_AFTER):
        self.database = database
        self.down_after = down_after
        self.claimant = claimant  # the daemon's id, noted on what it claims (Store.claimant)
        self.gm_address = gm_address
        self.settle = settle
        self.transport = batched(transport)
        self.backoff = backoff
        self.clock = clock
        self.wake = wake
        self.sender: Sender | None = None  # made on the thread, with the thread's connection
        self._nudged = threading.Event()
        self._stopping = threading.Event()
        self._rounds = threading.Condition()
        self._started = self._finished = 0
        self._thread = threading.Thread(target=self._run, name="gm-sender", daemon=True)

    @property
    def failures(self) -> int:
        return self.sender.failures if self.sender is not None else 0

    @property
    def down_since(self) -> float | None:
        """See Sender.down_since; what the daemon's heartbeat says (gm.service.outgoing.outages)."""
        return self.sender.down_since if self.sender is not None else None

    def start(self) -> "SenderThread":
        self.transport.start()  # a transport with a process of its own starts it now, while little is sent
        self._thread.start()
        return self

    def nudge(self) -> None:
        self._nudged.set()

    def news(self) -> bool:
        """Whether the judge queued mail since the last look (the nudge is taken: a nudge after
        this look is kept for the next, so nothing queued meanwhile waits for the wake)."""
        if not self._nudged.is_set():
            return False
        self._nudged.clear()
        return True

    def drain(self, timeout: float = 600.0) -> bool:
        """Wait for a pass over the outbox that began after this call (for `--once`): one that
        sends everything due, or stops early when the server is down."""
        with self._rounds:
            target = self._started + 1
            self.nudge()
            return self._rounds.wait_for(lambda: self._finished >= target or not self._thread.is_alive(),
                                         timeout)

    def stop(self) -> None:
        self._stopping.set()
        self.nudge()
        if self._thread.is_alive():
            self._thread.join()

    def _open_store(self) -> Store | None:
        """The thread's own connection; while the store is down, wait for it (None: stopped)."""
        weather = Weather("the store (sender thread)", STORE_BACKOFF)
        while not self._stopping.is_set():
            try:
                store = Store(self.database)
            except StoreError as exc:
                self._stopping.wait(weather.fault(exc))
                continue
            weather.ok()
            return store
        return None

    def _run(self) -> None:
        with profiled("sender"):
            self._send_until_stopped()

    def _send_until_stopped(self) -> None:
        store = self._open_store()
        if store is None:
            with self._rounds:
                self._rounds.notify_all()
            return
        if self.claimant is not None:  # whose claims these are: failover shows in gm status
            store.claimant = self.claimant
        self.sender = Sender(store, self.transport, backoff=self.backoff, clock=self.clock,
                             gm_address=self.gm_address, settle=self.settle, news=self.news,
                             down_after=self.down_after)
        store_weather = Weather("the store (sender thread)", STORE_BACKOFF)
        try:
            while not self._stopping.is_set():
                self._nudged.wait(self.wake)
                self._nudged.clear()
                with self._rounds:
                    self._started += 1
                try:
                    self.sender.pump()
                    store_weather.ok()
                except StoreError as exc:  # the database is down: said once, tried again next wake
                    store_weather.fault(exc)
                except Exception:  # any other fault: keep the loop alive, try again next wake
                    log.exception("sending the outbox failed")
                with self._rounds:
                    self._finished += 1
                    self._rounds.notify_all()
        finally:
            self.sender.close()
            store.close()
            with self._rounds:
                self._rounds.notify_all()
