"""First come, first served among the threads of one process that write to one SQLite file.

SQLite lets one writer in at a time, and a connection that finds the file
locked sleeps and tries again in growing steps.  The daemon's judge writes one
transaction after another while its sender needs the lock now and then to
record what the SMTP server accepted; left to SQLite, the sender slept through
the short gaps while the SMTP server stood idle.  So the threads of a process
queue here before BEGIN IMMEDIATE, each handed the gate by the one before it.
Other processes (a GM's command line) still meet SQLite's own busy timeout.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from pathlib import Path


class GateTimeout(Exception):
    """The gate was not handed over within the timeout (a writer is stuck)."""


class WriterGate:
    """A lock that hands itself to the longest waiter (no thread can cut in)."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._taken = False
        self._waiting: deque[threading.Event] = deque()

    @property
    def waiting(self) -> int:
        """Writers queued for their turn."""
        return len(self._waiting)

    def acquire(self, timeout: float) -> None:
        with self._mutex:
            if not self._taken and not self._waiting:
                self._taken = True
                return
            turn = threading.Event()
            self._waiting.append(turn)
        if turn.wait(timeout):
            return
        with self._mutex:
            if turn.is_set():  # handed over just as the wait ended: it is ours
                return
            self._waiting.remove(turn)
        raise GateTimeout(f"no turn to write within {timeout:g} s")

    def release(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().set()  # still taken: it passes to the next in line
            else:
                self._taken = False


_gates: dict[str, WriterGate] = {}
_gates_mutex = threading.Lock()


def gate_for(path: str | Path) -> WriterGate:
    """The one gate of this process for the database file at ``path``."""
    key = os.path.realpath(path)
    with _gates_mutex:
        return _gates.setdefault(key, WriterGate())
