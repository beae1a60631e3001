"""Writes deferred to the end of their transaction (gm.store.deferred), on each back end.

A deferred write must be read back by any statement of its transaction that
names its table, be committed with the transaction (on PostgreSQL, every
table's rows in one statement) and vanish with a rollback."""

from __future__ import annotations

import pytest

from gm.store import Store

T = 1_700_000_000.0


@pytest.fixture
def store(store):
    """The empty store of tests/store/conftest.py, with this module's rows."""
    with store.write():
        store.add_game("g1", "neighbors", 7, "{}", T)
        store.add_player("g1", 0, "Ada", "ada@example.org", "hash-a")
        store.add_state("g1", 1, {"n": 0}, T)
        store.message_row = store.add_message("k1", "<m1@x>", "ada@example.org", "orders", b"raw", T, "pending")
        store.outbox_id = store.queue_outbox("<o1@gm>", "ada@example.org", "report", b"mail", kind="report", now=T)
    return store


def reports(store: Store) -> list[tuple]:
    return [(r["player"], r["kind"], r["body"], r["outbox_id"]) for r in store.reports_of("g1")]


def test_deferred_rows_are_read_back_in_their_transaction(store):
    with store.write():
        store.archive_report("g1", 1, 0, "Ada", "report", "r1", store.outbox_id, T)
        store.add_order("g1", "order", "Ada", 1, "N", accepted=True, origin="mail", at=T, seq=0,
                        message_row=store.message_row)
        assert store.deferred  # waiting, not yet written
        assert reports(store) == [("Ada", "report", "r1", store.outbox_id)]  # the read names reports
        assert store.accepted_players_since("g1", 0) == {"Ada"}  # and orders
        assert not store.deferred


def test_everything_deferred_is_committed_together(store):
    with store.write():
        store.archive_report("g1", 1, 0, "Ada", "report", "r1", store.outbox_id, T)
        store.archive_report("g1", 1, 0, None, "press", "p1", None, T, audience="all")
        store.set_message_outcome(store.message_row, "pending", "first", None)
        store.set_message_outcome(store.message_row, "applied", "done", "g1")  # the last one stays
        store.set_game_status("g1", "finished", T + 5)
        assert store.game("g1")["status"] == "finished"  # written through, not read again
        store.add_order("g1", "order", "Ada", 1, "N", accepted=True, origin="mail", at=T, seq=0)
        store.mark_sent_keeping(store.outbox_id, T + 1, 1, b"kept")
        store.mark_sent_keeping(store.outbox_id, T + 2, 2, b"kept again")
    assert reports(store) == [("Ada", "report", "r1", store.outbox_id), (None, "press", "p1", None)]
    message = store.message(store.message_row)
    assert (message["outcome"], message["detail"], message["game_id"]) == ("applied", "done", "g1")
    assert (store.game("g1")["status"], store.game("g1")["updated"]) == ("finished", T + 5)
    assert store.accepted_order_count("g1") == 1
    sent = store.outbox_row(store.outbox_id)
    assert (sent["status"], sent["sent"]) == ("sent", T + 2)


def test_a_rollback_drops_what_was_deferred(store):
    with pytest.raises(RuntimeError):
        with store.write():
            store.archive_report("g1", 1, 0, "Ada", "report", "r1", store.outbox_id, T)
            store.set_game_status("g1", "paused", T + 5)
            raise RuntimeError("the mail's handling failed")
    assert store.deferred is None
    with store.write():
        store.set_message_outcome(store.message_row, "applied", "", "g1")
    assert reports(store) == [] and store.game("g1")["status"] == "active"
    assert store.message(store.message_row)["outcome"] == "applied"


def test_many_rows_go_in_chunks(store):
    with store.write():
        for n in range(150):  # more than one multi-row INSERT holds
            store.archive_report("g1", 1, n, "Ada", "report", f"r{n}", None, T)
    assert [r[2] for r in reports(store)] == [f"r{n}" for n in range(150)]


def test_deferring_needs_a_transaction(store):
    with pytest.raises(RuntimeError):
        store.archive_report("g1", 1, 0, "Ada", "report", "r1", None, T)


def test_a_remembered_read_that_writes_the_rows_waiting_first_is_remembered(store):
    """Naming one table with rows waiting writes every table's (on PostgreSQL in one WITH
    statement, which forgets every read): the read running then is still answered, and remembered."""
    with store.write():
        assert store.players("g1")  # something remembered already
        store.set_game_status("g1", "paused", T + 1)  # games: waiting (the game was not read)
        store.add_order("g1", "order", "Ada", 1, "a1", accepted=True, origin="mail", at=T + 1, seq=0)  # orders too
        assert store.game("g1")["status"] == "paused"  # names games: both tables written, then read
        assert not store.deferred
        assert store.already_read("games", ("id", "g1"))[1]["status"] == "paused"
    assert store.game("g1")["status"] == "paused" and store.accepted_order_count("g1") == 1
