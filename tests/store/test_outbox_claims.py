"""Claiming the outbox in one statement (gm.store.postgres.claim_outbox), on each back end.

A sender's "sent" UPDATE lets go of its rows' outbox locks before it commits: the row locks the
UPDATE holds until then, and the claim's FOR NO KEY UPDATE SKIP LOCKED, keep every other sender
off those rows, so a row is never sent twice.  The claim reads the holds too, for the holds()
that follows it."""

from __future__ import annotations

import pytest

from gm.store import Store
from gm.store.deferred import ROWS_AT_ONCE

T = 1_700_000_000.0


def queue(store: Store, n: int) -> int:
    with store.write():
        return store.queue_outbox(f"<o{n}@gm>", f"p{n}@example.org", "s", b"Subject: s\r\n\r\nhi\r\n",
                                  kind="report", now=T)


def test_a_row_marked_sent_but_not_yet_committed_is_claimed_by_no_other_sender(store, store_target):
    a, b = queue(store, 1), queue(store, 2)
    (row,) = store.claim_outbox(T + 1, 1)
    assert row["id"] == a and row["raw"] == b"Subject: s\r\n\r\nhi\r\n"
    other = Store(store_target)  # a second daemon on the same store
    try:
        with store.write(durable=False, scoped=True):
            store.mark_sent_keeping(a, T + 1, 1, row["raw"], row)
            store.flush_deferred()  # the "sent" UPDATE runs (and, on PostgreSQL, lets go of a's lock)
            if store.kind == "postgresql":
                assert a not in store.claimed
                # a's outbox lock is free, its row locked until the commit: skipped, not sent again
                assert [r["id"] for r in other.claim_outbox(T + 1, 10)] == [b]
                other.release_outbox([{"id": b}])
        if store.kind == "postgresql":
            count = store.db.count
            store.release_outbox([row])  # let go of already: no statement
            assert store.db.count == count
        else:
            store.release_outbox([row])
        assert [r["id"] for r in other.claim_outbox(T + 2, 10)] == [b]  # a is sent
        assert store.outbox_row(a)["status"] == "sent"
    finally:
        other.close()


def test_a_row_another_sender_marked_sent_after_the_claim_began_is_not_claimed(store, store_target):
    a = queue(store, 1)
    other = Store(store_target)
    try:
        (row,) = other.claim_outbox(T + 1, 10)
        with other.write(scoped=True):
            other.mark_sent(a, T + 1, 1)
        other.release_outbox([row])
        assert store.claim_outbox(T + 2, 10) == []  # sent: whoever claims next sees it so
    finally:
        other.close()


def test_the_holds_read_with_the_claim_serve_the_next_holds_only(store, store_target):
    queue(store, 1)
    with store.write():
        store.add_hold("domain:example.net", T, "DMARC", "550 no", "550", T + 5)
    store.claim_outbox(T + 1, 10)
    count = getattr(store.db, "count", None)
    (hold,) = store.holds()  # on PostgreSQL as the claim read it: no statement
    assert hold["scope"] == "domain:example.net" and hold["next_probe"] == T + 5
    if store.kind == "postgresql":
        assert store.db.count == count
        assert store.holds() == [hold]  # read again (once only from the claim)
        assert store.db.count == count + 1
    store.claim_outbox(T + 1, 10)  # reads the hold again
    writer = Store(store_target)
    with writer.write():
        writer.end_hold("domain:example.net")
    writer.close()
    store.outbox_row(1)  # another statement ran since the claim: the holds are read afresh
    assert store.holds() == []


@pytest.fixture
def pg_store(pg_url):
    """On PostgreSQL only: the outbox locks are its (SQLite's one writer needs none)."""
    s = Store(pg_url)
    yield s
    s.close()


def test_a_sent_mark_that_does_not_commit_leaves_its_rows_claimed_then_let_go(pg_store, pg_url):
    """The "sent" UPDATE lets go of its rows' locks in the commit's round trip; when a statement
    before it there fails (here the first INSERT of the reports written with it: more than one
    INSERT holds, the first with a row that names no outbox row), the server skips the UPDATE: the
    row is still queued, its lock still held.  It is counted as claimed again, so release_outbox
    lets go of it and another sender then claims it; before, the session kept the lock unrecorded
    and no other sender could claim the row while it lived."""
    import psycopg

    store = pg_store
    a = queue(store, 1)
    (row,) = store.claim_outbox(T + 1, 1)
    other = Store(pg_url)
    try:
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            with store.write(durable=False, scoped=True):
                for seq in range(ROWS_AT_ONCE + 1):  # the first names no outbox row
                    store.archive_report("g1", 1, seq, "Ada", "report", "r", 999_999 if seq == 0 else None, T)
                store.mark_sent_keeping(a, T + 1, 1, row["raw"], row)
        assert a in store.claimed and not store.letting_go
        assert store.outbox_row(a)["status"] == "queued"
        assert other.claim_outbox(T + 2, 10) == []  # still this sender's
        store.release_outbox([row])
        assert [r["id"] for r in other.claim_outbox(T + 2, 10)] == [a]
    finally:
        other.close()


def test_a_sent_mark_committed_lets_go_for_good(pg_store):
    store = pg_store
    a, b = queue(store, 1), queue(store, 2)
    (row,) = store.claim_outbox(T + 1, 1)
    with store.write(durable=False, scoped=True):
        store.mark_sent_keeping(a, T + 1, 1, row["raw"], row)
    assert a not in store.claimed and not store.letting_go
    count = store.db.count
    store.release_outbox([row])  # let go of already, in the "sent" UPDATE: no statement
    assert store.db.count == count
    assert [r["id"] for r in store.claim_outbox(T + 2, 10)] == [b]
