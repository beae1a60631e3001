"""gm.store.gate: the writers of one process take turns on a SQLite file, first come first served.

SQLite's alone: the gate is SQLite's in-process writer queue (PostgreSQL's writers wait on the
server's locks instead: test_pglocks.py)."""

from __future__ import annotations

import threading

import pytest

from gm.store import Store, StoreError
from gm.store.gate import GateTimeout, WriterGate, gate_for


def test_the_gate_passes_to_the_waiter_before_its_holder_can_take_it_again():
    gate = WriterGate()
    gate.acquire(1)
    order: list[str] = []
    waiting = threading.Event()

    def waiter():
        waiting.set()
        gate.acquire(5)
        order.append("waiter")
        gate.release()

    thread = threading.Thread(target=waiter)
    thread.start()
    waiting.wait(5)
    while not gate.waiting:  # until the waiter is queued
        threading.Event().wait(0.001)
    gate.release()
    gate.acquire(5)  # the old holder asks again at once: it comes second
    order.append("holder")
    gate.release()
    thread.join(5)
    assert order == ["waiter", "holder"]


def test_a_waiter_that_times_out_leaves_the_queue_and_the_gate_works_on():
    gate = WriterGate()
    gate.acquire(1)
    with pytest.raises(GateTimeout):
        gate.acquire(0.01)
    gate.release()
    gate.acquire(0.01)  # free again: nobody stale is queued in front
    gate.release()


def test_one_gate_per_file_whatever_the_path_looks_like(tmp_path):
    (tmp_path / "sub").mkdir()
    assert gate_for(tmp_path / "gm.sqlite") is gate_for(tmp_path / "sub" / ".." / "gm.sqlite")
    assert gate_for(tmp_path / "gm.sqlite") is not gate_for(tmp_path / "other.sqlite")


def test_a_second_writer_gets_its_turn_between_two_transactions_of_a_busy_one(tmp_path):
    """The daemon's case: the judge commits one transaction after another, the sender needs
    one short transaction.  It must come after the judge's current transaction, not after
    SQLite's busy handler happens to find a gap."""
    path = tmp_path / "gm.sqlite"
    sender = Store(path)
    judged = 0
    stop = threading.Event()
    started = threading.Event()

    def judging():
        nonlocal judged
        store = Store(path)
        while not stop.is_set():
            with store.write():
                started.set()
                store.db.execute("SELECT COUNT(*) FROM games").fetchone()
                threading.Event().wait(0.002)  # work inside the transaction, as judging does
                judged += 1
        store.close()

    thread = threading.Thread(target=judging)
    thread.start()
    try:
        started.wait(5)
        seen = []
        for _ in range(5):
            before = judged
            with sender.write(durable=False):
                seen.append(judged - before)
    finally:
        stop.set()
        thread.join(10)
    sender.close()
    assert max(seen) <= 1  # at most the transaction that was running when it asked


def test_a_store_whose_turn_never_comes_says_the_database_is_busy(tmp_path):
    path = tmp_path / "gm.sqlite"
    holder, other = Store(path), Store(path, timeout=0.05)
    with holder.write():
        with pytest.raises(StoreError, match="busy"):
            with other.write():
                pass
    with other.write():  # the turn is free again, and the failed writer left no trace in the queue
        pass
    holder.close()
    other.close()
