"""Password checks: scrypt on worker threads ahead of judging, and a per-process memory of successes.

scrypt costs about 2 ms (more for older hashes) and releases the GIL, so the
daemon starts the checks of a whole fetched batch on other cores while earlier
orders are judged (``start``); ``verify`` waits for a started check only if it
has not finished.  Successes are remembered for this process only, keyed by a
keyed digest of (stored hash, password) under a per-process random key, so
neither the password nor a reusable hash of it is kept, and a changed password
(a new stored hash) misses the memory.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gm.core import passwords

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor  # a pool only once a check starts

MAX_STARTED = 10_000  # checks started but never asked for are forgotten past this


class PasswordChecker:
    def __init__(self) -> None:
        self._key = b""  # made at the first check (secrets, hmac: a command that checks none needs neither)
        self._verified: set[bytes] = set()
        self._started: dict[bytes, Future] = {}
        self._pool: ThreadPoolExecutor | None = None

    def _digest(self, password: str, stored: str) -> bytes:
        import hmac
        import secrets

        if not self._key:
            self._key = secrets.token_bytes(32)
        return hmac.new(self._key, f"{stored}\0{password}".encode(), "sha256").digest()

    @property
    def pending(self) -> int:
        """Checks started and not yet asked for."""
        return len(self._started)

    def start(self, password: str, stored: str) -> None:
        """Begin checking on a worker thread; only a head start for verify()."""
        key = self._digest(password, stored)
        if key in self._verified or key in self._started:
            return
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1),
                                            thread_name_prefix="gm-password")
        if len(self._started) > MAX_STARTED:
            self._started.clear()
        self._started[key] = self._pool.submit(passwords.verify, password, stored)

    def verify(self, password: str, stored: str) -> bool:
        key = self._digest(password, stored)
        if key in self._verified:
            return True
        started = self._started.pop(key, None)
        try:
            ok = started.result() if started is not None else None
        except Exception:  # cancelled or failed: check here instead
            ok = None
        if ok is None:
            ok = passwords.verify(password, stored)
        if ok:
            self._verified.add(key)
        return ok

    def close(self) -> None:
        """Stop the worker threads; started checks are forgotten."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._started.clear()
