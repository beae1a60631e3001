"""Mail queued by any process sharing a PostgreSQL store wakes this daemon's sender.

A sender is woken by its own judge's nudge after each commit, else every ``wake`` second
(gm.runtime.delivery.SenderThread).  Daemons sharing a store claim from one outbox, but a
judge nudges only its own sender: without this watch, mail another daemon or a GM command
queued would wait for the wake, or go out over one daemon's SMTP connections alone.  So
every INSERT into outbox notifies at its commit (the trigger of gm.store.steps.s25_outbox_notify), and
each daemon listens on a connection of its own, as Procrastinate and pg-boss wake their
workers.  A notification missed while disconnected costs only the wake; the watch backs off
and listens again.  SQLite has no other writer to hear of: no watch runs there.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from gm.runtime.weather import STORE_BACKOFF, Weather
from gm.store import Store, StoreError

LOOK = 0.25  # seconds between looks at the stop flag while no mail is queued (a stop waits that long)


class QueuedWatch:
    """A thread listening for mail queued in the store's outbox, calling ``nudge`` for each."""

    def __init__(self, database: str | Path, nudge: Callable[[], None]):
        self.database = database
        self.nudge = nudge
        self.heard = 0  # notifications heard (tests)
        self.stopping = threading.Event()
        self.listening = threading.Event()  # set while a connection listens (tests)
        self.thread = threading.Thread(target=self.run, name="gm-queued-watch", daemon=True)

    def start(self) -> "QueuedWatch":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join()

    def run(self) -> None:
        weather = Weather("the store (queued-mail watch)", STORE_BACKOFF)
        while not self.stopping.is_set():
            store = None
            try:
                store = Store(self.database)
                if not store.outbox.listen_queued():
                    return  # this back end cannot tell: the own judge's nudges and the wake do
                weather.ok()
                self.listening.set()
                while not self.stopping.is_set():
                    if store.outbox.wait_queued(LOOK):
                        self.heard += 1
                        self.nudge()
            except StoreError as exc:
                self.listening.clear()
                self.stopping.wait(weather.fault(exc))
            finally:
                if store is not None:
                    store.close()
