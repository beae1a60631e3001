"""Per-game locks on a PostgreSQL store (gm.store.pglocks): daemons judge different games at once.

Each test holds a lock in one connection and watches another connection's
transaction through pg_locks (a wait that is not granted), never by timing.
"""

from __future__ import annotations

import threading

import psycopg
import pytest

from gm.store import Store, StoreError
from gm.store.errors import StoreConflict
from gm.store.locks import retry_conflicts
from harness import wait_until


def waiting_advisory(url: str) -> int:
    """How many advisory locks some session of the server waits for right now."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                            "AND NOT granted").fetchone()[0]


class Holder:
    """A scoped write transaction on a store of its own, held open until release()."""

    def __init__(self, url: str, *, games=(), shared=(), store_wide=False):
        self.store = Store(url)
        self.release_event = threading.Event()
        self.locked = threading.Event()
        self.thread = threading.Thread(target=self.run, args=(games, shared, store_wide))
        self.thread.start()
        assert self.locked.wait(10)

    def run(self, games, shared, store_wide) -> None:
        with self.store.write(scoped=not store_wide):
            self.store.locks.lock_games(*games)
            self.store.locks.lock_shared(*shared)
            self.locked.set()
            self.release_event.wait(30)

    def release(self) -> None:
        self.release_event.set()
        self.thread.join(10)
        self.store.close()


class Attempt:
    """A scoped write of another store that locks ``games`` in a thread, done or waiting."""

    def __init__(self, url: str, *, games=(), shared=(), store_wide=False):
        self.store = Store(url)
        self.done = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.run, args=(games, shared, store_wide))
        self.thread.start()

    def run(self, games, shared, store_wide) -> None:
        try:
            with self.store.write(scoped=not store_wide):
                self.store.locks.lock_games(*games)
                self.store.locks.lock_shared(*shared)
                self.store.daemons.add_outage("touched " + (",".join(games) or "all"), 0.0, None)
        except BaseException as exc:  # noqa: BLE001 - seen by the test
            self.error = exc
        self.done.set()

    def finish(self) -> None:
        assert self.done.wait(10)
        self.thread.join(10)
        self.store.close()
        assert self.error is None, self.error


def test_a_game_locked_by_one_transaction_blocks_that_game_and_not_another(pg_url):
    Store(pg_url).close()
    holder = Holder(pg_url, games=["gamea"])
    try:
        other = Attempt(pg_url, games=["gameb"])
        assert other.done.wait(10), "game B waited for game A's lock"
        other.finish()
        same = Attempt(pg_url, games=["gamea"])
        wait_until(lambda: waiting_advisory(pg_url) == 1, 10, interval=0.05, what="game A's second writer to wait")
        assert not same.done.is_set()
    finally:
        holder.release()
    same.finish()


def test_store_wide_writes_wait_for_game_writers_and_game_writers_for_them(pg_url):
    Store(pg_url).close()
    waits(pg_url, held={"games": ["gamea"]}, attempt={"store_wide": True}, what="the store-wide write to wait")
    waits(pg_url, held={"store_wide": True}, attempt={"games": ["gameb"]}, what="the game write to wait")


def waits(pg_url: str, held: dict, attempt: dict, what: str) -> None:
    """A write taking ``attempt``'s locks waits while another holds ``held``'s, and ends after."""
    holder = Holder(pg_url, **held)
    try:
        waiting = Attempt(pg_url, **attempt)
        wait_until(lambda: waiting_advisory(pg_url) == 1, 10, interval=0.05, what=what)
        assert not waiting.done.is_set()
    finally:
        holder.release()
    waiting.finish()


def test_shared_rows_lock_by_name(pg_url):
    Store(pg_url).close()
    holder = Holder(pg_url, games=["gamea"], shared=["address:ada@example.org"])
    try:
        other = Attempt(pg_url, games=["gameb"], shared=["address:bob@example.org"])
        other.finish()
        same = Attempt(pg_url, games=["gamec"], shared=["address:ada@example.org"])
        wait_until(lambda: waiting_advisory(pg_url) == 1, 10, interval=0.05, what="the address's second writer")
        assert not same.done.is_set()
    finally:
        holder.release()
    same.finish()


def test_a_message_is_claimed_by_one_transaction_and_skipped_by_others(pg_url):
    first, second = Store(pg_url), Store(pg_url)
    with first.write(scoped=True):
        assert first.locks.try_lock_message("imap:1:7", "<m7@example.org>")
        with second.write(scoped=True):
            assert not second.locks.try_lock_message("imap:1:8", "<m7@example.org>")  # another copy of it
            assert second.locks.try_lock_message("imap:1:9", "<m9@example.org>")
            assert second.locks.try_lock_games()  # nothing to lock: never refused
    with second.write(scoped=True):  # the first committed: its claim went with its transaction
        assert second.locks.try_lock_message("imap:1:7", "<m7@example.org>")
    first.close()
    second.close()


def test_a_game_held_by_another_is_skipped_by_try_lock(pg_url):
    Store(pg_url).close()
    holder = Holder(pg_url, games=["gamea"])
    store = Store(pg_url)
    try:
        with store.write(scoped=True):
            assert not store.locks.try_lock_games("gamea")
            assert store.locks.try_lock_games("gameb")
    finally:
        holder.release()
    with store.write(scoped=True):
        assert store.locks.try_lock_games("gamea")
    store.close()


def test_a_deadlock_is_retried_and_both_transactions_commit(pg_url):
    """Two transactions that lock two games in opposite orders (a second game found late): the
    server aborts one (40P01), and retry_conflicts runs it again from the start."""
    Store(pg_url).close()
    both_hold_one = threading.Barrier(2, timeout=10)
    runs = {"ab": 0, "ba": 0}
    errors: list[BaseException] = []

    def work(store: Store, first: str, second: str, name: str) -> None:
        runs[name] += 1
        with store.write(scoped=True):
            store.locks.lock_games(first)
            if runs[name] == 1:
                both_hold_one.wait()
            store.locks.lock_games(second)
            store.daemons.add_outage(f"done-{name}", float(runs[name]), None)

    def run(first: str, second: str, name: str) -> None:
        store = Store(pg_url)
        try:
            retry_conflicts(work, store, first, second, name)
        except BaseException as exc:  # noqa: BLE001 - seen by the test
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=run, args=("gamea", "gameb", "ab")),
               threading.Thread(target=run, args=("gameb", "gamea", "ba"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert sorted(runs.values()) == [1, 2]  # one of them ran twice
    check = Store(pg_url)
    assert sorted(r["kind"] for r in check.daemons.outage_rows()) == ["done-ab", "done-ba"]
    check.close()


def test_a_conflict_outside_retry_is_a_store_error(pg_url):
    assert issubclass(StoreConflict, StoreError)
    store = Store(pg_url)
    with pytest.raises(StoreConflict):
        with store.write(scoped=True):
            store.db.raw("DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '40P01'; END $$")
    with store.write():  # the store is usable after it
        store.daemons.add_outage("after", 0.0, None)
    store.close()


def test_the_locks_are_no_ops_on_sqlite(tmp_path):
    """SQLite's alone by its subject: there BEGIN IMMEDIATE locks the whole file, and these do nothing."""
    store = Store(tmp_path / "gm.sqlite")
    with store.write(scoped=True):
        store.locks.lock_games("b", "a")
        store.locks.lock_shared("address:ada@example.org")
        store.locks.lock_store()
        assert store.locks.try_lock_games("a") and store.locks.try_lock_message("k", "<m@example.org>")
        store.daemons.add_outage("x", 0.0, None)
    assert [r["kind"] for r in store.daemons.outage_rows()] == ["x"]
    store.close()


def test_a_claimed_message_holds_its_game_so_the_next_mail_of_that_game_waits(pg_url):
    """The message and its game in one step: a daemon that finds a mail taken and goes on to the
    next mail of the same game queues behind the one judging the first (mail order kept)."""
    first = Store(pg_url)
    with first.write(scoped=True):
        assert first.locks.try_lock_message("imap:1:1", None, game="gamea")
        later = Attempt(pg_url, games=["gamea"])
        wait_until(lambda: waiting_advisory(pg_url) == 1, 10, interval=0.05, what="the next mail to wait")
        assert not later.done.is_set()
        first.locks.lock_games("gamea")  # held already: no second lock, no wait
    later.finish()
    with first.write(scoped=True):  # a message taken: its game is not locked by the failed claim
        other = Store(pg_url)
        with other.write(scoped=True):
            assert other.locks.try_lock_message("imap:1:2", None)
            assert not first.locks.try_lock_message("imap:1:2", None, game="gameb")
            assert other.locks.try_lock_games("gameb")
        other.close()
    first.close()
