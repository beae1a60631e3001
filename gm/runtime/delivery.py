"""Delivering the outbox: to a Maildir (the embedded default) or over SMTP.

A message is marked sent only after the transport accepted it, so a crash in
between sends it again with the same Message-ID (at least once; a reader can
tell the copies apart by that header) and nothing queued is ever lost.  A
flush first claims what it sends (Store.claim_outbox) and gives it back when it
is marked, so that daemons sharing one store never send the same row at once.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Callable

from gm.runtime import refusals
from gm.runtime.lanes import PER_LANE
from gm.runtime.profiling import profiled
from gm.runtime.transport import (PermanentFailure, PolicyRefused, SenderRefused, TemporaryFailure, Transport,
                                  TransportDown, send_each)
from gm.runtime.weather import STORE_BACKOFF, Weather
from gm.service.outgoing import delivery_state
from gm.service.context import Context
from gm.service.records.retention import sent_copy
from gm.store import Store, StoreError
from gm.store.locks import address_lock, hold_lock

log = logging.getLogger(__name__)

BACKOFF = (5, 15, 60, 300, 900, 3600)  # seconds before retry n
MARK_EVERY = 16  # messages accepted by the server per "sent" transaction
FLUSH_LIMIT = 500  # rows claimed per flush, where the transport says nothing of its lanes
DOWN_AFTER = 3  # failed connections in a row before gm counts as unable to send (deadlines wait)
# Mails a flush claims at once in Sender.pump: each claimed row is held whole (and packed) until
# its batch is marked, so 200 reports with pictures claimed at once were a daemon's peak memory,
# some 8 MB above judging them (batches of 64: 5 MB less at the peak, cpu_per_order); the SMTP
# lanes keep their connections from batch to batch.
FLUSH_BATCH = 64


def flush(store: Store, transport: Transport, now: float | None = None, limit: int = FLUSH_LIMIT,
          backoff: tuple[float, ...] | list[float] = BACKOFF, gm_address: str | None = None,
          outcome: dict | None = None, most: int = FLUSH_LIMIT, news: Callable[[], bool] | None = None) -> int:
    """Send what is due; returns how many were sent.

    A message the server refuses for now is retried after ``backoff[attempts]``;
    one it refuses for good is marked bounced.  Either refusal of a recipient
    (4xx, 5xx) is recorded against the address, for gm.service.outgoing.delivery_state
    to settle.  A refusal that is not the recipient's (gm's sender refused, a
    domain's policy: gm.runtime.refusals) marks nobody and holds the mail it
    covers, but mail to ``gm_address``.  When the server cannot be reached
    (TransportDown) the message keeps its place and the exception propagates,
    so that the caller waits before trying the whole queue again.

    ``limit`` rows are claimed first; a transport that streams (``streams``: gm.runtime.smtp) asks
    for more as its connections empty, up to ``most`` rows in all, so that mail queued meanwhile
    goes in the same flush and no connection waits for the others.  Once a claim found fewer rows
    than it asked for, ``news()`` (if given) says whether more mail was queued since (the judge's
    nudge): without news no statement is run, so a sender faster than the judge does not ask the
    store after each mail it sends.
    ``outcome["refused"]`` counts the refusals recorded against an address, ``outcome["held"]``
    the holds begun, ``outcome["released"]`` the holds ended, ``outcome["claimed"]`` the rows
    claimed to send, ``outcome["full"]`` whether the last claim found as many as it asked for (more
    may be due).
    """
    now = time.time() if now is None else now
    started = time.monotonic()
    due: list = []  # every row claimed: given back at the end, but those marked sent meanwhile
    probes: dict = {}
    counts = {} if outcome is None else outcome
    counts["claimed"] = 0
    down: list[TransportDown] = []

    def claim(n: int) -> list:
        # no other daemon sharing the store sends these meanwhile; the clock moves on as the stream
        # goes (mail judged meanwhile is due), from the ``now`` given (a test's clock)
        at = now + (time.monotonic() - started)
        rows = store.outbox.claim_outbox(at, n)
        rows, waiting, seen = refusals.gate(store, rows, at, gm_address)
        store.outbox.release_outbox(waiting)  # held: not tried now
        due.extend(rows)
        probes.update(seen)
        counts["claimed"] += len(rows)
        counts["full"] = len(rows) + len(waiting) >= n  # as many as asked for: more may be due
        return rows

    def more(n: int) -> list:
        n = min(n, most - len(due))
        if n <= 0 or down or (news is not None and not counts["full"] and not news()):
            return []
        return claim(n)

    first = claim(limit)
    sent = 0
    refused: list = []  # (row, exc): sorted once the batch is over (gm.runtime.refusals)
    accepted: list = []  # sent, not yet marked

    def mark_sent() -> None:
        # One transaction for a few messages: the judge, writing on another
        # connection, then rarely waits for the lock.  A crash before the mark
        # means those few are sent again, with their same Message-IDs.
        # A mail that carried a password or a code (outbox.secret) is blanked in the same
        # transaction: once it is handed on, the store keeps its header and a note, no secret;
        # any other keeps its words, its reply token masked (gm.service.records.retention.sent_copy).
        if not accepted:
            return
        copies = {row["id"]: sent_copy(row["raw"], bool(row.get("secret"))) for row, _ in accepted}
        # lost only in an OS crash, and then resent; scoped: the rows are this sender's claims, and
        # refusals.accepted locks the addresses and holds it changes (gm.store.pglocks)
        with store.write(durable=False, scoped=True):
            counts["released"] = counts.get("released", 0) + refusals.accepted(
                store, [row["recipient"] for row, _ in accepted], [probes[r["id"]] for r, _ in accepted
                                                                   if r["id"] in probes], now)
            for row, at in accepted:
                kept = copies[row["id"]]
                if kept is not None and kept[1] is None:
                    store.outbox.mark_sent_keeping(row["id"], at, row["attempts"] + 1, kept[0], row)  # a masked header
                    continue
                store.outbox.mark_sent(row["id"], at, row["attempts"] + 1)
                if kept is not None:
                    store.outbox.blank_secret(row["id"], *kept)
        accepted.clear()

    def done(row, exc: Exception | None) -> None:
        nonlocal sent
        if exc is None:
            log.info("mail out: outbox #%s to %s, accepted by %s", row["id"], row["recipient"], where)
            accepted.append((row, time.time()))
            sent += 1
            if len(accepted) >= MARK_EVERY:
                mark_sent()
        elif isinstance(exc, TransportDown):
            # said once per outage by the Sender's Weather, not once per try
            log.debug("outbox #%s to %s not sent: server unreachable (%s)", row["id"], row["recipient"], exc)
            with store.write(scoped=True):  # a row this sender claimed
                store.outbox.note_attempt(row["id"], row["attempts"] + 1, str(exc)[:500])
            down.append(exc)
        elif isinstance(exc, SenderRefused):
            if refusals.sender_refused(store, row, exc, now, backoff):
                counts["held"] = counts.get("held", 0) + 1
        elif isinstance(exc, (PermanentFailure, PolicyRefused)):
            refused.append((row, exc))  # whose fault it is shows once the batch is over
        else:  # any other transport fault: keep the mail, retry later
            delay = backoff[min(row["attempts"], len(backoff) - 1)]
            log.warning("outbox #%s to %s not sent (%s); retry in %ss", row["id"], row["recipient"], exc, delay)
            with store.write(scoped=True):  # a row this sender claimed, and its recipient's delivery events
                store.locks.lock_addresses(row["recipient"])
                store.outbox.note_attempt(row["id"], row["attempts"] + 1, str(exc)[:500],
                                          next_attempt=now + delay)
                if isinstance(exc, TemporaryFailure):
                    store.delivery.add_delivery_event(row["recipient"], row["id"], now, False, "smtp", str(exc))

    where = getattr(transport, "describe", type(transport).__name__)  # for `gm -v run`'s log
    send_many = getattr(transport, "send_many", None)
    try:
        if send_many is not None and getattr(transport, "streams", False):
            send_many(first, done, more)
        elif send_many is not None:
            send_many(first, done)
        else:
            send_each(transport, first, done)
    finally:
        try:
            mark_sent()
            if refused:
                record_refused(store, refused, now, backoff, counts, probes)
        finally:
            store.outbox.release_outbox(due)
    if down:  # the rest keep their place; the caller waits before trying again
        raise down[0]
    return sent


def record_refused(store: Store, refused: list, now: float, backoff, counts: dict, probes: dict) -> None:
    # scoped: the rows are this sender's claims; what a refusal may change is named up front (its
    # recipient's address, the holds it may begin or back off: gm's sender, its domain, a probe's)
    with store.write(scoped=True):
        store.locks.lock_shared(*{address_lock(row["recipient"]) for row, _ in refused},
                                *{hold_lock(scope) for scope in refusals.scopes_of(refused, probes)})
        own, began = refusals.sort_refused(store, refused, now, backoff, probes)
        for row, exc in own:  # as a bounce that comes back later: gm.service.outgoing.delivery_state settles it
            log.error("outbox #%s to %s refused for good: %s", row["id"], row["recipient"], exc)
            store.delivery.record_refusal(row["id"], row["recipient"], row["attempts"] + 1, str(exc), now)
            if row.get("secret"):  # never sent now: its secret need not be kept either
                store.outbox.blank_secret(row["id"], *sent_copy(row["raw"], True))
    counts["refused"] = counts.get("refused", 0) + len(own)
    counts["held"] = counts.get("held", 0) + began


class Sender:
    """The sender loop's state: flush the outbox, and back off while the server is down.

    ``pump()`` is cheap when there is nothing due (one indexed query), so the
    daemon calls it on every wake and right after processing new mail.  Mail to
    ``gm_address`` is never held; ``settle(store)``, if given, runs right after
    a refusal was recorded against an address or a hold began, so that it is
    listed, and the GM told, at once rather than at the next tick
    (gm.service.outgoing.delivery_state.settle_now).

    A flush claims at most ``batch`` rows: over SMTP, PER_LANE per connection, else FLUSH_BATCH.
    Daemons sharing a store claim from one outbox, and a sender that claimed every due row (500)
    kept the others' connections idle while its own few carried all the mail, a batch at a time;
    in small bites each daemon's sender claims its share and every connection has mail in flight.
    """

    def __init__(self, store: Store, transport: Transport, backoff=BACKOFF, clock=time.time,
                 gm_address: str | None = None, settle: Callable[[Store], object] | None = None,
                 batch: int | None = None, news: Callable[[], bool] | None = None,
                 down_after: int = DOWN_AFTER):
        self.store = store
        self.down_after = down_after  # failed connections in a row before gm counts as unable to send
        self.news = news  # mail was queued since it was last asked (flush)
        lanes = getattr(transport, "connections", None)
        self.batch = batch or (PER_LANE * lanes if isinstance(lanes, int) else FLUSH_BATCH)
        self.gm_address = gm_address
        self.settle = settle
        self.transport = transport
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
            outcome: dict = {}
            try:
                n = flush(self.store, self.transport, now, limit=self.batch, backoff=self.backoff,
                          gm_address=self.gm_address, outcome=outcome, news=self.news)
            except TransportDown as exc:
                self.resume_at = self.clock() + self.weather.fault(exc)
                return sent
            self.weather.ok()
            if (outcome.get("refused") or outcome.get("held")) and self.settle is not None:
                try:
                    self.settle(self.store)
                except Exception:  # the next tick settles it anyway
                    log.exception("settling a refusal failed")
            sent += n
            # Another batch while this one was full and went (some of it: a mail refused or held
            # leaves the batch, and each batch sends one at least, so this ends); a hold ended:
            # its mail goes now.
            if (not outcome["full"] or n == 0) and not outcome.get("released"):
                return sent
            now = self.clock()

    def close(self) -> None:
        close = getattr(self.transport, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # closing politely is best effort
                log.debug("closing the transport failed", exc_info=True)


def settler(config, clock=time.time) -> Callable[[Store], object]:
    """Sender's ``settle`` for a sender with a store of its own (the sender thread)."""
    return lambda store: delivery_state.settle_now(Context(store, config, clock))


class SenderThread:
    """The sender loop on a thread of its own, with its own database connection.

    The daemon judges mail on its thread and nudge()s this one after each
    commit, so reports go out while later orders are still being judged: the
    first player in a burst of mail does not wait for the whole burst, and
    sending (mostly waiting on the SMTP server) overlaps judging.  Without a
    nudge it still wakes every ``wake`` seconds to retry after a backoff.
    """

    def __init__(self, database: Path, transport: Transport, backoff=BACKOFF, clock=time.time,
                 wake: float = 1.0, gm_address: str | None = None,
                 settle: Callable[[Store], object] | None = None,
                 claimant: str | None = None, down_after: int = DOWN_AFTER):
        self.database = database
        self.down_after = down_after
        self.claimant = claimant  # the daemon's id, noted on what it claims (Store.claimant)
        self.gm_address = gm_address
        self.settle = settle
        self.transport = transport
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
        sender = self.sender
        return sender.down_since if sender is not None else None

    def start(self) -> "SenderThread":
        warm = getattr(self.transport, "start", None)
        if warm is not None:  # a transport with a process of its own starts it now, while little is sent
            warm()
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
        """Wait for a pass over the outbox that began after this call (for `--once`).

        A pass sends everything due, or stops early when the server is down.
        """
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
