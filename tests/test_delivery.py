"""The outbox's sender: batches, the sender thread, and what an interruption leaves."""

from __future__ import annotations

import threading

import pytest

from gm.runtime import delivery
from gm.runtime.delivery import SenderThread, flush


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
