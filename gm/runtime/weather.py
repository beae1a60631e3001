"""Outages are weather: a server that is down is waited out, with capped back-off, and said once.

One ``Weather`` per thing the daemon depends on (the store, the IMAP server, the SMTP server).
``fault()`` is called on each failure and gives the delay before the next try (the back-off,
capped at its last step); only the first failure of a run is logged (``down``), and the first
success after it (``back``, with how long it lasted).  Between the two, nothing: an outage of a
day is two lines in the log, not thousands.
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)

STORE_BACKOFF = (1, 2, 5, 10, 30)  # seconds before retry n while the store is down


class Weather:
    def __init__(self, what: str, backoff: tuple[float, ...] | list[float], clock=time.time):
        self.what = what
        self.backoff = tuple(backoff) or STORE_BACKOFF
        self.clock = clock
        self.failures = 0  # in a row
        self.down_since: float | None = None

    @property
    def is_down(self) -> bool:
        return self.down_since is not None

    def fault(self, exc: BaseException) -> float:
        """A failure: the delay before the next try.  Logged only when the server was up."""
        delay = self.backoff[min(self.failures, len(self.backoff) - 1)]
        self.failures += 1
        if self.down_since is None:
            self.down_since = self.clock()
            log.warning("%s down (%s: %s); waiting, retrying every %ss at most", self.what,
                        type(exc).__name__, str(exc).strip().splitlines()[0][:300] if str(exc).strip() else "",
                        self.backoff[-1])
        return delay

    def ok(self) -> None:
        """A success: if it was down, say it is back."""
        if self.down_since is not None:
            log.warning("%s back after %.1fs (%d failed tries)", self.what, self.clock() - self.down_since,
                        self.failures)
        self.failures = 0
        self.down_since = None
