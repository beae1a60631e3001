"""Mail queued by any process sharing a PostgreSQL store wakes every daemon's sender
(gm.runtime.queuedwatch; schema step 25's trigger)."""

import threading
import time

from gm.runtime.queuedwatch import QueuedWatch
from gm.store import Store


def queue_one(target, message_id: str) -> None:
    store = Store(target)
    try:
        with store.write():
            store.outbox.queue_outbox(message_id, "ada@example.org", "a report", b"Subject: a report\r\n\r\nhi\r\n",
                                      kind="report", now=1.0)
    finally:
        store.close()


def wait_for(event: threading.Event, seconds: float = 10.0) -> bool:
    return event.wait(seconds)


def test_a_commit_that_queues_mail_wakes_the_watch_of_another_connection(pg_url):
    Store(pg_url).close()  # made, at the latest step
    nudged = threading.Event()
    watch = QueuedWatch(pg_url, nudged.set).start()
    try:
        assert wait_for(watch.listening)
        assert not nudged.wait(0.3)  # nothing queued, nothing heard
        queue_one(pg_url, "<one@gm>")
        assert wait_for(nudged)
        assert watch.heard == 1
    finally:
        watch.stop()
    assert not watch.thread.is_alive()


def test_a_rolled_back_insert_wakes_nobody(pg_url):
    store = Store(pg_url)
    nudged = threading.Event()
    watch = QueuedWatch(pg_url, nudged.set).start()
    try:
        assert wait_for(watch.listening)

        class Undo(Exception):
            pass

        try:
            with store.write():
                store.outbox.queue_outbox("<undone@gm>", "ada@example.org", "s", b"x", kind="report", now=1.0)
                raise Undo
        except Undo:
            pass
        assert not nudged.wait(1.5)
        assert watch.heard == 0
    finally:
        watch.stop()
        store.close()


def test_the_channel_is_the_schemas_own(pg_url, pg_server):
    """Two stores on one server (two schemas): mail queued in one wakes no watch of the other."""
    other = pg_server.fresh_url()
    Store(pg_url).close()
    Store(other).close()
    nudged = threading.Event()
    watch = QueuedWatch(pg_url, nudged.set).start()
    try:
        assert wait_for(watch.listening)
        queue_one(other, "<elsewhere@gm>")
        assert not nudged.wait(1.5)
        queue_one(pg_url, "<here@gm>")
        assert wait_for(nudged)
    finally:
        watch.stop()


def test_on_sqlite_no_watch_runs(tmp_path):
    """One daemon a SQLite store: its own judge nudges its sender; the watch ends at once."""
    path = tmp_path / "gm.sqlite"
    Store(path).close()
    watch = QueuedWatch(path, lambda: None).start()
    watch.thread.join(10)
    assert not watch.thread.is_alive()
    assert not watch.listening.is_set()


def test_the_watch_listens_again_after_the_server_restarts():
    """A server of its own, stopped at once (pg_ctl stop -m immediate) and started again: the
    watch backs off, connects again, listens again, and hears the next mail queued."""
    from tests import pgserver

    server = pgserver.start_postgres()
    try:
        url = server.fresh_url()
        Store(url).close()
        nudged = threading.Event()
        watch = QueuedWatch(url, nudged.set).start()
        try:
            assert wait_for(watch.listening)
            server.stop()
            deadline = time.monotonic() + 10
            while watch.listening.is_set() and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not watch.listening.is_set()  # it saw the connection go
            server.start_again()
            assert wait_for(watch.listening, 60)
            queue_one(url, "<again@gm>")
            assert wait_for(nudged)
        finally:
            watch.stop()
    finally:
        pgserver.stop_postgres(server)
