"""The outbox's sender: batches, the sender thread, and what an interruption leaves."""

from __future__ import annotations

import threading

import pytest

from gm.runtime import delivery
from gm.runtime.delivery import Sender, SenderThread, flush


class Recording:
    """A transport that keeps what it is given; optionally dies after a few."""

    def __init__(self, die_after: int | None = None):
        self.sent: list[int] = []
        self.die_after = die_after
        self.closed = False
        self.threads: set[str] = set()

    def send(self, recipient, raw, outbox_id):
        self.threads.add(threading.current_thread().name)
        if self.die_after is not None and len(self.sent) >= self.die_after:
            raise SystemExit("killed in the middle of a batch")
        self.sent.append(outbox_id)

    def close(self):
        self.closed = True


def statuses(engine) -> dict[int, str]:
    return {r["id"]: r["status"] for r in engine.store.all("SELECT id, status FROM outbox")}


def queue(engine, n):
    with engine.store.write():
        for i in range(n):
            engine.outbox.queue(f"p{i}@example.org", f"note {i}", "text\n", kind="notice")


def test_an_interrupted_batch_leaves_what_was_sent_marked_sent(engine, nb_game, clock, monkeypatch):
    monkeypatch.setattr(delivery, "MARK_EVERY", 4)
    queue(engine, 8)  # ten in all with the two welcomes
    transport = Recording(die_after=6)
    with pytest.raises(SystemExit):
        flush(engine.store, transport, now=clock())
    status = statuses(engine)
    # Six were accepted: the four marked at the batch mark and the two before the
    # interruption, marked on the way out.  The rest wait, queued, for the next pass.
    assert [i for i, s in sorted(status.items()) if s == "sent"] == transport.sent == list(range(1, 7))
    assert [s for _, s in sorted(status.items())][6:] == ["queued"] * 4
    transport.die_after = None
    assert flush(engine.store, transport, now=clock()) == 4
    assert set(statuses(engine).values()) == {"sent"}
    assert transport.sent == list(range(1, 11))  # each exactly once


class Claims(Recording):
    """Recording, and how many rows each flush claimed (the store's claim_outbox, counted)."""

    def __init__(self, store, refuse: set[int] = frozenset()):
        super().__init__()
        self.claims: list[int] = []
        self.refuse = refuse
        claim = store.claim_outbox
        store.claim_outbox = lambda now, limit: self.claims.append(len(rows := claim(now, limit))) or rows

    def send(self, recipient, raw, outbox_id):
        if outbox_id in self.refuse:
            raise delivery.TemporaryFailure("451 try again later")
        super().send(recipient, raw, outbox_id)


def test_a_pump_sends_the_whole_queue_in_batches_of_flush_batch(engine, nb_game, clock, monkeypatch):
    # Each claimed row is held whole until its batch is marked: the daemon's peak memory is a
    # batch, not the queue.  One pump still sends everything due, each mail once.
    monkeypatch.setattr(delivery, "FLUSH_BATCH", 4)
    queue(engine, 8)  # ten in all with the two welcomes
    transport = Claims(engine.store)
    assert Sender(engine.store, transport, clock=clock).pump() == 10
    assert transport.claims == [4, 4, 2]
    assert transport.sent == list(range(1, 11))
    assert set(statuses(engine).values()) == {"sent"}


def test_a_refused_mail_in_a_full_batch_does_not_stop_the_pump(engine, nb_game, clock, monkeypatch):
    monkeypatch.setattr(delivery, "FLUSH_BATCH", 4)
    queue(engine, 8)
    transport = Claims(engine.store, refuse={2})  # refused for now: retried after the backoff
    assert Sender(engine.store, transport, clock=clock).pump() == 9
    assert transport.claims == [4, 4, 2]  # mail 2 is due again only after its backoff
    assert transport.sent == [1, *range(3, 11)]
    assert statuses(engine)[2] == "queued"


def test_the_sender_thread_sends_when_nudged_and_drain_waits_for_a_whole_pass(engine, nb_game, clock):
    transport = Recording()
    # A wake far away: only nudges make it send, so drain() must be what waits.
    sender = SenderThread(engine.store.path, transport, clock=clock, wake=3600).start()
    try:
        assert sender.drain(timeout=10)
        assert transport.sent == [1, 2]  # the two welcomes
        queue(engine, 3)
        assert sender.drain(timeout=10)
        assert transport.sent == [1, 2, 3, 4, 5]
        assert set(statuses(engine).values()) == {"sent"}
        assert transport.threads == {"gm-sender"}  # sent from the thread, not the caller
    finally:
        sender.stop()
    assert transport.closed


def test_the_sender_thread_backs_off_while_the_server_is_down(engine, nb_game, clock):
    class Down(Recording):
        def send(self, recipient, raw, outbox_id):
            raise delivery.TransportDown("connection refused")

    sender = SenderThread(engine.store.path, Down(), backoff=(3600,), clock=clock, wake=3600).start()
    try:
        assert sender.drain(timeout=10)
        assert sender.failures == 1
        assert sender.drain(timeout=10)  # within the backoff: no new attempt
        assert sender.failures == 1
        clock.advance(3601)
        assert sender.drain(timeout=10)  # the backoff is over: tried again, still down
        assert sender.failures == 2
    finally:
        sender.stop()
    assert set(statuses(engine).values()) == {"queued"}
